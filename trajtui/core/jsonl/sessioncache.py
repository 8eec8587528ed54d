"""The index cache of a one-run file (:class:`~trajtui.core.jsonl.session.SessionSource`):
its run's row, the lines kept, the step rows and the problems, so that the second open of
an unchanged session reads nothing but this entry (a folder of thousands of sessions lists
at once).

Entries share the index cache's directory, cap, file format and rules
(:mod:`trajtui.core.jsonl.indexcache`: written atomically, private, never inside an opened
path; read as untrusted data, every array checked against the others and the file's size
before anything is used). An entry is used only for the unchanged file (path, size,
mtime, ctime, inode, device and sampled bytes) read by the same code; a file that grew is
read again from its start (the fold's running state is not kept).
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from trajtui.core.jsonl import cachefile, indexcache
from trajtui.core.jsonl.cachedir import SUFFIX, directory, discard, evict, open_entry, usable_dir
from trajtui.core.jsonl.cachefile import (
    CacheCorrupt,
    Unstorable,
    ascending,
    pack_values,
    to_array,
    unpack_values,
)
from trajtui.core.jsonl.intcolumn import WIDE_OF, IntColumn
from trajtui.core.model import Outcome, Problem, RunSummary, Severity

if TYPE_CHECKING:
    from trajtui.core.jsonl.session import SessionSource

_FIELDS = tuple(f.name for f in dataclasses.fields(RunSummary))
_PAIRS = ("metadata", "file_metrics")
_OUTCOMES = {o.value: o for o in Outcome}
_SEVERITIES = {s.value: s for s in Severity}
VERSION = 2
"""Bumped whenever what an entry's sections mean changes (2: the columns are stored as they
are held, 4 or 8 bytes an item, each with its type code; 1 stored 8 bytes an item)."""


def entry_path(real: str) -> Path:
    """The entry file for the session file whose real path is ``real``."""
    name = hashlib.blake2b(b"session\0" + os.fsencode(real), digest_size=20).hexdigest()
    return directory() / f"{name}{SUFFIX}"


def _reading(source: SessionSource) -> dict[str, Any]:
    return {
        "format": source.format.id,
        "key": "session",
        "ref": source.ref,
        "version": VERSION,
        "code": indexcache.code_fingerprint(),
    }


# -- the run's row ---------------------------------------------------------------------------


def pack_summary(summary: RunSummary) -> bytes:
    """The row as tagged values (pairs and tuples as a count then their items)."""
    out: list[Any] = []
    for name in _FIELDS:
        value = getattr(summary, name)
        if name == "outcome":
            out.append(value.value)
        elif name in _PAIRS:
            out.append(len(value))
            for k, v in value:
                out += [k, v]
        elif name == "tools":
            out.append(len(value))
            out += list(value)
        else:
            out.append(value)
    return pack_values(out)


def unpack_summary(data: bytes | memoryview) -> RunSummary:
    """The row :func:`pack_summary` wrote.

    Raises:
        CacheCorrupt: Anything that was not written so.
    """
    values = unpack_values(data)
    at = 0

    def take() -> Any:
        nonlocal at
        if at >= len(values):
            raise CacheCorrupt("summary cut short")
        at += 1
        return values[at - 1]

    def count() -> int:
        n = take()
        if type(n) is not int or not 0 <= n <= len(values):
            raise CacheCorrupt("bad count in summary")
        return n

    got: dict[str, Any] = {}
    for name in _FIELDS:
        if name == "outcome":
            word = take()
            if word not in _OUTCOMES:
                raise CacheCorrupt("bad outcome")
            got[name] = _OUTCOMES[word]
        elif name in _PAIRS:
            pairs = []
            for _ in range(count()):
                k, v = take(), take()
                if type(k) is not str or (name == "metadata" and type(v) is not str):
                    raise CacheCorrupt("bad pair in summary")
                pairs.append((k, v))
            got[name] = tuple(pairs)
        elif name == "tools":
            tools = tuple(take() for _ in range(count()))
            if not all(type(t) is str for t in tools):
                raise CacheCorrupt("bad tool name in summary")
            got[name] = tools
        else:
            got[name] = take()
    if at != len(values):
        raise CacheCorrupt("summary too long")
    for name in ("ref", "format", "title"):
        if type(got[name]) is not str:
            raise CacheCorrupt(f"bad {name} in summary")
    for name in ("steps", "tool_calls", "failed_tool_calls", "tokens_in", "tokens_out"):
        value = got[name]
        if value is not None and (type(value) is not int or value < 0):
            raise CacheCorrupt(f"bad {name} in summary")
    return RunSummary(**got)


# -- restore ---------------------------------------------------------------------------------


def restore(source: SessionSource) -> bool:
    """Restore ``source`` (opened, not scanned) from its entry when the file is unchanged.
    True when restored; never raises."""
    if not indexcache.enabled():
        return False
    try:
        return _restore(source)
    except Exception:  # a cache never breaks an open
        return False


def _restore(source: SessionSource) -> bool:
    now = indexcache.identity(source.path, source.stream)
    if now is None or usable_dir(create=False) is None:
        return False
    path = entry_path(now["path"])
    opened = open_entry(path)
    if opened is None:
        return False
    fd, st = opened
    try:
        if st.st_size > indexcache.limit()[0]:
            raise CacheCorrupt("bigger than the cap")
        header, sections = cachefile.read(fd, st.st_size)
    except CacheCorrupt:
        discard(path)
        return False
    finally:
        os.close(fd)
    data = header.get("data")
    if not isinstance(data, dict) or header.get("reading") != _reading(source):
        return False
    if any(data.get(k) != now[k] for k in now) or not isinstance(data.get("sample"), str):
        return False
    if indexcache.sample_hash(source.stream.pread, now["size"]) != data["sample"]:
        return False
    try:
        _apply(source, sections, header.get("columns"), now["size"])
    except CacheCorrupt:
        discard(path)
        return False
    source.cache_mark = (now["size"], source.state.steps)
    try:
        os.utime(path)
    except OSError:
        pass
    return True


def _columns(sections: dict[str, Any], codes: Any) -> dict[str, IntColumn]:
    """The state's columns from their sections and type codes (``codes``: name -> code, as
    :func:`_save` wrote them).

    Raises:
        CacheCorrupt: A column missing, of a type code it cannot have, or cut short.
        KeyError: A section is missing.
    """
    from trajtui.core.jsonl.session import SessionState

    if not isinstance(codes, dict):
        raise CacheCorrupt("no type codes of the columns")
    out = {}
    for name in SessionState.COLUMNS:
        code = codes.get(name)
        narrow = "i" if name in SessionState.SIGNED else "I"
        if code not in (narrow, WIDE_OF[narrow]):
            raise CacheCorrupt(f"bad type code of {name}")
        out[name] = IntColumn(code, to_array(code, sections[name]))
    return out


def _apply(source: SessionSource, sections: dict[str, Any], codes: Any, size: int) -> None:
    """Check every section, then put them in place (nothing changes when one is wrong)."""
    try:
        arrays = _columns(sections, codes)
        summary = unpack_summary(sections["summary"])
        problems = unpack_values(sections["problems"])
    except KeyError:
        raise CacheCorrupt("a section is missing") from None
    offsets, sizes, numbers = arrays["offsets"], arrays["sizes"], arrays["numbers"]
    kept = len(offsets)
    if len(sizes) != kept or len(numbers) != kept:
        raise CacheCorrupt("kept lines of unequal lengths")
    if not ascending(offsets.values, strict=True) or not ascending(numbers.values, strict=True):
        raise CacheCorrupt("kept lines out of order")
    if kept and offsets[-1] + sizes[-1] > size:
        raise CacheCorrupt("a kept line past the end of the file")
    lines, parts, links = arrays["step_line"], arrays["step_part"], arrays["step_link"]
    if not len(lines) == len(parts) == len(links):
        raise CacheCorrupt("step rows of unequal lengths")
    if lines and (min(lines.values) < 0 or max(lines.values) >= kept):
        raise CacheCorrupt("a step row names no kept line")
    if links and (min(links.values) < -1 or max(links.values) >= kept):
        raise CacheCorrupt("a step row links no kept line")
    if summary.ref != source.ref or summary.steps not in (None, len(lines)):
        raise CacheCorrupt("the summary is not this file's")
    if len(problems) % 3:
        raise CacheCorrupt("bad problems")
    found = []
    for k in range(0, len(problems), 3):
        line, message, severity = problems[k : k + 3]
        if (line is not None and type(line) is not int) or type(message) is not str:
            raise CacheCorrupt("bad problem")
        if severity not in _SEVERITIES:
            raise CacheCorrupt("bad severity")
        found.append(Problem(source.path, line, message, _SEVERITIES[severity]))
    state = source.state
    for name, values in arrays.items():
        setattr(state, name, values)
    state.problems = found
    source.restored(summary)


# -- save ------------------------------------------------------------------------------------


def save(source: SessionSource) -> bool:
    """Write ``source``'s entry after a full scan (not again when nothing changed since the
    last save or restore). True when written; never raises."""
    if not indexcache.enabled() or not source.complete:
        return False
    if source.cache_mark == (source.stream.size, source.state.steps):
        return False
    try:
        return _save(source)
    except Exception:  # a cache never breaks a session
        return False


def _save(source: SessionSource) -> bool:
    now = indexcache.identity(source.path, source.stream)
    ix = source.stream
    summary = source.partial()
    if summary is None:
        return False  # no run in it (the format lists none): read again next time
    if now is None or now["size"] != ix.size or now["mtime_ns"] != ix.mtime_ns:
        return False
    state = source.state
    if state.unlisted:
        return False  # (kept whole only)
    problems: list[Any] = []
    for p in state.problems:
        problems += [p.line, p.message, p.severity.value]
    columns: dict[str, IntColumn] = {name: getattr(state, name) for name in state.COLUMNS}
    sections: dict[str, cachefile.Section] = dict(columns)  # (streamed: spilled ones too)
    try:
        sections["summary"] = pack_summary(summary)
        sections["problems"] = pack_values(problems)
    except Unstorable:
        return False
    header = {
        "data": {**now, "sample": indexcache.sample_hash(ix.pread, ix.size)},
        "reading": _reading(source),
        "columns": {name: column.code for name, column in columns.items()},
        "records": ix.count,
        "summaries": 1,
        "written": time.time(),
    }
    cap = indexcache.limit()[0]
    if not indexcache._writable_here(directory()):
        return False
    d = usable_dir(create=True)
    if d is None:
        return False
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=SUFFIX, dir=d)  # mode 0600
    try:
        with os.fdopen(fd, "wb") as f:
            total = cachefile.write(f, header, sections)
        if total > cap:
            discard(Path(tmp))
            return False
        os.replace(tmp, entry_path(now["path"]))
    except BaseException:
        discard(Path(tmp))
        raise
    evict(d, cap)
    source.cache_mark = (ix.size, state.steps)
    return True
