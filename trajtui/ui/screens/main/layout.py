"""The main screen's panes and layout, and the state every other job of the screen reads.

Wide terminals show the run list and the timeline side by side on top, the detail area
below with a tab per pane. On a narrow terminal (under 100 columns or 30 rows, or too narrow
for the run list's columns beside the timeline) one pane shows at a time, under a breadcrumb (``Runs › websearch-17 › step 5``): the level of the
focused pane (runs, steps, detail) decides which.

:class:`MainLayout` is the bottom layer of the main screen: the layers above it (see
:mod:`trajtui.ui.screens.main`) add loading, selection, a format's extra panes, search and
the actions. The extra panes a format's view declares plug in through the hooks at the end
of the class (:mod:`.extra_panes`), whose defaults are for runs with no extra pane.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Static, TabbedContent, TabPane

from trajtui.core.io.text import visible
from trajtui.core.model import Problem, Run
from trajtui.core.source import Target
from trajtui.core.workspace import Workspace
from trajtui.render import fmt
from trajtui.ui import subjects
from trajtui.ui.header import FactsHeader, HeaderParts, header_line, progress_bar
from trajtui.ui.literal import SafeInput, literal
from trajtui.ui.store import FILTER_SYNTAX, Filter, RunStore
from trajtui.ui.subjects import NoSubject, Subject
from trajtui.ui.widgets.detail import DetailView
from trajtui.ui.widgets.footer import FittingFooter
from trajtui.ui.widgets.run_list import ColumnHeader, RunList, split_width
from trajtui.ui.widgets.search import SearchBar
from trajtui.ui.widgets.timeline import Timeline

STEP_FILTER_SYNTAX = "words tool:Bash is:error kind:thought duration>5s -word OR · ? fields"
"""What the timeline's filter understands, in a line (its placeholder)."""

FOLDED_LINES = 24
UNFOLDED_LINES = 10_000
NARROW_WIDTH = 100
TIMELINE_ROOM = 48
"""Cells the timeline needs beside the run list: its widest columns (number, kind, status,
offset, duration: 37), a short title and its borders."""
NARROW_HEIGHT = 30

Builder = Callable[[], RenderableType]
"""Builds what a detail pane shows (called in the pane's worker thread)."""


class MainLayout(Screen[None]):
    """The panes of the main screen and the state the other layers share."""

    def __init__(self, ws: Workspace, *, goto: str | None = None, mark: str | None = None) -> None:
        super().__init__()
        self.ws = ws
        """Everything that was opened."""
        self.store = RunStore(ws)
        """The run list's rows."""
        self.run: Run | None = None
        """The run on screen (read whole), if any."""
        self.run_key: tuple[int, int] | None = None
        """``(source, entry)`` of the run selected in the run list."""
        self.run_problem: Problem | None = None
        """Why the selected entry could not be read, when it could not."""
        self.subject: Subject = NoSubject()
        """What the detail pane shows."""
        self.raw = False
        """Objects are shown as they are in the file (``r``)."""
        self.unfold = False
        """Long values are shown in full (``o``)."""
        self._run_token = 0
        self._run_moved = 0.0
        """When the run list's cursor last moved to another run (monotonic seconds)."""
        self._run_wanted: Timer | None = None
        """Reads the run under the cursor once moves pause (moves in quick succession)."""
        self._pending_goto: str | None = goto
        self._pending_mark: str | None = mark
        """The reference of the run (or trial) marked for compare before a reload: marked
        again once the files are read."""
        self._goto_target: Target | None = None
        # when the reference being gone to was found (None: none is on its way to the
        # screen); the loader leaves the interpreter to it meanwhile
        self._goto_since: float | None = None
        self._progress: dict[int, tuple[float, int, bool]] = {}
        self._last_title = 0.0
        self._changed_noted: set[int] = set()
        self._following: set[int] = set()
        self._search_origin: Any = None
        self._loading_done = False
        self._checking = False
        self._arrangement = 0
        self._inputs_asked = 0  # the latest search of the filter's words in whole inputs
        self._wanted: tuple[str | None, bool, Filter] = (
            self.store.sort,
            self.store.reverse,
            self.store.filter,
        )
        """The sort and filter asked for last (applied once arranged, maybe in a worker)."""
        """Number of the latest sort or filter asked for (the latest keystroke wins)."""
        self._last_look = time.monotonic()
        self._looks = 0
        self._tree_marks: dict[str, object] = {}
        self._unread: set[str] | None = None  # opened paths nothing was read from
        self._stay_at_end = False
        self._counting = False
        self._grew = False  # rows were added and not drawn yet
        self._shown_any = False  # the run list has drawn a row
        # the first screen is drawn: a run, and the rows on screen read (indexing a big
        # file waits for it, a moment at most)
        self._first_drawn = False
        self._counted = True  # every summary read is counted (the title's numbers are whole)
        self._revisions: dict[int, int] = {}  # Source.revision of each source, last counted
        self._revised = False  # a listed row was replaced and is not drawn yet
        self._partial_sources: set[int] = set()  # sources listed partial, not read whole yet

    # -- composing -------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        yield Static(id="breadcrumb")
        with Horizontal(id="top"):
            with Vertical(id="runs-pane", classes="pane"):
                self.run_list = RunList(id="runs")
                yield ColumnHeader(self.run_list, id="columns")
                yield self.run_list
                yield SafeInput(placeholder=f"filter: {FILTER_SYNTAX}", id="filter")
                yield Static(id="filter-hint")
            with Vertical(id="timeline-pane", classes="pane"):
                yield FactsHeader(id="run-header")
                self.timeline = Timeline(id="timeline")
                yield self.timeline
                yield SafeInput(placeholder=f"filter steps: {STEP_FILTER_SYNTAX}", id="step-filter")
                yield Static(id="step-filter-hint")
        with TabbedContent(id="bottom", classes="pane") as tabs:
            self.tabs = tabs
            with TabPane(literal("Detail"), id="tab-detail"):
                self.detail = DetailView(id="detail")
                yield self.detail
            yield from self._compose_extra_tabs()
        yield SearchBar(id="search-bar")
        yield FittingFooter()

    def _mount_layout(self) -> None:
        """Pane titles, settings and the run list's rows (on mount)."""
        runs_pane = self.query_one("#runs-pane")
        runs_pane.border_title = literal("Runs")
        runs_pane.border_subtitle = literal("f filter · s sort")
        self.query_one("#timeline-pane").border_title = literal("Steps")
        settings = getattr(self.app, "settings", None) or {}
        self.timeline.merge = bool(settings.get("merge_chunks", False))
        self.run_list.attach(self.store)

    # -- layout ----------------------------------------------------------------------------

    def on_resize(self) -> None:
        self._update_layout()
        self._update_title()

    def _update_split(self) -> None:
        """Size the top panes so the run titles and the step titles share the room."""
        pane = self.query_one("#runs-pane")
        if self.narrow:
            pane.styles.clear_rule("width")
            return
        width = split_width(
            self.size.width,
            self.run_list.fixed_width(least=False),
            self.timeline.fixed_width(),
            TIMELINE_ROOM,
            self.run_list.fixed_width(),
        )
        if pane.styles.width is None or pane.styles.width.value != width:
            pane.styles.width = width

    def _fit_columns(self) -> None:
        """Runs read may bring a column: the panes make room for it, or one pane shows at a
        time when the terminal is too narrow for it beside the timeline."""
        if self.narrow != self.has_class("-narrow"):
            self._update_layout()
        else:
            self._update_split()

    @property
    def narrow(self) -> bool:
        """One pane at a time: a small terminal, or one too narrow for the run list's
        columns beside the timeline (a wider terminal never shows fewer of them)."""
        width = self.size.width
        return (
            width < NARROW_WIDTH
            or self.size.height < NARROW_HEIGHT
            or width < self.run_list.fixed_width() + 3 + TIMELINE_ROOM
        )

    def _level(self) -> int:
        focused = self.focused
        if focused is None:
            return 0
        if focused is self.run_list or focused.id == "filter":
            return 0
        if focused is self.timeline or focused.id == "step-filter":
            return 1
        if focused.id == "search":
            return self._level_of(self._search_origin)
        return 2

    def _level_of(self, widget: Any) -> int:
        if widget is self.run_list:
            return 0
        if widget is self.timeline:
            return 1
        return 2

    def _update_layout(self) -> None:
        """The screen's classes: ``-narrow`` (one pane at a time) and, only then, the
        ``-level-N`` of the pane shown. A class change on the screen restyles every widget
        on it, so wide layouts, which no level changes, never carry one."""
        narrow = self.narrow
        level = self._level() if narrow else None
        classes = {f"-level-{k}" for k in range(3)}
        wanted = {"-narrow", f"-level-{level}"} if narrow else set()
        if (self.classes & (classes | {"-narrow"})) != wanted:
            self.set_classes((self.classes - classes - {"-narrow"}) | wanted)
        self._update_split()
        self._update_breadcrumb()

    def on_descendant_focus(self) -> None:
        self._update_layout()
        self._mark_focused_pane()

    def on_descendant_blur(self) -> None:
        self._mark_focused_pane()

    def _mark_focused_pane(self) -> None:
        for pane in self.query(".pane"):
            pane.set_class(pane.has_focus_within, "-focus")

    def _update_breadcrumb(self) -> None:
        parts = ["Runs"]
        if self.run is not None:
            parts.append(visible(self.run.ref, keep_newlines=False))
            level = self._level()
            if level >= 2:
                parts.append(subjects.label(self.subject, self.run))
        elif self.run_problem is not None:
            parts.append(f"line {self.run_problem.line}")
        crumb = Text(" " + " › ".join(parts), style="bold")
        crumb.append("   esc back · enter open · ? help", style="dim")
        # one line high (main.tcss), shown or not: no layout of the screen for new words
        self.query_one("#breadcrumb", Static).update(literal(crumb), layout=False)

    def _update_title(self) -> None:
        """The header line and the run list's titles (counts, progress, changes on disk)."""
        self._last_title = time.monotonic()
        if len(self.ws.sources) == 1:
            src = self.ws.sources[0]
            name, kind = src.path, src.format.name
        else:
            name, kind = f"{len(self.ws.sources)} sources", ""
        progress = bar = ""
        total = len(self.ws.sources)
        doing: tuple[str, float] | None = None  # what is under way, and its share done
        if total and not self._loading_done:
            fraction = sum(self._progress.get(s, (0.0, 0, False))[0] for s in range(total)) / total
            done_index = all(self._progress.get(s, (0.0, 0, False))[0] >= 1.0 for s in range(total))
            if not done_index:
                doing = ("indexing", fraction)
            else:
                read = sum(self._progress.get(s, (0.0, 0, False))[1] for s in range(total))
                doing = ("reading", read / (sum(len(s) for s in self.ws.sources) or 1))
        elif total and not self._counted:
            # every summary read, not every one counted yet (a run list restored whole
            # from the index cache): the numbers are of those counted so far
            counted = sum(c.seen for c in self.store.counts)
            doing = ("counting", counted / (sum(len(s) for s in self.ws.sources) or 1))
        if doing is not None:
            word, share = doing[0], min(1.0, doing[1])
            progress, bar = f"{word} {fmt.percent(share)}", progress_bar(share)
        parts = HeaderParts(
            name,
            kind,
            self.store.summary_line(),
            "changed on disk: R reloads"
            if self._changed_noted
            else "following (F stops)"
            if getattr(self.app, "follow", False)
            else "",
            progress,
            bar,
        )
        text = header_line(parts, self.size.width or 80)
        # one line high always: no layout of the screen for new words in it
        self.query_one("#title", Static).update(literal(text), layout=False)
        self._update_split()
        title = "Runs · " + self.store.summary_line()
        if self.store.filter.active or self.store.pinned is not None:
            shown = self.store.shown
            title += f" · {shown:,} shown" if shown else " · no runs match"
        if self.store.pinned is not None:
            title += f" · behind {self.store.pinned.label} (esc: all)"
        runs_pane = self.query_one("#runs-pane")
        runs_pane.border_title = literal(title)
        self._say_elided()
        # the split may have changed the list's width: what is cut is known once laid out
        self.call_after_refresh(self._say_elided)

    def _say_elided(self) -> None:
        """The line under the run list: the starts its titles and references give way by
        (said only while they do), and its keys."""
        runs_pane = self.query_one("#runs-pane")
        prefix = self.store.prefix.value.strip(" ⏎")
        said = [f"titles: … = {prefix}"] if prefix else []
        starts = {self.store.ref_start(s) for s in range(len(self.ws.sources))}
        if len(starts) == 1 and "" not in starts and self.run_list.refs_cut():
            said.insert(0, f"refs: … = {starts.pop()}")
        runs_pane.border_subtitle = literal(" · ".join([*said, "f filter · s sort"]))

    def _cursor_run(self) -> tuple[int, int] | None:
        """``(source, entry)`` of the run the user is on. With the run list focused that is
        the run under its cursor, which can be ahead of :attr:`run_key`: the run shown
        follows the cursor's Highlighted message, and keys typed ahead (one read over SSH)
        are handled before it."""
        if self.focused is self.run_list:
            return self.run_list.current()
        return self.run_key

    def _refresh_rows(self, *, keep: tuple[int, int] | None) -> None:
        """Draw the run list's rows again (after a sort or filter), the cursor on the run
        ``keep`` (:meth:`_cursor_run`, taken before the rows changed) when it is still
        shown, else on the first run."""
        cursor_row = None
        if keep is not None:
            cursor_row = self.store.row_of(*keep)
        self.run_list.reset(
            cursor=cursor_row if cursor_row is not None else self.run_list.first_run_row()
        )
        self.query_one("#columns", ColumnHeader).refresh()
        self._update_title()

    def _display_ref(self, ref: str) -> str:
        """``ref`` of the selected run's source as the user types it (with the source's
        label when several sources are open)."""
        if self.run_key is None:
            return ref
        return self.ws.ref(self.ws.sources[self.run_key[0]], ref)

    def _fold(self) -> int:
        return UNFOLDED_LINES if self.unfold else FOLDED_LINES

    def _pane_name(self, widget: Any) -> str:
        """The pane ``widget`` is, in words (``search steps``)."""
        return {
            id(self.run_list): "runs",
            id(self.timeline): "steps",
            id(self.detail): "detail",
        }.get(id(widget), "pane")

    # -- hooks for a format's extra panes (extra_panes.py), defaults for runs without any ----

    def _compose_extra_tabs(self) -> Iterator[Widget]:
        """The extra tabs of the detail area (hidden until a run has them)."""
        yield from ()

    def _show_extra_tabs(self, run: Run | None) -> None:
        """Show the tabs ``run``'s format adds (hide them all for None)."""

    def _extra_panes(self) -> list[Widget]:
        """The extra panes of the run on screen that ``tab`` cycles through."""
        return []

    def _extra_tab(self, widget: Any) -> str | None:
        """The tab ``widget`` (an extra pane or its preview) sits in, or None."""
        return None

    def _extra_list(self, widget: Any) -> Any:
        """The list whose preview ``widget`` is (itself when it is no preview)."""
        return widget

    def _extra_builder(self, run: Run, subject: Subject) -> Builder | None:
        """What the detail pane shows for a subject of an extra pane, or None."""
        return None

    def _mentions(self, run: Run) -> dict[str, str]:
        """Words of the detail that can be followed (``[``, ``]``, ``enter``), with what
        each leads to."""
        return {}

    def _subject_shown(self, run: Run) -> None:
        """The detail pane shows a new subject (extra panes that follow it update)."""

    def _focused_subject(self) -> Subject:
        """The subject of the focused pane (what ``y`` copies and ``e`` pages)."""
        return self.subject

    def _select_extra(self, target: Target) -> bool:
        """Select what ``target`` names in an extra pane; False when it names none."""
        return False

    def _drill_extra(self, focused: Any) -> None:
        """``enter`` in ``focused`` (the detail, when it had nothing to follow, or an extra
        pane)."""

    def _back_extra(self, focused: Any) -> bool:
        """``esc`` in a preview of an extra pane: back to its list. False elsewhere."""
        return False

    def _refresh_extra_views(self) -> None:
        """Draw the extra panes' previews again (raw or fold changed)."""

    if TYPE_CHECKING:
        # The workers (loading.py) that the selection (selection.py) starts.

        def _read_run(self, s: int, i: int, token: int) -> Any: ...

        def resolve_goto(self, ref: str, final: bool) -> Any: ...

        # The search of the filter's words in whole inputs (finding.py), again once every
        # run is read (loading.py).

        def _search_inputs(self, filt: Any) -> None: ...
