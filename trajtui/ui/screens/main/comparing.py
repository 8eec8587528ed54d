"""Comparing: ``c`` marks a run (or trial) as side A, ``c`` on another compares the two
(:mod:`trajtui.ui.screens.compare`); ``C`` compares two open sources
(:mod:`trajtui.ui.screens.compare_sources`).

What ``c`` takes: the trial under the timeline's cursor when the timeline has focus and the
run has trials, else the run under the run list's cursor. A part composed into the main
screen, reaching it through :class:`Compared`; the run marked is ``state.marked``.
"""

from __future__ import annotations

from typing import Protocol

from textual.widget import Widget

from trajtui.core.model import Problem
from trajtui.core.refs import RefError
from trajtui.ui.screens.compare import CompareScreen, SideSpec
from trajtui.ui.screens.main.panes import Panes


class Compared(Panes, Protocol):
    """What comparing needs of the screen."""

    def cursor_run(self) -> tuple[int, int] | None:
        """``(source, entry)`` of the run the user is on."""

    def display_ref(self, ref: str) -> str:
        """``ref`` as the user types it."""

    def timeline_focused(self) -> bool:
        """The timeline has the focus."""


class Comparing:
    """The compare keys of the main screen."""

    def __init__(self, screen: Compared, node: Widget) -> None:
        """Args:
        screen: The screen compared in.
        node: The same screen as a widget (its toasts and the screens it opens).
        """
        self.screen = screen
        self.node = node

    def side_here(self) -> SideSpec | None:
        """The run or trial ``c`` would take now (None on a header or problem row)."""
        screen = self.screen
        key = screen.cursor_run()
        if key is None:
            return None
        s, i = key
        entry = screen.ws.sources[s].peek(i)
        if entry is None or isinstance(entry, Problem):
            return None
        ref = screen.display_ref(entry.ref)
        attempt = None
        run = screen.state.run
        here = screen.timeline_focused() and screen.state.run_key == key
        if here and run is not None and run.attempts:
            row = screen.timeline.current_row()
            if row is not None and row.attempt is not None:
                attempt = row.attempt.number
                ref = screen.display_ref(row.attempt.ref)
        return SideSpec(s, i, attempt, ref)

    def compare(self) -> None:
        """``c``: mark side A, unmark it, or compare it with the run here."""
        here = self.side_here()
        if here is None:
            self.node.notify("c marks a run to compare: put the cursor on a run", timeout=3)
            return
        marked = self.screen.state.marked
        if marked is None:
            self.mark(here)
            return
        if (marked.source, marked.index, marked.attempt) == (here.source, here.index, here.attempt):
            self.mark(None)
            self.node.notify(f"{here.ref} is no longer marked for compare", timeout=3)
            return
        self.open(marked, here)

    def compare_marked(self) -> None:
        """Compare side A with the run here."""
        here = self.side_here()
        marked = self.screen.state.marked
        if marked is None:
            self.node.notify("nothing is marked: c marks a run (or trial) as A", timeout=3)
        elif here is None:
            self.node.notify("put the cursor on a run to compare with the marked one", timeout=3)
        else:
            self.open(marked, here)

    def mark_again(self) -> None:
        """Mark again, after a reload, the run (or trial) marked before it, found by its
        reference (the files may have changed under it)."""
        state = self.screen.state
        ref, state.pending_mark = state.pending_mark, None
        if ref is None:
            return
        ws = self.screen.ws
        try:
            target = ws.resolve(ref)
        except RefError:
            self.node.notify(f"{ref}, marked for compare, is not in the files now", timeout=5)
            return
        s = ws.sources.index(target.source)
        self.mark(SideSpec(s, target.index, target.attempt, ref), quiet=True)

    def mark(self, spec: SideSpec | None, *, quiet: bool = False) -> None:
        """Mark ``spec`` as side A (None: unmark), drawn in the run list and timeline."""
        screen = self.screen
        screen.state.marked = spec
        screen.run_list.marked = (spec.source, spec.index) if spec is not None else None
        screen.run_list.redraw()
        marked_trial = None
        if spec is not None and spec.attempt is not None:
            entry = screen.ws.sources[spec.source].peek(spec.index)
            if entry is not None and not isinstance(entry, Problem):
                marked_trial = (entry.ref, spec.attempt)
        screen.timeline.marked_trial = marked_trial
        screen.timeline.redraw()
        if spec is not None and not quiet:
            self.node.notify(
                f"marked {spec.ref} as A: c on another run (or trial) compares it with A · "
                "c on it again unmarks",
                timeout=4,
            )

    def open(self, a: SideSpec, b: SideSpec) -> None:
        """Open the compare of ``a`` and ``b``."""
        self.node.app.push_screen(CompareScreen(self.screen.ws, a, b))

    def compare_sources(self) -> None:
        """``C``: compare two open sources."""
        if len(self.screen.ws.sources) < 2:
            self.node.notify("compare sources needs two sources open (trajtui A B)", timeout=4)
            return
        from trajtui.ui.screens.compare_sources import pick_and_compare

        pick_and_compare(self.node, self.screen.ws)
