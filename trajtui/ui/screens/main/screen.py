"""The main screen itself: a thin composition of its parts (see :mod:`trajtui.ui.screens.main`).

It composes the widgets, holds the state and the parts, and hands each part what Textual
delivers to the screen: the keys (its ``action_*`` methods, where Textual looks for them,
from :class:`~.key_actions.KeyActions`) and the messages of its widgets and workers. The parts reach the screen through the
protocols they declare, which it implements by being what they ask for (``ws``, ``state``,
the widgets, the other parts) and by the few methods at the end of the class.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Input, Static, TabbedContent, TabPane
from textual.worker import Worker, WorkerState

from trajtui.core.model import Problem, Run, Step
from trajtui.core.workspace import Workspace
from trajtui.ui import commands, failures
from trajtui.ui.header import FactsHeader
from trajtui.ui.literal import SafeInput, literal
from trajtui.ui.messages import AllLoaded, ChangedOnDisk, KeysMisread, Loaded, RunLoaded
from trajtui.ui.screens.compare import SideSpec
from trajtui.ui.screens.main.actions import Keys
from trajtui.ui.screens.main.changes import FOLLOW_EVERY, DiskWatch
from trajtui.ui.screens.main.comparing import Comparing
from trajtui.ui.screens.main.extra_panes import ExtraPanes
from trajtui.ui.screens.main.finding import Finding
from trajtui.ui.screens.main.going import GoingTo
from trajtui.ui.screens.main.key_actions import KeyActions
from trajtui.ui.screens.main.layout import STEP_FILTER_SYNTAX, Frame
from trajtui.ui.screens.main.loading import Loader
from trajtui.ui.screens.main.marks import Bookmarks
from trajtui.ui.screens.main.selection import Selection
from trajtui.ui.screens.main.state import MainState
from trajtui.ui.store import FILTER_SYNTAX, RunStore
from trajtui.ui.subjects import Subject
from trajtui.ui.widgets.detail import DetailView
from trajtui.ui.widgets.footer import FittingFooter
from trajtui.ui.widgets.pane_list import PaneList
from trajtui.ui.widgets.run_list import ColumnHeader, RunList
from trajtui.ui.widgets.search import SearchBar
from trajtui.ui.widgets.timeline import Timeline
from trajtui.ui.widgets.vlist import VirtualList


class MainScreen(KeyActions, Screen[None]):
    """Runs, steps and details of everything that was opened."""

    BINDINGS = commands.bindings()  # type: ignore[assignment]
    CSS_PATH = "main.tcss"

    # the widgets the parts share (composed in compose)
    run_list: RunList
    timeline: Timeline
    detail: DetailView
    tabs: TabbedContent  # Detail, and the extra panes' tabs

    def __init__(self, ws: Workspace, *, goto: str | None = None, mark: str | None = None) -> None:
        super().__init__()
        self.ws = ws
        """Everything that was opened."""
        self.store = RunStore(ws)
        """The run list's rows."""
        self.state = MainState(
            (self.store.sort, self.store.reverse, self.store.filter),
            pending_goto=goto,
            pending_mark=mark,
        )
        """What the screen shows and what is under way (every part reads it)."""
        self._settled = asyncio.Event()
        self.state.changed = self._settle_changed
        # The parts: each reaches the screen through a protocol of its own.
        self.frame = Frame(self, self)
        """The layout, the header line and the breadcrumb (``layout.Framed``)."""
        self.selection = Selection(self, self)
        """What is selected, and showing it (``selection.Selected``)."""
        self.going = GoingTo(self, self)
        """Going to a reference (``going.Gone``)."""
        self.loader = Loader(self, self)
        """The workers that read the files, a run, a reference (``loading.Loading``)."""
        self.extra = ExtraPanes(self, self)
        """The extra panes of the formats' views (``extra_panes.Paned``)."""
        self.finding = Finding(self, self)
        """Search, filter and sort (``finding.Found``)."""
        self.keys = Keys(self, self)
        """What the other keys do (``actions.Keyed``)."""
        self.disk = DiskWatch(self, self)
        """Looks for changes on disk (``changes.Watched``)."""
        self.comparing = Comparing(self, self)
        """The compare keys (``comparing.Compared``)."""
        self.bookmarks = Bookmarks(self, self)
        """Bookmarks and notes (``marks.Marked``)."""

    # -- what tests and the app read (changed only through the screen's parts) ---------------

    @property
    def run(self) -> Run | None:
        """The run on screen (read whole), if any."""
        return self.state.run

    @property
    def run_key(self) -> tuple[int, int] | None:
        """``(source, entry)`` of the run selected in the run list."""
        return self.state.run_key

    @property
    def run_problem(self) -> Problem | None:
        """Why the selected entry could not be read, when it could not."""
        return self.state.run_problem

    @property
    def subject(self) -> Subject:
        """What the detail pane shows."""
        return self.state.subject

    @property
    def marked(self) -> SideSpec | None:
        """Side A of a compare, once ``c`` marked it."""
        return self.state.marked

    @property
    def narrow(self) -> bool:
        """One pane at a time (a small terminal)."""
        return self.frame.narrow

    @property
    def pane_lists(self) -> dict[str, PaneList]:
        """Each extra pane's list, by name."""
        return self.extra.pane_lists

    @property
    def pane_previews(self) -> dict[str, DetailView]:
        """Each extra pane's preview, by name."""
        return self.extra.pane_previews

    # -- the settled signal ----------------------------------------------------------------

    def unsettled(self) -> list[str]:
        """What the screen started and is still on its way, in words: reading, counting, a
        run or reference on its way, its workers still running (empty: settled)."""
        busy = sorted(
            {
                str(w.group)
                for w in self.workers
                if w.node is self and w.state in (WorkerState.PENDING, WorkerState.RUNNING)
            }
        )
        return [*self.state.unsettled, *(f"its {group} worker" for group in busy)]

    def _settle_changed(self) -> None:
        """Something :meth:`unsettled` reads changed: the settled signal follows it."""
        if self.unsettled():
            self._settled.clear()
        else:
            self._settled.set()

    async def settled(self) -> None:
        """Wait until the screen is settled (:meth:`unsettled` is empty): every file read
        and counted, no run or reference on its way, none of its workers running."""
        self._settle_changed()
        await self._settled.wait()

    # -- composing and mounting --------------------------------------------------------------

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
            yield from self.extra.compose_tabs()
        yield SearchBar(id="search-bar")
        yield FittingFooter()

    def on_mount(self) -> None:
        self.frame.mount()
        self.extra.show_tabs(None)
        self.frame.update_title()
        self.frame.update_layout()
        self.run_list.focus()
        # Start reading after the first paint: the first screen is not delayed by I/O.
        self.call_after_refresh(self.loader.start)
        self.set_interval(FOLLOW_EVERY, self.disk.tick)

    def on_unmount(self) -> None:
        self.ws.cancel()
        self.state.wake.notify()  # its workers are cancelled: those waiting stop now
        self._settled.set()  # gone: nothing of it is left to wait for (a reload's new one is)

    # -- messages, each handed to the part it is for -----------------------------------------

    def on_resize(self) -> None:
        self.frame.resized()

    def on_run_list_resized(self) -> None:
        # the list's own width changed (a split moved): what its references cut may have too
        self.frame.say_elided()

    def on_descendant_focus(self) -> None:
        self.frame.focus_moved(gained=True)

    def on_descendant_blur(self) -> None:
        self.frame.focus_moved(gained=False)

    @on(Worker.StateChanged)
    def _worker_changed(self, event: Worker.StateChanged) -> None:
        """A worker of the screen changed state: the settled signal follows; one that
        failed, the app tells and logs."""
        self._settle_changed()
        failures.hand_to_app(self, event)

    def on_loaded(self, message: Loaded) -> None:
        self.loader.loaded(message)

    def on_all_loaded(self, message: AllLoaded) -> None:
        self.comparing.mark_again()
        self.loader.all_loaded(message)

    def on_keys_misread(self, message: KeysMisread) -> None:
        self.loader.keys_misread(message)

    def on_run_loaded(self, message: RunLoaded) -> None:
        self.selection.run_loaded(message)

    def on_changed_on_disk(self, message: ChangedOnDisk) -> None:
        self.disk.changed(message)

    @on(VirtualList.Highlighted, "#runs")
    def _run_highlighted(self) -> None:
        self.selection.run_highlighted()

    @on(VirtualList.Highlighted, "#timeline")
    def _step_highlighted(self) -> None:
        self.selection.step_highlighted()

    @on(VirtualList.Highlighted, "PaneList")
    def _pane_row_highlighted(self, message: VirtualList.Highlighted) -> None:
        self.extra.row_highlighted(message)

    @on(VirtualList.Selected)
    def _row_chosen(self, message: VirtualList.Selected) -> None:
        self.keys.row_chosen(message)

    @on(TabbedContent.TabActivated)
    def _tab_activated(self, event: TabbedContent.TabActivated) -> None:
        self.extra.tab_activated(event)

    @on(DetailView.FollowMention)
    def _follow_mention(self, message: DetailView.FollowMention) -> None:
        self.extra.follow_mention(message)

    @on(DetailView.Searched)
    def _detail_searched(self, message: DetailView.Searched) -> None:
        self.finding.detail_searched(message)

    @on(DetailView.Unfold)
    def _unfold_for_search(self, message: DetailView.Unfold) -> None:
        self.finding.unfold_for_search(message)

    @on(Input.Submitted, "#search")
    def _search_submitted(self) -> None:
        self.finding.search_submitted()

    @on(Input.Changed, "#filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self.finding.filter_changed(event.value)

    @on(Input.Submitted, "#filter")
    def _filter_submitted(self, event: Input.Submitted) -> None:
        self.finding.filter_submitted(event.value)

    @on(Input.Changed, "#step-filter")
    def _step_filter_changed(self, event: Input.Changed) -> None:
        self.finding.step_filter_changed(event.value)

    @on(Input.Submitted, "#step-filter")
    def _step_filter_submitted(self, event: Input.Submitted) -> None:
        self.finding.step_filter_submitted(event.value)

    @on(ColumnHeader.SortBy)
    def _sort_by(self, message: ColumnHeader.SortBy) -> None:
        self.finding.sort_by_column(message)

    # -- the keys (the command table binds them; their actions: KeyActions) ------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "compare_marked" and self.state.marked is None:
            return None
        if action in ("sort", "sort_reverse", "filter") and not self.ws.sources:
            return None
        if action in ("open_link", "link_back"):
            return self.keys.link_state(action)
        if self.extra.greyed(action, parameters):
            return False  # greyed: the run's format has no such pane
        return super().check_action(action, parameters)

    # -- what the parts ask of the screen -----------------------------------------------------

    def cursor_run(self) -> tuple[int, int] | None:
        """``(source, entry)`` of the run the user is on. With the run list focused that is
        the run under its cursor, which can be ahead of :attr:`run_key`: the run shown
        follows the cursor's Highlighted message, and keys typed ahead (one read over SSH)
        are handled before it."""
        if self.focused is self.run_list:
            return self.run_list.current()
        return self.state.run_key

    def display_ref(self, ref: str) -> str:
        """``ref`` of the selected run's source as the user types it (with the source's
        label when several sources are open)."""
        if self.state.run_key is None:
            return ref
        return self.ws.ref(self.ws.sources[self.state.run_key[0]], ref)

    def go_to(self, ref: str) -> None:
        """Go to ``ref`` (from the ``:`` prompt, ``--goto`` or a bookmark)."""
        self.going.go_to(ref)

    def focused_subject(self) -> Subject:
        """The subject of the focused pane (what ``y`` copies and ``e`` pages)."""
        return self.extra.focused_subject()

    def steps_for(self, run: Run, subject: Subject) -> Sequence[Step]:
        """The timeline a step subject belongs to (its trial's, or the run's)."""
        return self.selection.steps_for(run, subject)

    def run_list_focused(self) -> bool:
        """The run list has the focus."""
        return self.focused is self.run_list

    def timeline_focused(self) -> bool:
        """The timeline has the focus."""
        return self.focused is self.timeline

    def read_appended(self, source: int) -> None:
        """Read the records appended to ``source`` (every other one is read)."""
        self.loader.read_appended(source)

    def at_end(self) -> bool:
        """The run list's cursor is on its last row (following keeps it there)."""
        rows = self.run_list.row_count
        return rows == 0 or self.run_list.cursor >= rows - 1

    def shown_ref(self) -> str | None:
        """The reference of the run on screen as the user types it (None: no run)."""
        run = self.state.run
        return None if run is None else self.display_ref(run.ref)

    def update_title(self) -> None:
        """Draw the header line and the run list's titles again."""
        self.frame.update_title()
