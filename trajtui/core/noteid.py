"""Which notes belong to which source: a source's identity, as a notes file records it.

A notes file records the source's real path (a remote object's URL) and a fingerprint of its content (size, a hash
of its first :data:`HASHED` bytes and one of its last; for a directory, its top-level names
and sizes), so that a source moved or renamed keeps its notes, and a file that grew since
is still known by its first bytes (see :mod:`trajtui.core.notes`).
"""

from __future__ import annotations

import hashlib
import os
from typing import Any

from trajtui.core.io import remote, safeio

HASHED = 64 << 10
"""Bytes hashed at each end of a file for its fingerprint."""
MAX_LISTED = 10_000
"""Directory entries a directory's fingerprint looks at."""


def real(path: str) -> str:
    """``path`` as it is recorded: with links resolved, or a remote object's URL (its mirror
    is a cache's file, which may be emptied; the URL is what the screen names)."""
    url = remote.shown(path)
    return url if url != path else os.path.realpath(path)


def in_place(recorded: str, fp: dict[str, Any]) -> bool:
    """The source recorded as ``recorded`` with the fingerprint ``fp`` is still where it
    was (not moved: a copy does not take its notes). A URL is taken to be (it is not read
    to know: a local copy of a remote object does not take its notes)."""
    if remote.is_url(recorded):
        return True
    return os.path.exists(recorded) and fingerprint(recorded) == fp


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
            size = os.fstat(f.fd).st_size
            head = f.pread(HASHED, 0)  # (through the file's reads: a remote mirror's fetched)
            tail = f.pread(HASHED, max(0, size - HASHED))
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
            return _hash(f.pread(min(size, HASHED), 0)) == recorded.get("head")
    except OSError:
        return False
