"""The index cache: what a full scan of a JSONL file learned, kept for the next open.

A second open of an unchanged file restores its index and run summaries from here instead
of reading the file: the whole run list is there at once. Entries live in platformdirs'
user cache directory (``~/.cache/trajtui/index`` on Linux), one file per data file, named
by a hash of the file's real path; nothing is ever written beside the data, nor inside a
path the user opened.

An entry is used only for the file it was made from: its header names the path, size,
mtime (ns), inode and device of the data file, the format and key the source was read
with, the cache's own format version and a fingerprint of trajtui's core code (a new
trajtui never trusts an old one's summaries). On open (:func:`restore`):

* same path, size, mtime, ctime (which every write changes and nobody can put back),
  inode and device, and the sampled bytes (head, tail and a few blocks between) hash the
  same: everything is restored, the file is not read;
* the file grew (same inode and device, the bytes the cache covers hash the same): the
  cache is restored and the scan continues from where it ended;
* anything else (replaced, truncated, rewritten, another format): the cache is ignored and
  the file scanned from the start (the next save replaces the entry).

Either way, a restored index is checked against the file before it is believed: records
spread over it must each start a line and hold the key the entry says
(:func:`trajtui.core.jsonl.indexstate.restore`). A cache file is untrusted data (:mod:`trajtui.core.jsonl.cachefile`, :mod:`trajtui.core.jsonl.indexstate`):
one that is damaged, truncated, foreign or inconsistent is ignored (and removed), never
trusted, and never raises.

Entries are written atomically (a private temporary file, then ``os.replace``), the
directory with mode 0700 and files 0600. Their total size is capped (:data:`DEFAULT_MAX_MB`,
``TRAJTUI_CACHE_MAX_MB``, or the ``cache_max_mb`` setting; 0 turns the cache off): the
least recently used entries (each use touches its file) are removed beyond it.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from trajtui.core.io.discover import inside
from trajtui.core.jsonl import cachefile, indexstate
from trajtui.core.jsonl.cachedir import (
    SUFFIX,
    Entry,
    clear,
    directory,
    discard,
    entries,
    evict,
    open_entry,
    usable_dir,
)
from trajtui.core.jsonl.cachefile import CacheCorrupt, Unstorable
from trajtui.core.jsonl.index import LineIndex
from trajtui.core.jsonl.linestream import LineStream

if TYPE_CHECKING:
    from trajtui.core.jsonl.source import JsonlSource

__all__ = [
    "Entry",
    "clear",
    "configure",
    "directory",
    "enabled",
    "entries",
    "limit",
    "restore",
    "save",
]

DEFAULT_MAX_MB = 512
ENV_MAX_MB = "TRAJTUI_CACHE_MAX_MB"
SAMPLE = 64 * 1024
"""Bytes hashed at the head and at the tail of what an entry covers."""
BLOCKS = 16
"""Blocks of :data:`BLOCK` bytes hashed between the head and the tail."""
BLOCK = 4096
RESAVE_AFTER = 30.0
"""Seconds before a source saved once is saved again (a followed file that grows every
second is not rewritten every second; the next open continues from the last save)."""


@dataclass
class Config:
    """How the cache behaves in this process.

    Attributes:
        enabled: Read and write the cache (``--no-cache`` turns it off).
        max_mb: The cap from the settings (``TRAJTUI_CACHE_MAX_MB`` wins over it).
        opened: The paths the user opened: nothing is written inside them.
    """

    enabled: bool = True
    max_mb: int | None = None
    opened: list[str] = field(default_factory=list)


_config = Config()
_write_lock = threading.Lock()


def configure(
    *, enabled: bool = True, max_mb: int | None = None, opened: Sequence[str] = ()
) -> None:
    """Set how the cache behaves in this process (every command sets it)."""
    global _config
    _config = Config(enabled, max_mb, list(opened))


def reset() -> None:
    """Back to the defaults (for tests)."""
    configure()


def note_opened(paths: Sequence[str]) -> None:
    """Paths the user opened (:func:`~trajtui.core.workspace.open_paths` notes them):
    nothing is written inside them (``trajtui ~`` holds ``~/.cache``)."""
    _config.opened.extend(paths)


def limit() -> tuple[int, str]:
    """The cap in bytes and where it comes from (``TRAJTUI_CACHE_MAX_MB``, the setting, the
    default; an unusable variable is named and ignored)."""
    raw = os.environ.get(ENV_MAX_MB)
    note = ""
    if raw is not None:
        text = raw.strip()
        if text.isdigit() and len(text) < 12:
            return int(text) << 20, f"{ENV_MAX_MB}={text}"
        note = f" ({ENV_MAX_MB}={raw[:40]!r} is not a whole number of MB: ignored)"
    if _config.max_mb is not None and _config.max_mb >= 0:
        return _config.max_mb << 20, "setting cache_max_mb" + note
    return DEFAULT_MAX_MB << 20, "default" + note


def enabled() -> bool:
    """The cache is read and written (not ``--no-cache``, and a cap above 0)."""
    return _config.enabled and limit()[0] > 0


# -- identity --------------------------------------------------------------------------------

_code: str | None = None


def code_fingerprint() -> str:
    """A hash of trajtui's code (names, sizes and mtimes of its modules, the formats'
    readers with the core's): summaries cached by another version of the code are not
    trusted."""
    global _code
    if _code is None:
        from trajtui import __version__

        h = hashlib.blake2b(__version__.encode(), digest_size=16)
        for path, st in fingerprinted():
            h.update(f"{path.relative_to(PACKAGE)}:{st.st_size}:{st.st_mtime_ns}\n".encode())
        _code = h.hexdigest()
    return _code


PACKAGE = Path(__file__).resolve().parents[2]
"""The ``trajtui`` package: every module of it makes the summaries cached."""


def fingerprinted() -> list[tuple[Path, os.stat_result]]:
    """The modules :func:`code_fingerprint` covers, with their stats."""
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        try:
            out.append((path, path.stat()))
        except OSError:
            continue
    return out


def entry_path(real: str) -> Path:
    """The entry file for the data file whose real path is ``real``."""
    name = hashlib.blake2b(os.fsencode(real), digest_size=20).hexdigest()
    return directory() / f"{name}{SUFFIX}"


def sample_hash(pread: Any, size: int) -> str:
    """A hash of the bytes ``0..size`` of a file read by ``pread(n, offset)``: its head,
    its tail and :data:`BLOCKS` blocks spread between (and the size)."""
    h = hashlib.blake2b(str(size).encode(), digest_size=16)
    if size <= 2 * SAMPLE + BLOCKS * BLOCK:
        pos = 0
        while pos < size:
            chunk = pread(min(1 << 20, size - pos), pos)
            if not chunk:
                break
            h.update(chunk)
            pos += len(chunk)
        return h.hexdigest()
    h.update(pread(SAMPLE, 0))
    step = (size - 2 * SAMPLE) // (BLOCKS + 1)
    for k in range(1, BLOCKS + 1):
        h.update(pread(BLOCK, SAMPLE + k * step))
    h.update(pread(SAMPLE, size - SAMPLE))
    return h.hexdigest()


def identity(path: str, index: LineIndex | LineStream) -> dict[str, Any] | None:
    """What names the file ``path`` (indexed or read by ``index``) now: real path, size,
    mtime, ctime, inode, device (every cache entry is checked against it)."""
    try:
        st = index.stat()
        real = os.path.realpath(path)
    except OSError:
        return None
    return {
        "path": real,
        "size": st.st_size,
        "mtime_ns": st.st_mtime_ns,
        # Every write changes it and nobody can set it back (``touch -d`` puts back only
        # the mtime): a file rewritten in place with its mtime restored is not unchanged.
        "ctime_ns": st.st_ctime_ns,
        "ino": st.st_ino,
        "dev": st.st_dev,
    }


def _reading(source: JsonlSource) -> dict[str, Any]:
    """How the source reads its file (an entry made otherwise is not used)."""
    return {"format": source.format.id, "key": source.fmt.key, "code": code_fingerprint()}


# -- the directory ---------------------------------------------------------------------------


def _writable_here(d: Path) -> bool:
    """Nothing is written inside a path the user opened (``trajtui ~``)."""
    for root in _config.opened:
        try:
            if inside(os.path.realpath(root), str(d)):
                return False
        except (OSError, ValueError):
            return False
    return True


# -- restore ---------------------------------------------------------------------------------


def restore(source: JsonlSource) -> str | None:
    """Restore ``source`` (opened, not scanned yet) from its entry, if it has a usable one.

    Returns:
        ``"unchanged"`` (everything restored: nothing left to scan), ``"appended"``
        (restored up to where the entry ends: the scan continues from there), or None
        (no usable entry: scan from the start). Never raises.
    """
    if not enabled() or source.index.count:
        return None
    try:
        return _restore(source)
    except Exception:  # a cache never breaks an open
        return None


def _restore(source: JsonlSource) -> str | None:
    now = identity(source.path, source.index)
    d = usable_dir(create=False)
    if now is None or d is None:
        return None
    path = entry_path(now["path"])
    opened = open_entry(path)
    if opened is None:
        return None
    fd, st = opened
    try:
        if st.st_size > limit()[0]:
            raise CacheCorrupt("bigger than the cap")
        header, sections = cachefile.read(fd, st.st_size)
    except CacheCorrupt:
        discard(path)
        return None
    finally:
        os.close(fd)
    data = header.get("data")
    if not isinstance(data, dict) or header.get("reading") != _reading(source):
        return None
    how = _compare(source, data, now)
    if how is None:
        return None
    state = header.get("state")
    if not isinstance(state, dict) or state.get("size") != data["size"]:
        discard(path)
        return None
    try:
        indexstate.restore(source, state, sections)
    except CacheCorrupt:
        discard(path)
        return None
    source.cache_mark = _mark(source) if how == "unchanged" else None
    try:
        os.utime(path)  # last use, for the least-recently-used eviction
    except OSError:
        pass
    return how


def _compare(source: JsonlSource, data: dict[str, Any], now: dict[str, Any]) -> str | None:
    """``unchanged``, ``appended``, or None: how the file moved on from the entry."""
    for name in ("path", "ino", "dev"):
        if data.get(name) != now[name]:
            return None
    size = data.get("size")
    if type(size) is not int or size > now["size"] or not isinstance(data.get("sample"), str):
        return None
    if size == now["size"] and any(data.get(t) != now[t] for t in ("mtime_ns", "ctime_ns")):
        return None  # rewritten in place (or its mode or owner changed: read afresh anyway)
    if sample_hash(source.index.pread, size) != data["sample"]:
        return None
    return "unchanged" if size == now["size"] else "appended"


# -- save ------------------------------------------------------------------------------------


def _mark(source: JsonlSource) -> tuple[int, int, int, int]:
    """What a save of ``source`` would hold: file size, records, summaries, step facts."""
    return (source.index.size, source.index.count, source.summarised(), len(source.facts))


def save(source: JsonlSource) -> bool:
    """Write ``source``'s entry, after a full scan, unless it would hold nothing new.

    Nothing is written when the cache is off, the scan did not finish, the file changed
    since it was scanned, this source was saved less than :data:`RESAVE_AFTER` seconds ago,
    the entry would be bigger than the cap, or the directory is not ours or is inside an
    opened path. Never raises.

    Returns:
        True when an entry was written.
    """
    if not enabled() or not source.index.complete or source.cache_mark == _mark(source):
        return False
    if time.monotonic() - source.cache_saved_at < RESAVE_AFTER:
        return False
    try:
        return _save(source)
    except Exception:  # a cache never breaks a session
        return False


def _save(source: JsonlSource) -> bool:
    mark = _mark(source)
    now = identity(source.path, source.index)
    ix = source.index
    if now is None or now["size"] != ix.size or now["mtime_ns"] != ix.mtime_ns:
        return False  # it moved on since the scan: the next scan saves
    try:
        state, sections = indexstate.dump(source)
    except Unstorable:
        return False
    data = {**now, "sample": sample_hash(ix.pread, ix.size)}
    header = {
        "data": data,
        "reading": _reading(source),
        "state": state,
        "records": ix.count,
        "summaries": mark[2],
        "step_facts": mark[3],
        "written": time.time(),
    }
    cap = limit()[0]
    if not _writable_here(directory()):
        return False
    d = usable_dir(create=True)
    if d is None:
        return False
    with _write_lock:
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=SUFFIX, dir=d)  # mode 0600
        try:
            with os.fdopen(fd, "wb") as f:
                total = cachefile.write(f, header, sections)
            if total > cap or _mark(source) != mark:  # too big, or it changed meanwhile
                discard(Path(tmp))
                return False
            os.replace(tmp, entry_path(now["path"]))
        except BaseException:
            discard(Path(tmp))
            raise
        evict(d, cap)
    source.cache_mark = mark
    source.cache_saved_at = time.monotonic()
    return True
