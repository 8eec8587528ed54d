"""The main screen: run list, step timeline and a detail area with tabs.

The screen owns the behaviour; widgets own their drawing and post messages up. Its jobs
live in one module each, stacked as layers of one class so that each calls only the ones
below it (the workers the selection starts are declared in :mod:`.layout`):

=====================  =======================================================================
:mod:`.layout`         panes and layout: composing, narrow terminals, header, breadcrumb, state
:mod:`.selection`      which run, trial, step or object is shown; going to a reference
:mod:`.loading`        thread workers (indexing, reading a run, resolving a reference, changes)
:mod:`.extra_panes`    the extra panes the formats' views declare (a list and a preview each)
:mod:`.finding`        search, filter and sort
:mod:`.actions`        what the keys do
:mod:`.marks`          bookmarks and notes (``b``, ``A``, ``'``)
:mod:`.comparing`      marking a run and comparing two (``c``), two sources (``C``)
=====================  =======================================================================

All reading happens in thread workers, which only post messages: nothing here waits on I/O.
"""

from __future__ import annotations

from trajtui.ui import commands
from trajtui.ui.screens.main.comparing import Comparing
from trajtui.ui.screens.main.loading import FOLLOW_EVERY
from trajtui.ui.screens.main.marks import Marks

__all__ = ["MainScreen"]


class MainScreen(Marks, Comparing):
    """Runs, steps and details of everything that was opened."""

    BINDINGS = commands.bindings()  # type: ignore[assignment]
    CSS_PATH = "main.tcss"

    def on_mount(self) -> None:
        self._mount_layout()
        self._show_extra_tabs(None)
        self._update_title()
        self._update_layout()
        self.run_list.focus()
        # Start reading after the first paint: the first screen is not delayed by I/O.
        self.call_after_refresh(self._start_loading)
        self.set_interval(FOLLOW_EVERY, self._tick_changes)

    def on_unmount(self) -> None:
        self.ws.cancel()
