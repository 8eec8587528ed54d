"""Selection: which run, trial, step or object the main screen shows.

The run under the run list's cursor is read in a worker (:mod:`.loading`); when it arrives
its timeline and header are shown, and the detail pane shows the selected subject
(:mod:`trajtui.ui.subjects`); going to a reference is :mod:`.going`'s. A part composed into
the screen, reaching it through :class:`Selected`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from rich.text import Text
from textual.screen import Screen
from textual.widgets import Input, Static

from trajtui.core.model import Problem, Run, Step
from trajtui.formats.registry import run_view
from trajtui.render import detail as details
from trajtui.render import show
from trajtui.ui import heap
from trajtui.ui.header import FactsHeader
from trajtui.ui.literal import literal
from trajtui.ui.messages import RunLoaded
from trajtui.ui.screens.main.layout import Builder
from trajtui.ui.screens.main.panes import Panes, Parts
from trajtui.ui.store import ENTRY
from trajtui.ui.subjects import (
    RunSubject,
    StepSubject,
    Subject,
    TrialSubject,
    subject_object,
    whole_text,
)
from trajtui.ui.widgets.detail import DetailView

if TYPE_CHECKING:
    pass

RAPID_MOVES = 0.15
"""Seconds: cursor moves closer together than this are a key held down or typed fast."""

MOVES_PAUSED = 0.06
"""Seconds without a move after which the run under the cursor is read (rapid moves)."""


class Selected(Panes, Parts, Protocol):
    """What the selection needs of the screen."""

    def display_ref(self, ref: str) -> str:
        """``ref`` as the user types it."""


class Selection:
    """What is selected, and showing it."""

    def __init__(self, screen: Selected, node: Screen[None]) -> None:
        """Args:
        screen: The screen selected in.
        node: The same screen as a Textual screen (its focus, widgets, timers, toasts).
        """
        self.screen = screen
        self.node = node

    # -- runs ------------------------------------------------------------------------------

    def run_highlighted(self) -> None:
        """The run list's cursor moved."""
        now = time.monotonic()
        rapid = now - self.screen.state.run_moved < RAPID_MOVES
        self.screen.state.run_moved = now
        self._cancel_wanted_run()
        current = self.screen.run_list.current()
        if current is None:
            self._show_open_problem()
            return
        if self.screen.state.run_key == current:
            return
        if rapid:
            # A key held down, or typed fast: the cursor moves at once, and the run under
            # it is read and drawn once the moves pause. Drawing each run passed over took
            # a frame of 15-30 ms of the interpreter, and reading it a thread's share of
            # it: the next key waited behind them.
            self.screen.state.run_wanted = self.node.set_timer(MOVES_PAUSED, self.show_wanted_run)
        else:
            self.load_run(*current)

    def show_wanted_run(self) -> None:
        """Read and show the run under the cursor now, if moves left it waiting."""
        if self.screen.state.run_wanted is None:
            return
        self._cancel_wanted_run()
        current = self.screen.run_list.current()
        if current is not None and self.screen.state.run_key != current:
            self.load_run(*current)

    def _cancel_wanted_run(self) -> None:
        if self.screen.state.run_wanted is not None:
            self.screen.state.run_wanted.stop()
            self.screen.state.run_wanted = None

    def _show_open_problem(self) -> None:
        self.screen.state.run, self.screen.state.run_key = None, None
        store = self.screen.store
        if not store.rows:
            return
        kind, s, i = store.rows[self.screen.run_list.cursor]
        self.screen.state.run_problem = None
        self.screen.timeline.show_run(None)
        self.node.query_one("#run-header", FactsHeader).show(Text())
        pane = self.node.query_one("#timeline-pane")
        pane.border_title, pane.border_subtitle = literal("Steps"), literal("")
        self.screen.extra.show_tabs(None)
        if kind == 2:
            problem = store.ws.problems[i]
            passed = store.ws.passed_over(problem.path)  # what ls --verbose would say
            self.screen.detail.show(
                lambda: details.open_problem(problem, passed), key=f"open-problem:{i}"
            )
        else:
            source = store.ws.sources[s]
            self.screen.detail.show(
                lambda: details.source_info(source, store.summary_line([s])), key=f"source:{s}"
            )

    def load_run(self, s: int, i: int) -> None:
        """Show entry ``i`` of source ``s``: its run, read in a worker, or its problem."""
        state = self.screen.state
        state.run_token += 1
        state.run_key = (s, i)
        entry = self.screen.ws.sources[s].peek(i)
        if isinstance(entry, Problem):
            self.set_problem(entry)
        else:
            self.screen.loader.read_run(s, i, state.run_token)
        self.screen.bookmarks.mark_timeline()  # the marks of this run's source

    def run_loaded(self, message: RunLoaded) -> None:
        """A run read (or why it could not be): show it, if it is still the one wanted."""
        if message.token != self.screen.state.run_token:
            return
        if self.screen.state.goto_since is not None:
            # the run gone to (the first screen, if it is the first run): reading waits
            # until it is drawn
            self.screen.state.first_drawn = True
            self.node.call_after_refresh(self._goto_drawn)
        elif (
            not self.screen.state.first_drawn
        ):  # the first run: indexing waits for the first screen
            self.node.call_after_refresh(self._check_first_drawn)
        if message.run is None:
            assert message.problem is not None
            self.set_problem(message.problem)
            return
        shown = self.screen.state.run
        # the run shown read again (its session now read whole): the step shown stays
        reread = shown is not None and shown.ref == message.run.ref
        keep = shown is not None and (reread or self.node.focused is self.screen.timeline)
        self.screen.state.run, self.screen.state.run_problem = message.run, None
        self.screen.timeline.show_run(message.run, keep_cursor=keep)
        self.screen.extra.show_tabs(message.run)
        self._update_run_header()
        self.screen.frame.update_split()
        if reread and self.screen.state.goto_target is None:
            self.show_subject(self.screen.state.subject)
        elif self.screen.state.goto_target is not None:
            target, self.screen.state.goto_target = self.screen.state.goto_target, None
            self.screen.going.select_in_run(target)
        elif self.node.focused is self.screen.timeline:
            self.show_timeline_row()
        else:
            self.show_subject(RunSubject())
        self.screen.frame.update_breadcrumb()

    def _check_first_drawn(self) -> None:
        """The first run is drawn: the first screen is once no row on it waits to be read
        (the list asks for those it draws unread; their answer draws it again)."""
        top = int(self.screen.run_list.scroll_y)
        shown = self.screen.store.rows[top : top + self.screen.run_list.size.height]
        unread = any(
            kind == ENTRY and self.screen.ws.sources[s].peek(i) is None for kind, s, i in shown
        )
        if unread or self.screen.store.answered:
            self.screen.state.wake.notify()  # the loader reads the rows drawn unread
            self.node.set_timer(0.01, self._check_first_drawn)
            return
        self.node.call_after_refresh(self._first_screen_drawn)

    def _first_screen_drawn(self) -> None:
        self.screen.state.first_drawn = True
        heap.keep(self.node.app.screen_stack)  # the app as it starts: no full collection walks it

    def _goto_drawn(self) -> None:
        """The run gone to is drawn: reading may go on once its detail is laid out too."""
        if self.screen.state.goto_since is None:
            return
        if self.screen.detail.busy:
            self.node.set_timer(0.01, self._goto_drawn)
            return
        # laid out: reading waits for the frame that draws it too (it took 0.1 s more
        # in a terminal, sharing the interpreter with the reading)
        self.node.call_after_refresh(self._goto_shown, self.screen.state.goto_since)

    def _goto_shown(self, since: float) -> None:
        if self.screen.state.goto_since == since:  # (not a reference given since)
            self.screen.state.goto_since = None

    def set_problem(self, problem: Problem) -> None:
        self.screen.state.goto_since = None  # nothing more to draw for a reference gone to
        if not self.screen.state.first_drawn:
            self.node.call_after_refresh(self._check_first_drawn)
        self.screen.state.run, self.screen.state.run_problem = None, problem
        self.screen.timeline.show_run(None)
        self.screen.timeline.empty_text = "this line could not be read"
        self.node.query_one("#run-header", FactsHeader).show(Text(str(problem), style="bold red"))
        self.node.query_one("#timeline-pane").border_title = literal(
            f"line {problem.line}" if problem.line else "problem"
        )
        self.screen.detail.show(lambda: details.problem_detail(problem), key=f"problem:{problem}")
        self.screen.extra.show_tabs(None)

    def _update_run_header(self) -> None:
        run = self.screen.state.run
        if run is None:
            return
        pane = self.node.query_one("#timeline-pane")
        pane.border_title = literal(self.screen.display_ref(run.ref))
        facts = show.summary_facts(run.summary)
        extra = _format_headline(run)
        line = show.facts_line(facts, *([extra] if extra is not None else []))
        # one line high always (main.tcss): the facts that fit, whole
        self.node.query_one("#run-header", FactsHeader).show(line)
        self.update_steps_title()

    def close_step_filter(self) -> None:
        """Empty the timeline's filter box and hide it: every step shows again."""
        box = self.node.query_one("#step-filter", Input)
        with box.prevent(Input.Changed):
            box.value = ""
        box.display = False
        hint = self.node.query_one("#step-filter-hint", Static)
        hint.display = False
        if self.screen.timeline.keep is not None:
            self.screen.timeline.set_filter(None)
        self.update_steps_title()

    def update_steps_title(self) -> None:
        """The timeline pane's subtitle: what its filter keeps, the keys for it."""
        run, timeline = self.screen.state.run, self.screen.timeline
        pane = self.node.query_one("#timeline-pane")
        parts = []
        if timeline.keep is not None and run is not None:
            parts.append(
                f"{timeline.kept:,} of {timeline.step_count:,} steps match {timeline.filter_text}"
            )
        parts.append("f filter")
        if timeline.merge:  # on for every run after, and from the last session: said
            parts.append("chunks merged (m: each)")
        elif run is not None and any(s.kind.value == "message" for s in run.steps[:200]):
            parts.append("m merge chunks")
        pane.border_subtitle = literal(" · ".join(parts))

    # -- timeline and detail -----------------------------------------------------------------

    def step_highlighted(self) -> None:
        """The timeline's cursor moved."""
        if self.node.focused is self.screen.timeline or self.screen.frame.level() == 1:
            self.show_timeline_row()

    def show_timeline_row(self) -> None:
        row = self.screen.timeline.current_row()
        if row is None:
            self.show_subject(RunSubject())
            return
        if row.is_attempt:
            assert row.attempt is not None
            self.show_subject(TrialSubject(row.attempt.number))
        else:
            number = row.attempt.number if row.attempt is not None else None
            self.show_subject(StepSubject(number, row.first, row.last))

    def show_subject(self, subject: Subject) -> None:
        self.screen.state.subject = subject
        run = self.screen.state.run
        if run is None:
            return
        self.present(self.screen.detail, run, subject)
        self.screen.extra.subject_shown(run)
        self.screen.frame.update_breadcrumb()

    def steps_for(self, run: Run, subject: Subject) -> Sequence[Step]:
        """The timeline a step subject belongs to (its trial's, or the run's)."""
        trial = subject.trial if isinstance(subject, StepSubject) else None
        return self.screen.timeline.steps_of(run.attempt(trial) if trial is not None else None)

    def present(self, view: DetailView, run: Run, subject: Subject) -> None:
        """Show ``subject`` of ``run`` in ``view`` (folding long values or not: the same
        object keeps its scroll position)."""
        builder = self._builder_for(run, subject)
        steps = self.steps_for(run, subject)
        view.show(
            builder,
            key=f"{run.ref}|{subject}|{self.screen.state.raw}",
            mentions=self.screen.extra.mentions(run),
            whole=lambda: whole_text(run, steps, subject),
        )

    def _builder_for(self, run: Run, subject: Subject) -> Builder:
        raw, lines, ref_of = (
            self.screen.state.raw,
            self.screen.frame.fold(),
            self.screen.display_ref,
        )
        if isinstance(subject, TrialSubject):
            attempt = run.attempt(subject.number)
            assert attempt is not None
            return lambda: details.attempt_detail(attempt, ref_of(attempt.ref), raw, lines)
        if isinstance(subject, StepSubject):
            steps = self.screen.timeline.steps_of(
                run.attempt(subject.trial) if subject.trial is not None else None
            )
            first, last = subject.first, subject.last
            view = run_view(run)
            return lambda: details.step_detail(run, view, steps, first, last, ref_of, raw, lines)
        extra = self.screen.extra.builder(run, subject)
        if extra is not None:
            return extra
        view = run_view(run)
        return lambda: details.run_detail(run, view, ref_of(run.ref), raw, lines)

    def refresh_views(self) -> None:
        """Draw the detail and the previews again (raw/fold changed), the modes said in the
        Detail tab's title (they stay on for every object shown after)."""
        modes = [
            word
            for on, word in (
                (self.screen.state.raw, "raw JSON"),
                (self.screen.state.unfold, "unfolded"),
            )
            if on
        ]
        label = " · ".join(["Detail", *modes])
        tab = self.screen.tabs.get_tab("tab-detail")
        if str(tab.label) != label:
            tab.label = literal(label)
        self._show_subject_keep(self.screen.state.subject)
        self.screen.extra.refresh_views()

    def _show_subject_keep(self, subject: Subject) -> None:
        """Show ``subject`` in the detail without updating the panes that follow it."""
        self.screen.state.subject = subject
        run = self.screen.state.run
        if run is None:
            return
        self.present(self.screen.detail, run, subject)

    def current_object(self) -> tuple[str, str] | None:
        """``(reference, text)`` of what the focused pane shows."""
        run = self.screen.state.run
        if run is None:
            if self.screen.state.run_problem is not None:
                return str(self.screen.state.run_problem), str(self.screen.state.run_problem)
            return None
        subject = self.screen.extra.focused_subject()
        steps = self.steps_for(run, subject)
        ref, text = subject_object(run, steps, subject, self.screen.state.raw)
        return self.screen.display_ref(ref), text

    def select_first_run(self) -> None:
        """Show the run under the cursor, or the first run when the cursor is on a group's
        header row."""
        current = self.screen.run_list.current()
        if current is None and self.screen.store.grouped:
            first = self.screen.run_list.first_run_row()
            if self.screen.store.rows and self.screen.store.rows[first][0] == ENTRY:
                self.screen.run_list.set_cursor(first, post=False)
                current = self.screen.run_list.current()
        if current is not None:
            self.load_run(*current)


def _format_headline(run: Run) -> Text | None:
    """A format's extra headline for the run header (validation verdicts, accuracy...)."""
    line = run_view(run).headline(run)
    return Text(line) if line else None
