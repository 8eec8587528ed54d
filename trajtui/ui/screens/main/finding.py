"""Finding: ``/`` search in the focused pane with ``n``/``N``, the run list's filter
(``f``) and its sort (``s``, ``S``, a click on a column name)."""

from __future__ import annotations

from textual import on
from textual.widgets import Input

from trajtui.ui.screens.main.forecast import ForecastPanes
from trajtui.ui.store import SORT_CYCLE
from trajtui.ui.widgets.detail import DetailView
from trajtui.ui.widgets.run_list import ColumnHeader
from trajtui.ui.widgets.search import SearchBar
from trajtui.ui.widgets.vlist import VirtualList


class Finding(ForecastPanes):
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
        self._search_origin = focused if focused is not None else self.run_list
        self.search_bar.open(self._search_origin, self._pane_name(self._search_origin))

    @on(Input.Submitted, "#search")
    def _search_submitted(self, event: Input.Submitted) -> None:
        self._close_search(keep=True)

    @on(DetailView.Searched)
    def _detail_searched(self, message: DetailView.Searched) -> None:
        self.search_bar.show_detail_count(message.detail)

    @on(DetailView.Unfold)
    def _unfold_for_search(self, message: DetailView.Unfold) -> None:
        if not self.unfold:
            self.unfold = True
            self._refresh_views()
            self.notify("long values shown in full to show the match (o folds them)", timeout=3)

    def _close_search(self, keep: bool = False) -> None:
        self.search_bar.close(keep=keep)
        self._update_layout()

    def _match(self, step: int) -> None:
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
        box = self.query_one("#filter", Input)
        box.display = True
        box.focus()
        self._update_layout()

    @on(Input.Changed, "#filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self._apply_filter(event.value)

    @on(Input.Submitted, "#filter")
    def _filter_submitted(self, event: Input.Submitted) -> None:
        if not event.value.strip():
            self.query_one("#filter", Input).display = False
        self.run_list.focus()

    def _apply_filter(self, text: str) -> None:
        self.store.set_filter(text)
        self._refresh_rows(keep=True)

    def _close_filter(self) -> None:
        """Empty the filter box and hide it."""
        box = self.query_one("#filter", Input)
        if self.store.filter.active:
            box.value = ""
            self._apply_filter("")
        box.display = False

    # -- sort ------------------------------------------------------------------------------

    def action_sort(self) -> None:
        current = SORT_CYCLE.index(self.store.sort) if self.store.sort in SORT_CYCLE else 0
        column = SORT_CYCLE[(current + 1) % len(SORT_CYCLE)]
        self._sort(column, self.store.reverse if column is not None else False)

    def action_sort_reverse(self) -> None:
        self._sort(self.store.sort or "ref", not self.store.reverse)

    @on(ColumnHeader.SortBy)
    def _sort_by(self, message: ColumnHeader.SortBy) -> None:
        reverse = (not self.store.reverse) if self.store.sort == message.column else False
        self._sort(message.column, reverse)

    def _sort(self, column: str | None, reverse: bool) -> None:
        self.store.set_sort(column, reverse)
        self._refresh_rows(keep=True)
        unread = sum(len(s) for s in self.ws.sources) - sum(c.seen for c in self.store.counts)
        what = f"sorted by {column}{' (reversed)' if reverse else ''}" if column else "file order"
        if unread > 0 and column:
            what += f"; {unread:,} runs not read yet are left out until they are"
        self.notify(what, timeout=3)
