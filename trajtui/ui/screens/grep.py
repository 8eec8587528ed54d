"""The search screen: every text of every run, hits streaming in as they are found.

Typing searches (the latest query wins: the search under way is cancelled); a query with a
capital letter matches case, one without ignores it; ctrl+r reads it as a regular expression
(RE2). Each row is a hit's reference, its field and a line around the match, marked. Enter
opens the hit (the main screen goes there and marks the match in the detail); ``n``/``N``
then move between hits.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Input, Static
from textual.worker import get_current_worker

from trajtui.core.io.text import visible
from trajtui.core.model import Problem
from trajtui.core.search import Hit, PatternError, Progress, Search, compile_needle
from trajtui.core.workspace import Workspace
from trajtui.ui.literal import SafeInput, literal
from trajtui.ui.widgets.vlist import VirtualList

MAX_HITS = 10_000
"""Hits a search shows at most (it stops there: a narrower query finds the rest)."""
DEBOUNCE = 0.25
"""Seconds of no typing before a search starts."""
BATCH_EVERY = 0.1
"""Seconds between two batches of hits sent to the screen."""


def smart_case(query: str) -> bool:
    """Ignore case unless the query has a capital letter (as vim's smartcase)."""
    return query == query.lower()


@dataclass
class GrepResult:
    """What the search screen found, and the hit chosen.

    Attributes:
        query: The query as typed.
        hits: The hits, in the order found.
        index: The hit chosen.
    """

    query: str
    hits: list[Hit] = field(default_factory=list)
    index: int = 0

    @property
    def hit(self) -> Hit:
        """The hit chosen."""
        return self.hits[self.index]


class HitList(VirtualList):
    """The hits: reference, field, and the line around the match with the match marked."""

    COMPONENT_CLASSES = {*VirtualList.COMPONENT_CLASSES, "hits--ref", "hits--field", "hits--hit"}

    DEFAULT_CSS = """
    HitList {
        height: 1fr;
        & > .hits--ref { color: $accent; }
        & > .hits--field { color: $text-muted; }
        & > .hits--hit { color: $warning; text-style: bold reverse; }
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.hits: list[Hit] = []
        self.empty_text = "type to search every text of every run"

    @property
    def row_count(self) -> int:
        return len(self.hits)

    def render_row(self, index: int, width: int) -> Text:
        hit = self.hits[index]
        snip = hit.snippet
        row = Text(no_wrap=True)
        row.append(visible(hit.ref, keep_newlines=False), self.cstyle("hits--ref"))
        row.append("  ")
        row.append(visible(hit.field, keep_newlines=False), self.cstyle("hits--field"))
        row.append("  ")
        row.append(snip.text[: snip.start])
        row.append(snip.match, self.get_component_rich_style("hits--hit"))
        row.append(snip.text[snip.end :])
        return row


class GrepScreen(Screen[GrepResult | None]):
    """Search every text of every run of the workspace."""

    BINDINGS = [
        Binding("escape", "close", "Close"),
        Binding("ctrl+r", "toggle_regex", "Regex"),
        Binding("down", "to_hits", "Hits", show=False),
        Binding("enter", "choose", "Open", show=False),
    ]

    DEFAULT_CSS = """
    GrepScreen > Vertical { height: 1fr; }
    GrepScreen #grep-status { color: $text-muted; height: 1; padding: 0 1; }
    GrepScreen #grep-status.-error { color: $error; }
    """

    def __init__(self, ws: Workspace, query: str = "", *, regex: bool = False) -> None:
        """Args:
        ws: What to search.
        query: A query to start with (the last one).
        regex: Read queries as regular expressions.
        """
        super().__init__()
        self.ws = ws
        self.regex = regex
        self.result = GrepResult(query)
        self._initial = query
        self._generation = 0
        self._search: Search | None = None
        self._timer: Timer | None = None
        self.progress: Progress | None = None
        self.unreadable = 0
        self.error = ""

    def compose(self) -> ComposeResult:
        with Vertical():
            yield SafeInput(value=self._initial, placeholder=self._placeholder(), id="grep-input")
            yield Static(id="grep-status")
            yield HitList(id="grep-hits")
        yield Footer()

    def _placeholder(self) -> str:
        what = "regular expression (RE2)" if self.regex else "text"
        return f"search every text of every run for {what} · ctrl+r: regex · esc: close"

    @property
    def hit_list(self) -> HitList:
        """The list of hits."""
        return self.query_one(HitList)

    @property
    def pending(self) -> bool:
        """A query was typed and its search has not started yet (it waits for typing to
        pause)."""
        return self._timer is not None

    def on_mount(self) -> None:
        self.query_one(Input).focus()
        if self._initial:
            self._start(self._initial)
        self._show_status()

    # -- searching -------------------------------------------------------------------------

    @on(Input.Changed, "#grep-input")
    def _changed(self, event: Input.Changed) -> None:
        if self._timer is not None:
            self._timer.stop()
        query = event.value
        self._timer = self.set_timer(DEBOUNCE, lambda: self._start(query))

    @on(Input.Submitted, "#grep-input")
    def _submitted(self, event: Input.Submitted) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if event.value != self.result.query or self._search is None:
            self._start(event.value)
        if self.hit_list.hits:
            self.hit_list.focus()

    def _start(self, query: str) -> None:
        """Search for ``query`` (the search under way, if any, is cancelled)."""
        self._timer = None
        if self._search is not None:
            self._search.cancel()
            self._search = None
        self._generation += 1
        self.result = GrepResult(query)
        self.hit_list.hits = self.result.hits
        self.hit_list.reset()
        self.progress, self.unreadable, self.error = None, 0, ""
        if query:
            try:
                needle = compile_needle(query, regex=self.regex, ignore_case=smart_case(query))
            except PatternError as err:
                self.error = str(err)
            else:
                search = Search(self.ws.sources, needle, qualify=self.ws.ref)
                self._search = search
                self._run(search, self._generation)
        self._show_status()

    @work(thread=True, group="grep", exit_on_error=False)
    def _run(self, search: Search, generation: int) -> None:
        """Drive ``search`` in a worker, sending hits to the screen in batches."""
        worker = get_current_worker()
        batch: list[Hit] = []
        unreadable = 0
        progress: Progress | None = None
        last = time.monotonic()
        for event in search.events():
            if worker.is_cancelled:
                search.cancel()
                break
            if isinstance(event, Hit):
                batch.append(event)
                if search.hits >= MAX_HITS:
                    search.cancel()
            elif isinstance(event, Problem):
                unreadable += 1
            else:
                progress = event
            now = time.monotonic()
            if now - last >= BATCH_EVERY or (progress is not None and progress.finished):
                last = now
                self.app.call_from_thread(self._add, generation, batch, progress, unreadable)
                batch, unreadable = [], 0
        if batch or unreadable:
            self.app.call_from_thread(self._add, generation, batch, progress, unreadable)

    def _add(
        self, generation: int, hits: list[Hit], progress: Progress | None, unreadable: int
    ) -> None:
        if generation != self._generation:
            return  # a query that was replaced
        if hits:
            self.result.hits.extend(hits)
            self.hit_list.grow()
        if progress is not None:
            self.progress = progress
        self.unreadable += unreadable
        self._show_status()

    def _show_status(self) -> None:
        status = self.query_one("#grep-status", Static)
        status.set_class(bool(self.error), "-error")
        status.update(literal(self.status_text()))

    def status_text(self) -> str:
        """The status line: hits, runs hit, the scan's progress (or why there is none)."""
        mode = "regex" if self.regex else "text"
        if self.error:
            return self.error
        if not self.result.query:
            return f"{mode} · {sum(len(s) for s in self.ws.sources):,} runs to search"
        p = self.progress
        if p is None:
            return f"{mode} · searching…"
        case = "ignoring case" if smart_case(self.result.query) else "matching case"
        hits = "hit" if p.hits == 1 else "hits"
        runs = "run" if p.runs_hit == 1 else "runs"
        text = f"{p.hits:,} {hits} in {p.runs_hit:,} {runs} · {mode}, {case} · "
        if p.hits >= MAX_HITS:
            text += f"stopped at {MAX_HITS:,} hits: narrow the query"
        elif p.finished and not p.cancelled:
            text += f"searched {p.runs_total:,} runs"
        else:
            text += f"searching {p.fraction:.0%} ({p.runs_done:,} of {p.runs_total:,} runs)"
        if self.unreadable:
            text += f" · {self.unreadable:,} unreadable records not searched"
        if p.finished and not p.hits and not p.cancelled:
            text = f"no match for {self.result.query!r} · " + text
        return text

    # -- keys ------------------------------------------------------------------------------

    def action_toggle_regex(self) -> None:
        self.regex = not self.regex
        box = self.query_one(Input)
        box.placeholder = self._placeholder()
        self._start(box.value)

    def action_to_hits(self) -> None:
        if self.hit_list.hits:
            self.hit_list.focus()

    def action_choose(self) -> None:
        if self.focused is self.hit_list:
            self.hit_list.select()

    @on(VirtualList.Selected, "#grep-hits")
    def _chosen(self, event: VirtualList.Selected) -> None:
        if not self.result.hits:
            return
        self._stop()
        self.result.index = event.index
        self.dismiss(self.result)

    def action_close(self) -> None:
        self._stop()
        self.dismiss(None)

    def _stop(self) -> None:
        if self._search is not None:
            self._search.cancel()
        if self._timer is not None:
            self._timer.stop()
