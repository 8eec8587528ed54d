"""Comparing: ``c`` marks a run (or trial) as side A, ``c`` on another compares the two
(:mod:`trajtui.ui.screens.compare`); ``C`` compares two open sources
(:mod:`trajtui.ui.screens.compare_sources`).

What ``c`` takes: the trial under the timeline's cursor when the timeline has focus and the
run has trials, else the run under the run list's cursor.
"""

from __future__ import annotations

from trajtui.core.model import Problem
from trajtui.core.refs import RefError
from trajtui.ui.messages import AllLoaded
from trajtui.ui.screens.compare import CompareScreen, SideSpec
from trajtui.ui.screens.main.actions import Actions


class Comparing(Actions):
    """The compare keys of the main screen."""

    def _side_here(self) -> SideSpec | None:
        """The run or trial ``c`` would take now (None on a header or problem row)."""
        key = self._cursor_run()
        if key is None:
            return None
        s, i = key
        entry = self.ws.sources[s].peek(i)
        if entry is None or isinstance(entry, Problem):
            return None
        ref = self._display_ref(entry.ref)
        attempt = None
        if (
            self.focused is self.timeline
            and self.state.run is not None
            and self.state.run_key == key
            and self.state.run.attempts
        ):
            row = self.timeline.current_row()
            if row is not None and row.attempt is not None:
                attempt = row.attempt.number
                ref = self._display_ref(row.attempt.ref)
        return SideSpec(s, i, attempt, ref)

    def action_compare(self) -> None:
        here = self._side_here()
        if here is None:
            self.notify("c marks a run to compare: put the cursor on a run", timeout=3)
            return
        marked = self.state.marked
        if marked is None:
            self._mark(here)
            return
        if (marked.source, marked.index, marked.attempt) == (here.source, here.index, here.attempt):
            self._mark(None)
            self.notify(f"{here.ref} is no longer marked for compare", timeout=3)
            return
        self._open_compare(marked, here)

    def action_compare_marked(self) -> None:
        here = self._side_here()
        if self.state.marked is None:
            self.notify("nothing is marked: c marks a run (or trial) as A", timeout=3)
        elif here is None:
            self.notify("put the cursor on a run to compare with the marked one", timeout=3)
        else:
            self._open_compare(self.state.marked, here)

    def on_all_loaded(self, message: AllLoaded) -> None:
        # Textual calls this beside Loading's own handler (each class of the MRO has its say)
        self._mark_again()

    def _mark_again(self) -> None:
        """Mark again, after a reload, the run (or trial) marked before it, found by its
        reference (the files may have changed under it)."""
        ref, self.state.pending_mark = self.state.pending_mark, None
        if ref is None:
            return
        try:
            target = self.ws.resolve(ref)
        except RefError:
            self.notify(f"{ref}, marked for compare, is not in the files now", timeout=5)
            return
        s = self.ws.sources.index(target.source)
        self._mark(SideSpec(s, target.index, target.attempt, ref), quiet=True)

    def _mark(self, spec: SideSpec | None, *, quiet: bool = False) -> None:
        self.state.marked = spec
        self.run_list.marked = (spec.source, spec.index) if spec is not None else None
        self.run_list.redraw()
        marked_trial = None
        if spec is not None and spec.attempt is not None:
            entry = self.ws.sources[spec.source].peek(spec.index)
            if entry is not None and not isinstance(entry, Problem):
                marked_trial = (entry.ref, spec.attempt)
        self.timeline.marked_trial = marked_trial
        self.timeline.redraw()
        if spec is not None and not quiet:
            self.notify(
                f"marked {spec.ref} as A: c on another run (or trial) compares it with A · "
                "c on it again unmarks",
                timeout=4,
            )

    def _open_compare(self, a: SideSpec, b: SideSpec) -> None:
        self.app.push_screen(CompareScreen(self.ws, a, b))

    def action_compare_sources(self) -> None:
        if len(self.ws.sources) < 2:
            self.notify("compare sources needs two sources open (trajtui A B)", timeout=4)
            return
        from trajtui.ui.screens.compare_sources import pick_and_compare

        pick_and_compare(self)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "compare_marked" and self.state.marked is None:
            return None
        return super().check_action(action, parameters)
