"""The run list: every run and problem row of every open source, virtualised.

Columns: status (glyph and word, readable without colour), reference, steps, tool calls
(``calls``), tool errors (``tool err``: tool calls that failed), duration, and score or cost
where the format has them, then the title. The column header
above the list sorts by a column when clicked; ``s`` cycles the sort column from the
keyboard. Rows come from a :class:`~trajtui.ui.store.RunStore`; the widget never reads
files: rows not read yet are drawn as placeholders and requested from the loader.
"""

from __future__ import annotations

from rich.cells import cell_len, set_cell_size
from rich.style import Style
from rich.text import Text
from textual import events
from textual.message import Message
from textual.widgets import Static

from trajtui.core.io.text import visible
from trajtui.core.model import Outcome, Problem, RunSummary
from trajtui.core.query import elsewhere
from trajtui.core.refs import SOURCE_SEP
from trajtui.render import fmt
from trajtui.render.columns import COLUMNS, DROP_ORDER, NUMBERS, WORDS, cut_start
from trajtui.ui.store import ENTRY, HEADER, OPEN_PROBLEM, RunStore
from trajtui.ui.widgets.vlist import VirtualList

OUTCOME_CLASS = {o: f"runs--{o.value}" for o in Outcome}
TITLE_ROOM = 8
"""Cells of title a row keeps at the least: below it the title goes before any column
(the detail shows the selected run's whole title; a number cut would be lost)."""
REF_ROOM = 16
"""Cells a reference keeps at the least before a column makes way (cut with ``…``)."""


NUMBER_KEYS = frozenset(c.key for c in NUMBERS)
"""The columns of counts and figures (right-aligned)."""


def ref_floor(ref_width: int, elided: int | None = None) -> int:
    """Cells the reference column keeps before a column makes way: the references whole
    once their shared start is elided (``elided``, said under the list: nothing is lost),
    else cut with ``…`` down to :data:`REF_ROOM`."""
    least = min(REF_ROOM, ref_width if elided is None else elided)
    return min(max(ref_width, 6), max(least, 6))


def columns(
    width: int,
    ref_width: int,
    status_width: int,
    present: set[str],
    keep: str | None = None,
    elided: int | None = None,
    words: dict[str, int] | None = None,
) -> dict[str, int]:
    """Column widths for a list ``width`` cells wide (0: the column is hidden).

    Only columns some run has a value for are shown; a column of metadata values (a
    session's project) as wide as its longest value (``words``), up to its width. References too long for their
    column give way by the start they share (``elided``: the widest of them without it,
    see :func:`ref_cell`), and the column narrows to the rest. The title gives way first,
    down to :data:`TITLE_ROOM` cells; then the reference, down to :func:`ref_floor`; then
    the columns, in :data:`DROP_ORDER` (never ``keep``, the column the list is sorted by),
    then the title altogether. Each step only ever takes cells from a narrower list, so a
    wider list never shows fewer columns.
    """
    elided = ref_width if elided is None else min(elided, ref_width)
    cols = {
        "status": min(max(status_width, 8), 14),
        "ref": min(max(ref_width, 6), 28, max(12, int(width * 0.36))),
        **{c.key: c.width if c.key in present else 0 for c in NUMBERS},
        **{
            c.key: min(c.width, max(len(c.header), (words or {}).get(c.key, c.width)))
            if c.key in present
            else 0
            for c in WORDS
        },
    }
    if keep in DROP_ORDER and cols[keep]:
        cols[keep] += 1  # room for the sort arrow beside the name (``calls▲``, not ``call…``)

    def used() -> int:
        return 1 + sum(w + 1 for w in cols.values() if w)

    if width - used() < TITLE_ROOM:  # the reference is cut before a column goes
        floor = min(cols["ref"], ref_floor(ref_width, elided))
        cols["ref"] = max(floor, cols["ref"] - (TITLE_ROOM - width + used()))
    if cols["ref"] < ref_width and elided < cols["ref"]:
        cols["ref"] = max(elided, 6)  # cut references give way by their shared start
    for name in DROP_ORDER:
        if width - used() >= TITLE_ROOM:
            break
        if name != keep:
            cols[name] = 0
    if width - used() < 12:  # a long status word gives way to the title, down to 10 cells
        spare = width - used() - 12
        cols["status"] = max(min(cols["status"], 10), cols["status"] + spare)
    room = width - used()
    cols["title"] = room if room >= 6 else 0
    return cols


def split_width(
    total: int, runs_fixed: int, steps_fixed: int, steps_least: int, runs_least: int | None = None
) -> int:
    """Width of the run list's pane beside the timeline's in ``total`` cells: each pane
    gets the room for its columns and a short title first (the run list first, the
    timeline keeping its own), and what is left is shared evenly between the run titles
    and the step titles (the run list gets at least 40%). Where ``total`` leaves the
    timeline ``steps_least`` cells beside the run list's least columns (``runs_least``:
    references cut by their shared start; ``runs_fixed`` has them whole), the run list
    has them all: the step titles give way, never a column of the run list."""
    runs, steps = runs_fixed + 3, steps_fixed + 3 + TITLE_ROOM  # borders and a scrollbar
    least = (runs_fixed if runs_least is None else min(runs_least, runs_fixed)) + 3
    width = runs + max(0, total - runs - steps) // 2
    width = max(int(total * 0.4), min(total - steps, width))
    return max(width, min(least, total - steps_least))


def fit(text: str, width: int, *, pad: bool = True) -> str:
    """``text`` in ``width`` cells: cut with an ellipsis when longer (``pad``: filled with
    spaces when shorter)."""
    if cell_len(text) > width:
        text = set_cell_size(text, max(0, width - 1)) + "…" if width > 0 else ""
    return set_cell_size(text, width) if pad else text


def ref_cell(ref: str, label: str | None, width: int, shared: str = "") -> str:
    """A run's reference in ``width`` cells; with its source's ``label`` (``LABEL::REF``, as
    ``:`` and ``show`` take it) when rows of several sources are mixed. What gives way is
    the middle of the label (``capt…minimal.jsonl::websearch-2``), then the start every
    reference of its source has (``shared``: ``…filter-xs__Ab3dE9k``), then the middle of
    the reference: never its end, where references most often differ (ids, counters,
    random suffixes: see :func:`fmt.elide_ref`)."""
    ref = visible(ref, keep_newlines=False)
    if label is None:
        return fit(fmt.elide_ref(ref, width, shared), width)
    label = visible(label, keep_newlines=False)
    room = width - cell_len(ref) - len(SOURCE_SEP)
    if len(label) > room >= 5:
        head = (room - 1) // 3
        label = label[:head] + "…" + label[len(label) - (room - 1 - head) :]
    if len(label) <= room:
        return fit(label + SOURCE_SEP + ref, width)
    return fit(fmt.elide_ref(ref, width, shared), width)


class ColumnHeader(Static):
    """Column names above the run list; a click sorts by that column."""

    DEFAULT_CSS = """
    ColumnHeader { height: 1; background: $panel; color: $text-muted; text-style: bold; }
    """

    class SortBy(Message):
        """A column name was clicked."""

        def __init__(self, column: str | None) -> None:
            super().__init__()
            self.column = column

    def __init__(self, run_list: RunList, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.run_list = run_list
        self._spans: list[tuple[int, int, str | None]] = []

    def render(self) -> Text:
        store = self.run_list.store
        cols = self.run_list.current_columns()
        names: list[tuple[str, str, str | None]] = [
            *((c.key, c.header, c.key if c.sort is not None else None) for c in COLUMNS),
            ("title", "title", None),
        ]
        text = Text(" ")
        self._spans = []
        x = 1
        for key, label, sort in names:
            w = cols.get(key, 0)
            if not w:
                continue
            arrow = ""
            if store is not None and sort is not None and store.sort == sort:
                arrow = "▼" if store.reverse else "▲"
            cell = fit(label + arrow, w)
            if key in NUMBER_KEYS:
                cell = cell.strip().rjust(w)
            text.append(cell + " ")
            self._spans.append((x, x + w, sort))
            x += w + 1
        return text

    def on_click(self, event: events.Click) -> None:
        for start, end, sort in self._spans:
            if start <= event.x < end and sort is not None:
                self.post_message(self.SortBy(sort))
                return


class RunList(VirtualList):
    """Runs and problem rows, virtualised; its cursor picks the run the other panes show."""

    COMPONENT_CLASSES = VirtualList.COMPONENT_CLASSES | {
        *OUTCOME_CLASS.values(),
        "runs--problem",
        "runs--warning",
        "runs--header",
        "runs--dim",
        "runs--placeholder",
        "runs--mark",
    }

    DEFAULT_CSS = """
    RunList {
        & > .runs--pass { color: $success; }
        & > .runs--fail { color: $error; }
        & > .runs--partial { color: $warning; }
        & > .runs--error { color: $error; text-style: bold; }
        & > .runs--timeout { color: $warning; }
        & > .runs--running { color: $accent; }
        & > .runs--skipped { color: $text-muted; }
        & > .runs--done { color: $text; }
        & > .runs--none { color: $text-muted; }
        & > .runs--problem { color: $error; }
        & > .runs--warning { color: $warning; }
        & > .runs--header { color: $accent; text-style: bold; }
        & > .runs--dim { color: $text-muted; }
        & > .runs--placeholder { color: $text-muted; text-style: italic; }
        & > .runs--mark { color: $warning; }
    }
    """

    class Resized(Message):
        """The list's width changed (what its columns cut, and the line that says so, with
        it)."""

    def on_resize(self, event: events.Resize) -> None:
        super().on_resize(event)
        self.post_message(self.Resized())

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.store: RunStore | None = None
        self.run_marks: dict[tuple[int, str], str] = {}
        """``(source index, run reference)`` -> the mark drawn before the row (★ ✎)."""
        self.reading = True
        """Sources are still being read (an empty list may still fill)."""
        self.empty_text = "reading…"
        self._drawn: tuple[object, ...] = ()
        """What the rows on screen showed when last drawn (:meth:`loaded_more`)."""
        self.marked: tuple[int, int] | None = None
        """``(source, entry)`` of the run marked as side A of a compare (``c``): its row
        starts with ``A``."""

    def loaded_more(self) -> None:
        """Runs were read or counted: draw again the rows on screen if what they show may
        have changed (a row read, a column that came or widened, a group's counts).

        Four times a second while a file is read, redrawing the whole list cost a frame
        of 15-25 ms of the interpreter, which keys pressed meanwhile waited for; once the
        rows on screen are read they rarely change. Rows off screen are drawn afresh
        whenever they are scrolled to.
        """
        seen = self._on_screen()
        if seen != self._drawn:
            self._drawn = seen
            self.redraw()
        else:
            self.forget_rows()

    def redraw(self) -> None:
        self._drawn = self._on_screen()
        super().redraw()

    def _on_screen(self) -> tuple[object, ...]:
        """What the rows on screen show that reading more runs can change."""
        store = self.store
        if store is None:
            return ()
        top = round(self.scroll_offset.y)
        rows = store.rows[top : top + max(1, self.size.height)]
        seen: list[object] = [top, tuple(self.current_columns().items())]
        for kind, s, i in rows:
            if kind == HEADER:
                seen.append(store.summary_line([s]))
            elif kind == ENTRY:
                seen.append(store.ws.sources[s].peek(i) is not None)
        return tuple(seen)

    def empty_message(self) -> str:
        """Why there are no rows: a filter that matches nothing, files still being read,
        or no runs at all."""
        store = self.store
        if store is not None and store.filter.active:
            more = " yet" if self.reading else ""
            query = store.filter.query
            hint = elsewhere(query, "/ searches every text") if query.reads_run else ""
            hint = f" · {hint}" if hint else ""
            return f"no runs match: {store.filter.text}{more}{hint} · esc clears the filter"
        return "reading…" if self.reading else "no runs"

    def attach(self, store: RunStore) -> None:
        """Show the rows of ``store``."""
        self.store = store
        self.reset(cursor=self.first_run_row())

    def action_first(self) -> None:
        """``g``: the first run (not the header row of the first group)."""
        self.set_cursor(self.first_run_row())

    def first_run_row(self) -> int:
        """Row of the first run (skipping headers and open-time problems)."""
        if self.store is None:
            return 0
        for pos, (kind, _, _) in enumerate(self.store.rows):
            if kind == ENTRY:
                return pos
        return 0

    @property
    def row_count(self) -> int:
        return len(self.store.rows) if self.store is not None else 0

    def current_columns(self) -> dict[str, int]:
        """Column widths for the current width and the data read so far."""
        width = self.scrollable_content_region.width or self.size.width or 80
        if self.store is None:
            return columns(width, 12, 10, set())
        status_width, ref_width = self.store.widths()
        elided = None if self.store.mixed else self.store.elided_ref_width()
        cols = columns(
            width,
            ref_width,
            status_width,
            self.store.columns(),
            self.store.sort,
            elided,
            self.store.word_widths(),
        )
        if self.store.mixed and cols["ref"] < ref_width:
            # Mixed rows name their source: the reference takes up to half the row.
            wider = min(ref_width, max(cols["ref"], width // 2))
            cols["title"] = max(0, cols["title"] - (wider - cols["ref"]))
            cols["ref"] = wider
            if cols["title"] < 6:
                cols["title"] = 0
        return cols

    def refs_cut(self) -> bool:
        """Some reference is wider than the reference column (cut, or its shared start
        elided)."""
        if self.store is None:
            return False
        return self.current_columns()["ref"] < self.store.widths()[1]

    def fixed_width(self, *, least: bool = True) -> int:
        """Cells the list needs to show every column the runs read so far have, with a
        short title and a sort arrow (the pane beside the timeline is made at least this
        wide when it can): :func:`columns` drops none of them at this width. Not ``least``:
        with the references whole (up to :data:`REF_ROOM`), as the panes share the room."""
        if self.store is None:
            return 40
        status_width, ref_width = self.store.widths()
        elided = None if self.store.mixed or not least else self.store.elided_ref_width()
        cols = columns(
            10_000,
            ref_floor(ref_width, elided),
            status_width,
            self.store.columns(),
            words=self.store.word_widths(),
        )
        arrow = 1
        return (
            1 + sum(w + 1 for name, w in cols.items() if w and name != "title") + arrow + TITLE_ROOM
        )

    def render_row(self, index: int, width: int) -> Text:
        store = self.store
        assert store is not None
        kind, s, i = store.rows[index]
        if kind == OPEN_PROBLEM:
            p = store.ws.problems[i]
            return Text.assemble(
                (f" {fmt.PROBLEM_GLYPH} ", self.cstyle("runs--problem")),
                visible(str(p), keep_newlines=False),
            )
        source = store.ws.sources[s]
        if kind == HEADER:
            label = visible(source.label, keep_newlines=False)
            counts = store.summary_line([s])
            start = store.ref_start(s)
            refs = ""
            if start and store.counts[s].ref_width > self.current_columns()["ref"]:
                # its rows' references are cut by this start: said before the counts
                refs = f" · refs: … = {visible(start, keep_newlines=False)}"
            return Text.assemble(
                ("── ", self.cstyle("runs--dim")),
                (label, self.cstyle("runs--header")),
                (refs, self.cstyle("runs--dim")),
                (f" · {source.format.name} · {counts} ", self.cstyle("runs--dim")),
            )
        entry = source.peek(i)
        if entry is None:
            store.request(s, i)
            line = source.line_of(i)
            where = f"line {line:,}" if line else f"#{i + 1}"
            return Text(f" ⋯ reading {where}", style=self.cstyle("runs--placeholder"))
        if isinstance(entry, Problem):
            style = self.cstyle(
                "runs--warning" if entry.severity.value == "warning" else "runs--problem"
            )
            where = f"line {entry.line:,}" if entry.line else "file"
            return Text.assemble(
                (f" {fmt.PROBLEM_GLYPH} {where:<12}", style),
                (visible(entry.message, keep_newlines=False), self.cstyle("runs--dim")),
            )
        mark = "A" if self.marked == (s, i) else self.run_marks.get((s, entry.ref), " ")
        named = source.label if store.mixed and not store.ws.alone(source) else None
        return self._run_row(entry, width, named, mark, store.ref_start(s))

    def _run_row(
        self,
        s: RunSummary,
        width: int,
        label: str | None = None,
        mark: str = " ",
        shared: str = "",
    ) -> Text:
        cols = self.current_columns()
        status_style = self.cstyle(OUTCOME_CLASS[s.outcome])
        text = Text(mark, self.cstyle("runs--mark")) if mark != " " else Text(" ")
        word = visible(s.status, keep_newlines=False) if s.status else fmt.ABSENT
        text.append(
            fit(f"{fmt.OUTCOME_GLYPH[s.outcome]} {word}", cols["status"]) + " ", status_style
        )
        text.append(ref_cell(s.ref, label, cols["ref"], shared) + " ")
        dim = self.cstyle("runs--dim")
        for column in NUMBERS:
            w = cols[column.key]
            if w and column.cell is not None:
                text.append(column.cell(s).rjust(w) + " ", self._cell_style(column.key, s, dim))
        for column in WORDS:
            w = cols[column.key]
            if w and column.cell is not None:
                text.append(fit(cut_start(column.cell(s), w), w) + " ", dim)
        if cols["title"]:
            title = s.title
            prefix = self.store.prefix.value if self.store is not None else ""
            if prefix and title.startswith(prefix):
                title = "…" + title[len(prefix) :]
            text.append(fit(title, cols["title"], pad=False), dim)
        return text

    def _cell_style(self, key: str, s: RunSummary, dim: Style) -> Style | None:
        """How a number cell is drawn: the counts dim, failed tool calls (or a run the file
        flags) as a problem, duration and score plain."""
        if key == "tool errors" and (s.failed_tool_calls or s.tool_errors is True):
            return self.cstyle("runs--problem")
        return None if key in ("duration", "score") else dim

    def row_text(self, index: int) -> str:
        store = self.store
        assert store is not None
        kind, s, i = store.rows[index]
        if kind == OPEN_PROBLEM:
            return str(store.ws.problems[i])
        source = store.ws.sources[s]
        if kind == HEADER:
            return source.label
        entry = source.peek(i)
        if entry is None:
            return ""
        if isinstance(entry, Problem):
            return f"{source.label} line {entry.line} {entry.message}"
        ref = store.ws.ref(source, entry.ref) if store.mixed else entry.ref
        return f"{ref} {entry.status or ''} {entry.title}"

    def current(self) -> tuple[int, int] | None:
        """``(source index, entry index)`` under the cursor, when it is an entry."""
        if self.store is None or not self.store.rows:
            return None
        kind, s, i = self.store.rows[min(self.cursor, len(self.store.rows) - 1)]
        return (s, i) if kind == ENTRY else None
