"""Writing the tables into a directory: :func:`write_tables`.

``OUT/runs/``, ``OUT/steps/``, ``OUT/tool_calls/`` and ``OUT/trials/`` each hold one Parquet
file per source (a directory of files is a dataset every engine reads whole), and
``OUT/manifest.json`` says which source each file is of and what that source was when it
was written: its identity (real path, size, mtime, ctime, inode and device of a file; of a
directory, every file under it), the workspace's prefix of its references, trajtui's code
and the schema version. Writing again into the same OUT rewrites only the sources whose
identity changed, drops the files of sources no longer given, and keeps the rest as they
are (their files untouched).

Memory stays bounded: runs are read one at a time (a run's steps read as its timeline is
walked, never every run's steps at once), rows are buffered up to a row group
(:data:`GROUP_ROWS` rows or :data:`GROUP_BYTES` of text, whichever comes first) and
flushed. Each file is written under a temporary name and renamed into place when whole;
the manifest is rewritten (atomically) after each source, so an export stopped half-way
keeps what it finished.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from trajtui.core.io.jsonutil import dumps_line, loads
from trajtui.core.jsonl import indexcache
from trajtui.core.model import Problem, RunSummary
from trajtui.core.rows import Say, read_rows
from trajtui.core.source import LoadError, Source
from trajtui.core.tables import SCHEMA_VERSION, TABLES
from trajtui.core.tables.records import Place, run_row, step_rows, tool_call_rows, trial_row
from trajtui.core.tables.schema import SCHEMAS

MANIFEST = "manifest.json"
GROUP_ROWS = 65_536
"""Rows of a row group (at most)."""
GROUP_BYTES = 16 << 20
"""Text buffered before a row group is flushed, whatever its rows (steps hold long text)."""

Progress = Callable[[str, int, int], None]
"""Told ``(source path, runs written, runs in the source)`` as a source is written."""


class TablesError(Exception):
    """OUT cannot be written (one line for the user)."""


@dataclass
class Written:
    """What :func:`write_tables` did.

    Attributes:
        written: The sources written (new or changed), by path.
        kept: The sources whose files were kept as they were (unchanged).
        removed: Sources of an earlier export no longer given, whose files were removed.
        rows: Rows of each table in OUT now (every source's, written or kept).
        problems: Runs that could not be read whole (their ``runs`` row is from their row).
    """

    written: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    removed: int = 0
    rows: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TABLES, 0))
    problems: list[Problem] = field(default_factory=list)


def _quiet(_line: str) -> None:
    pass


# -- identity ---------------------------------------------------------------------------


def _stat_of(st: os.stat_result) -> list[int]:
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev]


def identity(path: str) -> dict[str, Any] | None:
    """What the source at ``path`` is now: its real path and stat, and for a directory a
    hash of every file's relative path and stat under it (None when it cannot be read)."""
    try:
        real = os.path.realpath(path)
        st = os.stat(real)
    except OSError:
        return None
    out: dict[str, Any] = {"path": real, "stat": _stat_of(st)}
    if os.path.isdir(real):
        h = hashlib.blake2b(digest_size=16)
        count = 0
        for top, dirs, files in os.walk(real):
            dirs.sort()
            for name in sorted(files):
                full = os.path.join(top, name)
                try:
                    fst = os.lstat(full)
                except OSError:
                    continue
                rel = os.path.relpath(full, real)
                h.update(f"{rel}\0{_stat_of(fst)}\n".encode("utf-8", "surrogateescape"))
                count += 1
        out["tree"] = h.hexdigest()
        out["files"] = count
    return out


def _key(real: str, format_id: str, nth: int) -> str:
    """The name of a source's files: its real path and format, and which of the sources
    read from that path with that format it is (a Claude Code 1.0 session file is two:
    the session and its subagents' lines), in the workspace's order."""
    data = f"{format_id}\0{real}\0{nth}".encode("utf-8", "surrogateescape")
    return hashlib.blake2b(data, digest_size=12).hexdigest()


# -- the manifest ---------------------------------------------------------------------------


def read_manifest(out: Path) -> dict[str, Any] | None:
    """OUT's manifest, or None when it has none (or one another version wrote, or damaged)."""
    try:
        data, err = loads((out / MANIFEST).read_bytes())
    except OSError:
        return None
    if err is not None or not isinstance(data, dict) or not isinstance(data.get("sources"), list):
        return None
    if data.get("schema_version") != SCHEMA_VERSION:
        return None
    return data


def _write_manifest(out: Path, entries: Iterable[dict[str, Any]]) -> None:
    data = {"schema_version": SCHEMA_VERSION, "writer": "trajtui", "sources": list(entries)}
    tmp = out / f".{MANIFEST}.tmp"
    tmp.write_text(dumps_line(data) + "\n", encoding="utf-8")
    os.replace(tmp, out / MANIFEST)


def files_of(out: Path, table: str) -> list[Path]:
    """The Parquet files of ``table`` in OUT, by its manifest (in source order)."""
    manifest = read_manifest(out)
    if manifest is None:
        return []
    return [out / table / f"{e['key']}.parquet" for e in manifest["sources"] if "key" in e]


def _check_out(out: Path, inputs: Sequence[str]) -> None:
    """OUT is a new or empty directory, or one this writer wrote; never inside an input."""
    real = os.path.realpath(out)
    for p in inputs:
        top = os.path.realpath(p)
        if os.path.isdir(top) and (real == top or real.startswith(os.path.join(top, ""))):
            raise TablesError(f"{out}: inside {p}, which is read: nothing is written there")
    if out.exists() and not out.is_dir():
        raise TablesError(f"{out}: not a directory")
    if out.is_dir() and any(out.iterdir()) and not (out / MANIFEST).is_file():
        raise TablesError(
            f"{out}: not empty and not written by trajtui (no {MANIFEST}): give a new "
            "or empty directory"
        )


# -- writing ------------------------------------------------------------------------------


class _TableFile:
    """One table's file of one source, written a row group at a time."""

    def __init__(self, path: Path, schema: pa.Schema) -> None:
        self.path = path
        self.tmp = path.with_name(f".{path.name}.tmp")
        self.schema = schema
        self.rows: list[dict[str, Any]] = []
        self.size = 0
        self.count = 0
        self.writer = pq.ParquetWriter(self.tmp, schema)

    def add(self, row: dict[str, Any], size: int = 0) -> None:
        self.rows.append(row)
        self.size += size
        if len(self.rows) >= GROUP_ROWS or self.size >= GROUP_BYTES:
            self.flush()

    def flush(self) -> None:
        if self.rows:
            rows = self.rows
            columns = {name: [r[name] for r in rows] for name in self.schema.names}
            self.writer.write_table(pa.table(columns, schema=self.schema))
            self.count += len(self.rows)
            self.rows = []
            self.size = 0

    def close(self) -> None:
        self.flush()
        self.writer.close()
        os.replace(self.tmp, self.path)

    def abort(self) -> None:
        try:
            self.writer.close()
        finally:
            try:
                os.unlink(self.tmp)
            except OSError:
                pass


def _text_size(row: dict[str, Any]) -> int:
    return sum(len(row[k]) for k in ("text", "input", "output") if row.get(k))


def _write_source(
    source: Source,
    place_of: Callable[[RunSummary, int], Place],
    files: dict[str, _TableFile],
    progress: Progress | None,
    problems: list[Problem],
    stopped: Callable[[], bool],
) -> None:
    total = len(source)
    for i in range(total):
        if stopped():
            return
        if progress is not None and not i % 256:
            progress(source.path, i, total)
        try:
            run = source.run(i)  # its row is read once, by the run
        except LoadError as err:
            entry = source.entry(i, keep=False)
            if isinstance(entry, RunSummary):  # a run no longer readable: its row alone
                problems.append(err.problem)
                files["runs"].add(run_row(place_of(entry, i), entry, None))
            continue
        place = place_of(run.summary, i)
        files["runs"].add(run_row(place, run.summary, run, path=run.path))
        for row in step_rows(place, run):
            files["steps"].add(row, _text_size(row))
        for row in tool_call_rows(place, run):
            files["tool_calls"].add(row)
        for attempt in run.attempts:
            files["trials"].add(trial_row(place, attempt))
    if progress is not None:
        progress(source.path, total, total)


def write_tables(
    sources: Sequence[Source],
    ref_of: Callable[[Source, str], str],
    out: str | os.PathLike[str],
    *,
    inputs: Sequence[str] = (),
    progress: Progress | None = None,
    say: Say = _quiet,
    stopped: Callable[[], bool] = lambda: False,
    scanned: bool = False,
) -> Written:
    """Write the tables of ``sources`` into ``out`` (made when missing), rewriting only the
    sources that changed since the last write into it.

    Args:
        sources: The sources (a workspace's), not read yet or read: each is scanned here.
        ref_of: The reference shown for a run of a source (``Workspace.ref``).
        out: The directory (new, empty, or written by this function before).
        inputs: The paths opened: ``out`` may not be inside one of them.
        progress: Told each source's progress (``path, runs done, runs``).
        say: Told each error while reading (``PATH: message``), a line each.
        stopped: Polled between runs; writing ends (the manifest consistent) when true.
        scanned: The sources are read already, every row known (the TUI's, once every
            file is read): they are not scanned again (a scan here would race the
            screen's own reading of them).

    Raises:
        TablesError: ``out`` cannot be written (not ours, inside an input, not writable).
    """
    root = Path(out)
    _check_out(root, inputs)
    try:
        for table in TABLES:
            (root / table).mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise TablesError(f"{root}: {err.strerror or err}") from err
    old = {e.get("key"): e for e in (read_manifest(root) or {"sources": []})["sources"]}
    code = indexcache.code_fingerprint()
    done = Written()
    entries: dict[str, dict[str, Any]] = {}
    seen: dict[tuple[str, str], int] = {}
    for source in sources:
        ident = identity(source.path)
        real = ident["path"] if ident else os.path.realpath(source.path)
        nth = seen[real, source.format.id] = seen.get((real, source.format.id), -1) + 1
        key = _key(real, source.format.id, nth)
        prefix = ref_of(source, "")
        entry = {
            "key": key,
            "path": source.path,
            "format": source.format.id,
            "prefix": prefix,
            "identity": ident,
            "code": code,
        }
        before = old.get(key)
        if (
            ident is not None
            and before is not None
            and all(before.get(k) == entry[k] for k in ("path", "format", "prefix", "identity"))
            and before.get("code") == code
            and all((root / t / f"{key}.parquet").is_file() for t in TABLES)
        ):
            entries[key] = before
            done.kept.append(source.path)
            continue
        if stopped():
            break
        rows = _write_one(root, key, source, ref_of, prefix, progress, say, done, stopped, scanned)
        if rows is None:
            continue
        entry["rows"] = rows
        entries[key] = entry
        done.written.append(source.path)
        _write_manifest(root, [*entries.values(), *(e for k, e in old.items() if k not in entries)])
    for key in set(old) - set(entries):
        if not isinstance(key, str):
            continue
        for table in TABLES:
            try:
                os.unlink(root / table / f"{key}.parquet")
            except OSError:
                pass
        done.removed += 1
    _write_manifest(root, entries.values())
    for e in entries.values():
        for table in TABLES:
            done.rows[table] += int((e.get("rows") or {}).get(table, 0))
    return done


def _write_one(
    root: Path,
    key: str,
    source: Source,
    ref_of: Callable[[Source, str], str],
    prefix: str,
    progress: Progress | None,
    say: Say,
    done: Written,
    stopped: Callable[[], bool],
    scanned: bool = False,
) -> dict[str, int] | None:
    """Write one source's files; the rows of each table, or None when it could not be
    read at all (said)."""
    if not scanned:
        cache = indexcache.enabled()
        for _ in read_rows([source], keep=0, save=cache, say=say, stopped=stopped):
            pass
    files: dict[str, _TableFile] = {}
    try:
        for table in TABLES:
            files[table] = _TableFile(root / table / f"{key}.parquet", SCHEMAS[table])

        def place_of(summary: RunSummary, i: int) -> Place:
            return Place(ref_of(source, summary.ref), prefix, source.path, source.format.id, i)

        _write_source(source, place_of, files, progress, done.problems, stopped)
        if stopped():  # a source half written is not kept
            for f in files.values():
                f.abort()
            return None
        for f in files.values():
            f.close()
    except OSError as err:
        for f in files.values():
            f.abort()
        say(f"{source.path}: {err.strerror or err}")
        return None
    except BaseException:
        for f in files.values():
            f.abort()
        raise
    return {t: f.count for t, f in files.items()}
