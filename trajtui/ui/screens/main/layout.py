"""The main screen's panes and layout: a part composed into the screen.

Wide terminals show the run list and the timeline side by side on top, the detail area
below with a tab per pane. On a narrow terminal (under 100 columns or 30 rows, or too narrow
for the run list's columns beside the timeline) one pane shows at a time, under a breadcrumb
(``Runs › websearch-17 › step 5``): the level of the focused pane (runs, steps, detail)
decides which. :class:`Frame` also draws the header line and the run list's titles; it
reaches the screen through :class:`Framed`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Protocol

from rich.console import RenderableType
from rich.text import Text
from textual.screen import Screen
from textual.widgets import Static

from trajtui.core.io import remote
from trajtui.core.io.text import visible
from trajtui.render import fmt
from trajtui.ui import subjects
from trajtui.ui.header import HeaderParts, header_line, progress_bar
from trajtui.ui.host import host
from trajtui.ui.literal import literal
from trajtui.ui.screens.main.panes import Panes
from trajtui.ui.widgets.run_list import ColumnHeader, split_width

STEP_FILTER_SYNTAX = "words tool:Bash is:error kind:thought duration>5s -word OR · ? fields"
"""What the timeline's filter understands, in a line (its placeholder)."""

FOLDED_LINES = 24
UNFOLDED_LINES = 10_000
NARROW_WIDTH = 100
TIMELINE_ROOM = 48
"""Cells the timeline needs beside the run list: its widest columns (number, kind, status,
offset, duration: 37), a short title and its borders."""
NARROW_HEIGHT = 30

Builder = Callable[[], RenderableType]
"""Builds what a detail pane shows (called in the pane's worker thread)."""


class Framed(Panes, Protocol):
    """What the frame needs of the screen."""


class Frame:
    """The layout of the main screen, its header line and breadcrumb."""

    def __init__(self, screen: Framed, node: Screen[None]) -> None:
        """Args:
        screen: The screen laid out.
        node: The same screen as a Textual screen (its size, focus, classes and widgets).
        """
        self.screen = screen
        self.node = node

    def mount(self) -> None:
        """Pane titles, settings and the run list's rows (on mount)."""
        runs_pane = self.node.query_one("#runs-pane")
        runs_pane.border_title = literal("Runs")
        runs_pane.border_subtitle = literal("f filter · s sort")
        self.node.query_one("#timeline-pane").border_title = literal("Steps")
        settings = host(self.node).settings or {}
        self.screen.timeline.merge = bool(settings.get("merge_chunks", False))
        self.screen.run_list.attach(self.screen.store)

    # -- layout ----------------------------------------------------------------------------

    def resized(self) -> None:
        """The terminal changed size."""
        self.update_layout()
        self.update_title()

    def update_split(self) -> None:
        """Size the top panes so the run titles and the step titles share the room."""
        pane = self.node.query_one("#runs-pane")
        if self.narrow:
            pane.styles.clear_rule("width")
            return
        width = split_width(
            self.node.size.width,
            self.screen.run_list.fixed_width(least=False),
            self.screen.timeline.fixed_width(),
            TIMELINE_ROOM,
            self.screen.run_list.fixed_width(),
        )
        if pane.styles.width is None or pane.styles.width.value != width:
            pane.styles.width = width

    def fit_columns(self) -> None:
        """Runs read may bring a column: the panes make room for it, or one pane shows at a
        time when the terminal is too narrow for it beside the timeline."""
        if self.narrow != self.node.has_class("-narrow"):
            self.update_layout()
        else:
            self.update_split()

    @property
    def narrow(self) -> bool:
        """One pane at a time: a small terminal, or one too narrow for the run list's
        columns beside the timeline (a wider terminal never shows fewer of them)."""
        width = self.node.size.width
        return (
            width < NARROW_WIDTH
            or self.node.size.height < NARROW_HEIGHT
            or width < self.screen.run_list.fixed_width() + 3 + TIMELINE_ROOM
        )

    def level(self) -> int:
        focused = self.node.focused
        if focused is None:
            return 0
        if focused is self.screen.run_list or focused.id == "filter":
            return 0
        if focused is self.screen.timeline or focused.id == "step-filter":
            return 1
        if focused.id == "search":
            return self.level_of(self.screen.state.search_origin)
        return 2

    def level_of(self, widget: Any) -> int:
        if widget is self.screen.run_list:
            return 0
        if widget is self.screen.timeline:
            return 1
        return 2

    def update_layout(self) -> None:
        """The screen's classes: ``-narrow`` (one pane at a time) and, only then, the
        ``-level-N`` of the pane shown. A class change on the screen restyles every widget
        on it, so wide layouts, which no level changes, never carry one."""
        narrow = self.narrow
        level = self.level() if narrow else None
        classes = {f"-level-{k}" for k in range(3)}
        wanted = {"-narrow", f"-level-{level}"} if narrow else set()
        if (self.node.classes & (classes | {"-narrow"})) != wanted:
            self.node.set_classes((self.node.classes - classes - {"-narrow"}) | wanted)
        self.update_split()
        self.update_breadcrumb()

    def focus_moved(self, *, gained: bool) -> None:
        """A widget of the screen gained (or lost) the focus."""
        if gained:
            self.update_layout()
        self._mark_focused_pane()

    def _mark_focused_pane(self) -> None:
        for pane in self.node.query(".pane"):
            pane.set_class(pane.has_focus_within, "-focus")

    def update_breadcrumb(self) -> None:
        parts = ["Runs"]
        if self.screen.state.run is not None:
            parts.append(visible(self.screen.state.run.ref, keep_newlines=False))
            level = self.level()
            if level >= 2:
                parts.append(subjects.label(self.screen.state.subject, self.screen.state.run))
        elif self.screen.state.run_problem is not None:
            parts.append(f"line {self.screen.state.run_problem.line}")
        crumb = Text(" " + " › ".join(parts), style="bold")
        crumb.append("   esc back · enter open · ? help", style="dim")
        # one line high (main.tcss), shown or not: no layout of the screen for new words
        self.node.query_one("#breadcrumb", Static).update(literal(crumb), layout=False)

    def update_title(self) -> None:
        """The header line and the run list's titles (counts, progress, changes on disk)."""
        state, store, ws = self.screen.state, self.screen.store, self.screen.ws
        state.last_title = time.monotonic()
        if len(ws.sources) == 1:
            src = ws.sources[0]
            name, kind = remote.shown(src.path), src.format.name
        else:
            name, kind = f"{len(ws.sources)} sources", ""
        progress = bar = ""
        total = len(ws.sources)
        doing: tuple[str, float] | None = None  # what is under way, and its share done
        if total and not state.loading_done:
            fraction = sum(state.progress.get(s, (0.0, 0, False))[0] for s in range(total)) / total
            done_index = all(state.progress.get(s, (0.0, 0, False))[0] >= 1.0 for s in range(total))
            if not done_index:
                doing = ("indexing", fraction)
            else:
                read = sum(state.progress.get(s, (0.0, 0, False))[1] for s in range(total))
                doing = ("reading", read / (sum(len(s) for s in ws.sources) or 1))
        elif total and not state.counted:
            # every summary read, not every one counted yet (a run list restored whole
            # from the index cache): the numbers are of those counted so far
            counted = sum(c.seen for c in store.counts)
            doing = ("counting", counted / (sum(len(s) for s in ws.sources) or 1))
        if doing is not None:
            word, share = doing[0], min(1.0, doing[1])
            progress, bar = f"{word} {fmt.percent(share)}", progress_bar(share)
        parts = HeaderParts(
            name,
            kind,
            store.summary_line(),
            "changed on disk: R reloads"
            if state.changed_noted
            else "following (F stops)"
            if host(self.node).follow
            else "",
            progress,
            bar,
        )
        text = header_line(parts, self.node.size.width or 80)
        # one line high always: no layout of the screen for new words in it
        self.node.query_one("#title", Static).update(literal(text), layout=False)
        self.update_split()
        title = "Runs · " + store.summary_line()
        if store.filter.active or store.pinned is not None:
            shown = store.shown
            title += f" · {shown:,} shown" if shown else " · no runs match"
        if store.pinned is not None:
            title += f" · behind {store.pinned.label} (esc: all)"
        runs_pane = self.node.query_one("#runs-pane")
        runs_pane.border_title = literal(title)
        self.say_elided()
        # the split may have changed the list's width: what is cut is known once laid out
        self.node.call_after_refresh(self.say_elided)

    def say_elided(self) -> None:
        """The line under the run list: the starts its titles and references give way by
        (said only while they do), and its keys."""
        runs_pane = self.node.query_one("#runs-pane")
        prefix = self.screen.store.prefix.value.strip(" ⏎")
        said = [f"titles: … = {prefix}"] if prefix else []
        starts = {self.screen.store.ref_start(s) for s in range(len(self.screen.ws.sources))}
        if len(starts) == 1 and "" not in starts and self.screen.run_list.refs_cut():
            said.insert(0, f"refs: … = {starts.pop()}")
        runs_pane.border_subtitle = literal(" · ".join([*said, "f filter · s sort"]))

    def refresh_rows(self, *, keep: tuple[int, int] | None) -> None:
        """Draw the run list's rows again (after a sort or filter), the cursor on the run
        ``keep`` (:meth:`cursor_run`, taken before the rows changed) when it is still
        shown, else on the first run."""
        cursor_row = None
        if keep is not None:
            cursor_row = self.screen.store.row_of(*keep)
        self.screen.run_list.reset(
            cursor=cursor_row if cursor_row is not None else self.screen.run_list.first_run_row()
        )
        self.node.query_one("#columns", ColumnHeader).refresh()
        self.update_title()

    def fold(self) -> int:
        """Lines a long value shows folded (``o`` unfolds them)."""
        return UNFOLDED_LINES if self.screen.state.unfold else FOLDED_LINES
