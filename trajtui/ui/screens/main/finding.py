"""Finding: ``/`` search in the focused pane with ``n``/``N``, the run list's filter
(``f``) and its sort (``s``, ``S``, a click on a column name); the timeline's filter.

A part composed into the main screen, reaching it through :class:`Found`; the screen hands
it its keys and the messages of the boxes it reads.
"""

from __future__ import annotations

import time
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

from rich.text import Text
from textual.screen import Screen
from textual.widgets import Input, Static
from textual.worker import get_current_worker

from trajtui.core.io.text import visible
from trajtui.core.query import RUNS, STEPS, QueryError, parse
from trajtui.core.query.nodes import Text as QueryText
from trajtui.ui.screens.fields import FieldsScreen
from trajtui.ui.screens.grep import GrepResult, GrepScreen
from trajtui.ui.screens.main.hints import error_lines, fits, room
from trajtui.ui.screens.main.panes import Panes, Parts
from trajtui.ui.screens.sort import SortChoice, SortScreen
from trajtui.ui.store import SORT_CYCLE, Filter, Layout
from trajtui.ui.widgets.detail import DetailView
from trajtui.ui.widgets.match_context import MatchContext
from trajtui.ui.widgets.run_list import ColumnHeader
from trajtui.ui.widgets.search import SearchBar
from trajtui.ui.widgets.vlist import VirtualList

if TYPE_CHECKING:
    pass

ARRANGE_IN_WORKER_FROM = 20_000
"""Runs from which sorting and filtering happen in a worker thread."""
INPUT_SEARCH_PAUSE = 0.25
"""Seconds the filter's words wait after a keystroke before whole inputs are searched."""


class Found(Panes, Parts, Protocol):
    """What finding needs of the screen."""

    def cursor_run(self) -> tuple[int, int] | None:
        """``(source, entry)`` of the run the user is on."""


class Finding:
    """Search, filter and sort."""

    def __init__(self, screen: Found, node: Screen[None]) -> None:
        """Args:
        screen: The screen searched, filtered and sorted.
        node: The same screen as a Textual screen (its focus, widgets, workers, toasts).
        """
        self.screen = screen
        self.node = node

    # -- search ----------------------------------------------------------------------------

    @property
    def search_bar(self) -> SearchBar:
        """The ``/`` prompt."""
        return self.node.query_one(SearchBar)

    def search(self) -> None:
        """``/``: search the focused pane (from the run list: every run, :meth:`grep`)."""
        focused = self.node.focused
        if focused is not None and focused.id in ("search", "filter"):
            return
        if focused is None or focused is self.screen.run_list:
            self.grep()  # from the run list: every text of every run
            return
        self.screen.state.grep = None  # n / N now move in this pane
        self.screen.state.search_origin = focused if focused is not None else self.screen.run_list
        origin = self.screen.state.search_origin
        self.search_bar.open(origin, self._pane_name(origin))

    def _pane_name(self, widget: Any) -> str:
        """The pane ``widget`` is, in words (``search steps``)."""
        name = self.screen.extra.pane_name(widget)
        if name is not None:
            return name
        return {
            id(self.screen.run_list): "runs",
            id(self.screen.timeline): "steps",
            id(self.screen.detail): "detail",
        }.get(id(widget), "pane")

    def search_submitted(self) -> None:
        """The ``/`` prompt's query submitted."""
        self.close_search(keep=True)

    def detail_searched(self, message: DetailView.Searched) -> None:
        """The detail counted the matches of a search."""
        self.search_bar.show_detail_count(message.detail)

    def unfold_for_search(self, message: DetailView.Unfold) -> None:
        """A match is in a folded value: unfold long values."""
        if not self.screen.state.unfold:
            self.screen.state.unfold = True
            self.screen.selection.refresh_views()
            self.node.notify(
                "long values shown in full to show the match (o folds them)", timeout=3
            )

    def close_search(self, keep: bool = False) -> None:
        """Close the ``/`` prompt (``keep``: its matches stay marked)."""
        self.search_bar.close(keep=keep)
        self.screen.frame.update_layout()

    # -- search every run ------------------------------------------------------------------

    def grep(self) -> None:
        """Search every text of every run (the search screen)."""
        last = self.screen.state.grep
        screen = GrepScreen(self.screen.ws, last.query if last is not None else "")
        self.node.app.push_screen(screen, self._grep_done)

    def _grep_done(self, result: GrepResult | None) -> None:
        if result is None or not result.hits:
            return
        self.screen.state.grep = result
        self._open_hit()

    def _open_hit(self) -> None:
        """Go to the hit chosen, its match marked in the detail."""
        result = self.screen.state.grep
        if result is None:
            return
        hit = result.hit
        first = hit.matched.split("\n", 1)[0] or hit.matched.strip("\n")
        snippet = hit.snippet
        context = MatchContext.of_snippet(snippet.text, snippet.start, snippet.end)
        self.screen.state.grep_mark = (visible(first, keep_newlines=False, tab=" "), context)
        self.screen.going.go_to(hit.ref)
        self.node.notify(
            f"hit {result.index + 1:,} of {len(result.hits):,}: {hit.ref} · {hit.field}"
            " (n / N: next / previous hit)",
            timeout=3,
        )

    def _match(self, step: int) -> None:
        if self.screen.state.grep is not None:
            result = self.screen.state.grep
            result.index = (result.index + step) % len(result.hits)
            self._open_hit()
            return
        focused = self.node.focused
        if isinstance(focused, VirtualList) and focused.search_query:
            found = focused.find(focused.search_query, focused.cursor + step, step)
            if found is None:
                self.node.notify(f"no match for {focused.search_query!r}", timeout=2)
            else:
                focused.set_cursor(found, center=True)
        elif isinstance(focused, DetailView) and focused.query_text:
            if not focused.goto_match(step):
                self.node.notify(f"no match for {focused.query_text!r}", timeout=2)
        else:
            self.node.notify("no search here yet: / starts one", timeout=2)

    def next_match(self) -> None:
        """``n``: the next match (or hit)."""
        self._match(1)

    def prev_match(self) -> None:
        """``N``: the previous match (or hit)."""
        self._match(-1)

    # -- filter ----------------------------------------------------------------------------

    def filter(self) -> None:
        """``f``: open the focused list's filter box."""
        focused = self.node.focused
        if focused is self.screen.timeline or (focused is not None and focused.id == "step-filter"):
            self.open_step_filter()
            return
        box = self.node.query_one("#filter", Input)
        box.display = True
        box.focus()
        self.screen.frame.update_layout()
        if sum(len(source) for source in self.screen.ws.sources) >= ARRANGE_IN_WORKER_FROM:
            self.node.run_worker(
                self.screen.store.warm,
                name="_warm_filter",
                group="warm-filter",
                exclusive=True,
                thread=True,
                exit_on_error=False,
            )

    def filter_changed(self, text: str) -> None:
        """The run list's filter box changed."""
        self._apply_filter(text)

    def filter_submitted(self, text: str) -> None:
        """``enter`` in the run list's filter box."""
        if not text.strip():
            self.node.query_one("#filter", Input).display = False
        self.screen.run_list.focus()

    def _apply_filter(self, text: str) -> None:
        """Filter the run list by the query ``text``; a query that does not parse is
        pointed at under the box and the list stays as it was. A ``?`` ending the text
        lists the fields (and is taken out of the box)."""
        box = self.node.query_one("#filter", Input)
        if self._fields_asked(box, text, RUNS):
            return
        try:
            filt = Filter.parse(text, self.screen.store.metadata_keys())
        except QueryError as error:
            self.screen.state.inputs_asked += 1  # a search of the words typed before stops
            self._filter_hint(error_lines(text, error, under_box=fits(box, text), room=room(box)))
            return
        self._filter_hint(None)
        self.arrange(self.screen.store.sort, self.screen.store.reverse, filt)
        self.search_inputs(filt)

    # -- the filter's words in whole inputs ---------------------------------------------------

    def search_inputs(self, filt: Filter) -> None:
        """Rows show at once for the words found in titles (an input's first 200
        characters); the words not yet searched in whole inputs are searched in a worker,
        and the rows arranged again with what it finds."""
        self.screen.state.inputs_asked += 1
        words = tuple(
            (w, kind)
            for w, kind in filt.query.searches
            if not self.screen.store.inputs.searched(w, self.screen.ws.sources, kind)
        )
        if not words:
            return
        self.node.run_worker(
            partial(self._input_search, filt, words, self.screen.state.inputs_asked),
            name="_input_search",
            group="inputs",
            exclusive=True,
            thread=True,
            exit_on_error=False,
        )

    def _input_search(
        self, filt: Filter, words: tuple[tuple[QueryText, str], ...], number: int
    ) -> None:
        worker = get_current_worker()

        def stopped() -> bool:
            return worker.is_cancelled or number != self.screen.state.inputs_asked

        # typing goes on: the last word typed is the one searched (a keystroke wakes this)
        if self.screen.state.wake.wait_for(stopped, INPUT_SEARCH_PAUSE):
            return
        last = [0.0]

        def progress(fraction: float) -> None:
            now = time.monotonic()
            if now - last[0] >= 0.25:
                last[0] = now
                self.node.app.call_from_thread(self._inputs_progress, number, fraction)

        for word, kind in words:
            if not self.screen.store.search_inputs(word, stopped, progress, kind):
                return
        self.node.app.call_from_thread(self._inputs_searched, filt, number)

    def _inputs_progress(self, number: int, fraction: float) -> None:
        if number == self.screen.state.inputs_asked:
            self._filter_hint(
                Text(f" words in titles; searching whole inputs… {fraction:.0%}", style="dim")
            )

    def _inputs_searched(self, filt: Filter, number: int) -> None:
        if number != self.screen.state.inputs_asked:
            return
        self._filter_hint(None)
        sort, reverse, _ = self.screen.state.wanted
        self.arrange(sort, reverse, filt)

    def _fields_asked(self, box: Input, text: str, scope: str) -> bool:
        """When ``text`` ends in ``?``: take it out of ``box`` (which then filters by the
        rest), list the fields of ``scope`` and come back to the box. True when it did."""
        asked = text.rstrip()
        if not (asked == "?" or asked.endswith((" ?", "(?"))):
            return False
        box.value = asked[:-1]
        box.cursor_position = len(box.value)

        def back(_: None) -> None:
            box.focus()

        self.node.app.push_screen(FieldsScreen(scope), back)
        return True

    def _filter_hint(self, hint: Text | None, box_id: str = "#filter-hint") -> None:
        """Show ``hint`` under the filter box (None hides it)."""
        box = self.node.query_one(box_id, Static)
        box.display = hint is not None
        box.update(hint if hint is not None else "")

    # -- the timeline's filter ---------------------------------------------------------------

    def open_step_filter(self) -> None:
        """Open the timeline's filter box."""
        box = self.node.query_one("#step-filter", Input)
        box.display = True
        box.focus()
        self.screen.frame.update_layout()

    def step_filter_changed(self, text: str) -> None:
        """The timeline's filter box changed."""
        self._apply_step_filter(text)

    def step_filter_submitted(self, text: str) -> None:
        """``enter`` in the timeline's filter box."""
        if not text.strip():
            self.node.query_one("#step-filter", Input).display = False
        self.screen.timeline.focus()
        self.screen.selection.show_timeline_row()
        self.screen.frame.update_layout()

    def _apply_step_filter(self, text: str) -> None:
        """Show only the steps the query ``text`` keeps, in this run and the next ones
        opened; a query that does not parse is pointed at and the steps stay as they
        were. A ``?`` ending the text lists the step fields."""
        box = self.node.query_one("#step-filter", Input)
        if self._fields_asked(box, text, STEPS):
            return
        try:
            query = parse(text, scope=STEPS)
        except QueryError as error:
            hint = error_lines(
                text, error, under_box=fits(box, text), room=room(box), what="the steps are"
            )
            self._filter_hint(hint, "#step-filter-hint")
            return
        self._filter_hint(None, "#step-filter-hint")
        if query.empty:
            self.screen.timeline.set_filter(None)
        else:
            facts = self.screen.timeline.facts
            self.screen.timeline.set_filter(lambda step: query.matches(facts(step)), text.strip())
        self.screen.selection.update_steps_title()

    # -- sort and filter, off the UI thread when there are many runs -------------------------

    def arrange(
        self, sort: str | None, reverse: bool, filt: Filter, note: str | None = None
    ) -> None:
        """Show the rows for ``sort`` and ``filt``: computed here for a few runs, else in a
        worker while the old rows stay on screen and typing goes on (a newer request
        cancels an older one: the latest keystroke wins)."""
        self.screen.state.arrangement += 1
        number = self.screen.state.arrangement
        self.screen.state.wanted = (sort, reverse, filt)
        if sum(len(source) for source in self.screen.ws.sources) < ARRANGE_IN_WORKER_FROM:
            layout = self.screen.store.plan(sort, reverse, filt)
            assert layout is not None
            self._arranged(layout, number, note)
            return
        self.node.run_worker(
            partial(self._plan_rows, sort, reverse, filt, number, note),
            name="_plan_rows",
            group="arrange",
            exclusive=True,
            thread=True,
            exit_on_error=False,
        )

    def _plan_rows(
        self, sort: str | None, reverse: bool, filt: Filter, number: int, note: str | None
    ) -> None:
        worker = get_current_worker()

        def stopped() -> bool:
            return worker.is_cancelled or number != self.screen.state.arrangement

        layout = self.screen.store.plan(sort, reverse, filt, stopped)
        if layout is not None and not stopped():
            self.node.app.call_from_thread(self._arranged, layout, number, note)

    def _arranged(self, layout: Layout, number: int, note: str | None) -> None:
        """Show a layout, unless a newer one was asked for meanwhile."""
        if number != self.screen.state.arrangement:
            return
        keep = self.screen.cursor_run()
        self.screen.store.apply(layout)
        self.screen.frame.refresh_rows(keep=keep)
        if note:
            self.node.notify(note, timeout=3)

    def close_filter(self) -> None:
        """Empty the filter box and hide it."""
        box = self.node.query_one("#filter", Input)
        if self.screen.store.filter.active or box.value:
            box.value = ""
            self._apply_filter("")
        box.display = False
        self._filter_hint(None)

    # -- sort ------------------------------------------------------------------------------

    def sort(self) -> None:
        """``s``: sort by the next column of the cycle."""
        present = self.screen.store.columns()
        cycle = [c for c in SORT_CYCLE if c in (None, "status", "ref") or c in present]
        current = cycle.index(self.screen.store.sort) if self.screen.store.sort in cycle else 0
        column = cycle[(current + 1) % len(cycle)]
        self._sort(column, self.screen.store.reverse if column is not None else False)

    def sort_by(self) -> None:
        """``O``: choose the column to sort by."""

        def chosen(choice: SortChoice | None) -> None:
            if choice is not None:
                self._sort(choice.column, choice.reverse)

        screen = SortScreen(
            self.screen.store.sort, self.screen.store.reverse, self.screen.store.columns()
        )
        self.node.app.push_screen(screen, chosen)

    def sort_reverse(self) -> None:
        """``S``: reverse the sort."""
        self._sort(self.screen.store.sort or "ref", not self.screen.store.reverse)

    def sort_by_column(self, message: ColumnHeader.SortBy) -> None:
        """A click on a column's name: sort by it (again: reversed)."""
        reverse = (
            (not self.screen.store.reverse) if self.screen.store.sort == message.column else False
        )
        self._sort(message.column, reverse)

    def _sort(self, column: str | None, reverse: bool) -> None:
        unread = sum(len(s) for s in self.screen.ws.sources) - sum(
            c.seen for c in self.screen.store.counts
        )
        what = f"sorted by {column}{' (reversed)' if reverse else ''}" if column else "file order"
        if unread > 0 and column:
            what += f"; {unread:,} runs not read yet are left out until they are"
        self.arrange(column, reverse, self.screen.store.filter, what)
