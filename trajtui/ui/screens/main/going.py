"""Going to a reference (``:``, ``--goto``, a bookmark, a search hit): its run is selected,
then its trial, step, message or source.

A reference is resolved in a worker (:mod:`.loading`), at once when it is indexed, else once
indexing finds it; the run it names is read, then what it names inside the run is selected
(:meth:`GoingTo.select_in_run`). A part composed into the screen, reaching it through
:class:`Gone`.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Protocol

from textual.screen import Screen
from textual.widgets import Input

from trajtui.core.source import Target
from trajtui.ui.screens.main.panes import Panes, Parts
from trajtui.ui.subjects import RunSubject, StepSubject, TrialSubject

if TYPE_CHECKING:
    pass


class Gone(Panes, Parts, Protocol):
    """What going to a reference needs of the screen."""


class GoingTo:
    """Going to a reference."""

    def __init__(self, screen: Gone, node: Screen[None]) -> None:
        """Args:
        screen: The screen gone in.
        node: The same screen as a Textual screen (its widgets and toasts).
        """
        self.screen = screen
        self.node = node

    def try_pending_goto(self, *, final: bool) -> None:
        """Go to the reference waiting for indexing, once it is indexed (``final``: every
        file is: now, or say why it names nothing)."""
        ref = self.screen.state.pending_goto
        assert ref is not None
        if not final and not self.screen.ws.knows(ref):
            return
        self.screen.state.pending_goto = None
        self.screen.state.goto_since = time.monotonic()
        self.screen.loader.resolve_goto(ref, final)

    def goto_failed(self, ref: str, why: str) -> None:
        """Say why ``ref`` names nothing; with nothing selected yet, select the first run."""
        self.screen.state.goto_since = None
        self.node.notify(f"{ref}: {why}", severity="error", timeout=10)
        if self.screen.state.run is None and self.screen.state.run_problem is None:
            self.screen.selection.select_first_run()

    def defer_goto(self, ref: str) -> None:
        """``ref`` is not indexed yet: go there once it is."""
        self.screen.state.goto_since = None
        self.screen.state.pending_goto = ref

    def go_to(self, ref: str) -> None:
        """Go to ``ref`` (from the ``:`` prompt or ``--goto``)."""
        if all(s.complete for s in self.screen.ws.sources) or self.screen.ws.knows(ref):
            self.screen.state.goto_since = time.monotonic()
            self.screen.loader.resolve_goto(ref, True)
        else:
            self.screen.state.pending_goto = ref
            self.node.notify(f"{ref}: still indexing; going there when it is found", timeout=4)

    def select_target(self, target: Target) -> None:
        """Select what ``target`` names: its run, then its trial/step/message/source."""
        s = self.screen.ws.sources.index(target.source)
        row = self.screen.store.row_of(s, target.index)
        if row is None:
            self.screen.store.set_filter("")
            self.screen.state.inputs_asked += 1  # a search of the filter's words stops
            self.screen.state.wanted = (
                self.screen.store.sort,
                self.screen.store.reverse,
                self.screen.store.filter,
            )
            self.node.query_one("#filter", Input).value = ""
            self.screen.frame.refresh_rows(keep=None)
            row = self.screen.store.row_of(s, target.index)
        if row is not None:
            self.screen.run_list.set_cursor(row, post=False, center=True)
        if self.screen.state.run is not None and self.screen.state.run_key == (s, target.index):
            self.screen.state.goto_since = None
            self.select_in_run(target)
            return
        self.screen.state.goto_target = target
        self.screen.selection.load_run(s, target.index)

    def select_in_run(self, target: Target) -> None:
        """Select what ``target`` names inside the run shown (a search hit being opened:
        its match marked in the view shown next)."""
        mark, self.screen.state.grep_mark = self.screen.state.grep_mark, None
        if mark is not None:
            self.screen.detail.find_when_shown(*mark)
        kind = target.kind
        if kind == "run":
            self.screen.run_list.focus()
            self.screen.selection.show_subject(RunSubject())
            return
        if kind == "trial":
            assert target.attempt is not None
            row = self.screen.timeline.row_of_attempt(target.attempt)
            if row is not None:
                self.screen.timeline.set_cursor(row, post=False, center=True)
            self.screen.timeline.focus()
            self.screen.selection.show_subject(TrialSubject(target.attempt))
            return
        if kind == "step":
            assert target.step is not None
            if self.screen.timeline.merge:
                self.screen.timeline.set_merge(False)
            row = self.screen.timeline.row_of_step(target.attempt, target.step)
            if row is None and self.screen.timeline.keep is not None:
                self.screen.selection.close_step_filter()  # the step asked for is one the filter hides
                self.node.notify("the step filter is cleared to show that step", timeout=3)
                row = self.screen.timeline.row_of_step(target.attempt, target.step)
            if row is not None:
                self.screen.timeline.set_cursor(row, post=False, center=True)
            self.screen.selection.show_subject(
                StepSubject(target.attempt, target.step - 1, target.step - 1)
            )
            self.screen.detail.focus()
            return
        if not self.screen.extra.select(target):
            self.screen.run_list.focus()
