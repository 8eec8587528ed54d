"""Actions: what the keys of the main screen do (see :mod:`trajtui.ui.commands` for the
table that binds them).

Moving in the focused pane, drilling in and backing out, cycling panes and runs, the view
toggles, copying, exporting, paging, reloading, the go-to prompt, help and the theme. A
part composed into the main screen, whose ``action_*`` methods (Textual looks for them
there) hand each key to it; it reaches the screen through :class:`Keyed`.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

from textual.screen import Screen
from textual.widget import Widget

from trajtui.ui.host import host
from trajtui.ui.screens.export import ExportChoice
from trajtui.ui.screens.goto import GotoScreen
from trajtui.ui.screens.help import HelpScreen
from trajtui.ui.screens.main.panes import Panes, Parts
from trajtui.ui.screens.stats import StatsChoice, StatsScreen
from trajtui.ui.store import Pinned
from trajtui.ui.subjects import RunSubject, StepSubject
from trajtui.ui.widgets.detail import DetailView
from trajtui.ui.widgets.vlist import VirtualList

if TYPE_CHECKING:
    pass


class Keyed(Panes, Parts, Protocol):
    """What the keys need of the screen."""

    def display_ref(self, ref: str) -> str:
        """``ref`` as the user types it."""


class Keys:
    """What the keys the command table binds do."""

    def __init__(self, screen: Keyed, node: Screen[None]) -> None:
        """Args:
        screen: The screen the keys are pressed on.
        node: The same screen as a Textual screen (its focus, toasts, screens opened).
        """
        self.screen = screen
        self.node = node

    # -- moving in a pane --------------------------------------------------------------------

    def cursor_down(self) -> None:
        self._delegate("cursor_down", "scroll_down")

    def cursor_up(self) -> None:
        self._delegate("cursor_up", "scroll_up")

    def first(self) -> None:
        self._delegate("first", "scroll_home")

    def last(self) -> None:
        self._delegate("last", "scroll_end")

    def page_down(self) -> None:
        self._delegate("page_down", "page_down")

    def page_up(self) -> None:
        self._delegate("page_up", "page_up")

    def _delegate(self, list_action: str, detail_action: str) -> None:
        focused = self.node.focused
        if isinstance(focused, VirtualList):
            getattr(focused, f"action_{list_action}")()
        elif isinstance(focused, DetailView):
            getattr(focused, f"action_{detail_action}")()

    def next_mention(self) -> None:
        self.screen.detail.action_next_mention()

    def prev_mention(self) -> None:
        self.screen.detail.action_prev_mention()

    # -- drilling in and backing out ---------------------------------------------------------
    # Focus moves at once (Screen.set_focus), not after the keys already typed as
    # Widget.focus() does: "enter j" typed in one go moves in the pane enter opened.

    def row_chosen(self, message: VirtualList.Selected) -> None:
        """A double click on a row drills in, like enter."""
        self.node.set_focus(message.vlist)
        self.drill()

    def drill(self) -> None:
        """``enter``: into the pane below the focused one (a run's steps, a step's detail)."""
        # typed fast after moves: the run under the cursor, now
        self.screen.selection.show_wanted_run()
        focused = self.node.focused
        if focused is self.screen.run_list:
            if self.screen.state.run is not None:
                self.node.set_focus(self.screen.timeline)
                self.screen.selection.show_timeline_row()
            elif self.screen.state.run_problem is not None:
                self.node.set_focus(self.screen.detail)
        elif focused is self.screen.timeline:
            if self.screen.state.run is not None:
                self.screen.selection.show_timeline_row()
                self.node.set_focus(self.screen.detail)
        elif focused is self.screen.detail:
            if not self.screen.detail.follow():
                self.screen.extra.drill(focused)
        else:
            self.screen.extra.drill(focused)
        self.screen.frame.update_layout()

    def back(self) -> None:
        """``esc``: close the box open, or back to the pane above."""
        focused = self.node.focused
        if focused is not None and focused.id == "search":
            self.screen.finding.close_search()
            return
        if focused is not None and focused.id == "filter":
            self.screen.finding.close_filter()
            self.node.set_focus(self.screen.run_list)
            return
        if focused is not None and focused.id == "step-filter":
            self.screen.selection.close_step_filter()
            self.node.set_focus(self.screen.timeline)
            self.screen.selection.show_timeline_row()
            self.screen.frame.update_layout()
            return
        if self.screen.extra.back(focused):
            pass
        elif focused is self.screen.detail or self.screen.extra.tab_of(focused) is not None:
            self.screen.tabs.active = "tab-detail"
            if self.screen.state.run is not None:
                self.node.set_focus(self.screen.timeline)
                self.screen.selection.show_timeline_row()
            else:
                self.node.set_focus(self.screen.run_list)
        elif focused is self.screen.timeline:
            self.node.set_focus(self.screen.run_list)
            self.screen.selection.show_subject(RunSubject())
        elif self.screen.store.pinned is not None:  # in the run list: esc lets go of stats' runs
            self._pin(None)
        else:  # in the run list: esc clears the filter and closes its box
            self.screen.finding.close_filter()
        self.screen.frame.update_layout()

    # -- stats ---------------------------------------------------------------------------

    def stats(self) -> None:
        """Open the stats screen over the runs the run list shows (after the filter)."""
        picks = self.screen.store.listed_runs()
        what = "listed"
        if self.screen.store.filter.active:
            what = f"matching {self.screen.store.filter.text!r}"
        if self.screen.store.pinned is not None:
            what = f"behind {self.screen.store.pinned.label}"
        self.node.app.push_screen(
            StatsScreen(self.screen.ws, picks, what, self._listing), self._stats_chosen
        )

    def _listing(self, runs: bool) -> tuple[int, list[tuple[int, int]] | None, bool]:
        """The rows the run list shows, the runs among them (when ``runs``), and whether
        every file is read and counted (the stats screen's figures are partial until it
        is)."""
        picks = self.screen.store.listed_runs() if runs else None
        return (
            self.screen.store.shown,
            picks,
            self.screen.state.loading_done and self.screen.state.counted,
        )

    def _stats_chosen(self, choice: StatsChoice | None) -> None:
        if choice is not None:
            self._pin(Pinned(frozenset(choice.picks), choice.label))
            self.node.set_focus(self.screen.run_list)

    def _pin(self, pinned: Pinned | None) -> None:
        """Narrow the run list to ``pinned``'s runs (None: to every run the filter keeps)."""
        self.screen.store.pinned = pinned
        note = (
            f"{len(pinned.picks):,} runs behind {pinned.label} (esc shows all)"
            if pinned is not None
            else "every run again"
        )
        self.screen.finding.arrange(
            self.screen.store.sort, self.screen.store.reverse, self.screen.store.filter, note
        )

    # -- sql ---------------------------------------------------------------------------------

    def sql(self) -> None:
        """Open the query screen over what is open, with the session's last query."""
        from trajtui.ui.screens.sql import SqlChoice, SqlScreen

        state = self.screen.state

        def done(choice: SqlChoice | None) -> None:
            if choice is None:
                return
            state.sql_query = choice.query
            if choice.ref:
                self.screen.going.go_to(choice.ref)

        screen = SqlScreen(
            self.screen.ws,
            host(self.node).paths,
            state.sql_query,
            ready=lambda: state.loading_done,
        )
        self.node.app.push_screen(screen, done)

    # -- panes and runs ----------------------------------------------------------------------

    def _panes(self) -> list[Widget]:
        return [
            self.screen.run_list,
            self.screen.timeline,
            self.screen.detail,
            *self.screen.extra.panes(),
        ]

    def _cycle(self, step: int) -> None:
        panes = self._panes()
        focused: Any = self.node.focused
        if focused is not None and focused.id == "search":
            focused = self.screen.state.search_origin
        focused = self.screen.extra.list_of(focused)
        pos = panes.index(focused) if focused in panes else 0
        target = panes[(pos + step) % len(panes)]
        if target is self.screen.detail:
            self.screen.tabs.active = "tab-detail"
        elif target in self.screen.extra.panes():
            self.screen.tabs.active = self.screen.extra.tab_of(target) or "tab-detail"
        if target is self.screen.timeline and self.screen.state.run is not None:
            self.screen.selection.show_timeline_row()
        self.node.set_focus(target)
        self.screen.frame.update_layout()

    def next_pane(self) -> None:
        self._cycle(1)

    def prev_pane(self) -> None:
        self._cycle(-1)

    def _step_run(self, step: int) -> None:
        rows = self.screen.store.rows
        pos = self.screen.run_list.cursor + step
        while 0 <= pos < len(rows) and rows[pos][0] != 1:
            pos += step
        if 0 <= pos < len(rows):
            self.screen.run_list.set_cursor(pos)
        else:
            self.node.notify("no more runs" if step > 0 else "this is the first run", timeout=2)

    def next_run(self) -> None:
        self._step_run(1)

    def prev_run(self) -> None:
        self._step_run(-1)

    # -- view toggles ------------------------------------------------------------------------

    def toggle_raw(self) -> None:
        self.screen.state.raw = not self.screen.state.raw
        self.screen.selection.refresh_views()

    def toggle_fold(self) -> None:
        self.screen.state.unfold = not self.screen.state.unfold
        self.screen.selection.refresh_views()
        self.node.notify(
            "long values shown in full" if self.screen.state.unfold else "long values folded",
            timeout=2,
        )

    def toggle_merge(self) -> None:
        self.screen.timeline.set_merge(not self.screen.timeline.merge)
        host(self.node).remember("merge_chunks", self.screen.timeline.merge)
        self.node.notify(
            "streamed chunks merged"
            if self.screen.timeline.merge
            else "every chunk on its own line",
            timeout=2,
        )
        self.screen.selection.update_steps_title()
        if self.node.focused is self.screen.timeline:
            self.screen.selection.show_timeline_row()

    # -- links between runs (a subagent's, from the agent call that started it) ------------

    def link_state(self, action: str) -> bool | None:
        """``open_link``/``link_back`` for :meth:`Screen.check_action`: hidden (False) for a
        format without links, greyed (None) where it leads nowhere, else shown (True)."""
        named = bool(self.screen.extra.view().link_name)
        if action == "open_link":
            if not named:
                return False
            return True if self.step_link() is not None else None
        if self.screen.state.links_back:
            return True
        return None if named else False

    def step_link(self) -> str | None:
        """The run the selected step leads to (its view's :meth:`~trajtui.render.view.View.step_link`)."""
        run, subject = self.screen.state.run, self.screen.state.subject
        if run is None or not isinstance(subject, StepSubject):
            return None
        steps = self.screen.selection.steps_for(run, subject)
        if not 0 <= subject.first < len(steps):
            return None
        return self.screen.extra.view().step_link(steps[subject.first])

    def open_link(self) -> None:
        link = self.step_link()
        if link is None:
            name = self.screen.extra.view().link_name or "other run"
            self.node.notify(f"this step opens no {name}", timeout=2)
            return
        here = self.screen.selection.current_object()
        if here is not None:
            self.screen.state.links_back.append(here[0])
        self.screen.going.go_to(link)
        self.node.refresh_bindings()

    def link_back(self) -> None:
        if not self.screen.state.links_back:
            self.node.notify("no step to go back to", timeout=2)
            return
        self.screen.going.go_to(self.screen.state.links_back.pop())
        self.node.refresh_bindings()

    # -- data --------------------------------------------------------------------------------

    def copy(self) -> None:
        current = self.screen.selection.current_object()
        if current is None:
            self.node.notify("nothing to copy", timeout=2)
            return
        ref, text = current
        self._copy(text, f"{len(text):,} characters of {ref}")

    def copy_ref(self) -> None:
        current = self.screen.selection.current_object()
        if current is None:
            self.node.notify("nothing to copy", timeout=2)
            return
        self._copy(current[0], current[0])

    def _copy(self, text: str, what: str) -> None:
        host(self.node).copy_text(text, what)

    def pager(self) -> None:
        current = self.screen.selection.current_object()
        if current is None:
            self.node.notify("nothing to show", timeout=2)
            return
        from trajtui.ui.pager import page

        ref, text = current
        error = page(host(self.node), f"{ref}\n\n{text}")
        if error:
            self.node.notify(error, severity="error", timeout=6)

    def export(self) -> None:
        """``x``: the run table as listed (when the run list has the focus) or the object
        shown, to a file the user names."""
        from trajtui.ui.screens.export import OBJECT_FORMATS, TABLE_FORMATS, ExportScreen

        opened = [*host(self.node).paths, *(s.path for s in self.screen.ws.sources)]
        current = self.screen.selection.current_object()
        if self.node.focused is self.screen.run_list or current is None:
            label = f"the run table ({len(self.screen.store.rows):,} rows as listed)"
            screen = ExportScreen("runs", label, TABLE_FORMATS, opened)
            target: str | None = None
        else:
            target = current[0]
            screen = ExportScreen(target, target, OBJECT_FORMATS, opened)

        def done(choice: ExportChoice | None) -> None:
            if choice is not None:
                self._write_export(choice, target)

        self.node.app.push_screen(screen, done)

    def _write_export(self, choice: ExportChoice, target: str | None) -> None:
        """Write the export (in a worker) and say where it went."""
        self.node.run_worker(
            partial(self._export, choice, target),
            name="write_export",
            group="export",
            thread=True,
            exit_on_error=False,
        )

    def _export(self, choice: ExportChoice, target: str | None) -> None:
        from trajtui.ui.exporting import export_text, write_export_file

        write_export_file(
            self.node.app,
            choice.path,
            lambda: export_text(self.screen.ws, self.screen.store, choice.form, target),
        )

    def reload(self) -> None:
        run = self.screen.state.run
        host(self.node).reload(self.screen.display_ref(run.ref) if run is not None else None)

    def goto(self) -> None:
        refs: list[str] = []
        for source in self.screen.ws.sources:
            refs.extend(self.screen.ws.ref(source, r) for r in source.run_refs()[:200_000])

        def done(ref: str | None) -> None:
            if ref:
                self.screen.going.go_to(ref.strip())

        current = self.screen.selection.current_object()
        words = dict.fromkeys(word for source in self.screen.ws.sources for word in source.segments)
        self.node.app.push_screen(
            GotoScreen(refs, current=current[0] if current else "", segments=list(words)), done
        )

    # -- app ---------------------------------------------------------------------------------

    def help(self) -> None:
        self.node.app.push_screen(HelpScreen())

    def toggle_dark(self) -> None:
        host(self.node).toggle_theme()
