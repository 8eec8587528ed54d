"""What the main screen watches on disk besides its sources: opened directories (files
added or removed, when following) and opened paths nothing was read from (missing, empty,
a directory, a link loop: read again when they change)."""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence

from trajtui.core.io.discover import walk
from trajtui.core.source import Source

__all__ = ["path_mark", "tree_mark", "unread_paths"]


def tree_mark(path: str) -> int | None:
    """A number that changes when files are added to or removed from the directory
    ``path`` or below it (None for a file): a hash of the names a walk finds."""
    if not os.path.isdir(path):
        return None
    names = []
    for walked in walk(path):
        names.append(walked.rel)
        names.extend(walked.files)
    return hash(tuple(names))


def unread_paths(paths: Sequence[str], sources: Sequence[Source]) -> list[str]:
    """Those of the opened ``paths`` nothing was read from (missing, empty, a link loop, a
    directory with nothing trajtui reads): watched until they change."""
    read = {source.path for source in sources}
    out = []
    for path in paths:
        if path in read:
            continue
        under = path.rstrip(os.sep) + os.sep
        if not any(r.startswith(under) for r in read):
            out.append(path)
    return out


def path_mark(path: str) -> object:
    """What changes when an opened path with nothing readable changes on disk: its kind,
    size, times and inode, or why it cannot be looked at (missing, a link loop)."""
    try:
        st = os.stat(path)
    except OSError as err:
        return ("error", err.errno)
    return (stat.S_IFMT(st.st_mode), st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
