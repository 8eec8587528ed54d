"""The search of every text of every run of the opened sources, streamed as hits are found.

A JSONL source is read in big blocks of whole records; the needle's prefilter runs on the raw
bytes, and only the records it finds are parsed and their texts searched (a needle without a
prefilter has every record parsed). Other sources (directories) have each run loaded and
searched. Hits, progress and unreadable records come out of :meth:`Search.events` as they are
found; :meth:`Search.cancel` stops it from another thread.
"""

from __future__ import annotations

import time
from bisect import bisect_right
from collections.abc import Callable, Container, Iterator, Sequence
from dataclasses import dataclass

from trajtui.core.jsonl.index import FileChanged, LineIndex
from trajtui.core.model import Problem, Run, RunSummary
from trajtui.core.search.needle import Needle, Prefilter
from trajtui.core.search.snippet import Snippet, snippet
from trajtui.core.search.texts import run_texts
from trajtui.core.source import LoadError, Source

BLOCK = 16 << 20
"""Bytes of a JSONL file read at once (whole records; a bigger record is read alone)."""
PROGRESS_EVERY = 0.1
"""Seconds between two progress events."""

RunPredicate = Callable[[Run], bool]
"""Which runs to search (``--where``): True for a run whose texts are searched."""


@dataclass(frozen=True, slots=True)
class Hit:
    """One match.

    Attributes:
        ref: The reference of what it is in (a step, a trial, a forecast message, the run),
            qualified as the workspace shows it: ``show`` and ``--goto`` open it.
        run: The run's reference (qualified).
        field: The field it is in (``tool output``, ``message``, ``input``...).
        kind: The field's kind, as ``--in`` names them.
        start: Where the match starts in the field's text (characters).
        end: Where it ends.
        snippet: A line of context with the match.
        path: The file the run was read from.
        line: The record's line in a JSONL file, else None.
        source: Position of the run's source among those searched.
        index: The run's entry index in its source.
        occurrence: 0 for the first match in its field's text, 1 for the next...
        matched: The text matched, as in the field (its first 500 characters).
    """

    ref: str
    run: str
    field: str
    kind: str
    start: int
    end: int
    snippet: Snippet
    path: str
    line: int | None
    source: int
    index: int
    occurrence: int = 0
    matched: str = ""

    def to_json(self) -> dict[str, object]:
        """The hit as a JSON object (``grep --json``)."""
        return {
            "ref": self.ref,
            "run": self.run,
            "field": self.field,
            "kind": self.kind,
            "start": self.start,
            "end": self.end,
            "snippet": self.snippet.text,
            "match": [self.snippet.start, self.snippet.end],
            "path": self.path,
            "line": self.line,
        }


@dataclass(frozen=True, slots=True)
class Progress:
    """How far a search has got.

    Attributes:
        bytes_done: Bytes of JSONL files read.
        bytes_total: Bytes of the JSONL files searched.
        runs_done: Runs (records) passed.
        runs_total: Runs (records) known in all the sources searched.
        hits: Hits so far.
        runs_hit: Runs with at least one hit so far.
        parsed: Records parsed (those the prefilter let through, and every run of a
            directory source).
        finished: The search ended (all searched, or cancelled).
        cancelled: It was cancelled.
    """

    bytes_done: int
    bytes_total: int
    runs_done: int
    runs_total: int
    hits: int
    runs_hit: int
    parsed: int
    finished: bool = False
    cancelled: bool = False

    @property
    def fraction(self) -> float:
        """Share of the work done, 0.0 to 1.0 (by bytes when there are JSONL files)."""
        if self.bytes_total:
            return min(1.0, self.bytes_done / self.bytes_total)
        return 1.0 if not self.runs_total else min(1.0, self.runs_done / self.runs_total)


Event = Hit | Progress | Problem
"""What a search yields: a hit, its progress, or a record that may hold a match but could
not be read."""


class Search:
    """One search of some sources (each searched as far as it is indexed)."""

    def __init__(
        self,
        sources: Sequence[Source],
        needle: Needle,
        *,
        kinds: Container[str] | None = None,
        where: RunPredicate | None = None,
        qualify: Callable[[Source, str], str] | None = None,
        skip: Callable[[int, int], bool] | None = None,
    ) -> None:
        """Args:
        sources: What to search, in order.
        needle: What to look for.
        kinds: Only fields of these kinds (``--in``); None: every field.
        where: Only runs for which this is True (``--where``); None: every run.
        qualify: The reference shown for a reference of a source (``SOURCE::REF`` when
            several are open); None: as is.
        skip: True for ``(source position, entry index)`` of a run not to search (read
            nothing of it: the caller knows its answer already).
        """
        self.sources = list(sources)
        self.needle = needle
        self.kinds = kinds
        self.where = where
        self.skip = skip
        self.qualify = qualify or (lambda _source, ref: ref)
        self.cancelled = False
        self.hits = 0
        self.runs_hit = 0
        self.parsed = 0
        self._bytes_done = 0
        self._runs_done = 0
        self._last = 0.0

    def _cancelled(self) -> bool:
        """:meth:`cancel` was called (another thread may call it at any time)."""
        return self.cancelled

    def cancel(self) -> None:
        """Stop the search (from any thread): :meth:`events` ends at its next block or run."""
        self.cancelled = True

    def _totals(self) -> tuple[int, int]:
        total_bytes = 0
        for s in self.sources:
            index = s.record_index()
            if index is not None and len(s):
                total_bytes += index.starts[len(s) - 1] + index.length(len(s) - 1)
        return total_bytes, sum(len(s) for s in self.sources)

    def progress(self, *, finished: bool = False) -> Progress:
        """Where the search is now."""
        total_bytes, total_runs = self._totals()
        return Progress(
            self._bytes_done,
            total_bytes,
            self._runs_done,
            total_runs,
            self.hits,
            self.runs_hit,
            self.parsed,
            finished=finished,
            cancelled=self.cancelled,
        )

    def _tick(self) -> Progress | None:
        now = time.monotonic()
        if now - self._last < PROGRESS_EVERY:
            return None
        self._last = now
        return self.progress()

    def events(self) -> Iterator[Event]:
        """Search, yielding hits as they are found, progress now and then, and problems
        (records that may hold a match but could not be read); a last :class:`Progress`
        with ``finished`` set. Never raises for what is in the files."""
        self._last = time.monotonic()
        yield self.progress()
        for position, source in enumerate(self.sources):
            if self.cancelled:
                break
            index = source.record_index()
            if index is not None:
                yield from self._records(position, source, index)
            else:
                yield from self._runs(position, source, range(len(source)))
        yield self.progress(finished=True)

    # -- one run -------------------------------------------------------------------------

    def _search_run(self, position: int, source: Source, i: int) -> Iterator[Hit | Problem]:
        """The hits of run ``i`` of ``source`` (a problem when it cannot be read)."""
        entry = source.entry(i, keep=False)
        if isinstance(entry, Problem):
            yield entry
            return
        try:
            run = source.run(i)
        except LoadError as err:
            yield err.problem
            return
        self.parsed += 1
        if self.where is not None and not self.where(run):
            return
        yield from self._hits(position, source, i, entry, run)

    def _hits(
        self, position: int, source: Source, i: int, entry: RunSummary, run: Run
    ) -> Iterator[Hit]:
        kinds = self.kinds
        run_ref = self.qualify(source, run.ref)
        path = run.path or source.path
        line = source.line_of(i)
        hit_here = False
        for text in run_texts(run):
            if kinds is not None and text.kind not in kinds:
                continue
            for n, (start, end) in enumerate(self.needle.spans(text.text)):
                if self.cancelled:
                    return
                if not hit_here:
                    hit_here = True
                    self.runs_hit += 1
                self.hits += 1
                yield Hit(
                    ref=self.qualify(source, text.ref),
                    run=run_ref,
                    field=text.field,
                    kind=text.kind,
                    start=start,
                    end=end,
                    snippet=snippet(text.text, start, end),
                    path=path,
                    line=line,
                    source=position,
                    index=i,
                    occurrence=n,
                    matched=text.text[start : min(end, start + 500)],
                )

    def _runs(self, position: int, source: Source, indexes: Sequence[int]) -> Iterator[Event]:
        skip = self.skip
        for i in indexes:
            if self.cancelled:
                return
            if skip is None or not skip(position, i):
                yield from self._search_run(position, source, i)
            self._runs_done += 1
            tick = self._tick()
            if tick is not None:
                yield tick

    # -- records of one file (a JSONL file) -----------------------------------------------

    def _records(self, position: int, source: Source, index: LineIndex) -> Iterator[Event]:
        """The runs of a source whose records lie in one file: read in blocks, each
        looked at in its raw bytes first (the prefilter), only those that may match parsed."""
        prefilter = self.needle.prefilter
        n = len(source)
        starts = index.starts
        base = self._bytes_done
        i = 0
        while i < n and not self.cancelled:
            j, begin, end = block(index, i, n, BLOCK)
            if prefilter is None:
                yield from self._runs(position, source, range(i, j))
                self._bytes_done = base + end
                i = j
                continue
            try:
                data = index.pread(end - begin, begin)
                if len(data) < end - begin:
                    raise FileChanged(f"{source.path} is shorter than when it was indexed")
            except (OSError, FileChanged) as err:
                yield Problem(source.path, index.line_of(i), f"cannot read: {err}")
                return
            # the block is let go before a record is parsed: with a record as big as the
            # memory allows, its bytes are not held twice
            found = list(candidates(data, begin, index, i, j, prefilter))
            del data
            for k in found:
                if self._cancelled():
                    break
                if self.skip is None or not self.skip(position, k):
                    yield from self._search_run(position, source, k)
                self._bytes_done = base + starts[k] + index.length(k)
                tick = self._tick()
                if tick is not None:
                    yield tick
            self._bytes_done = base + end
            self._runs_done += j - i
            i = j
            tick = self._tick()
            if tick is not None:
                yield tick


# -- records of a JSONL file, read in blocks --------------------------------------------------


def block(index: LineIndex, i: int, n: int, size: int) -> tuple[int, int, int]:
    """``(j, begin, end)``: records ``i`` up to ``j`` (excluded, ``j <= n``) lie in the file
    from ``begin`` to ``end``, at most ``size`` bytes (a bigger record alone).

    Raises:
        IndexError: ``i`` is no longer indexed (the last record is being read again).
    """
    starts = index.starts
    begin = starts[i]
    j = max(i + 1, bisect_right(starts, begin + size, i, n) - 1)
    return j, begin, starts[j - 1] + index.length(j - 1)


def candidates(
    data: bytes, begin: int, index: LineIndex, i: int, j: int, prefilter: Prefilter | None
) -> Iterator[int]:
    """Records ``i`` to ``j`` (excluded), read into ``data`` from file offset ``begin``,
    that may hold a match: those the raw-bytes ``prefilter`` finds something in, in order;
    all of them without one."""
    if prefilter is None:
        yield from range(i, j)
        return
    pattern = prefilter.pattern_for(data)
    starts = index.starts
    at = 0
    while True:
        m = pattern.search(data, at)
        if m is None:
            return
        k = bisect_right(starts, begin + m.start(), i, j) - 1
        yield k
        at = starts[k] + index.length(k) - begin
