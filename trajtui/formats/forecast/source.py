"""The sources of the forecast format: :class:`EvalSource` (an eval or batch directory)
and :class:`RunSource` (one run directory or single-file trajectory), and the registry hooks
:func:`claim_dir` and :func:`open_file`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from trajtui.core.jsonl.index import ScanProgress
from trajtui.core.model import Problem, Run, RunSummary, Severity
from trajtui.core.refs import RefError, nearby
from trajtui.core.source import Source, Target
from trajtui.core.static_source import StaticSource
from trajtui.core.values import string
from trajtui.formats.forecast.claim import FORECAST as FORECAST
from trajtui.formats.forecast.claim import claim_dir as claim_dir
from trajtui.formats.forecast.claim import open_file as open_file
from trajtui.formats.forecast.detail import MESSAGE, SOURCE, forecast_run
from trajtui.formats.forecast.detect import (
    files_of,
    is_eval_summary,
    is_run_dir,
)
from trajtui.formats.forecast.files import (
    SUMMARY,
    Reader,
    RunFiles,
    read_run_dir,
    read_single_file,
)
from trajtui.formats.forecast.runs import EVAL, RUN, build_run, summarize
from trajtui.formats.forecast.timeline import timeline

_SEGMENTS = {MESSAGE: "message", SOURCE: "source"}
"""A forecast run's own references: ``RUN/msg:KEY`` (the message pool), ``RUN/src:SID``
(the source board)."""


def resolve_segment(source: Source, index: int, run: Run, word: str, key: str) -> Target:
    """``RUN/msg:KEY`` or ``RUN/src:SID`` of a forecast run.

    Raises:
        RefError: The run has no such message or source; the message names nearby ones.
    """
    detail = forecast_run(run)
    if word == MESSAGE:
        pool = detail.pool
        if pool is None:
            raise RefError(f"{run.ref} has no message pool (it has no trajectory)")
        if pool.get(key) is None:
            near = nearby(key, pool.keys())
            hint = f"; nearby: {', '.join(near)}" if near else ""
            raise RefError(f"{run.ref} has no message {key!r}{hint}")
    elif word == SOURCE:
        board = detail.board
        if board is None:
            raise RefError(f"{run.ref} has no source board (it has no sources.json)")
        if board.board_source(key) is None:
            near = nearby(key, board.board_source_ids())
            hint = f"; nearby: {', '.join(near)}" if near else ""
            raise RefError(f"{run.ref} has no source {key!r}{hint}")
    else:
        raise RefError(
            f"{run.ref} has nothing called {word}:{key} (its references are steps, msg: and src:)"
        )
    return Target(source, index, f"{run.ref}/{word}:{key}", segment=(word, key))


# -- the sources -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Listed:
    """A run an eval lists: its ref, summary.json entry (None for an unlisted directory)
    and directory (None when it has none, or when it points outside the eval)."""

    ref: str
    entry: dict[str, Any] | None
    run_dir: str | None


class EvalSource(StaticSource):
    """An eval (or batch) directory: summary.json and ``runs/<id>/``."""

    segments = _SEGMENTS

    def resolve_segment(self, index: int, run: Run, word: str, key: str) -> Target:
        return resolve_segment(self, index, run, word, key)

    def __init__(self, path: str, label: str | None = None) -> None:
        super().__init__(path, EVAL, label)
        self._reader = Reader(path, self.watch)
        self._head: dict[str, Any] | None = None

    def _load(self) -> Iterator[ScanProgress]:
        summary_path = os.path.join(self.path, SUMMARY)
        value, problems = self._reader.json(summary_path)
        for p in problems:
            self.add_problem(p)
        summary = value if is_eval_summary(value) else None
        self._head = {k: v for k, v in summary.items() if k != "runs"} if summary else None
        if value is not None and summary is None:
            self.add_problem(
                Problem(summary_path, None, "not an eval summary (no runs with run_id/task_id)")
            )
        listed = self._listed(summary)
        listed.extend(self._unlisted(listed))
        total = len(listed)
        for done, item in enumerate(listed, 1):
            self._add(item)
            yield ScanProgress(done, total, len(self))

    def _listed(self, summary: dict[str, Any] | None) -> list[Listed]:
        if summary is None:
            return []
        out = []
        for entry in summary["runs"]:
            rid = entry.get("run_id", entry.get("task_id"))
            ref = str(rid) if isinstance(rid, (str, int)) and str(rid) else "(no id)"
            out.append(Listed(ref, entry, self._run_dir(ref, entry)))
        return out

    def _run_dir(self, ref: str, entry: dict[str, Any]) -> str | None:
        default = os.path.join("runs", ref)
        out_dir = string(entry.get("output_dir")) or default
        path = os.path.join(self.path, out_dir)
        if self._reader.contains(path):
            return path if os.path.isdir(path) else None
        # An output_dir outside the eval directory: an absolute path from the machine that
        # wrote it (results copied here), or an attempt to climb out. Never read it; read
        # runs/<id> inside the eval directory when there is one.
        fallback = os.path.join(self.path, default)
        usable = out_dir != default and self._reader.contains(fallback) and os.path.isdir(fallback)
        self.add_problem(
            Problem(
                os.path.join(self.path, SUMMARY),
                None,
                f"run {ref!r}: output_dir {out_dir!r} is outside the eval directory "
                + (f"(not read; read {default} instead)" if usable else "(not read)"),
                Severity.WARNING if usable else Severity.ERROR,
                ref,
            )
        )
        return fallback if usable else None

    def _unlisted(self, listed: list[Listed]) -> list[Listed]:
        """Run directories under runs/ that summary.json does not list (yet)."""
        runs = os.path.join(self.path, "runs")
        self.watch(runs)
        known = {os.path.realpath(item.run_dir) for item in listed if item.run_dir}
        try:
            with os.scandir(runs) as it:
                names = sorted(e.name for e in it if e.is_dir())
        except OSError:
            return []
        out = []
        for name in names:
            path = os.path.join(runs, name)
            if not self._reader.contains(path) or os.path.realpath(path) in known:
                continue
            if is_run_dir(path, files_of(path)):
                out.append(Listed(name, None, path))
        return out

    def _add(self, item: Listed) -> None:
        files = read_run_dir(self._reader, item.run_dir, item.ref) if item.run_dir else None
        line = timeline(files, item.ref) if files is not None else None
        summary = summarize(item.ref, EVAL, item.entry, files, line, self._head)
        listed = self.add_run(summary, partial(self._build, item))
        for p in (*(files.problems if files else ()), *(line.problems if line else ())):
            self.add_problem(replace(p, ref=listed.ref))

    def _build(self, item: Listed, ref: str) -> Run:
        index = self.find(ref)
        assert index is not None
        listed = self.entry(index)
        assert isinstance(listed, RunSummary)
        files = read_run_dir(self._reader, item.run_dir, ref) if item.run_dir else None
        return build_run(listed, item.entry, files, self._head)


class RunSource(StaticSource):
    """One run: a run directory, or a single-file (1.0) trajectory."""

    segments = _SEGMENTS

    def resolve_segment(self, index: int, run: Run, word: str, key: str) -> Target:
        return resolve_segment(self, index, run, word, key)

    def __init__(self, path: str, label: str | None = None, *, single_file: bool = False) -> None:
        super().__init__(path, RUN, label)
        self.single_file = single_file
        # A file the user named is read wherever a link takes it; a directory's files
        # must stay inside it.
        root = os.path.dirname(os.path.realpath(path)) if single_file else path
        self._reader = Reader(root, self.watch)
        base = os.path.basename(os.path.normpath(os.path.abspath(path)))
        self.run_ref = base[: -len(".json")] if single_file and base.endswith(".json") else base

    def _read(self, ref: str) -> RunFiles:
        if self.single_file:
            return read_single_file(self._reader, self.path, ref)
        return read_run_dir(self._reader, self.path, ref)

    def _load(self) -> Iterator[ScanProgress]:
        files = self._read(self.run_ref)
        line = timeline(files, self.run_ref)
        listed = self.add_run(summarize(self.run_ref, RUN, None, files, line), self._build)
        for p in (*files.problems, *(line.problems if line else ())):
            self.add_problem(replace(p, ref=listed.ref))
        yield ScanProgress(1, 1, len(self))

    def _build(self, ref: str) -> Run:
        listed = self.entry(0)
        assert isinstance(listed, RunSummary)
        return build_run(listed, None, self._read(ref))
