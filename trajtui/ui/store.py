"""What the run list shows: every run and problem row of every source, sorted and filtered.

A :class:`RunStore` is plain Python (no Textual), fed by the loader worker's progress
messages and read by the run list widget. It never parses anything: it only looks at
summaries the core already holds (``Source.peek``), so drawing never waits on I/O. Rows
whose summary is not read yet are drawn as placeholders, and requested from the loader
(:attr:`RunStore.requests`) so the visible ones are read first.
"""

from __future__ import annotations

import time
from array import array
from collections import deque
from collections.abc import Callable, Iterator

from trajtui.core.jsonl.table import EMPTY, RUN, CountRow
from trajtui.core.model import Problem
from trajtui.core.query.nodes import Text
from trajtui.core.search.inputs import InputWords
from trajtui.core.source import Entry
from trajtui.core.workspace import Workspace
from trajtui.render import fmt
from trajtui.ui.rows import ENTRY, HEADER, OPEN_PROBLEM, Row, Rows
from trajtui.ui.run_counts import SourceCounts, summary_line
from trajtui.ui.run_filter import FILTER_SYNTAX, Filter, TitlePrefix
from trajtui.ui.run_layout import Layout, Pinned, plan_layout
from trajtui.ui.run_sort import SORT_CYCLE

HEAD_SOURCES = 16
HEAD_ROWS = 32
"""References of this many first rows of this many first sources set the reference
column's width before the rows are counted."""

FRESH_MAX = 8192
"""Entries read and not counted yet that the store holds on to (beyond them, counting
looks entries up)."""

__all__ = [
    "ENTRY",
    "FILTER_SYNTAX",
    "HEADER",
    "OPEN_PROBLEM",
    "SORT_CYCLE",
    "Filter",
    "Layout",
    "Pinned",
    "Row",
    "Rows",
    "RunStore",
    "SourceCounts",
    "TitlePrefix",
]


class RunStore:
    """Rows of the run list, in display order."""

    def __init__(self, ws: Workspace) -> None:
        self.ws = ws
        self.sort: str | None = None
        self.reverse = False
        self.filter = Filter()
        self.pinned: Pinned | None = None
        """The runs the list is narrowed to besides the filter (from the stats screen)."""
        self.rows = Rows()
        self.counts = [SourceCounts() for _ in ws.sources]
        self.requests: deque[tuple[int, int]] = deque(maxlen=256)
        self.fresh: dict[tuple[int, int], Entry] = {}
        """Entries the loader just read, by ``(source, index)``, for :meth:`count_new` to
        count as they are (at most :data:`FRESH_MAX`; others are looked up)."""
        self.answered = False
        """Set by the loader when it read a row drawn unread: the list is drawn again now,
        not at its next turn (4 a second while loading)."""
        self.prefix = TitlePrefix()
        """Words every shown title starts with."""
        self._mixed_ref_width = 0
        self._head_refs: dict[int, int] = {}  # source -> widest of its first refs
        self._headers = 0
        self._shown = [0] * len(ws.sources)
        self._hay_cache: dict[int, tuple[tuple[int, int, str], list[str]]] = {}
        self.inputs = InputWords()
        """The runs whose whole input holds each filter word searched so far."""
        """Entries of each source that have rows (unsorted, unfiltered mode)."""
        self.rebuild()

    @property
    def grouped(self) -> bool:
        """Rows are grouped under a header per source (not when every source's references
        stand alone: a folder of sessions, one run a file, is one list)."""
        return len(self.ws.sources) > 1 and not self.alone

    @property
    def alone(self) -> bool:
        """Several sources are open and each one's references stand alone
        (:meth:`~trajtui.core.workspace.Workspace.alone`)."""
        sources = self.ws.sources
        return len(sources) > 1 and all(self.ws.alone(s) for s in sources)

    @property
    def ordered(self) -> bool:
        """Rows are in file order and unfiltered (new entries are appended)."""
        return self.sort is None and not self.filter.active and self.pinned is None

    # -- rows ------------------------------------------------------------------------------

    def rebuild(self) -> None:
        """Recompute every row now (after a sort or filter change): :meth:`plan` then
        :meth:`apply`, on the calling thread."""
        layout = self.plan(self.sort, self.reverse, self.filter)
        assert layout is not None
        self.apply(layout)

    def plan(
        self,
        sort: str | None,
        reverse: bool,
        filt: Filter,
        stopped: Callable[[], bool] = lambda: False,
    ) -> Layout | None:
        """The rows for a sort and a filter, without changing what is shown: safe to call
        from a worker thread while the UI draws the old rows. Returns None when
        ``stopped()`` turned true on the way (a newer keystroke took over).

        In file order, each source's rows follow its header. Sorted, the runs of every
        source are sorted together (their rows are mixed, each naming its source: see
        :attr:`mixed`); problem rows follow, by source.
        """
        return plan_layout(self, sort, reverse, filt, stopped)

    def warm(self) -> None:
        """Get the filter's text of every source ready (in a worker, when the filter box
        opens: the first keystroke then filters as fast as the next ones)."""
        for s, source in enumerate(self.ws.sources):
            self.hays(s, len(source))

    def search_inputs(
        self,
        word: Text,
        stopped: Callable[[], bool],
        progress: Callable[[float], None] | None = None,
        kind: str = "input",
    ) -> bool:
        """Find the runs whose whole input holds ``word`` (a filter's word), reading only
        the runs whose title does not show it already (see :class:`InputWords`); with
        ``kind`` ``output`` or ``reasoning``, those whose own text of that kind holds it.
        False when ``stopped()`` turned true first."""
        sources = self.ws.sources
        if kind != "input":
            return self.inputs.search(sources, word, stopped, progress, kind=kind)
        titles = [source.table.titles() for source in sources]

        def shown(s: int, i: int) -> bool:  # its title holds it (``input:`` reads titles too)
            mine = titles[s]
            return i < len(mine) and word.search(mine[i].casefold())

        return self.inputs.search(sources, word, stopped, progress, skip=shown)

    def hays(self, s: int, n: int) -> list[str]:
        """Each of the first ``n`` entries of source ``s`` as the filter's words are looked
        for in it (``ref title label``, casefolded; "" for problem rows), kept while the
        source's rows stay the same (typing a filter reuses them)."""
        source = self.ws.sources[s]
        table = source.table
        label = source.label if self.grouped else ""
        key = (table.version, n, label)
        kept = self._hay_cache.get(s)
        if kept is not None and kept[0] == key:
            return kept[1]
        titles = table.titles()
        ref = table.ref
        hay = [
            f"{ref(i)} {titles[i]} {label}".casefold() if table.kind(i) == RUN else ""
            for i in range(min(n, len(table)))
        ]
        self._hay_cache[s] = (key, hay)
        return hay

    def apply(self, layout: Layout) -> None:
        """Show the rows of ``layout`` (on the UI thread)."""
        self.sort, self.reverse, self.filter = layout.sort, layout.reverse, layout.filter
        self.rows = layout.rows
        self.prefix = layout.prefix
        self._mixed_ref_width = layout.mixed_ref_width
        self._headers = layout.headers
        self._shown = list(layout.shown)

    def refs_of(self, s: int, indices: array[int]) -> Iterator[str]:
        """The references of entries ``indices`` of source ``s``."""
        value = self.ws.sources[s].row_value
        return (value(i, "ref") for i in indices)

    @property
    def mixed(self) -> bool:
        """Rows of several sources are sorted together: each row names its source (unless
        its references stand alone)."""
        return len(self.ws.sources) > 1 and self.sort is not None

    def extend(self) -> bool:
        """Add rows for entries indexed since the last call (file order only).

        Returns:
            True when rows were added.
        """
        if not self.ordered:
            return False
        added = False
        for s, source in enumerate(self.ws.sources):
            n = len(source)
            if n > self._shown[s]:
                new = range(self._shown[s], n)
                self._shown[s] = n
                if self.grouped:
                    self.rows.insert_entries(self._end_of_group(s), s, new)
                elif len(self.ws.sources) > 1:  # one list in the sources' order
                    self.rows.insert_entries(self._end_of_source(s), s, new)
                else:
                    self.rows.extend_entries(s, new)
                added = True
        return added

    def _end_of_source(self, s: int) -> int:
        """Where rows of source ``s`` end in one list of every source (file order: rows by
        source, open problems first)."""
        rows = self.rows
        lo, hi = 0, len(rows)
        while lo < hi:
            mid = (lo + hi) // 2
            if rows[mid][1] <= s:
                lo = mid + 1
            else:
                hi = mid
        return lo

    def _end_of_group(self, s: int) -> int:
        rows = self.rows
        for pos in range(len(rows)):
            if rows.kind(pos) == HEADER and rows[pos][1] > s:
                return pos
        return len(rows)

    def set_sort(self, column: str | None, reverse: bool = False) -> None:
        """Sort by ``column`` (``None`` for file order)."""
        self.sort = column
        self.reverse = reverse
        self.rebuild()

    def listed_runs(self) -> list[tuple[int, int]]:
        """``(source, entry index)`` of every run row shown (after the filter), in order."""
        sources = self.ws.sources
        return [
            (s, i) for kind, s, i in self.rows if kind == ENTRY and sources[s].row_kind(i) == RUN
        ]

    def set_filter(self, text: str) -> None:
        """Apply the filter box's text.

        Raises:
            QueryError: The text is not a query (nothing changes then).
        """
        self.filter = Filter.parse(text, self.metadata_keys())
        self.rebuild()

    def metadata_keys(self) -> set[str] | None:
        """The metadata keys of every run, once every source is read and counted (None
        before: a key not read yet may still come)."""
        keys: set[str] = set()
        for s, source in enumerate(self.ws.sources):
            if self.counts[s].seen < len(source) or not source.complete:
                return None
            for meta, _ in source.table.extra_codes()[1]:
                keys.update(k for k, _ in meta)
        return keys

    @property
    def shown(self) -> int:
        """Rows that are runs or problem entries (not group headers)."""
        return len(self.rows) - self._headers

    def row_of(self, s: int, i: int) -> int | None:
        """Row position of entry ``i`` of source ``s``, if it is shown."""
        target = (ENTRY, s, i)
        if self.ordered and len(self.ws.sources) == 1 and not self.ws.problems:
            return i if i < len(self.rows) and self.rows[i] == target else None
        try:
            return self.rows.index(target)
        except ValueError:
            return None

    # -- counts ----------------------------------------------------------------------------

    def count_new(self, budget: float | None = None, at_least: int = 1000) -> bool:
        """Count entries summarised since the last call (a prefix of each source).

        Args:
            budget: Stop after about this many seconds (a whole list restored from the index
                cache arrives at once: the UI thread counts it a slice at a time).
            at_least: Entries counted before the budget is looked at.

        Returns:
            True when every summarised entry is counted.
        """
        deadline = None if budget is None else time.monotonic() + budget
        counted = 0
        for s, source in enumerate(self.ws.sources):
            c = self.counts[s]
            n = len(source)
            before = c.seen
            while c.seen < n:
                counted += 1
                if (
                    deadline is not None
                    and counted > at_least
                    and not counted & 127
                    and time.monotonic() > deadline
                ):
                    return False
                e: Entry | CountRow | None = self.fresh.pop((s, c.seen), None)
                if e is None or source.table.kind(c.seen) == EMPTY:
                    e = source.table.count_row(c.seen)  # (a summary costs 2.5x as much)
                if e is None:
                    break
                if isinstance(e, Problem):
                    c.add_problem()
                    continue
                c.add(e)
                if self.ordered:
                    self.prefix.add(e.title)
            if c.seen != before:  # (its metadata columns: from the runs' distinct metadata)
                c.note_metadata(source.table.extra_codes()[1])
        return True

    def columns(self) -> set[str]:
        """Columns that some run read so far has a value for."""
        out: set[str] = set()
        for c in self.counts:
            out |= c.columns
        return out

    def word_widths(self) -> dict[str, int]:
        """The longest value of each metadata column read so far."""
        out: dict[str, int] = {}
        for c in self.counts:
            for key, width in c.word_widths.items():
                out[key] = max(out.get(key, 0), width)
        return out

    def widths(self) -> tuple[int, int]:
        """Widest status word and reference read so far (references with their source's
        label when rows are mixed)."""
        ref_width = max((c.ref_width for c in self.counts), default=0)
        ref_width = max(ref_width, self._head_ref_width())
        return (
            max((c.status_width for c in self.counts), default=0),
            max(ref_width, self._mixed_ref_width) if self.mixed else ref_width,
        )

    def ref_start(self, s: int) -> str:
        """The start every reference of source ``s`` has, as the run list elides it when
        references are cut (``terminal-bench-html-js-``: see :func:`fmt.shared_start`);
        "" when there is nothing worth eliding."""
        c = self.counts[s]
        if not c.ref_differ or not c.ref_common:
            return ""
        return fmt.shared_start(c.ref_common)

    def elided_ref_width(self) -> int:
        """The widest reference once each source's shared start is elided (``…`` and the
        rest)."""
        widest = 0
        for s, c in enumerate(self.counts):
            start = self.ref_start(s)
            widest = max(widest, c.ref_width - len(start) + 1 if start else c.ref_width)
        return widest

    def _head_ref_width(self) -> int:
        """Widest reference among the first rows of the first sources, from their index
        (the first screen must not cut references the counting has not reached yet)."""
        widest = 0
        for s, source in enumerate(self.ws.sources[:HEAD_SOURCES]):
            known = self._head_refs.get(s)
            if known is None:
                n = min(len(source), HEAD_ROWS)
                if n == 0:
                    continue
                known = max(len(source.ref_of(i) or "") for i in range(n))
                if n == HEAD_ROWS:
                    self._head_refs[s] = known
            widest = max(widest, known)
        return widest

    def recount(self, s: int) -> None:
        """Count source ``s`` again from the start (its last entry was read again)."""
        self.counts[s] = SourceCounts()
        for key in [k for k in list(self.fresh) if k[0] == s]:
            self.fresh.pop(key, None)
        self.count_new()

    def summary_line(self, sources: list[int] | None = None) -> str:
        """The title's counts over every source, or over ``sources``
        (:func:`~trajtui.ui.run_counts.summary_line`)."""
        if sources is None:
            return summary_line(self.counts, len(self.ws.problems))
        return summary_line([self.counts[s] for s in sources])

    # -- requests from drawing -------------------------------------------------------------

    def note_read(self, s: int, i: int, entry: Entry) -> None:
        """The loader read entry ``i`` of source ``s`` (its thread): counted from it as it
        is, without building it again from the table."""
        if len(self.fresh) < FRESH_MAX:
            self.fresh[s, i] = entry

    def request(self, s: int, i: int) -> None:
        """Ask the loader to read entry ``i`` of source ``s`` soon (it is on screen)."""
        self.requests.append((s, i))
