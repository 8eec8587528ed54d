"""The main screen: run list, step timeline and a detail area with tabs.

The screen owns the behaviour; widgets own their drawing and post messages up. What the
screen shows and what is under way is one typed object, :class:`.state.MainState`
(``screen.state``), that every part reads. Its jobs live in one module each:

=====================  =======================================================================
:mod:`.state`          the state: the run shown, view modes, loading, requests under way
:mod:`.changes`        changes on disk (a part composed in, reaching the screen through
                       ``Watched``; its messages handed to it here)
:mod:`.layout`         panes and layout: composing, narrow terminals, header, breadcrumb, and
                       the settled signal (:meth:`~.layout.MainLayout.settled`)
:mod:`.selection`      which run, trial, step or object is shown; going to a reference
:mod:`.loading`        thread workers (indexing, reading a run, resolving a reference)
:mod:`.extra_panes`    the extra panes the formats' views declare (a list and a preview each)
:mod:`.finding`        search, filter and sort
:mod:`.actions`        what the keys do
:mod:`.marks`          bookmarks and notes (``b``, ``A``, ``'``)
:mod:`.comparing`      marking a run and comparing two (``c``), two sources (``C``)
=====================  =======================================================================

The modules from :mod:`.layout` to :mod:`.comparing` are still layers of one class, each
calling the ones below it. All reading happens in thread workers, which only post messages
or wait on :class:`.state.Wake` (woken by the screen, never polling): nothing here waits on
I/O.
"""

from __future__ import annotations

from trajtui.core.model import Problem, Run
from trajtui.core.workspace import Workspace
from trajtui.ui import commands
from trajtui.ui.messages import AllLoaded, ChangedOnDisk
from trajtui.ui.screens.compare import SideSpec
from trajtui.ui.screens.main.actions import Actions
from trajtui.ui.screens.main.changes import FOLLOW_EVERY, DiskWatch
from trajtui.ui.screens.main.comparing import Comparing
from trajtui.ui.screens.main.marks import Bookmarks
from trajtui.ui.subjects import Subject

__all__ = ["MainScreen"]


class MainScreen(Actions):
    """Runs, steps and details of everything that was opened."""

    BINDINGS = commands.bindings()  # type: ignore[assignment]
    CSS_PATH = "main.tcss"

    def __init__(self, ws: Workspace, *, goto: str | None = None, mark: str | None = None) -> None:
        super().__init__(ws, goto=goto, mark=mark)
        # The parts composed in: each reaches the screen through a protocol of its own.
        self.disk = DiskWatch(self, self)
        """Looks for changes on disk (through ``changes.Watched``)."""
        self.comparing = Comparing(self, self)
        """The compare keys (through ``comparing.Compared``)."""
        self.bookmarks = Bookmarks(self, self)
        """Bookmarks and notes (through ``marks.Marked``)."""

    # What tests and the app read of the state (changed only through the screen's parts).

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

    def on_mount(self) -> None:
        self._mount_layout()
        self._show_extra_tabs(None)
        self._update_title()
        self._update_layout()
        self.run_list.focus()
        # Start reading after the first paint: the first screen is not delayed by I/O.
        self.call_after_refresh(self._start_loading)
        self.set_interval(FOLLOW_EVERY, self.disk.tick)

    def on_unmount(self) -> None:
        self.ws.cancel()
        self.state.wake.notify()  # its workers are cancelled: those waiting stop now
        self._settled.set()  # gone: nothing of it is left to wait for (a reload's new one is)

    # -- the disk watch's key and messages ---------------------------------------------------

    def action_toggle_follow(self) -> None:
        self.disk.toggle_follow()

    def on_changed_on_disk(self, message: ChangedOnDisk) -> None:
        self.disk.changed(message)

    # -- comparing's keys and messages -------------------------------------------------------

    def action_compare(self) -> None:
        self.comparing.compare()

    def action_compare_marked(self) -> None:
        self.comparing.compare_marked()

    def action_compare_sources(self) -> None:
        self.comparing.compare_sources()

    def on_all_loaded(self, message: AllLoaded) -> None:
        # Textual calls this beside Loading's own handler (each class of the MRO has its say)
        self.comparing.mark_again()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "compare_marked" and self.state.marked is None:
            return None
        return super().check_action(action, parameters)

    # -- bookmarks' keys -----------------------------------------------------------------------

    def action_bookmark(self) -> None:
        self.bookmarks.bookmark()

    def action_note(self) -> None:
        self.bookmarks.note()

    def action_bookmarks(self) -> None:
        self.bookmarks.list_them()

    def _start_loading(self) -> None:
        super()._start_loading()
        self.bookmarks.read()

    def _load_run(self, s: int, i: int) -> None:
        super()._load_run(s, i)
        self.bookmarks.mark_timeline()

    # -- what the parts ask of the screen (beside what its layers have) ------------------------

    def run_list_focused(self) -> bool:
        """The run list has the focus."""
        return self.focused is self.run_list

    def timeline_focused(self) -> bool:
        """The timeline has the focus."""
        return self.focused is self.timeline
