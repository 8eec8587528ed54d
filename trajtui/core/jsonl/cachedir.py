"""The index cache's directory: where entries live, which files are entries, and how they
are listed, evicted (least recently used first) and removed (:mod:`trajtui.core.jsonl.indexcache`
reads and writes them).

The directory is used only when it is ours: a real directory (not a link) owned by this
user, made with mode 0700. An entry is opened without following links and without
blocking, and only when it is a regular file of this user.
"""

from __future__ import annotations

import os
import stat
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from platformdirs import user_cache_path

from trajtui.core.jsonl import cachefile
from trajtui.core.jsonl.cachefile import CacheCorrupt

SUFFIX = ".idx"


def directory() -> Path:
    """Where entries live (``$XDG_CACHE_HOME/trajtui/index`` on Linux)."""
    return user_cache_path("trajtui") / "index"


def usable_dir(create: bool) -> Path | None:
    """The cache directory, when it is ours: a real directory owned by this user and private
    (made with mode 0700 when ``create``). None otherwise."""
    return private_dir(directory(), create)


def private_dir(d: Path, create: bool) -> Path | None:
    """``d`` when it is ours: a real directory owned by this user, made private (mode 0700;
    made so, with its parents, when ``create``). None otherwise."""
    try:
        if create:
            d.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            d.mkdir(mode=0o700, exist_ok=True)
        st = os.lstat(d)
    except OSError:
        return None
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid():
        return None
    if st.st_mode & 0o077:
        try:
            os.chmod(d, 0o700)
        except OSError:
            return None
    return d


def open_entry(path: Path) -> tuple[int, os.stat_result] | None:
    """A descriptor on an entry file (a regular file of ours, never followed through a
    link, never blocking) and its stat; None when there is none or it is not one."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    flags |= getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
    except OSError:
        os.close(fd)
        return None
    if not stat.S_ISREG(st.st_mode) or st.st_uid != os.getuid():
        os.close(fd)
        return None
    return fd, st


def discard(path: Path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


@dataclass(frozen=True, slots=True)
class Entry:
    """One cache entry, as ``trajtui cache info`` lists it.

    Attributes:
        path: The entry file.
        size: Its size in bytes.
        last_used: When it was last written or used (seconds since the epoch).
        source: The data file it describes (from its header; None when unreadable).
        source_size: The data file's size when it was indexed.
        records: Records indexed.
        summaries: Run summaries held.
        format: The format it was read as.
    """

    path: str
    size: int
    last_used: float
    source: str | None = None
    source_size: int | None = None
    records: int | None = None
    summaries: int | None = None
    format: str | None = None


def entries(*, headers: bool = True) -> list[Entry]:
    """Every entry, most recently used first (``headers``: read what each describes)."""
    d = usable_dir(create=False)
    if d is None:
        return []
    out = []
    try:
        names = os.listdir(d)
    except OSError:
        return []
    for name in names:
        if not name.endswith(SUFFIX) or name.startswith("."):
            continue
        path = d / name
        opened = open_entry(path)
        if opened is None:
            continue
        fd, st = opened
        try:
            out.append(_describe(fd, str(path), st) if headers else _bare(str(path), st))
        finally:
            os.close(fd)
    out.sort(key=lambda e: e.last_used, reverse=True)
    return out


def _bare(path: str, st: os.stat_result) -> Entry:
    return Entry(path, st.st_size, st.st_mtime)


def _describe(fd: int, path: str, st: os.stat_result) -> Entry:
    try:
        header, _ = cachefile.read_header(fd, st.st_size)
    except (CacheCorrupt, OSError):
        return _bare(path, st)
    data = header.get("data")
    reading = header.get("reading")
    if not isinstance(data, dict):
        data = {}
    if not isinstance(reading, dict):
        reading = {}

    def typed(value: Any, kind: type) -> Any:
        return value if type(value) is kind else None

    return Entry(
        path,
        st.st_size,
        st.st_mtime,
        typed(data.get("path"), str),
        typed(data.get("size"), int),
        typed(header.get("records"), int),
        typed(header.get("summaries"), int),
        typed(reading.get("format"), str),
    )


def evict(d: Path, cap: int) -> list[str]:
    """Remove the least recently used entries (and stale temporary files) until the
    entries add up to at most ``cap`` bytes. Returns the removed paths."""
    removed = []
    found = entries(headers=False)
    total = sum(e.size for e in found)
    while found and total > cap:
        oldest = found.pop()
        discard(Path(oldest.path))
        removed.append(oldest.path)
        total -= oldest.size
    day_ago = time.time() - 86400
    try:
        for name in os.listdir(d):
            if name.startswith(".tmp-"):
                p = d / name
                if os.lstat(p).st_mtime < day_ago:
                    discard(p)
    except OSError:
        pass
    return removed


def clear() -> tuple[int, int]:
    """Remove every entry. Returns ``(entries removed, bytes freed)``."""
    count = freed = 0
    for e in entries(headers=False):
        try:
            os.unlink(e.path)
        except OSError:
            continue
        count += 1
        freed += e.size
    return count, freed
