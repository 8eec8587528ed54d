"""A source whose runs are each one JSON document (a trajectory file), read in one pass
that keeps numbers, listed partial while a big one is read.

A format gives :class:`DocumentRuns` two things: how a file is read (:meth:`~DocumentRuns._begin`,
a :class:`Reading`: an iterator of the bytes read so far, the run read so far, and the whole
of it) and how what was read becomes a run (:meth:`~DocumentRuns._run`). The source lists
each file's run with :meth:`~DocumentRuns._list`: once, whole, when it is read in less than
:data:`~trajtui.core.static_source.PARTIAL_AFTER` seconds or when the reader does not revise
rows (``ls``); else partial, status :data:`READING`, revised as the reading goes on (the
TUI). A run listed and then opened is read once: the last file read is kept while it stays
the same, and a run opened while its file is being listed is the part read so far.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import replace
from functools import partial
from typing import Generic, Protocol, TypeVar

from trajtui.core.io import safeio
from trajtui.core.io.discover import inside
from trajtui.core.io.jsondoc import ENDS_EARLY, DocumentScan, Visitor, last_line
from trajtui.core.jsonl.index import ScanProgress
from trajtui.core.model import Outcome, Problem, Run, RunSummary, Severity
from trajtui.core.source import FormatInfo, LoadError
from trajtui.core.static_source import PARTIAL_AFTER, PARTIAL_EVERY, StaticSource

READING = "reading"
"""A partial row's status (still being read), as session formats say it."""


class Unreadable(Exception):
    """The file is not a trajectory: ``line`` (or None) and a one-line ``message``."""

    def __init__(self, line: int | None, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


class Read(Protocol):
    """What one pass over a document keeps (a format's numbers per item)."""

    @property
    def warning(self) -> str | None:
        """Something tolerated while decoding (invalid UTF-8...), or None."""
        ...

    @property
    def steps(self) -> int:
        """Items read so far that make steps (0: nothing worth listing yet)."""
        ...


R = TypeVar("R", bound=Read)
R_co = TypeVar("R_co", bound=Read, covariant=True)
X = TypeVar("X")


class Reading(Protocol[R_co]):
    """One pass over a document: iterating yields the bytes read so far."""

    def __iter__(self) -> Iterator[int]: ...

    def partial(self) -> R_co | None:
        """What was read so far (None: not enough to show)."""
        ...

    def finish(self) -> R_co:
        """All of it.

        Raises:
            Unreadable: It is not a trajectory.
        """
        ...


class Opened(Protocol):
    """What a reading records of the file it opens (a format's lean run)."""

    path: str
    ident: tuple[int, int]
    size: int


class ScanReading:
    """The pass a :class:`Reading` makes over one document: :meth:`_scan_file` opens the
    file (its identity and size recorded on ``lean``), streams the ``arrays`` it names to
    ``visit`` and yields the bytes read so far; :attr:`_scan` is the scan (what
    :meth:`~Reading.partial` reads between two items), :attr:`_error` where and why it
    stopped short once it ends (a document cut short: at its last line, blanks included)."""

    _scan: DocumentScan | None = None
    _error: tuple[int, str] | None = None

    def _scan_file(self, lean: Opened, arrays: frozenset[str], visit: Visitor) -> Iterator[int]:
        with safeio.open_regular(lean.path) as f:
            lean.ident, lean.size = f.ident, f.size
            self._scan = DocumentScan(f, arrays=arrays, visit=visit, spans=False)
            yield from self._scan
            error = self._scan.scanned.error
            if error is not None and error[1].endswith(ENDS_EARLY):
                error = (last_line(f, f.size), error[1])
            self._error = error


class _Steps(Protocol):
    @property
    def steps(self) -> object:
        """Its steps (or how many): nothing worth listing while false."""
        ...


S = TypeVar("S", bound=_Steps)


def revisions(
    reading: Iterable[int],
    so_far: Callable[[], S | None],
    partial: Callable[[S], None] | None,
    every: float,
    after: float,
) -> Iterator[int]:
    """Iterate ``reading`` (a document read in one pass, giving the bytes read so far),
    giving ``partial`` what ``so_far()`` makes of it once it has been read for ``after``
    seconds (a file read sooner is never partial), then at most every ``every`` seconds (or
    four times as long as making it took), yielding the bytes read after each revision."""
    due = time.monotonic() + after
    for at in reading:
        if partial is not None and time.monotonic() >= due:
            began = time.monotonic()
            got = so_far()
            if got is not None and got.steps:
                partial(got)
                now = time.monotonic()
                due = now + max(every, 4 * (now - began))
                yield at


class DocumentRuns(StaticSource, Generic[R, X]):
    """Runs of one document each, under :attr:`root_real` (files outside it are not
    read). ``X`` is what a format adds to a run from beside its file (a prediction)."""

    root_real: str

    def __init__(self, path: str, fmt: FormatInfo, label: str | None = None) -> None:
        super().__init__(path, fmt, label)
        self._last: tuple[tuple[object, ...], R] | None = None
        self._reading: tuple[str, R] | None = None  # the partial run being listed

    # -- for formats ----------------------------------------------------------------------

    def _begin(self, path: str) -> Reading[R]:
        """Start reading the document at ``path``."""
        raise NotImplementedError

    def _run(self, ref: str, read: R, path: str, extra: X | None) -> Run:
        """The run of what was read of ``path`` (a part of it, or all)."""
        raise NotImplementedError

    def _extra(self, path: str, extra: X | None) -> X | None:
        """What is added to the run of ``path`` (``extra``, as listed, by default)."""
        return extra

    # -- the reading ----------------------------------------------------------------------

    def _traj(self, path: str) -> R:
        """The document at ``path`` read in one pass; while the scan lists it partial, what
        was read so far; the last one read is kept while its file stays the same."""
        reading = self._reading
        if reading is not None and reading[0] == path:
            return reading[1]
        read = self._read(path, None)
        while True:
            try:
                next(read)
            except StopIteration as done:
                return done.value

    def _read(self, path: str, partial_run: Callable[[R], None] | None) -> Generator[int, None, R]:
        """Read the document at ``path``, yielding the bytes read now and then, and giving
        ``partial_run`` what was read so far (once it has been read for
        :data:`PARTIAL_AFTER` seconds, then at most every :data:`PARTIAL_EVERY`).

        Raises:
            Unreadable: It is not a trajectory (or outside the opened directory).
            OSError: It cannot be read.
        """
        if not inside(self.root_real, path):
            raise Unreadable(None, "outside the opened directory (not read)")
        self.watch(path)
        st = os.stat(path)
        key = (path, st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
        last = self._last
        if last is not None and last[0] == key:
            return last[1]
        reading = self._begin(path)
        yield from revisions(reading, reading.partial, partial_run, PARTIAL_EVERY, PARTIAL_AFTER)
        done = reading.finish()
        self._last = (key, done)
        return done

    def _list(self, path: str, ref: str, extra: X | None) -> Iterator[ScanProgress]:
        """List the run of ``path``; when the reader revises rows, listed partial once it
        has been read for :data:`PARTIAL_AFTER` seconds (a big one), revised as read."""
        extra = self._extra(path, extra)
        listed: RunSummary | None = None
        read_so_far: RunSummary | None = None

        def revise(so_far: R) -> None:
            nonlocal listed, read_so_far
            read_so_far = self._run(ref, so_far, path, extra).summary
            row = replace(read_so_far, status=READING, outcome=Outcome.RUNNING)
            self._reading = (path, so_far)
            if listed is None:
                listed = self.add_run(row, partial(self._build, path, extra))
            else:
                listed = self.revise_run(listed.index, row)

        problem: Problem | None = None
        try:
            read = self._read(path, revise if self.partial_rows else None)
            while True:
                try:
                    at = next(read)
                except StopIteration as end:
                    done: R = end.value
                    break
                yield ScanProgress(at, max(1, os.path.getsize(path)), len(self), finished=False)
        except Unreadable as err:
            problem = Problem(path, err.line, err.message, ref=ref)
        except OSError as err:
            problem = Problem(path, None, f"cannot read: {err.strerror or err}", ref=ref)
        finally:
            self._reading = None
        if problem is not None:
            if listed is not None and read_so_far is not None:  # what preceded the break
                self.revise_run(listed.index, read_so_far)
                self.add_problem(replace(problem, ref=listed.ref))
            else:
                self.add_problem(problem, row=True)
            return
        if done.warning:
            self.add_problem(Problem(path, None, done.warning, Severity.WARNING, ref=ref))
        summary = self._run(ref, done, path, extra).summary
        if listed is None:
            self.add_run(summary, partial(self._build, path, extra))
        else:
            self.revise_run(listed.index, summary)

    def _build(self, path: str, extra: X | None, ref: str) -> Run:
        try:
            done = self._traj(path)
        except Unreadable as err:
            raise LoadError(Problem(path, err.line, err.message, ref=ref)) from None
        return self._run(ref, done, path, extra)
