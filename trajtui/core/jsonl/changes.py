"""How a file changed on disk since it was indexed: appended to (a run still being
written: followed), truncated, rewritten in place, replaced or deleted.

An index keeps the file's identity (device and inode), its size and modification time
when the last scan started, and a hash of the first and last :data:`SAMPLE` bytes of the
part it scanned: a file that grew while those ends changed was rewritten, not appended to.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from trajtui.core.io.openfiles import FileChanged

SAMPLE = 64
"""Bytes at each end of the part scanned that a growing file must still hold for the
growth to be an append."""

Pread = Callable[[int, int], bytes]
"""Reads ``n`` bytes at an offset of the file."""


def ends_hash(pread: Pread, size: int) -> int | None:
    """A hash of the first and last :data:`SAMPLE` bytes of the file's first ``size`` bytes
    (None when they cannot be read)."""
    try:
        head = pread(min(SAMPLE, size), 0)
        tail = pread(min(SAMPLE, size), max(0, size - SAMPLE))
    except (OSError, FileChanged):
        return None
    return hash((head, tail))


def how_changed(
    path: str,
    ident: tuple[int, int],
    size: int,
    mtime_ns: int,
    sample: tuple[int, int] | None,
    pread: Pread,
) -> str | None:
    """How the file at ``path`` changed since it was indexed as ``ident``, ``size`` bytes
    modified at ``mtime_ns``, the ends of its scanned part hashing to ``sample``
    (``(size scanned, hash)``): None, ``appended``, ``truncated``, ``rewritten`` (in place:
    longer or as long, but its ends are not what was read) or ``replaced`` (or
    ``deleted``)."""
    try:
        st = os.stat(path)
    except OSError:
        return "deleted"
    if (st.st_dev, st.st_ino) != ident:
        return "replaced"
    if st.st_size < size:
        return "truncated"
    if st.st_size > size:
        if sample is not None and sample[1] != ends_hash(pread, sample[0]):
            return "rewritten"  # longer, but not by appending: what was read changed
        return "appended"
    touched = st.st_mtime_ns != mtime_ns and sample is not None
    if touched and sample is not None and sample[0] == size:
        return "rewritten" if sample[1] != ends_hash(pread, sample[0]) else None
    return None
