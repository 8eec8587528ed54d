"""The detail pane: one Rich renderable (a step, a run, a message...) drawn as lines.

The renderable is built and laid out into lines in a thread worker (a huge value never
freezes the UI), then drawn through the line API. Because the pane holds lines, ``/``
search finds and highlights matches and scrolls to them, and ``n``/``N`` move between them.

Keys (when the pane has focus): ``j``/``k`` scroll, ``g``/``G`` top/bottom, ``[``/``]``
previous/next source mention (forecast runs), ``enter`` follows it.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass

from rich.console import Console, RenderableType
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events, on, work
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.worker import Worker, WorkerState, get_current_worker

from trajtui.render.show import FOLD_MARK
from trajtui.ui import failures
from trajtui.ui.commands import widget_bindings
from trajtui.ui.literal import visible_segments
from trajtui.ui.widgets.match_context import MatchContext, best_match
from trajtui.ui.widgets.mentions import Mention, find_mentions
from trajtui.ui.widgets.vlist import LineView, set_scroll_range

Builder = Callable[[], RenderableType]
"""Builds the renderable (called in a worker thread)."""


class DetailView(LineView, can_focus=True):
    """Shows one object's detail; searchable; follows mentions."""

    BINDINGS = [
        *widget_bindings(
            {
                "cursor_down": "scroll_down",
                "cursor_up": "scroll_up",
                "first": "scroll_home",
                "last": "scroll_end",
                "page_down": "page_down",
                "page_up": "page_up",
                "next_mention": "next_mention",
                "prev_mention": "prev_mention",
            }
        ),
    ]

    COMPONENT_CLASSES = {"detail--match", "detail--current", "detail--mention", "detail--empty"}

    DEFAULT_CSS = """
    DetailView {
        background: $surface;
        overflow-x: hidden;
        overflow-y: auto;
        scrollbar-size-vertical: 1;
        padding: 0 1;
        & > .detail--match { background: $warning 40%; }
        & > .detail--current { background: $warning; color: $background; text-style: bold; }
        & > .detail--mention { text-style: underline; }
        & > .detail--empty { color: $text-muted; text-style: italic; }
    }
    """

    busy: reactive[bool] = reactive(False)
    """A renderable is being laid out."""

    @dataclass
    class Unfold(Message):
        """A search found its text only in a value the pane shows folded."""

        detail: DetailView

        @property
        def control(self) -> DetailView:
            return self.detail

    @dataclass
    class Searched(Message):
        """The matches of the current search changed (a new layout arrived)."""

        detail: DetailView

        @property
        def control(self) -> DetailView:
            return self.detail

    @dataclass
    class FollowMention(Message):
        """The user asked to follow a mention (``enter`` on it)."""

        detail: DetailView
        target: str

        @property
        def control(self) -> DetailView:
            return self.detail

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._builder: Builder | None = None
        self._renderable: RenderableType | None = None
        self._lines: list[Strip] = []
        self._plain: list[str] = []
        self._width = 0
        self._generation = 0
        self.query_text = ""
        self.matches: list[tuple[int, int, int]] = []
        self.match_index = -1
        self.mention_words: dict[str, str] = {}
        self.mentions: list[Mention] = []
        self.mention_index = -1
        self.empty_text = "nothing selected"
        self.key = ""
        self.search_note = ""
        """Why a search shows no (or not every) match, for the search prompt."""
        self._whole: Callable[[], str] | None = None
        self._whole_folded: str | None = None
        self._jump_pending = False
        self._find_pending = False
        self._wanted: MatchContext | None = None
        """The text around the match meant (a search hit's, or the one ``n`` went to): kept
        as the current match when the pane is laid out again."""

    # -- content ---------------------------------------------------------------------------

    def show(
        self,
        builder: Builder,
        *,
        key: str,
        mentions: dict[str, str] | None = None,
        whole: Callable[[], str] | None = None,
    ) -> None:
        """Show what ``builder`` makes (built in a worker).

        Args:
            builder: Makes the renderable.
            key: Identity of the object shown (the same key keeps the scroll position).
            mentions: Words in the text that can be followed, mapped to targets.
            whole: The whole text of the object, folded values included: a search that
                finds nothing on screen looks there, and asks to unfold when it is there.
        """
        same = key == self.key
        self.key = key
        self._builder = builder
        if not same:
            self._whole_folded = None
            if not self._find_pending:
                self._wanted = None
        self._whole = whole
        self.mention_words = mentions or {}
        self._generation += 1
        if not same:
            # Another object: never show the old one while the new one is laid out.
            self._lines, self._plain = [], []
            self.matches, self.mentions = [], []
            # The scroll range stays until the new lines come: dropping it to nothing hid
            # the scrollbar and the new lines showed it again, each a layout of the screen
            # (30-100 ms) on every move to another run.
            self.busy = True
            self.scroll_to(y=0, animate=False)
            self.refresh()
        self._layout(self._generation, self._content_width())

    def clear(self) -> None:
        """Show nothing."""
        self.key = ""
        self._builder = None
        self._whole = self._whole_folded = None
        self._wanted = None
        self._generation += 1
        self._lines, self._plain = [], []
        self.matches, self.mentions = [], []
        self.busy = False
        set_scroll_range(self, Size(self._content_width(), 0))
        self.scroll_to(y=0, animate=False)
        self.refresh()

    def _content_width(self) -> int:
        return max(20, (self.scrollable_content_region.width or self.size.width or 80))

    @on(Worker.StateChanged)
    def _layout_failed(self, event: Worker.StateChanged) -> None:
        """The layout failed: stop looking busy; the app tells it and logs it."""
        if event.state is WorkerState.ERROR:
            self.busy = False
        failures.hand_to_app(self, event)

    @work(thread=True, exclusive=True, group="detail-layout", exit_on_error=False)
    def _layout(self, generation: int, width: int) -> None:
        builder = self._builder
        words = self.mention_words
        if builder is None:
            return
        self.app.call_from_thread(self._set_busy, True)
        renderable = builder()
        console = Console(
            file=io.StringIO(),
            width=width,
            color_system="truecolor",
            force_terminal=True,
            markup=False,
            highlight=False,
            emoji=False,
            legacy_windows=False,
        )
        options = console.options.update_width(width)
        lines = console.render_lines(renderable, options, pad=False, new_lines=False)
        worker = get_current_worker()
        if worker.is_cancelled:
            return
        strips = [Strip(visible_segments(Segment.simplify(line))) for line in lines]
        plain = ["".join(seg.text for seg in line) for line in lines]
        mentions = find_mentions(plain, words)  # here, off the UI thread
        self.app.call_from_thread(self._set_lines, generation, width, strips, plain, mentions)

    def _set_busy(self, busy: bool) -> None:
        self.busy = busy

    def _set_lines(
        self,
        generation: int,
        width: int,
        strips: list[Strip],
        plain: list[str],
        mentions: list[Mention],
    ) -> None:
        if generation != self._generation:
            return
        self.busy = False
        self._lines, self._plain, self._width = strips, plain, width
        set_scroll_range(self, Size(width, len(strips)))
        self.mentions, self.mention_index = mentions, -1
        if self.query_text and self._find_pending:
            # a hit being opened: jump to its match (unfolding); a view without it waits
            self._search(self.query_text, jump=True, unfold=True)
            if self.matches or self._jump_pending:
                self._find_pending = False
            self.post_message(self.Searched(self))
        elif self.query_text:
            # laid out again (o, a resize): the match meant stays the current one, in view
            jump, self._jump_pending = self._jump_pending, False
            self._search(self.query_text, jump=jump or self._wanted is not None, unfold=False)
            self.post_message(self.Searched(self))
        self.refresh()

    def on_resize(self, event: events.Resize) -> None:
        width = self._content_width()
        if self._builder is not None and width != self._width:
            self._generation += 1
            self._layout(self._generation, width)

    # -- text ------------------------------------------------------------------------------

    @property
    def text(self) -> str:
        """The shown text, plain."""
        return "\n".join(line.rstrip() for line in self._plain)

    @property
    def line_count(self) -> int:
        """Lines laid out."""
        return len(self._lines)

    # -- search ----------------------------------------------------------------------------

    @property
    def folded(self) -> bool:
        """Some value is shown folded (its fold note is on screen)."""
        return any(FOLD_MARK in line for line in self._plain)

    def search(self, query: str, *, jump: bool = False, unfold: bool = True) -> int:
        """Highlight ``query`` (case-insensitive); returns the number of matches shown.

        Args:
            query: What to find ("" ends the search).
            jump: Scroll to the first match.
            unfold: When nothing shown matches but the whole object holds ``query`` in a
                folded value, post :class:`Unfold` (the pane is drawn again unfolded and
                the search jumps to the match then).
        """
        self._wanted = None  # a search of its own: the first match after the top
        return self._search(query, jump=jump, unfold=unfold)

    def _search(self, query: str, *, jump: bool, unfold: bool) -> int:
        self.query_text = query
        self._find_matches()
        self.match_index = -1
        self.search_note = ""
        wanted = self._wanted if query else None
        exact = False
        if wanted is not None and self.matches:
            self.match_index, exact = best_match(self._plain, self.matches, wanted)
        if (
            wanted is not None
            and not exact
            and unfold
            and self.folded
            and self._in_whole(query, more_than=len(self.matches))
        ):
            # the match meant is in a folded value: drawn again unfolded, it is marked then
            self.search_note = " shown yet: unfolding long values…"
            self._jump_pending = jump
            self.post_message(self.Unfold(self))
        elif query and not self.matches and self._in_whole(query):
            if self.folded and unfold:
                self.search_note = " shown yet: unfolding long values…"
                self._jump_pending = jump
                self.post_message(self.Unfold(self))
            else:
                self.search_note = " in what is shown; the object has it (r: raw, e: $PAGER)"
        elif query and self.folded and self._in_whole(query, more_than=len(self.matches)):
            self.search_note = " shown; folded values may hold more (o unfolds)"
        if jump and self.matches:
            if self.match_index >= 0:
                self._scroll_to_match()
            else:
                self.goto_match(1)
        self.refresh()
        return len(self.matches)

    def find_when_shown(self, query: str, context: MatchContext | None = None) -> None:
        """Mark ``query`` in what is shown next and scroll to it: the match whose text
        around it agrees with ``context`` (a search hit's), else the first; the long values
        unfolded when the match meant is in a folded one (a hit being opened)."""
        self.query_text = query
        self._wanted = context
        self._find_pending = True

    def _in_whole(self, query: str, more_than: int = 0) -> bool:
        """The whole object holds ``query`` (more than ``more_than`` times)."""
        if self._whole is None:
            return False
        if self._whole_folded is None:
            self._whole_folded = self._whole().casefold()
        return self._whole_folded.count(query.casefold()) > more_than

    def _find_matches(self) -> None:
        self.matches = []
        if not self.query_text:
            return
        needle = self.query_text.casefold()
        n = len(needle)
        for y, line in enumerate(self._plain):
            low = line.casefold()
            start = low.find(needle)
            while start >= 0:
                self.matches.append((y, start, start + n))
                start = low.find(needle, start + n)

    def goto_match(self, step: int) -> bool:
        """Scroll to the next (``step`` 1) or previous (-1) match after the view's top."""
        if not self.matches:
            return False
        if self.match_index < 0:
            top = round(self.scroll_offset.y)
            after = [k for k, m in enumerate(self.matches) if m[0] >= top]
            self.match_index = (
                (after[0] if after else 0)
                if step > 0
                else ((after[0] - 1) % len(self.matches) if after else len(self.matches) - 1)
            )
        else:
            self.match_index = (self.match_index + step) % len(self.matches)
        y, start, end = self.matches[self.match_index]
        # the match meant from now on (kept current when the pane is laid out again)
        self._wanted = MatchContext.on_screen(self._plain, y, start, end)
        self._scroll_to_match()
        return True

    def _scroll_to_match(self) -> None:
        """Scroll the current match into view (two lines of context above it)."""
        y = max(0, self.matches[self.match_index][0] - 2)
        self.scroll_to(y=y, animate=False)
        if y > self.max_scroll_y:
            # lines just shown, not laid out yet: the scroll would stop at the old end
            self.call_after_refresh(self.scroll_to, y=y, animate=False)
        self.refresh()

    # -- mentions --------------------------------------------------------------------------

    def action_next_mention(self) -> None:
        self._step_mention(1)

    def action_prev_mention(self) -> None:
        self._step_mention(-1)

    def _step_mention(self, step: int) -> None:
        if not self.mentions:
            self.notify("no source mentions here", timeout=2)
            return
        self.mention_index = (self.mention_index + step) % len(self.mentions)
        y = self.mentions[self.mention_index].line
        top = round(self.scroll_offset.y)
        if not top <= y < top + self.size.height:
            self.scroll_to(y=max(0, y - 2), animate=False)
        self.refresh()

    @property
    def current_mention(self) -> Mention | None:
        """The mention selected with ``[``/``]``, if any."""
        if 0 <= self.mention_index < len(self.mentions):
            return self.mentions[self.mention_index]
        return None

    def follow(self) -> bool:
        """Follow the selected mention; False when none is selected."""
        mention = self.current_mention
        if mention is None:
            return False
        self.post_message(self.FollowMention(self, mention.target))
        return True

    # -- scrolling -------------------------------------------------------------------------

    def action_scroll_down(self) -> None:
        self.scroll_relative(y=1, animate=False)

    def action_scroll_up(self) -> None:
        self.scroll_relative(y=-1, animate=False)

    def action_scroll_home(self) -> None:
        self.scroll_to(y=0, animate=False)

    def action_scroll_end(self) -> None:
        self.scroll_to(y=max(0, len(self._lines) - self.size.height), animate=False)

    def action_page_down(self) -> None:
        self.scroll_relative(y=max(1, self.size.height - 1), animate=False)

    def action_page_up(self) -> None:
        self.scroll_relative(y=-max(1, self.size.height - 1), animate=False)

    # -- line API --------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width or self.size.width
        row = round(self.scroll_offset.y) + y
        base = self.line_style
        if not self._lines:
            if y == 0:
                text = "laying out…" if self.busy else self.empty_text
                return Strip(
                    [Segment(text, self.get_component_rich_style("detail--empty"))]
                ).crop_extend(0, width, base)
            return Strip.blank(width, base)
        if row >= len(self._lines):
            return Strip.blank(width, base)
        strip = self._lines[row]
        spans: list[tuple[int, int, Style]] = []
        if self.matches:
            match_style = self.get_component_rich_style("detail--match")
            current_style = self.get_component_rich_style("detail--current")
            for k, (my, start, end) in enumerate(self.matches):
                if my == row:
                    spans.append(
                        (start, end, current_style if k == self.match_index else match_style)
                    )
        mention = self.current_mention
        if mention is not None and mention.line == row:
            spans.append(
                (mention.start, mention.end, self.get_component_rich_style("detail--current"))
            )
        if spans:
            strip = _highlight(strip, spans)
        return strip.crop_extend(0, width, base).apply_style(base)


def _highlight(strip: Strip, spans: list[tuple[int, int, Style]]) -> Strip:
    """Apply styles to character ranges of a strip (ranges in characters of its text)."""
    # Lines here hold single-width text almost always; map characters to cells simply.
    text = Text()
    for seg in strip:
        text.append(seg.text, seg.style)
    for start, end, style in spans:
        text.stylize(style, start, end)
    return Strip(list(text.render(_CONSOLE, end="")))


_CONSOLE = Console(width=10_000, file=io.StringIO(), force_terminal=True, color_system="truecolor")
