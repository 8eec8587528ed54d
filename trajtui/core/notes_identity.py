"""What identifies a source that has notes when it moves (:mod:`trajtui.core.notes`): a
fingerprint of its content, never its name."""

from __future__ import annotations

import hashlib
import os
from typing import Any

from trajtui.core.io import safeio

__all__ = ["HASHED", "MAX_LISTED", "fingerprint", "starts_with"]

HASHED = 64 << 10
"""Bytes hashed at each end of a file for its fingerprint."""
MAX_LISTED = 10_000
"""Directory entries a directory's fingerprint looks at."""


def fingerprint(path: str) -> dict[str, Any] | None:
    """What identifies the source at ``path`` when it moves: for a file its size and the
    BLAKE2b hashes of its first and last :data:`HASHED` bytes; for a directory a hash of
    its top-level names and sizes. None when it cannot be read."""
    try:
        if os.path.isdir(path):
            h = hashlib.blake2b(digest_size=16)
            with os.scandir(path) as it:
                names = []
                for k, e in enumerate(it):
                    if k >= MAX_LISTED:
                        break
                    try:
                        size = e.stat(follow_symlinks=False).st_size if e.is_file() else -1
                    except OSError:
                        size = -2
                    names.append(f"{e.name}\0{size}")
            for line in sorted(names):
                h.update(line.encode("utf-8", "surrogateescape") + b"\n")
            return {"kind": "dir", "size": len(names), "head": h.hexdigest(), "tail": ""}
        with safeio.open_regular(path) as f:
            fd = f.fd
            size = os.fstat(fd).st_size
            head = os.pread(fd, HASHED, 0)
            tail = os.pread(fd, HASHED, max(0, size - HASHED))
    except OSError:
        return None
    return {"kind": "file", "size": size, "head": _hash(head), "tail": _hash(tail)}


def _hash(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def starts_with(path: str, recorded: dict[str, Any]) -> bool:
    """The file at ``path`` is at least as long as the recorded one and begins with the
    same bytes (a moved file that grew since)."""
    size = recorded.get("size")
    if recorded.get("kind") != "file" or type(size) is not int or size <= 0:
        return False
    try:
        with safeio.open_regular(path) as f:
            if os.fstat(f.fd).st_size < size:
                return False
            return _hash(os.pread(f.fd, min(size, HASHED), 0)) == recorded.get("head")
    except OSError:
        return False
