"""The ``/`` prompt: what is typed, how many matches there are, or that there is none.

The bar sits above the footer (never behind it) while a search is typed. It searches the
pane that had focus: a list (the cursor jumps to the next matching row as you type, and
goes back to where it was when nothing matches) or a detail pane (matches are highlighted
and the view scrolls to the first; text hidden in a folded value is found too, see
:meth:`~trajtui.ui.widgets.detail.DetailView.search`). ``enter`` keeps the search for
``n``/``N``; ``esc`` drops it and puts the cursor back.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Input, Static

from trajtui.ui.literal import SafeInput, literal
from trajtui.ui.widgets.detail import DetailView
from trajtui.ui.widgets.vlist import VirtualList


def matches_text(count: int, complete: bool = True) -> str:
    """``1 match``, ``12 matches``, ``over 5,000 matches``, ``no match``."""
    if count == 0:
        return "no match"
    more = "" if complete else "over "
    return f"{more}{count:,} match{'es' if count != 1 or not complete else ''}"


class SearchBar(Horizontal):
    """The search prompt and its status."""

    DEFAULT_CSS = """
    SearchBar {
        display: none;
        height: 1;
        background: $boost;
        & > #search-label { width: 3; padding: 0 1; color: $accent; text-style: bold; }
        & > Input, & > Input:focus {
            width: 1fr; height: 1; border: none; padding: 0; background: $boost;
        }
        & > #search-status { width: auto; max-width: 60%; padding: 0 1; color: $text-muted; }
        & > #search-status.-none { color: $error; text-style: bold; }
    }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.origin: Any = None
        self.start = 0
        """Cursor row of a list when the search began."""

    def compose(self) -> ComposeResult:
        yield Static(literal("/"), id="search-label")
        yield SafeInput(id="search")
        yield Static(id="search-status")

    @property
    def input(self) -> Input:
        """The prompt."""
        return self.query_one("#search", Input)

    def open(self, origin: Any, pane: str) -> None:
        """Start a search of ``origin`` (a list or a detail pane) named ``pane``."""
        self.origin = origin
        self.start = origin.cursor if isinstance(origin, VirtualList) else 0
        self.display = True
        prompt = self.input
        prompt.placeholder = f"search {pane}"
        prompt.value = ""
        self.status("enter keeps · esc closes · n/N next/previous")
        prompt.focus()

    def status(self, text: str, *, none: bool = False) -> None:
        """Show ``text`` after the prompt (``none``: nothing matched)."""
        label = self.query_one("#search-status", Static)
        label.set_class(none, "-none")
        label.update(literal(Text(text)))

    @on(Input.Changed, "#search")
    def _changed(self, event: Input.Changed) -> None:
        event.stop()
        self.apply(event.value)

    def apply(self, query: str) -> None:
        """Search for ``query`` as it is typed."""
        origin = self.origin
        if not query:
            self.status("enter keeps · esc closes · n/N next/previous")
        if isinstance(origin, VirtualList):
            origin.search_query = query
            origin.redraw()
            if not query:
                origin.set_cursor(self.start, center=False)
                return
            found = origin.find(query, self.start, 1)
            if found is None:
                origin.set_cursor(self.start)
                self.status("no match", none=True)
                return
            origin.set_cursor(found, center=True)
            count, complete = origin.count(query)
            self.status(matches_text(count, complete))
        elif isinstance(origin, DetailView):
            origin.search(query, jump=True)
            if query:
                self.show_detail_count(origin)

    def show_detail_count(self, detail: DetailView) -> None:
        """Say how many matches a detail pane has (after a search or a new layout)."""
        if detail is not self.origin or not self.display:
            return
        if detail.busy:
            self.status("searching…")
        elif detail.matches:
            where = f"{detail.match_index + 1} of " if detail.match_index >= 0 else ""
            self.status(where + matches_text(len(detail.matches)) + detail.search_note)
        else:
            self.status("no match" + detail.search_note, none=True)

    def close(self, *, keep: bool) -> None:
        """Hide the prompt; ``keep`` the search for ``n``/``N`` or drop it."""
        self.display = False
        origin = self.origin
        if not keep:
            if isinstance(origin, VirtualList):
                origin.search_query = ""
                origin.redraw()
                origin.set_cursor(self.start)
            elif isinstance(origin, DetailView):
                origin.search("")
        if origin is not None:
            origin.focus()
