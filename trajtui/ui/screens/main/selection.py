"""Selection: which run, trial, step or object the main screen shows, and going to one by
its reference.

The run under the run list's cursor is read in a worker (:mod:`.loading`); when it arrives
its timeline and header are shown, and the detail pane shows the selected subject
(:mod:`trajtui.ui.subjects`). A reference (``:`` or ``--goto``) selects its run, then its
trial, step, message or source.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from rich.text import Text
from textual import on
from textual.widgets import Input, Static

from trajtui.core.model import Problem, Run, Step
from trajtui.core.source import Target
from trajtui.formats.registry import run_view
from trajtui.render import detail as details
from trajtui.render import show
from trajtui.ui import heap
from trajtui.ui.header import FactsHeader
from trajtui.ui.literal import literal
from trajtui.ui.messages import RunLoaded
from trajtui.ui.screens.main.layout import Builder, MainLayout
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
from trajtui.ui.widgets.vlist import VirtualList

RAPID_MOVES = 0.15
"""Seconds: cursor moves closer together than this are a key held down or typed fast."""

MOVES_PAUSED = 0.06
"""Seconds without a move after which the run under the cursor is read (rapid moves)."""


class Selection(MainLayout):
    """What is selected, and showing it."""

    # -- runs ------------------------------------------------------------------------------

    @on(VirtualList.Highlighted, "#runs")
    def _run_highlighted(self, message: VirtualList.Highlighted) -> None:
        now = time.monotonic()
        rapid = now - self.state.run_moved < RAPID_MOVES
        self.state.run_moved = now
        self._cancel_wanted_run()
        current = self.run_list.current()
        if current is None:
            self._show_open_problem()
            return
        if self.state.run_key == current:
            return
        if rapid:
            # A key held down, or typed fast: the cursor moves at once, and the run under
            # it is read and drawn once the moves pause. Drawing each run passed over took
            # a frame of 15-30 ms of the interpreter, and reading it a thread's share of
            # it: the next key waited behind them.
            self.state.run_wanted = self.set_timer(MOVES_PAUSED, self.show_wanted_run)
        else:
            self._load_run(*current)

    def show_wanted_run(self) -> None:
        """Read and show the run under the cursor now, if moves left it waiting."""
        if self.state.run_wanted is None:
            return
        self._cancel_wanted_run()
        current = self.run_list.current()
        if current is not None and self.state.run_key != current:
            self._load_run(*current)

    def _cancel_wanted_run(self) -> None:
        if self.state.run_wanted is not None:
            self.state.run_wanted.stop()
            self.state.run_wanted = None

    def _show_open_problem(self) -> None:
        self.state.run, self.state.run_key = None, None
        store = self.store
        if not store.rows:
            return
        kind, s, i = store.rows[self.run_list.cursor]
        self.state.run_problem = None
        self.timeline.show_run(None)
        self.query_one("#run-header", FactsHeader).show(Text())
        pane = self.query_one("#timeline-pane")
        pane.border_title, pane.border_subtitle = literal("Steps"), literal("")
        self._show_extra_tabs(None)
        if kind == 2:
            problem = store.ws.problems[i]
            passed = store.ws.passed_over(problem.path)  # what ls --verbose would say
            self.detail.show(lambda: details.open_problem(problem, passed), key=f"open-problem:{i}")
        else:
            source = store.ws.sources[s]
            self.detail.show(
                lambda: details.source_info(source, store.summary_line([s])), key=f"source:{s}"
            )

    def _load_run(self, s: int, i: int) -> None:
        self.state.run_token += 1
        self.state.run_key = (s, i)
        entry = self.ws.sources[s].peek(i)
        if isinstance(entry, Problem):
            self._set_problem(entry)
            return
        self._read_run(s, i, self.state.run_token)

    def on_run_loaded(self, message: RunLoaded) -> None:
        if message.token != self.state.run_token:
            return
        if self.state.goto_since is not None:
            # the run gone to (the first screen, if it is the first run): reading waits
            # until it is drawn
            self.state.first_drawn = True
            self.call_after_refresh(self._goto_drawn)
        elif not self.state.first_drawn:  # the first run: indexing waits for the first screen
            self.call_after_refresh(self._check_first_drawn)
        if message.run is None:
            assert message.problem is not None
            self._set_problem(message.problem)
            return
        shown = self.state.run
        # the run shown read again (its session now read whole): the step shown stays
        reread = shown is not None and shown.ref == message.run.ref
        keep = shown is not None and (reread or self.focused is self.timeline)
        self.state.run, self.state.run_problem = message.run, None
        self.timeline.show_run(message.run, keep_cursor=keep)
        self._show_extra_tabs(message.run)
        self._update_run_header()
        self._update_split()
        if reread and self.state.goto_target is None:
            self._show_subject(self.state.subject)
        elif self.state.goto_target is not None:
            target, self.state.goto_target = self.state.goto_target, None
            self._select_in_run(target)
        elif self.focused is self.timeline:
            self._show_timeline_row()
        else:
            self._show_subject(RunSubject())
        self._update_breadcrumb()

    def _check_first_drawn(self) -> None:
        """The first run is drawn: the first screen is once no row on it waits to be read
        (the list asks for those it draws unread; their answer draws it again)."""
        top = int(self.run_list.scroll_y)
        shown = self.store.rows[top : top + self.run_list.size.height]
        unread = any(kind == ENTRY and self.ws.sources[s].peek(i) is None for kind, s, i in shown)
        if unread or self.store.answered:
            self.state.wake.notify()  # the loader reads the rows drawn unread
            self.set_timer(0.01, self._check_first_drawn)
            return
        self.call_after_refresh(self._first_screen_drawn)

    def _first_screen_drawn(self) -> None:
        self.state.first_drawn = True
        heap.keep(self.app.screen_stack)  # the app as it starts: no full collection walks it

    def _goto_drawn(self) -> None:
        """The run gone to is drawn: reading may go on once its detail is laid out too."""
        if self.state.goto_since is None:
            return
        if self.detail.busy:
            self.set_timer(0.01, self._goto_drawn)
            return
        # laid out: reading waits for the frame that draws it too (it took 0.1 s more
        # in a terminal, sharing the interpreter with the reading)
        self.call_after_refresh(self._goto_shown, self.state.goto_since)

    def _goto_shown(self, since: float) -> None:
        if self.state.goto_since == since:  # (not a reference given since)
            self.state.goto_since = None

    def _set_problem(self, problem: Problem) -> None:
        self.state.goto_since = None  # nothing more to draw for a reference gone to
        if not self.state.first_drawn:
            self.call_after_refresh(self._check_first_drawn)
        self.state.run, self.state.run_problem = None, problem
        self.timeline.show_run(None)
        self.timeline.empty_text = "this line could not be read"
        self.query_one("#run-header", FactsHeader).show(Text(str(problem), style="bold red"))
        self.query_one("#timeline-pane").border_title = literal(
            f"line {problem.line}" if problem.line else "problem"
        )
        self.detail.show(lambda: details.problem_detail(problem), key=f"problem:{problem}")
        self._show_extra_tabs(None)

    def _update_run_header(self) -> None:
        run = self.state.run
        if run is None:
            return
        pane = self.query_one("#timeline-pane")
        pane.border_title = literal(self.display_ref(run.ref))
        facts = show.summary_facts(run.summary)
        extra = _format_headline(run)
        line = show.facts_line(facts, *([extra] if extra is not None else []))
        # one line high always (main.tcss): the facts that fit, whole
        self.query_one("#run-header", FactsHeader).show(line)
        self._update_steps_title()

    def _close_step_filter(self) -> None:
        """Empty the timeline's filter box and hide it: every step shows again."""
        box = self.query_one("#step-filter", Input)
        with box.prevent(Input.Changed):
            box.value = ""
        box.display = False
        hint = self.query_one("#step-filter-hint", Static)
        hint.display = False
        if self.timeline.keep is not None:
            self.timeline.set_filter(None)
        self._update_steps_title()

    def _update_steps_title(self) -> None:
        """The timeline pane's subtitle: what its filter keeps, the keys for it."""
        run, timeline = self.state.run, self.timeline
        pane = self.query_one("#timeline-pane")
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

    @on(VirtualList.Highlighted, "#timeline")
    def _step_highlighted(self, message: VirtualList.Highlighted) -> None:
        if self.focused is self.timeline or self._level() == 1:
            self._show_timeline_row()

    def _show_timeline_row(self) -> None:
        row = self.timeline.current_row()
        if row is None:
            self._show_subject(RunSubject())
            return
        if row.is_attempt:
            assert row.attempt is not None
            self._show_subject(TrialSubject(row.attempt.number))
        else:
            number = row.attempt.number if row.attempt is not None else None
            self._show_subject(StepSubject(number, row.first, row.last))

    def _show_subject(self, subject: Subject) -> None:
        self.state.subject = subject
        run = self.state.run
        if run is None:
            return
        self._present(self.detail, run, subject)
        self._subject_shown(run)
        self._update_breadcrumb()

    def steps_for(self, run: Run, subject: Subject) -> Sequence[Step]:
        """The timeline a step subject belongs to (its trial's, or the run's)."""
        trial = subject.trial if isinstance(subject, StepSubject) else None
        return self.timeline.steps_of(run.attempt(trial) if trial is not None else None)

    def _present(self, view: DetailView, run: Run, subject: Subject) -> None:
        """Show ``subject`` of ``run`` in ``view`` (folding long values or not: the same
        object keeps its scroll position)."""
        builder = self._builder_for(run, subject)
        steps = self.steps_for(run, subject)
        view.show(
            builder,
            key=f"{run.ref}|{subject}|{self.state.raw}",
            mentions=self._mentions(run),
            whole=lambda: whole_text(run, steps, subject),
        )

    def _builder_for(self, run: Run, subject: Subject) -> Builder:
        raw, lines, ref_of = self.state.raw, self._fold(), self.display_ref
        if isinstance(subject, TrialSubject):
            attempt = run.attempt(subject.number)
            assert attempt is not None
            return lambda: details.attempt_detail(attempt, ref_of(attempt.ref), raw, lines)
        if isinstance(subject, StepSubject):
            steps = self.timeline.steps_of(
                run.attempt(subject.trial) if subject.trial is not None else None
            )
            first, last = subject.first, subject.last
            view = run_view(run)
            return lambda: details.step_detail(run, view, steps, first, last, ref_of, raw, lines)
        extra = self._extra_builder(run, subject)
        if extra is not None:
            return extra
        view = run_view(run)
        return lambda: details.run_detail(run, view, ref_of(run.ref), raw, lines)

    def _refresh_views(self) -> None:
        """Draw the detail and the previews again (raw/fold changed), the modes said in the
        Detail tab's title (they stay on for every object shown after)."""
        modes = [
            word
            for on, word in ((self.state.raw, "raw JSON"), (self.state.unfold, "unfolded"))
            if on
        ]
        label = " · ".join(["Detail", *modes])
        tab = self.tabs.get_tab("tab-detail")
        if str(tab.label) != label:
            tab.label = literal(label)
        self._show_subject_keep(self.state.subject)
        self._refresh_extra_views()

    def _show_subject_keep(self, subject: Subject) -> None:
        """Show ``subject`` in the detail without updating the panes that follow it."""
        self.state.subject = subject
        run = self.state.run
        if run is None:
            return
        self._present(self.detail, run, subject)

    def _current_object(self) -> tuple[str, str] | None:
        """``(reference, text)`` of what the focused pane shows."""
        run = self.state.run
        if run is None:
            if self.state.run_problem is not None:
                return str(self.state.run_problem), str(self.state.run_problem)
            return None
        subject = self.focused_subject()
        steps = self.steps_for(run, subject)
        ref, text = subject_object(run, steps, subject, self.state.raw)
        return self.display_ref(ref), text

    # -- selection by reference ------------------------------------------------------------

    def _try_pending_goto(self, *, final: bool) -> None:
        ref = self.state.pending_goto
        assert ref is not None
        if not final and not self.ws.knows(ref):
            return
        self.state.pending_goto = None
        self.state.goto_since = time.monotonic()
        self.resolve_goto(ref, final)

    def _goto_failed(self, ref: str, why: str) -> None:
        """Say why ``ref`` names nothing; with nothing selected yet, select the first run."""
        self.state.goto_since = None
        self.notify(f"{ref}: {why}", severity="error", timeout=10)
        if self.state.run is None and self.state.run_problem is None:
            self._select_first_run()

    def _select_first_run(self) -> None:
        """Show the run under the cursor, or the first run when the cursor is on a group's
        header row."""
        current = self.run_list.current()
        if current is None and self.store.grouped:
            first = self.run_list.first_run_row()
            if self.store.rows and self.store.rows[first][0] == ENTRY:
                self.run_list.set_cursor(first, post=False)
                current = self.run_list.current()
        if current is not None:
            self._load_run(*current)

    def _defer_goto(self, ref: str) -> None:
        self.state.goto_since = None
        self.state.pending_goto = ref

    def go_to(self, ref: str) -> None:
        """Go to ``ref`` (from the ``:`` prompt or ``--goto``)."""
        if all(s.complete for s in self.ws.sources) or self.ws.knows(ref):
            self.state.goto_since = time.monotonic()
            self.resolve_goto(ref, True)
        else:
            self.state.pending_goto = ref
            self.notify(f"{ref}: still indexing; going there when it is found", timeout=4)

    def select_target(self, target: Target) -> None:
        """Select what ``target`` names: its run, then its trial/step/message/source."""
        s = self.ws.sources.index(target.source)
        row = self.store.row_of(s, target.index)
        if row is None:
            self.store.set_filter("")
            self.state.inputs_asked += 1  # a search of the filter's words stops
            self.state.wanted = (self.store.sort, self.store.reverse, self.store.filter)
            self.query_one("#filter", Input).value = ""
            self._refresh_rows(keep=None)
            row = self.store.row_of(s, target.index)
        if row is not None:
            self.run_list.set_cursor(row, post=False, center=True)
        if self.state.run is not None and self.state.run_key == (s, target.index):
            self.state.goto_since = None
            self._select_in_run(target)
            return
        self.state.goto_target = target
        self._load_run(s, target.index)

    def _select_in_run(self, target: Target) -> None:
        kind = target.kind
        if kind == "run":
            self.run_list.focus()
            self._show_subject(RunSubject())
            return
        if kind == "trial":
            assert target.attempt is not None
            row = self.timeline.row_of_attempt(target.attempt)
            if row is not None:
                self.timeline.set_cursor(row, post=False, center=True)
            self.timeline.focus()
            self._show_subject(TrialSubject(target.attempt))
            return
        if kind == "step":
            assert target.step is not None
            if self.timeline.merge:
                self.timeline.set_merge(False)
            row = self.timeline.row_of_step(target.attempt, target.step)
            if row is None and self.timeline.keep is not None:
                self._close_step_filter()  # the step asked for is one the filter hides
                self.notify("the step filter is cleared to show that step", timeout=3)
                row = self.timeline.row_of_step(target.attempt, target.step)
            if row is not None:
                self.timeline.set_cursor(row, post=False, center=True)
            self._show_subject(StepSubject(target.attempt, target.step - 1, target.step - 1))
            self.detail.focus()
            return
        if not self._select_extra(target):
            self.run_list.focus()


def _format_headline(run: Run) -> Text | None:
    """A format's extra headline for the run header (validation verdicts, accuracy...)."""
    line = run_view(run).headline(run)
    return Text(line) if line else None
