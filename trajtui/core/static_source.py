"""A source whose runs a format lists itself: directories, JSON documents, YAML logs.

Its entries live in the same catalogue as a JSONL file's (a
:class:`~trajtui.core.jsonl.table.SummaryTable`, kept by :class:`~trajtui.core.source.Source`):
sorting, filtering and drawing read both the same way.

A format subclasses :class:`StaticSource`, lists its runs in ``_load`` (adding each with a
loader that builds the whole run on demand) and may watch the files it read so a change is
noticed.

A run read from one big document (a trajectory of a gigabyte) need not wait for its end to
be listed: when the reader revises rows (:attr:`~trajtui.core.source.Source.partial_rows`,
the TUI), the format lists it as soon as a part is read, its row the figures so far (saying
so; a file read in less than :data:`PARTIAL_AFTER` seconds is listed once, whole), and
:meth:`StaticSource.revise_run` replaces that row as the reading goes on (at most
every :data:`PARTIAL_EVERY` seconds) and at its end, as a session file's row is
(:mod:`trajtui.core.jsonl.session`); ``_load`` yields progress meanwhile, so the reader sees
each revision. Left off (``ls``), only final rows are listed.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from dataclasses import replace

from trajtui.core.jsonl.index import ScanProgress
from trajtui.core.jsonl.table import SummaryTable
from trajtui.core.model import Problem, Run, RunSummary
from trajtui.core.refs import DuplicateNamer
from trajtui.core.source import Entry, FormatInfo, LoadError, RunCache, Source, Target

PARTIAL_EVERY = 0.25
"""Seconds between two revisions of a partial row (:meth:`StaticSource.revise_run`)."""
PARTIAL_AFTER = 0.1
"""Seconds a run's file is read before the run is listed partial: a file read sooner (a
job's many small ones) is listed once, whole."""

RunLoader = Callable[[str], Run]
"""Builds a run whole, given the reference it was listed under."""


class StaticSource(Source):
    """A source whose runs are listed by reading a few small files (directories, JSON
    documents, YAML logs), as opposed to indexing one big file.

    Subclasses implement :meth:`_load`, a generator that calls :meth:`add_run` and
    :meth:`add_problem` as it reads and yields progress; it runs inside :meth:`scan` (a
    thread in the TUI), so opening stays instant. Runs are built whole only when asked
    for, through the loader given to :meth:`add_run`, and the last few are cached.

    Every file read should be passed to :meth:`watch`, so :meth:`changed` can tell when
    the data on disk moved on.
    """

    RUN_CACHE = 8

    def __init__(self, path: str, fmt: FormatInfo, label: str | None = None) -> None:
        self.path = path
        self.format = fmt
        self.label = label or path
        self._refs: list[str | None] = []  # by entry; None for a problem row
        self._table = SummaryTable(self._ref_at)
        self._loaders: list[RunLoader | None] = []
        self._namer = DuplicateNamer()
        self._ref_map: dict[str, int] = self._namer.taken
        self._problems: list[Problem] = []
        self._loaded = False
        self._watched: dict[str, tuple[int, int, int] | None] = {}
        self._runs = RunCache(self.RUN_CACHE)
        self._load_lock = threading.Lock()
        self._loading_thread: int | None = None

    # -- for subclasses ------------------------------------------------------------------

    def _load(self) -> Iterator[ScanProgress]:
        """Read what lists the runs; call :meth:`add_run`/:meth:`add_problem`."""
        raise NotImplementedError

    def add_run(self, summary: RunSummary, loader: RunLoader) -> RunSummary:
        """List a run. Its ref is made unique (``#2``...) and its index set; returns the
        summary as listed."""
        i = len(self._refs)
        ref = self._namer.name(summary.ref, i)
        listed = replace(summary, ref=ref, index=i)
        self._loaders.append(loader)
        self._refs.append(ref)
        self._table.put(i, listed)
        return listed

    def revise_run(self, i: int, summary: RunSummary) -> RunSummary:
        """Replace the row of run ``i``, listed before its file was read whole (a partial
        row: the figures so far, the row saying so) as the reading goes on, and at its end
        with the whole run's; its ref stays. A run built from the old row is forgotten and
        :attr:`~trajtui.core.source.Source.revision` bumped: a reader that counted or drew
        the row does so again. Returns the summary as listed."""
        ref = self._refs[i]
        assert ref is not None  # a run's entry, not a problem's
        listed = replace(summary, ref=ref, index=i)
        self._table.put(i, listed)
        self._runs.forget()
        self.revision += 1
        return listed

    def add_problem(self, problem: Problem, *, row: bool = False) -> None:
        """Report a problem; with ``row`` it is also listed among the runs (a run that is
        listed somewhere but could not be read, for example). A problem that belongs to no
        run (no ``ref``) is always listed: no run's detail would show it."""
        self._problems.append(problem)
        if row or problem.ref is None:
            i = len(self._refs)
            self._refs.append(None)
            self._table.put(i, problem)
            self._loaders.append(None)

    def watch(self, path: str) -> None:
        """Remember a file's identity and size, for :meth:`changed`."""
        self._watched[path] = _identity(path)

    # -- Source --------------------------------------------------------------------------

    def scan(self) -> Iterator[ScanProgress]:
        """Read the source once. A scan from another thread waits for the one under way;
        a scan from the thread already scanning (``show`` resolving early) returns at
        once, leaving the entries read so far; a scan that was stopped starts over."""
        if self._loaded:
            yield ScanProgress(1, 1, len(self._refs), finished=True)
            return
        if not self._load_lock.acquire(blocking=False):
            if self._loading_thread == threading.get_ident():
                return
            with self._load_lock:
                pass
            yield ScanProgress(1, 1, len(self._refs), finished=self._loaded)
            return
        try:
            if not self._loaded:
                self._loading_thread = threading.get_ident()
                self._reset()
                try:
                    yield from self._load()
                except Exception as err:  # one unreadable source never loses the others
                    self.add_problem(
                        Problem(self.path, None, f"not read to the end: {_internal(err)}"),
                        row=True,
                    )
                self._loaded = True
        finally:
            self._loading_thread = None
            self._load_lock.release()
        yield ScanProgress(1, 1, len(self._refs), finished=True)

    def _ref_at(self, i: int) -> str | None:
        return self._refs[i] if 0 <= i < len(self._refs) else None

    def _reset(self) -> None:
        self._refs, self._loaders = [], []
        self._table = SummaryTable(self._ref_at)
        self._namer = DuplicateNamer()
        self._ref_map = self._namer.taken
        self._problems = []
        self._watched = {}
        self._runs.forget()

    def refresh(self) -> Iterator[ScanProgress]:
        """Forget everything and read the source again."""
        self._loaded = False
        yield from self.scan()

    def resolve(self, ref: str) -> Target:
        """Find what ``ref`` names, reading the source first if nobody has yet."""
        if not self._loaded:
            for _ in self.scan():
                pass
        return super().resolve(ref)

    @property
    def complete(self) -> bool:
        return self._loaded

    def forget_cache(self) -> None:
        self._runs.forget()

    def changed(self) -> str | None:
        for path, ident in list(self._watched.items()):
            now = _identity(path)
            if now != ident:
                return "deleted" if now is None else "changed"
        return None

    def __len__(self) -> int:
        return len(self._refs)

    def entry(self, i: int, *, keep: bool = True) -> Entry:
        if not 0 <= i < len(self._refs):
            raise IndexError(i)
        entry = self._table.get(i)
        assert entry is not None  # every entry is listed whole
        return entry

    def _make_run(self, i: int, entry: RunSummary) -> Run:
        loader = self._loaders[i]
        assert loader is not None
        try:
            run = loader(entry.ref)
        except OSError as err:
            raise LoadError(
                Problem(self.path, None, f"cannot read {entry.ref}: {err.strerror or err}")
            ) from None
        except LoadError:
            raise
        except Exception as err:  # a run that cannot be built is a problem, not a crash
            raise LoadError(
                Problem(self.path, None, f"cannot read {entry.ref}: {_internal(err)}")
            ) from None
        return run

    def find(self, run_ref: str) -> int | None:
        return self._ref_map.get(run_ref)

    def run_refs(self) -> list[str]:
        return [ref for ref in self._refs if ref is not None]

    def problems(self) -> list[Problem]:
        return list(self._problems)


def _internal(err: Exception) -> str:
    """One line for an unexpected error while reading a source."""
    text = " ".join(str(err).split())[:200]
    return f"internal error ({type(err).__name__}{': ' + text if text else ''})"


def _identity(path: str) -> tuple[int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)
