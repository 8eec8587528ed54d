"""Actions: what the keys of the main screen do (see :mod:`trajtui.ui.commands` for the
table that binds them).

Moving in the focused pane, drilling in and backing out, cycling panes and runs, the view
toggles, copying, exporting, paging, reloading, the go-to prompt, help and the theme.
"""

from __future__ import annotations

from typing import Any

from textual import on, work
from textual.widget import Widget

from trajtui.ui.host import host
from trajtui.ui.screens.export import ExportChoice
from trajtui.ui.screens.goto import GotoScreen
from trajtui.ui.screens.help import HelpScreen
from trajtui.ui.screens.main.finding import Finding
from trajtui.ui.screens.stats import StatsChoice, StatsScreen
from trajtui.ui.store import Pinned
from trajtui.ui.subjects import RunSubject, StepSubject
from trajtui.ui.widgets.detail import DetailView
from trajtui.ui.widgets.vlist import VirtualList


class Actions(Finding):
    """The actions the command table binds."""

    # -- moving in a pane --------------------------------------------------------------------

    def action_cursor_down(self) -> None:
        self._delegate("cursor_down", "scroll_down")

    def action_cursor_up(self) -> None:
        self._delegate("cursor_up", "scroll_up")

    def action_first(self) -> None:
        self._delegate("first", "scroll_home")

    def action_last(self) -> None:
        self._delegate("last", "scroll_end")

    def action_page_down(self) -> None:
        self._delegate("page_down", "page_down")

    def action_page_up(self) -> None:
        self._delegate("page_up", "page_up")

    def _delegate(self, list_action: str, detail_action: str) -> None:
        focused = self.focused
        if isinstance(focused, VirtualList):
            getattr(focused, f"action_{list_action}")()
        elif isinstance(focused, DetailView):
            getattr(focused, f"action_{detail_action}")()

    def action_next_mention(self) -> None:
        self.detail.action_next_mention()

    def action_prev_mention(self) -> None:
        self.detail.action_prev_mention()

    # -- drilling in and backing out ---------------------------------------------------------
    # Focus moves at once (Screen.set_focus), not after the keys already typed as
    # Widget.focus() does: "enter j" typed in one go moves in the pane enter opened.

    @on(VirtualList.Selected)
    def _row_chosen(self, message: VirtualList.Selected) -> None:
        """A double click on a row drills in, like enter."""
        self.set_focus(message.vlist)
        self.action_drill()

    def action_drill(self) -> None:
        self.show_wanted_run()  # typed fast after moves: the run under the cursor, now
        focused = self.focused
        if focused is self.run_list:
            if self.state.run is not None:
                self.set_focus(self.timeline)
                self._show_timeline_row()
            elif self.state.run_problem is not None:
                self.set_focus(self.detail)
        elif focused is self.timeline:
            if self.state.run is not None:
                self._show_timeline_row()
                self.set_focus(self.detail)
        elif focused is self.detail:
            if not self.detail.follow():
                self._drill_extra(focused)
        else:
            self._drill_extra(focused)
        self._update_layout()

    def action_back(self) -> None:
        focused = self.focused
        if focused is not None and focused.id == "search":
            self._close_search()
            return
        if focused is not None and focused.id == "filter":
            self._close_filter()
            self.set_focus(self.run_list)
            return
        if focused is not None and focused.id == "step-filter":
            self._close_step_filter()
            self.set_focus(self.timeline)
            self._show_timeline_row()
            self._update_layout()
            return
        if self._back_extra(focused):
            pass
        elif focused is self.detail or self._extra_tab(focused) is not None:
            self.tabs.active = "tab-detail"
            if self.state.run is not None:
                self.set_focus(self.timeline)
                self._show_timeline_row()
            else:
                self.set_focus(self.run_list)
        elif focused is self.timeline:
            self.set_focus(self.run_list)
            self._show_subject(RunSubject())
        elif self.store.pinned is not None:  # in the run list: esc lets go of stats' runs
            self._pin(None)
        else:  # in the run list: esc clears the filter and closes its box
            self._close_filter()
        self._update_layout()

    # -- stats ---------------------------------------------------------------------------

    def action_stats(self) -> None:
        """Open the stats screen over the runs the run list shows (after the filter)."""
        picks = self.store.listed_runs()
        what = "listed"
        if self.store.filter.active:
            what = f"matching {self.store.filter.text!r}"
        if self.store.pinned is not None:
            what = f"behind {self.store.pinned.label}"
        self.app.push_screen(StatsScreen(self.ws, picks, what, self._listing), self._stats_chosen)

    def _listing(self, runs: bool) -> tuple[int, list[tuple[int, int]] | None, bool]:
        """The rows the run list shows, the runs among them (when ``runs``), and whether
        every file is read and counted (the stats screen's figures are partial until it
        is)."""
        picks = self.store.listed_runs() if runs else None
        return self.store.shown, picks, self.state.loading_done and self.state.counted

    def _stats_chosen(self, choice: StatsChoice | None) -> None:
        if choice is not None:
            self._pin(Pinned(frozenset(choice.picks), choice.label))
            self.set_focus(self.run_list)

    def _pin(self, pinned: Pinned | None) -> None:
        """Narrow the run list to ``pinned``'s runs (None: to every run the filter keeps)."""
        self.store.pinned = pinned
        note = (
            f"{len(pinned.picks):,} runs behind {pinned.label} (esc shows all)"
            if pinned is not None
            else "every run again"
        )
        self._arrange(self.store.sort, self.store.reverse, self.store.filter, note)

    # -- panes and runs ----------------------------------------------------------------------

    def _panes(self) -> list[Widget]:
        return [self.run_list, self.timeline, self.detail, *self._extra_panes()]

    def _cycle(self, step: int) -> None:
        panes = self._panes()
        focused: Any = self.focused
        if focused is not None and focused.id == "search":
            focused = self.state.search_origin
        focused = self._extra_list(focused)
        pos = panes.index(focused) if focused in panes else 0
        target = panes[(pos + step) % len(panes)]
        if target is self.detail:
            self.tabs.active = "tab-detail"
        elif target in self._extra_panes():
            self.tabs.active = self._extra_tab(target) or "tab-detail"
        if target is self.timeline and self.state.run is not None:
            self._show_timeline_row()
        self.set_focus(target)
        self._update_layout()

    def action_next_pane(self) -> None:
        self._cycle(1)

    def action_prev_pane(self) -> None:
        self._cycle(-1)

    def _step_run(self, step: int) -> None:
        rows = self.store.rows
        pos = self.run_list.cursor + step
        while 0 <= pos < len(rows) and rows[pos][0] != 1:
            pos += step
        if 0 <= pos < len(rows):
            self.run_list.set_cursor(pos)
        else:
            self.notify("no more runs" if step > 0 else "this is the first run", timeout=2)

    def action_next_run(self) -> None:
        self._step_run(1)

    def action_prev_run(self) -> None:
        self._step_run(-1)

    # -- view toggles ------------------------------------------------------------------------

    def action_toggle_raw(self) -> None:
        self.state.raw = not self.state.raw
        self._refresh_views()

    def action_toggle_fold(self) -> None:
        self.state.unfold = not self.state.unfold
        self._refresh_views()
        self.notify(
            "long values shown in full" if self.state.unfold else "long values folded", timeout=2
        )

    def action_toggle_merge(self) -> None:
        self.timeline.set_merge(not self.timeline.merge)
        host(self).remember("merge_chunks", self.timeline.merge)
        self.notify(
            "streamed chunks merged" if self.timeline.merge else "every chunk on its own line",
            timeout=2,
        )
        self._update_steps_title()
        if self.focused is self.timeline:
            self._show_timeline_row()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("sort", "sort_reverse", "filter") and not self.ws.sources:
            return None
        if action == "open_link":  # hidden for formats without links, greyed off them
            if not self._view().link_name:
                return False
            return True if self._step_link() is not None else None
        if action == "link_back":
            if self.state.links_back:
                return True
            return None if self._view().link_name else False
        return super().check_action(action, parameters)  # a view's pane keys (extra_panes)

    # -- links between runs (a subagent's, from the agent call that started it) ------------

    def _step_link(self) -> str | None:
        """The run the selected step leads to (its view's :meth:`~trajtui.render.view.View.step_link`)."""
        run, subject = self.state.run, self.state.subject
        if run is None or not isinstance(subject, StepSubject):
            return None
        steps = self.steps_for(run, subject)
        if not 0 <= subject.first < len(steps):
            return None
        return self._view().step_link(steps[subject.first])

    def action_open_link(self) -> None:
        link = self._step_link()
        if link is None:
            name = self._view().link_name or "other run"
            self.notify(f"this step opens no {name}", timeout=2)
            return
        here = self._current_object()
        if here is not None:
            self.state.links_back.append(here[0])
        self.go_to(link)
        self.refresh_bindings()

    def action_link_back(self) -> None:
        if not self.state.links_back:
            self.notify("no step to go back to", timeout=2)
            return
        self.go_to(self.state.links_back.pop())
        self.refresh_bindings()

    # -- data --------------------------------------------------------------------------------

    def action_copy(self) -> None:
        current = self._current_object()
        if current is None:
            self.notify("nothing to copy", timeout=2)
            return
        ref, text = current
        self._copy(text, f"{len(text):,} characters of {ref}")

    def action_copy_ref(self) -> None:
        current = self._current_object()
        if current is None:
            self.notify("nothing to copy", timeout=2)
            return
        self._copy(current[0], current[0])

    def _copy(self, text: str, what: str) -> None:
        host(self).copy_text(text, what)

    def action_pager(self) -> None:
        current = self._current_object()
        if current is None:
            self.notify("nothing to show", timeout=2)
            return
        from trajtui.ui.pager import page

        ref, text = current
        error = page(host(self), f"{ref}\n\n{text}")
        if error:
            self.notify(error, severity="error", timeout=6)

    def action_export(self) -> None:
        """``x``: the run table as listed (when the run list has the focus) or the object
        shown, to a file the user names."""
        from trajtui.ui.screens.export import OBJECT_FORMATS, TABLE_FORMATS, ExportScreen

        opened = [*host(self).paths, *(s.path for s in self.ws.sources)]
        current = self._current_object()
        if self.focused is self.run_list or current is None:
            label = f"the run table ({len(self.store.rows):,} rows as listed)"
            screen = ExportScreen("runs", label, TABLE_FORMATS, opened)
            target: str | None = None
        else:
            target = current[0]
            screen = ExportScreen(target, target, OBJECT_FORMATS, opened)

        def done(choice: ExportChoice | None) -> None:
            if choice is not None:
                self.write_export(choice, target)

        self.app.push_screen(screen, done)

    @work(thread=True, group="export", exit_on_error=False)
    def write_export(self, choice: ExportChoice, target: str | None) -> None:
        """Write the export (off the UI thread) and say where it went."""
        from trajtui.ui.exporting import export_text, write_export_file

        write_export_file(
            self.app, choice.path, lambda: export_text(self.ws, self.store, choice.form, target)
        )

    def action_reload(self) -> None:
        run = self.state.run
        host(self).reload(self.display_ref(run.ref) if run is not None else None)

    def action_goto(self) -> None:
        refs: list[str] = []
        for source in self.ws.sources:
            refs.extend(self.ws.ref(source, r) for r in source.run_refs()[:200_000])

        def done(ref: str | None) -> None:
            if ref:
                self.go_to(ref.strip())

        current = self._current_object()
        words = dict.fromkeys(word for source in self.ws.sources for word in source.segments)
        self.app.push_screen(
            GotoScreen(refs, current=current[0] if current else "", segments=list(words)), done
        )

    # -- app ---------------------------------------------------------------------------------

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen())

    def action_toggle_dark(self) -> None:
        host(self).toggle_theme()
