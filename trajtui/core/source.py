"""Sources: one opened file or directory, its format, its runs and its problems.

A :class:`Source` is what the CLI and the UI hold. Its runs are *entries*: entry ``i`` is a
:class:`~trajtui.core.model.RunSummary` (cheap, for lists) or a
:class:`~trajtui.core.model.Problem` (a record that could not be read, shown as a marked
row); :meth:`Source.run` loads the whole run. Big JSONL sources index themselves in
:meth:`Source.scan`, a generator a thread drives; entries exist as soon as the scan passes
them.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from trajtui.core.jsonl.index import LineIndex, ScanProgress
from trajtui.core.jsonl.table import SummaryTable
from trajtui.core.model import Problem, Run, RunSummary, Step
from trajtui.core.refs import NoSuchRun, RefError, RefParts, nearby, readings

if TYPE_CHECKING:
    from trajtui.core.jsonl.rowjobs import Row
    from trajtui.core.jsonl.rowpool import RowFiller


@dataclass(frozen=True, slots=True)
class FormatInfo:
    """A format trajtui reads.

    Attributes:
        id: Stable id (``acp-capture``), used in ``--json`` output.
        name: Human name (``acp-harness capture``).
    """

    id: str
    name: str


@dataclass(frozen=True, slots=True)
class Target:
    """What a reference resolved to.

    Attributes:
        source: The source holding it.
        index: The run's entry index in the source.
        ref: The canonical reference.
        attempt: Trial number, when the reference names a trial or a step of one.
        step: The step's 1-based position in its timeline (``step-N`` names the step whose
            number is N; most formats number steps by position, some as their file does).
        segment: ``(WORD, KEY)`` of a segment the source's format resolved (forecast:
            ``("msg", "A3")``, ``("src", "S3")``).
        item: Sample id.
    """

    source: Source
    index: int
    ref: str
    attempt: int | None = None
    step: int | None = None
    segment: tuple[str, str] | None = None
    item: str | None = None

    @property
    def kind(self) -> str:
        """``run``, ``trial``, ``step``, ``item``, or what the source calls its segment
        (forecast: ``message``, ``source``)."""
        if self.step is not None:
            return "step"
        if self.segment is not None:
            return self.source.segments.get(self.segment[0], self.segment[0])
        if self.item is not None:
            return "item"
        if self.attempt is not None:
            return "trial"
        return "run"


class LoadError(Exception):
    """A run could not be loaded; ``problem`` says why and where."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem


Entry = RunSummary | Problem


class RowDecoder(Protocol):
    """A source's ability to decode its run-list rows on every core, in file order
    (:meth:`Source.row_decoder`; :mod:`trajtui.core.rows` drives it).

    Attributes:
        misread_key: The first record whose key, taken from its line's head while checks
            were deferred without correction, proved wrong (None: none did).
    """

    misread_key: int | None

    def defer_key_checks(self, *, correct: bool = True) -> None:
        """Check each record's key when its row is read rather than while indexing (for a
        reader of every row in file order); ``correct``: a wrong key found then renames the
        records from it on (else :attr:`misread_key` says which, and nothing changes)."""
        ...

    def read_whole(self) -> None:
        """Every row will be read, in file order, at once (a command line's reading): a
        file not read before may be indexed and its rows made together, by pieces."""
        ...

    def filler(self, start: int = 0) -> RowFiller | None:
        """A reader of the rows from record ``start`` on, decoding on every core."""
        ...

    def take(self, i: int, row: Row, *, keep: bool = True) -> Entry:
        """Entry ``i`` from a row the filler decoded (``keep``: remember it)."""
        ...


@dataclass(frozen=True, slots=True)
class LiteInput:
    """A source's ability to give a record's whole input without building its run
    (:meth:`Source.lite_input`): the run-list filter's words are looked for in it.

    Attributes:
        struct: The ``msgspec.Struct`` type decoding just the fields the input is in.
        text: The input as text, from those fields decoded (a dict).
    """

    struct: Any
    text: Callable[[dict[str, Any]], str]


class Source(ABC):
    """One opened file or directory of one format.

    Attributes:
        path: The path as the user named it (or relative to the directory they opened).
        format: The format.
        label: Short name used to qualify references when several sources are open.
    """

    path: str
    format: FormatInfo
    label: str

    # -- optional abilities (a source that has one overrides its default) --------------

    follows_appends: ClassVar[bool] = False
    """Records appended to the file are read by scanning again from where the last scan
    stopped (:meth:`changed` says ``appended``): the source is followed as it grows,
    rather than read again whole."""

    partial_rows: bool = False
    """Set by a reader that revises the rows it shows (the TUI) before the scan: a source
    whose run is read whole before its row is known (a session file, a big JSON document)
    then lists it at once, its row the figures so far (the row says it is partial),
    replaced as the reading goes on. Left off, only final rows are listed (``ls`` prints each row once)."""

    one_run: bool = False
    """Set before the scan by a reader that wants the runs it names, not the rows
    (``show``, ``diff``, ``export`` and ``notes`` of references: the CLI's
    ``resolve_streaming``): a source that reads each run once more while listing, only for
    its row's counts (an Inspect ``.eval``: each sample), lists its rows without that pass;
    a run wanted is read whole when it is opened, its figures its own. Left off, rows are
    counted as ``ls``, ``stats`` and the TUI show them."""

    started: float | None = None
    """When the run the source holds started (epoch seconds), where its format knows it at
    open, cheaply (a session file's first timestamp): a folder's sources that tell it are
    listed newest first (:func:`~trajtui.core.opening.open_dir`); the others keep their
    place."""

    revision: int = 0
    """Bumped each time an entry already listed is replaced (a partial row revised): a
    reader that counted or drew it does so again."""

    def own_refs(self) -> tuple[str, ...] | None:
        """The references of its runs when they are unique on their own and known at open
        (a session file's id): with several sources open they are shown and taken without
        ``SOURCE::`` (:meth:`~trajtui.core.workspace.Workspace.ref`), unless another open
        source gives one of them too. None (most sources): qualified by its label."""
        return None

    def line_of(self, i: int) -> int | None:
        """The line of the file entry ``i`` starts on, known without reading it (sources
        of one record a line); None where entries are not lines of one file."""
        return None

    def ref_of(self, i: int) -> str | None:
        """The reference of entry ``i`` known without reading it (from an index of keys);
        None when it is not known until the entry is read."""
        return None

    def row_decoder(self) -> RowDecoder | None:
        """Its rows decoded on every core, in file order (None: read with
        :meth:`entries`)."""
        return None

    def record_index(self) -> LineIndex | None:
        """Where each record lies in one file (byte ranges: a search reads blocks of
        records and looks in their raw bytes before parsing any); None when the runs are
        not records of one file."""
        return None

    def lite_input(self) -> LiteInput | None:
        """Each record's whole input, decoded without the rest of the record (None: the
        run is built to find its input)."""
        return None

    def want_step_facts(self) -> None:
        """Make each run's :meth:`step_facts` with its row from now on (``stats`` asks)."""

    def step_facts(self, i: int) -> Any:
        """What the statistics count of run ``i``'s steps, made with its row from only the
        fields they need (:class:`~trajtui.core.stats.facts.StepFacts`); None: read the
        run whole to count it."""
        return None

    # -- reading -------------------------------------------------------------------------

    def scan(self) -> Iterator[ScanProgress]:
        """Do the source's reading work, yielding progress. Small sources finish at once."""
        yield ScanProgress(1, 1, len(self), finished=True)

    @property
    def complete(self) -> bool:
        """Every entry is known (the scan finished)."""
        return True

    def cancel(self) -> None:
        """Stop a running scan."""

    def save_index(self) -> bool:
        """Keep what a full scan learned for the next open (sources with an index cache);
        True when something was written. Never raises."""
        return False

    def known_prefix(self) -> int:
        """Entries ``0 .. n-1`` are known (:meth:`peek` gives them without reading): ``n``
        (0 where the source cannot tell cheaply)."""
        return 0

    def close(self) -> None:
        """Release files."""

    @abstractmethod
    def __len__(self) -> int:
        """Entries known so far."""

    @abstractmethod
    def entry(self, i: int, *, keep: bool = True) -> Entry:
        """Entry ``i``: a run summary or a problem row (``keep``: remember it)."""

    _table: SummaryTable
    """The catalogue of entries known so far, by index, kept by column (every source keeps
    its run summaries and problem rows there; a subclass makes it)."""

    @property
    def table(self) -> SummaryTable:
        """The catalogue of entries (read only: for sorting and filtering by column)."""
        return self._table

    def peek(self, i: int) -> Entry | None:
        """Entry ``i`` if it is already known, without reading anything (for drawing)."""
        return self._table.get(i)

    def row_kind(self, i: int) -> int:
        """What entry ``i`` is, without reading anything or building it:
        :data:`~trajtui.core.jsonl.table.EMPTY` (not read yet), ``RUN`` or ``PROBLEM``."""
        return self._table.kind(i)

    def row_value(self, i: int, name: str) -> Any:
        """One field of run entry ``i`` (a :class:`RunSummary` field name), without building
        the summary (sorting and filtering millions of rows)."""
        return self._table.value(i, name)

    def entries(self, lo: int, hi: int, *, keep: bool = True) -> list[Entry]:
        """Entries ``lo`` up to ``hi`` (excluded): at least one, maybe fewer than asked.
        Sources that can read several entries at once (one read of a JSONL file) do."""
        return [self.entry(lo, keep=keep)]

    _runs: RunCache
    """The last runs built whole (a subclass makes it, sized for its runs)."""

    def run(self, i: int) -> Run:
        """Load run ``i`` whole (kept among the last few built).

        Raises:
            LoadError: Entry ``i`` is a problem, or the run can no longer be read.
        """
        entry = self.entry(i)
        if isinstance(entry, Problem):
            raise LoadError(entry)
        cached = self._runs.get(i)
        if cached is not None:
            return cached
        run = self._make_run(i, entry)
        self._runs.put(i, run)
        return run

    @abstractmethod
    def _make_run(self, i: int, entry: RunSummary) -> Run:
        """Build run ``i``, listed as ``entry``, from the data.

        Raises:
            LoadError: The run can no longer be read, or cannot be built.
        """

    @abstractmethod
    def find(self, run_ref: str) -> int | None:
        """Entry index of the run called ``run_ref``, among the entries known so far."""

    @abstractmethod
    def run_refs(self) -> list[str]:
        """References of the runs known so far (for "did you mean")."""

    @abstractmethod
    def problems(self) -> list[Problem]:
        """Problems found so far, in file order."""

    def changed(self) -> str | None:
        """How the data on disk changed since it was read, or None."""
        return None

    def refresh(self) -> Iterator[ScanProgress]:
        """Read the source again after :meth:`changed` said it moved on."""
        yield from self.scan()

    def forget_cache(self) -> None:
        """Drop runs kept in memory (the file changed: read them again, or fail)."""

    # -- references ----------------------------------------------------------------------

    def resolve(self, ref: str) -> Target:
        """Find what ``ref`` names.

        Raises:
            RefError: Nothing has that reference; the message names what exists nearby.
        """
        errors: list[str] = []
        for parts in readings(ref):
            index = self._run_index(parts)
            if index is None:
                continue
            try:
                return self._target(index, parts)
            except RefError as err:
                errors.append(str(err))
        if errors:
            raise RefError(errors[0])
        stored = self.find_stored_step(ref)
        if stored is not None:
            return stored
        raise NoSuchRun(self._no_run_message(ref))

    def find_stored_step(self, ref: str) -> Target | None:
        """A step whose id stored in the file is ``ref`` (formats that store step ids)."""
        return None

    segments: dict[str, str] = {}
    """Reference segments this source's format resolves (``WORD`` of ``RUN/WORD:KEY``), with
    what each names (forecast: ``{"msg": "message", "src": "source"}``)."""

    def resolve_segment(self, index: int, run: Run, word: str, key: str) -> Target:
        """Resolve ``RUN/WORD:KEY`` in run ``index`` (loaded as ``run``).

        Raises:
            RefError: The run has no such thing; the message names what exists nearby.
        """
        have = ", ".join(f"{w}:" for w in self.segments)
        what = f"its references are steps and {have}" if have else "its references are steps"
        raise RefError(f"{run.ref} has nothing called {word}:{key} ({what})")

    def _run_index(self, parts: RefParts) -> int | None:
        if parts.run is None:
            return 0 if len(self) == 1 and isinstance(self.entry(0), RunSummary) else None
        return self.find(parts.run)

    def _no_run_message(self, ref: str) -> str:
        near = nearby(ref, self.run_refs())
        base = f"no run, trial or step called {ref!r}"
        if near:
            return f"{base}; nearby: {', '.join(near)}"
        count = len(self)
        return f"{base} ({count:,} runs)" if count else f"{base} (it has no runs)"

    def _target(self, index: int, parts: RefParts) -> Target:
        """Check the parts of a reference against run ``index`` and build the target."""
        if (
            parts.attempt is None
            and parts.step is None
            and parts.segment is None
            and parts.item is None
        ):
            entry = self.entry(index)
            if isinstance(entry, Problem):
                raise RefError(f"{parts.run} is on a line that could not be read: {entry}")
            return Target(self, index, entry.ref)
        try:
            run = self.run(index)
        except LoadError as err:
            raise RefError(
                f"{parts.run} is on a line that could not be read: {err.problem}"
            ) from None
        return target_in_run(self, index, run, parts)


def target_in_run(source: Source, index: int, run: Run, parts: RefParts) -> Target:
    """Resolve the parts of a reference below the run level (trial, step, message...)."""
    if parts.attempt is not None:
        attempt = run.attempt(parts.attempt)
        if attempt is None:
            have = ", ".join(a.ref for a in run.attempts[:3])
            more = f" ... {run.attempts[-1].ref}" if len(run.attempts) > 3 else ""
            what = (
                f"it has {len(run.attempts)} trials: {have}{more}"
                if run.attempts
                else "it has no trials"
            )
            raise RefError(f"{run.ref} has no trial {parts.attempt}; {what}")
        if parts.step is None:
            return Target(source, index, attempt.ref, attempt=attempt.number)
        position, step = _step(attempt.steps, parts.step, attempt.ref)
        return Target(source, index, step.ref, attempt=attempt.number, step=position)
    if parts.step is not None:
        if run.attempts and not run.steps:
            first = run.attempts[0]
            raise RefError(
                f"{run.ref} is a trials record: name a trial's step, e.g. {first.ref}/step-{parts.step}"
            )
        position, step = _step(run.steps, parts.step, run.ref)
        return Target(source, index, step.ref, step=position)
    if parts.segment is not None:
        return source.resolve_segment(index, run, *parts.segment)
    if parts.item is not None:
        for position, step in enumerate(run.steps, 1):
            if step.stored_id == parts.item:
                return Target(source, index, step.ref, step=position)
        raise RefError(f"{run.ref} has no item {parts.item!r}")
    return Target(source, index, run.ref)


def _step(steps: Sequence[Step], number: int, owner: str) -> tuple[int, Step]:
    """The step whose number is ``number`` and its 1-based position in ``steps``."""
    if 1 <= number <= len(steps) and steps[number - 1].number == number:
        return number, steps[number - 1]
    for position, step in enumerate(steps, 1):  # numbered as the file does, not by position
        if step.number == number:
            return position, step
    if not steps:
        raise RefError(f"{owner} has no steps")
    raise RefError(
        f"{owner} has no step {number}; it has {len(steps)} steps: {steps[0].ref} ... {steps[-1].ref}"
    )


class RunCache:
    """The last few runs built whole, by entry index (thread-safe)."""

    def __init__(self, size: int) -> None:
        self._runs: OrderedDict[int, Run] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def get(self, i: int) -> Run | None:
        """Run ``i`` if it is kept."""
        with self._lock:
            run = self._runs.get(i)
            if run is not None:
                self._runs.move_to_end(i)
            return run

    def put(self, i: int, run: Run) -> None:
        """Keep run ``i`` (forgetting the oldest beyond the size)."""
        with self._lock:
            self._runs[i] = run
            if len(self._runs) > self._size:
                self._runs.popitem(last=False)

    def forget(self, i: int | None = None) -> None:
        """Forget run ``i``, or every run."""
        with self._lock:
            if i is None:
                self._runs.clear()
            else:
                self._runs.pop(i, None)
