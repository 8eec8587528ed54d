"""Finding: ``/`` search in the focused pane with ``n``/``N``, the run list's filter
(``f``) and its sort (``s``, ``S``, a click on a column name)."""

from __future__ import annotations

import time

from rich.text import Text
from textual import on, work
from textual.widgets import Input, Static
from textual.worker import get_current_worker

from trajtui.core.io.text import visible
from trajtui.core.query import RUNS, STEPS, QueryError, parse
from trajtui.core.query.nodes import Text as QueryText
from trajtui.core.source import Target
from trajtui.ui.screens.fields import FieldsScreen
from trajtui.ui.screens.grep import GrepResult, GrepScreen
from trajtui.ui.screens.main.extra_panes import ExtraPanes
from trajtui.ui.screens.sort import SortChoice, SortScreen
from trajtui.ui.store import SORT_CYCLE, Filter, Layout
from trajtui.ui.widgets.detail import DetailView
from trajtui.ui.widgets.match_context import MatchContext
from trajtui.ui.widgets.run_list import ColumnHeader
from trajtui.ui.widgets.search import SearchBar
from trajtui.ui.widgets.vlist import VirtualList

ARRANGE_IN_WORKER_FROM = 20_000
"""Runs from which sorting and filtering happen in a worker thread."""
INPUT_SEARCH_PAUSE = 0.25
"""Seconds the filter's words wait after a keystroke before whole inputs are searched."""


class Finding(ExtraPanes):
    """Search, filter and sort."""

    # -- search ----------------------------------------------------------------------------

    @property
    def search_bar(self) -> SearchBar:
        """The ``/`` prompt."""
        return self.query_one(SearchBar)

    def action_search(self) -> None:
        focused = self.focused
        if focused is not None and focused.id in ("search", "filter"):
            return
        if focused is None or focused is self.run_list:
            self.action_grep()  # from the run list: every text of every run
            return
        self.state.grep = None  # n / N now move in this pane
        self.state.search_origin = focused if focused is not None else self.run_list
        self.search_bar.open(self.state.search_origin, self._pane_name(self.state.search_origin))

    @on(Input.Submitted, "#search")
    def _search_submitted(self, event: Input.Submitted) -> None:
        self._close_search(keep=True)

    @on(DetailView.Searched)
    def _detail_searched(self, message: DetailView.Searched) -> None:
        self.search_bar.show_detail_count(message.detail)

    @on(DetailView.Unfold)
    def _unfold_for_search(self, message: DetailView.Unfold) -> None:
        if not self.state.unfold:
            self.state.unfold = True
            self._refresh_views()
            self.notify("long values shown in full to show the match (o folds them)", timeout=3)

    def _close_search(self, keep: bool = False) -> None:
        self.search_bar.close(keep=keep)
        self._update_layout()

    # -- search every run ------------------------------------------------------------------

    def action_grep(self) -> None:
        last = self.state.grep
        screen = GrepScreen(self.ws, last.query if last is not None else "")
        self.app.push_screen(screen, self._grep_done)

    def _grep_done(self, result: GrepResult | None) -> None:
        if result is None or not result.hits:
            return
        self.state.grep = result
        self._open_hit()

    def _open_hit(self) -> None:
        """Go to the hit chosen, its match marked in the detail."""
        result = self.state.grep
        if result is None:
            return
        hit = result.hit
        first = hit.matched.split("\n", 1)[0] or hit.matched.strip("\n")
        snippet = hit.snippet
        context = MatchContext.of_snippet(snippet.text, snippet.start, snippet.end)
        self.state.grep_mark = (visible(first, keep_newlines=False, tab=" "), context)
        self.go_to(hit.ref)
        self.notify(
            f"hit {result.index + 1:,} of {len(result.hits):,}: {hit.ref} · {hit.field}"
            " (n / N: next / previous hit)",
            timeout=3,
        )

    def _select_in_run(self, target: Target) -> None:
        mark, self.state.grep_mark = self.state.grep_mark, None
        if mark is not None:  # the hit's own view is shown next: mark the match there
            self.detail.find_when_shown(*mark)
        super()._select_in_run(target)

    def _match(self, step: int) -> None:
        if self.state.grep is not None:
            result = self.state.grep
            result.index = (result.index + step) % len(result.hits)
            self._open_hit()
            return
        focused = self.focused
        if isinstance(focused, VirtualList) and focused.search_query:
            found = focused.find(focused.search_query, focused.cursor + step, step)
            if found is None:
                self.notify(f"no match for {focused.search_query!r}", timeout=2)
            else:
                focused.set_cursor(found, center=True)
        elif isinstance(focused, DetailView) and focused.query_text:
            if not focused.goto_match(step):
                self.notify(f"no match for {focused.query_text!r}", timeout=2)
        else:
            self.notify("no search here yet: / starts one", timeout=2)

    def action_next_match(self) -> None:
        self._match(1)

    def action_prev_match(self) -> None:
        self._match(-1)

    # -- filter ----------------------------------------------------------------------------

    def action_filter(self) -> None:
        focused = self.focused
        if focused is self.timeline or (focused is not None and focused.id == "step-filter"):
            self._open_step_filter()
            return
        box = self.query_one("#filter", Input)
        box.display = True
        box.focus()
        self._update_layout()
        if sum(len(source) for source in self.ws.sources) >= ARRANGE_IN_WORKER_FROM:
            self._warm_filter()

    @work(thread=True, exclusive=True, group="warm-filter", exit_on_error=False)
    def _warm_filter(self) -> None:
        self.store.warm()

    @on(Input.Changed, "#filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self._apply_filter(event.value)

    @on(Input.Submitted, "#filter")
    def _filter_submitted(self, event: Input.Submitted) -> None:
        if not event.value.strip():
            self.query_one("#filter", Input).display = False
        self.run_list.focus()

    def _apply_filter(self, text: str) -> None:
        """Filter the run list by the query ``text``; a query that does not parse is
        pointed at under the box and the list stays as it was. A ``?`` ending the text
        lists the fields (and is taken out of the box)."""
        box = self.query_one("#filter", Input)
        if self._fields_asked(box, text, RUNS):
            return
        try:
            filt = Filter.parse(text, self.store.metadata_keys())
        except QueryError as error:
            self.state.inputs_asked += 1  # a search of the words typed before stops
            self._filter_hint(
                _error_lines(text, error, under_box=_fits(box, text), room=_room(box))
            )
            return
        self._filter_hint(None)
        self._arrange(self.store.sort, self.store.reverse, filt)
        self._search_inputs(filt)

    # -- the filter's words in whole inputs ---------------------------------------------------

    def _search_inputs(self, filt: Filter) -> None:
        """Rows show at once for the words found in titles (an input's first 200
        characters); the words not yet searched in whole inputs are searched in a worker,
        and the rows arranged again with what it finds."""
        self.state.inputs_asked += 1
        words = tuple(
            (w, kind)
            for w, kind in filt.query.searches
            if not self.store.inputs.searched(w, self.ws.sources, kind)
        )
        if not words:
            return
        self._input_search(filt, words, self.state.inputs_asked)

    @work(thread=True, exclusive=True, group="inputs", exit_on_error=False)
    def _input_search(
        self, filt: Filter, words: tuple[tuple[QueryText, str], ...], number: int
    ) -> None:
        worker = get_current_worker()

        def stopped() -> bool:
            return worker.is_cancelled or number != self.state.inputs_asked

        # typing goes on: the last word typed is the one searched (a keystroke wakes this)
        if self.state.wake.wait_for(stopped, INPUT_SEARCH_PAUSE):
            return
        last = [0.0]

        def progress(fraction: float) -> None:
            now = time.monotonic()
            if now - last[0] >= 0.25:
                last[0] = now
                self.app.call_from_thread(self._inputs_progress, number, fraction)

        for word, kind in words:
            if not self.store.search_inputs(word, stopped, progress, kind):
                return
        self.app.call_from_thread(self._inputs_searched, filt, number)

    def _inputs_progress(self, number: int, fraction: float) -> None:
        if number == self.state.inputs_asked:
            self._filter_hint(
                Text(f" words in titles; searching whole inputs… {fraction:.0%}", style="dim")
            )

    def _inputs_searched(self, filt: Filter, number: int) -> None:
        if number != self.state.inputs_asked:
            return
        self._filter_hint(None)
        sort, reverse, _ = self.state.wanted
        self._arrange(sort, reverse, filt)

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

        self.app.push_screen(FieldsScreen(scope), back)
        return True

    def _filter_hint(self, hint: Text | None, box_id: str = "#filter-hint") -> None:
        """Show ``hint`` under the filter box (None hides it)."""
        box = self.query_one(box_id, Static)
        box.display = hint is not None
        box.update(hint if hint is not None else "")

    # -- the timeline's filter ---------------------------------------------------------------

    def _open_step_filter(self) -> None:
        box = self.query_one("#step-filter", Input)
        box.display = True
        box.focus()
        self._update_layout()

    @on(Input.Changed, "#step-filter")
    def _step_filter_changed(self, event: Input.Changed) -> None:
        self._apply_step_filter(event.value)

    @on(Input.Submitted, "#step-filter")
    def _step_filter_submitted(self, event: Input.Submitted) -> None:
        if not event.value.strip():
            self.query_one("#step-filter", Input).display = False
        self.timeline.focus()
        self._show_timeline_row()
        self._update_layout()

    def _apply_step_filter(self, text: str) -> None:
        """Show only the steps the query ``text`` keeps, in this run and the next ones
        opened; a query that does not parse is pointed at and the steps stay as they
        were. A ``?`` ending the text lists the step fields."""
        box = self.query_one("#step-filter", Input)
        if self._fields_asked(box, text, STEPS):
            return
        try:
            query = parse(text, scope=STEPS)
        except QueryError as error:
            hint = _error_lines(
                text, error, under_box=_fits(box, text), room=_room(box), what="the steps are"
            )
            self._filter_hint(hint, "#step-filter-hint")
            return
        self._filter_hint(None, "#step-filter-hint")
        if query.empty:
            self.timeline.set_filter(None)
        else:
            facts = self.timeline.facts
            self.timeline.set_filter(lambda step: query.matches(facts(step)), text.strip())
        self._update_steps_title()

    # -- sort and filter, off the UI thread when there are many runs -------------------------

    def _arrange(
        self, sort: str | None, reverse: bool, filt: Filter, note: str | None = None
    ) -> None:
        """Show the rows for ``sort`` and ``filt``: computed here for a few runs, else in a
        worker while the old rows stay on screen and typing goes on (a newer request
        cancels an older one: the latest keystroke wins)."""
        self.state.arrangement += 1
        number = self.state.arrangement
        self.state.wanted = (sort, reverse, filt)
        if sum(len(source) for source in self.ws.sources) < ARRANGE_IN_WORKER_FROM:
            layout = self.store.plan(sort, reverse, filt)
            assert layout is not None
            self._arranged(layout, number, note)
            return
        self._plan_rows(sort, reverse, filt, number, note)

    @work(thread=True, exclusive=True, group="arrange", exit_on_error=False)
    def _plan_rows(
        self, sort: str | None, reverse: bool, filt: Filter, number: int, note: str | None
    ) -> None:
        worker = get_current_worker()

        def stopped() -> bool:
            return worker.is_cancelled or number != self.state.arrangement

        layout = self.store.plan(sort, reverse, filt, stopped)
        if layout is not None and not stopped():
            self.app.call_from_thread(self._arranged, layout, number, note)

    def _arranged(self, layout: Layout, number: int, note: str | None) -> None:
        """Show a layout, unless a newer one was asked for meanwhile."""
        if number != self.state.arrangement:
            return
        keep = self.cursor_run()
        self.store.apply(layout)
        self._refresh_rows(keep=keep)
        if note:
            self.notify(note, timeout=3)

    def _close_filter(self) -> None:
        """Empty the filter box and hide it."""
        box = self.query_one("#filter", Input)
        if self.store.filter.active or box.value:
            box.value = ""
            self._apply_filter("")
        box.display = False
        self._filter_hint(None)

    # -- sort ------------------------------------------------------------------------------

    def action_sort(self) -> None:
        present = self.store.columns()
        cycle = [c for c in SORT_CYCLE if c in (None, "status", "ref") or c in present]
        current = cycle.index(self.store.sort) if self.store.sort in cycle else 0
        column = cycle[(current + 1) % len(cycle)]
        self._sort(column, self.store.reverse if column is not None else False)

    def action_sort_by(self) -> None:
        def chosen(choice: SortChoice | None) -> None:
            if choice is not None:
                self._sort(choice.column, choice.reverse)

        screen = SortScreen(self.store.sort, self.store.reverse, self.store.columns())
        self.app.push_screen(screen, chosen)

    def action_sort_reverse(self) -> None:
        self._sort(self.store.sort or "ref", not self.store.reverse)

    @on(ColumnHeader.SortBy)
    def _sort_by(self, message: ColumnHeader.SortBy) -> None:
        reverse = (not self.store.reverse) if self.store.sort == message.column else False
        self._sort(message.column, reverse)

    def _sort(self, column: str | None, reverse: bool) -> None:
        unread = sum(len(s) for s in self.ws.sources) - sum(c.seen for c in self.store.counts)
        what = f"sorted by {column}{' (reversed)' if reverse else ''}" if column else "file order"
        if unread > 0 and column:
            what += f"; {unread:,} runs not read yet are left out until they are"
        self._arrange(column, reverse, self.store.filter, what)


def _room(box: Input) -> int:
    """Characters a line of ``box`` (and of the hint under it) holds."""
    return max(20, box.content_region.width or box.size.width - 2)


def _fits(box: Input, text: str) -> bool:
    """The whole of ``text`` shows in ``box`` (so carets can go right under it)."""
    return len(text) < _room(box)


def _error_lines(
    text: str, error: QueryError, *, under_box: bool, room: int = 80, what: str = "the list is"
) -> Text:
    """The problem underlined, then the message::

        tool:Read scroe<0.5          (the filter box)
                  ^^^^^
        col 11: unknown field 'scroe': did you mean score? · the list is unchanged

    ``under_box``: the whole query shows in the box, so the carets go right under it;
    else the stretch of the query around the problem (``room`` characters, ``…`` where it
    is cut) is shown again above them, so the message stays in sight."""
    start, end = min(error.start, len(text)), min(max(error.end, error.start + 1), len(text) + 1)
    shown = visible(text, keep_newlines=False)
    out = Text()
    if len(shown) == len(text):  # the caret lines up with the text only when none was replaced
        lead = 0
        if not under_box:
            lo = max(0, start - room // 3)
            hi = min(len(shown), lo + room - 2)
            end = max(start + 1, min(end, hi))
            cut = "…" if lo else ""
            out.append(cut + shown[lo:start])
            out.append(shown[start:end], style="bold reverse red")
            out.append(shown[end:hi] + ("…" if hi < len(shown) else "") + "\n")
            lead = len(cut) - lo
        out.append(" " * (lead + start) + "^" * max(1, end - start) + "\n", style="bold red")
    out.append(visible(str(error), keep_newlines=False), style="red")
    out.append(f" · {what} unchanged · ? lists fields", style="dim")
    return out
