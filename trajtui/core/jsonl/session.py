"""Files that are one run each, whose steps are the file's lines (a coding agent's session
log: Claude Code, Codex CLI), read at any size through the big-file engine.

A format of such files gives a :class:`SessionFormat`; :class:`SessionSource` does the rest:

* **Reading and the fold.** The file is read once in the background, in 4 MB chunks
  (:class:`~trajtui.core.jsonl.linestream.LineStream`: nothing parsed, nothing kept per
  line), and each line is handed once, in file order, as it is read, to the format's
  :class:`SessionFold` (``fold.add(line, state)``), which decodes only what it needs and
  keeps only small facts: counters for the run's summary, and in the
  :class:`SessionState` the lines it will need again (``state.keep``: offset, size and
  line number, 12 bytes), one row per step (``state.step``: the kept line it starts at,
  a part number within that line, a linked kept line such as a tool call's result: 12
  bytes), and problems (``state.problem``). A line the fold does not keep costs nothing
  once it is read; no parsed line is held by the engine.
* **The run's row.** ``len(source)`` is 0 until the fold has seen every line, then 1:
  entry 0 is ``fold.summary(ref, partial=False)`` (its ``index`` set here). While the
  scan runs, :meth:`SessionSource.partial` gives the summary so far (``partial=True``:
  the format says so in it). A reader that revises the rows it shows (the TUI) sets
  :attr:`~trajtui.core.source.Source.partial_rows`: the run is then listed (``len`` 1)
  as soon as a line is folded, its row the summary so far, revised (at most every
  :data:`PARTIAL_EVERY` seconds, and at the end; each revision bumps
  :attr:`~trajtui.core.source.Source.revision`) as the fold goes on.
* **Steps on demand.** :meth:`SessionSource.run` gives a :class:`~trajtui.core.model.Run`
  (``fmt.build``) whose ``steps`` is a :class:`LazySteps`: a ``Sequence[Step]`` whose
  items are built a window of rows at a time (``fmt.steps(ref, rows, read)``, ``read(k)``
  the parsed JSON of kept line ``k``, through a small cache), the last windows kept. A
  step's number is its 1-based position (``RUN/step-N``).
* **Follow and the index cache.** A file that grows is read on from where the scan
  stopped (a last line without a newline is never folded: it is a problem until it is
  finished). After a full scan the summary, the kept lines, the step rows and the problems
  go to the index cache (:mod:`trajtui.core.jsonl.sessioncache`); the next open of the
  unchanged file reads nothing but that entry.

Every method of a format here gets untrusted data and must never raise on it (a line it
cannot read is ``state.problem``).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from trajtui.core.io.jsonutil import JsonError, loads
from trajtui.core.io.openfiles import FileChanged
from trajtui.core.jsonl.intcolumn import IntColumn
from trajtui.core.jsonl.lazysteps import LazySteps
from trajtui.core.jsonl.linestream import Line as Line
from trajtui.core.jsonl.linestream import LineStream
from trajtui.core.jsonl.progress import ScanProgress
from trajtui.core.jsonl.table import SummaryTable
from trajtui.core.model import Problem, Run, RunSummary, Severity, Step
from trajtui.core.source import Entry, FormatInfo, RunCache, Source

LINES_KEPT = 256
"""Parsed lines kept for building steps (each window reads its own few)."""
LINE_BYTES_KEPT = 16 << 20
"""Parsed lines kept add up to at most this many bytes (as in the file)."""
MAX_PROBLEMS = 1000
"""Problems kept with their line; beyond them, one more says how many were not listed."""
PARTIAL_EVERY = 0.25
"""Seconds between two revisions of a partial row (:attr:`Source.partial_rows`)."""


@dataclass(frozen=True, slots=True)
class StepRow:
    """One step as the fold noted it.

    Attributes:
        position: The step's 0-based position in the timeline.
        line: The kept line (:meth:`SessionState.keep`) it starts at.
        part: What the format says about it within that line (a content block's index,
            a count of lines folded into it...).
        link: Another kept line it needs (a tool call's result), or -1.
    """

    position: int
    line: int
    part: int
    link: int


class SessionState:
    """What a fold keeps of the lines it reads: the lines it needs again, one row per step,
    and the problems. Columns of numbers (:class:`IntColumn`, 4 bytes an item while the
    values fit): 12 bytes a kept line (16 past 4 GB: its offset, size and line number), 12
    a step (its line, part and link), nothing for a line not kept; no object per line or
    step (a :class:`StepRow` is made when asked for)."""

    COLUMNS = ("offsets", "sizes", "numbers", "step_line", "step_part", "step_link")
    """The columns, in the index cache's order (:mod:`trajtui.core.jsonl.sessioncache`)."""
    SIGNED = frozenset(("step_line", "step_part", "step_link"))
    """The columns whose values may be negative (the others are unsigned)."""

    def __init__(self) -> None:
        self.offsets = IntColumn("I")
        self.sizes = IntColumn("I")
        self.numbers = IntColumn("I")
        self.step_line = IntColumn("i")
        self.step_part = IntColumn("i")
        self.step_link = IntColumn("i")
        self.problems: list[Problem] = []
        self.unlisted = 0
        self.path = ""

    def keep(self, line: Line) -> int:
        """Keep ``line`` for building steps; returns its kept number (for :meth:`step`)."""
        self.offsets.append(line.offset)
        self.sizes.append(len(line.data))
        self.numbers.append(line.number)
        return len(self.offsets) - 1

    def move_last(self, line: Line) -> None:
        """Make the last kept line ``line`` instead (a later one: the end of a stretch of
        lines the format keeps the two ends of)."""
        k = len(self.offsets) - 1
        self.offsets[k] = line.offset
        self.sizes[k] = len(line.data)
        self.numbers[k] = line.number

    def step(self, line: int, part: int = 0, link: int = -1) -> int:
        """Add a step starting at kept line ``line``; returns its 0-based position."""
        self.step_line.append(line)
        self.step_part.append(part)
        self.step_link.append(link)
        return len(self.step_line) - 1

    def link(self, step: int, line: int) -> None:
        """Link step ``step`` to kept line ``line`` (its result)."""
        self.step_link[step] = line

    def set_part(self, step: int, part: int) -> None:
        """Change what step ``step``'s part says (a stretch of lines that grew)."""
        self.step_part[step] = part

    @property
    def steps(self) -> int:
        """Steps noted so far."""
        return len(self.step_line)

    def problem(self, number: int, message: str, severity: Severity = Severity.ERROR) -> None:
        """A line that could not be read (or was read with a fix-up)."""
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(Problem(self.path, number, message, severity))
        else:
            self.unlisted += 1

    def nbytes(self) -> int:
        """Bytes the columns' items take (for the benchmark)."""
        return sum(getattr(self, name).nbytes() for name in self.COLUMNS)

    def row(self, position: int) -> StepRow:
        """Step row ``position``."""
        return StepRow(
            position,
            self.step_line[position],
            self.step_part[position],
            self.step_link[position],
        )


class SessionFold(Protocol):
    """What a format learns from one file, one line at a time (a new one per scan)."""

    def add(self, line: Line, state: SessionState) -> None:
        """Read one line (every line of the file, once, in order). Never raises."""
        ...

    def summary(self, ref: str, partial: bool) -> RunSummary | None:
        """The run's row from the lines read so far (``partial``: not every line yet);
        None when the lines read hold no run this fold lists (nothing is listed)."""
        ...


class SessionFormat(Protocol):
    """How a format of one-run files reads them. Formats implement this."""

    info: FormatInfo

    def fold(self, path: str) -> SessionFold:
        """A new fold for the file at ``path``."""
        ...

    def steps(self, ref: str, rows: Sequence[StepRow], read: Callable[[int], Any]) -> list[Step]:
        """The steps of ``rows`` (consecutive), one each, numbered by position + 1;
        ``read(k)`` is kept line ``k`` parsed (None when it cannot be read). Never raises."""
        ...

    def build(self, summary: RunSummary, steps: Sequence[Step], path: str) -> Run:
        """The run, from its row and its (lazy) steps."""
        ...


class SessionSource(Source):
    """One file that is one run: indexed, folded once in the background, steps on demand."""

    follows_appends = True

    def __init__(
        self,
        path: str,
        fmt: SessionFormat,
        ref: str,
        label: str | None = None,
        *,
        aliases: Sequence[str] = (),
        alone: bool = False,
        cache: bool = True,
    ) -> None:
        """Open ``path`` (nothing is read until :meth:`scan` runs); its run is called
        ``ref``, and answers to ``aliases`` too (the longer names it had); ``alone``: the
        format says ``ref`` is unique on its own (:meth:`Source.own_refs`); ``cache``
        False: never kept in the index cache (a second run read from the same file, whose
        entry is the first's).

        Raises:
            OSError: The file cannot be opened.
        """
        self.path = path
        self.fmt = fmt
        self.format = fmt.info
        self.label = label or path
        self.ref = ref
        self.aliases = tuple(a for a in aliases if a != ref)
        self.alone = alone
        self.stream = LineStream(path)
        self._table = SummaryTable(lambda i: ref if i == 0 else None)
        self._runs = RunCache(2)
        self._lock = threading.Lock()
        self._start()
        self._summary: RunSummary | None = None
        self._cache_tried = not cache
        self._cached = cache
        self.cache_mark: tuple[int, int] | None = None
        self._parsed: OrderedDict[int, tuple[Any, int]] = OrderedDict()
        self._parsed_bytes = 0

    def _start(self) -> None:
        self.state = SessionState()
        self.state.path = self.path
        self._fold = self.fmt.fold(self.path)
        self._from_cache = False
        self._tail: Problem | None = None
        self._partial: RunSummary | None = None  # the row listed while folding
        self._finished = False  # the fold saw every line (its row may be None: no run)
        self._partial_at = 0.0

    # -- scanning ------------------------------------------------------------------------

    def scan(self) -> Iterator[ScanProgress]:
        """Index and fold the file (or what was appended since the last scan); the first
        scan of an unchanged file is restored from the index cache instead."""
        from trajtui.core.jsonl import sessioncache

        if not self._cache_tried:
            self._cache_tried = True
            if sessioncache.restore(self):
                size = self.stream.size
                yield ScanProgress(size, size, 1, finished=True)
                return
        if self._from_cache:
            if self.stream.stat_changed() is None:  # scanned again, unchanged: nothing to read
                size = self.stream.size
                yield ScanProgress(size, size, 1, finished=True)
                return
            # restored from the cache and changed since: read it all again
            self._reset()
        fold, state = self._fold, self.state

        def add(line: Line) -> None:
            fold.add(line, state)

        for progress in self.stream.scan(add):
            self._list_partial()
            if progress.finished:
                self._finish()
            yield progress

    def _reset(self) -> None:
        with self._lock:
            self.stream.close()
            self.stream = LineStream(self.path)
            self._start()
        self._forget()  # takes the lock itself

    def _list_partial(self) -> None:
        """List the run as read so far, when the reader revises rows (throttled)."""
        if not self.partial_rows or self._summary is not None or not self.stream.count:
            return
        now = time.monotonic()
        if self._partial is not None and now - self._partial_at < PARTIAL_EVERY:
            return
        said = self._fold.summary(self.ref, True)
        if said is None:
            return
        row = replace(said, ref=self.ref, index=0)
        with self._lock:  # (the scan's thread also finishes it: no race with _finish)
            self._partial, self._partial_at = row, now
            self._table.put(0, row)
            self._runs.forget()
            self.revision += 1

    def _finish(self) -> None:
        last = self.stream.tail
        tail = None
        if last is not None:
            try:
                loads(self.stream.read_exact(last.size, last.offset))
                message = "last line has no newline yet (still being written?): not read"
                tail = Problem(self.path, last.number, message, Severity.WARNING)
            except (JsonError, OSError, FileChanged):
                message = "truncated last line (no newline: still being written?): not read"
                tail = Problem(self.path, last.number, message)
        summary = self._fold.summary(self.ref, False)
        with self._lock:
            self._tail = tail
            self._finished = True
            if summary is not None:
                self._summary = replace(summary, ref=self.ref, index=0)
                self._table.put(0, self._summary)
            self._runs.forget()
            if self._partial is not None:
                self._partial = None
                self.revision += 1

    def restored(self, summary: RunSummary) -> None:
        """The index cache gave the whole run (:mod:`trajtui.core.jsonl.sessioncache`)."""
        with self._lock:
            self._from_cache = True
            self._summary = replace(summary, ref=self.ref, index=0)
            self._table.put(0, self._summary)

    def partial(self) -> RunSummary | None:
        """The run's row from what the scan has read so far (the format says it is
        partial), or the whole row once the scan is done; None when the file holds no run
        the format lists."""
        if self._summary is not None:
            return self._summary
        said = self._fold.summary(self.ref, True)
        return None if said is None else replace(said, ref=self.ref, index=0)

    @property
    def complete(self) -> bool:
        done = self._summary is not None or self._finished
        return done and (self.stream.complete or self._from_cache)

    def cancel(self) -> None:
        self.stream.cancel()

    def close(self) -> None:
        self.stream.close()

    def changed(self) -> str | None:
        return self.stream.stat_changed()

    def forget_cache(self) -> None:
        self._forget()

    def _forget(self) -> None:
        self._runs.forget()
        with self._lock:
            self._parsed.clear()
            self._parsed_bytes = 0

    def save_index(self) -> bool:
        from trajtui.core.jsonl import sessioncache

        return self._cached and sessioncache.save(self)

    def known_prefix(self) -> int:
        return len(self)

    # -- entries -------------------------------------------------------------------------

    def __len__(self) -> int:
        return 1 if self._summary is not None or self._partial is not None else 0

    def entry(self, i: int, *, keep: bool = True) -> Entry:
        summary = self._summary or self._partial
        if i != 0 or summary is None:
            raise IndexError(i)
        return summary

    def _make_run(self, i: int, entry: RunSummary) -> Run:
        steps = LazySteps(self, entry.ref, self.state, self.state.steps)
        return self.fmt.build(entry, steps, self.path)

    def find(self, run_ref: str) -> int | None:
        if not len(self):
            return None
        return 0 if run_ref == self.ref or run_ref in self.aliases else None

    def own_refs(self) -> tuple[str, ...] | None:
        return (self.ref, *self.aliases) if self.alone else None

    def run_refs(self) -> list[str]:
        return [self.ref] if len(self) else []

    def problems(self) -> list[Problem]:
        state = self.state
        found = [replace(p, ref=self.ref) for p in state.problems]
        if state.unlisted:
            found.append(
                Problem(self.path, None, f"{state.unlisted:,} more lines could not be read")
            )
        if self._tail is not None:
            found.append(self._tail)
        return found

    # -- lines ---------------------------------------------------------------------------

    def read_kept(self, k: int) -> Any:
        """Kept line ``k`` parsed (None when it cannot be read), through a small cache."""
        with self._lock:
            got = self._parsed.get(k)
            if got is not None:
                self._parsed.move_to_end(k)
                return got[0]
        state = self.state
        if not 0 <= k < len(state.offsets):
            return None
        size = state.sizes[k]
        try:
            data = self.stream.pread(size, state.offsets[k])
            if len(data) < size:
                return None
            value, _ = loads(data)
        except (OSError, FileChanged, JsonError):
            return None
        if size <= LINE_BYTES_KEPT // 4:
            with self._lock:
                self._parsed[k] = (value, size)
                self._parsed_bytes += size
                while len(self._parsed) > LINES_KEPT or self._parsed_bytes > LINE_BYTES_KEPT:
                    _, (_, dropped) = self._parsed.popitem(last=False)
                    self._parsed_bytes -= dropped
        return value

    def kept_line(self, k: int) -> int | None:
        """The 1-based line number of kept line ``k``."""
        numbers = self.state.numbers
        return numbers[k] if 0 <= k < len(numbers) else None
