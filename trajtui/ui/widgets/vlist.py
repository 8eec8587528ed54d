"""A virtual list with a cursor, drawn through Textual's line API.

Rows are never widgets: :meth:`VirtualList.render_row` draws the visible ones on demand
and the strips are kept in a small LRU cache, so 100,000 rows scroll as smoothly as ten
(the approach of Textual's own ``Log`` widget). Subclasses say how many rows there are,
how each looks, and what text a search looks at.

Keys (when the list has focus):

| Key | Action |
| --- | --- |
| `j` / `down` | next row |
| `k` / `up` | previous row |
| `g` / `home` | first row |
| `G` / `end` | last row |
| `ctrl+d` / `pagedown` / `space` | a page down |
| `ctrl+u` / `pageup` | a page up |
| `enter` / `l` | select (drill in) |

The mouse selects a row with a click and drills in with a double click; the wheel scrolls.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.cache import LRUCache
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widget import Widget

from trajtui.core.io.text import visible
from trajtui.ui import textual_private
from trajtui.ui.commands import widget_bindings
from trajtui.ui.literal import visible_segments


def set_scroll_range(view: ScrollView, size: Size) -> None:
    """Give ``view`` a new scrollable size without laying out the whole screen.

    ``virtual_size`` is a layout reactive: set it and Textual arranges every widget on the
    screen again, which took 30-150 ms a frame with a big run shown while rows load, and
    was done on every key that moved to another run and every time loaded rows grew the
    list. A new row count only moves the scrollbar's thumb; showing or hiding the
    scrollbar (a layout reactive of its own) still lays out, as Textual does when a
    widget's size changes (see :func:`~trajtui.ui.textual_private.scroll_update`).
    """
    if size == view.virtual_size:
        return
    view.set_reactive(Widget.virtual_size, size)
    textual_private.scroll_update(view, size)
    view.refresh()


class LineView(ScrollView):
    """A scroll view drawn a line at a time, whose lines share one base style a frame.

    Textual works a widget's ``rich_style`` out from the styles of every ancestor each time
    it is asked (0.1-0.2 ms); asked once a line, that was a tenth of drawing a frame.
    """

    _frame_style: Style | None = None

    def render_lines(self, crop: Region) -> list[Strip]:
        self._frame_style = self.rich_style
        try:
            return super().render_lines(crop)
        finally:
            self._frame_style = None

    @property
    def line_style(self) -> Style:
        """The widget's base style (the frame's, while one is drawn)."""
        style = self._frame_style
        return self.rich_style if style is None else style


class VirtualList(LineView, can_focus=True):
    """A scrollable list of rows drawn on demand, with a cursor row."""

    BINDINGS = widget_bindings(
        {
            "cursor_down": "cursor_down",
            "cursor_up": "cursor_up",
            "first": "first",
            "last": "last",
            "page_down": "page_down",
            "page_up": "page_up",
        }
    )

    COMPONENT_CLASSES = {"vlist--cursor", "vlist--cursor-blur", "vlist--match", "vlist--empty"}

    DEFAULT_CSS = """
    VirtualList {
        background: $surface;
        overflow-x: hidden;
        overflow-y: auto;
        scrollbar-size-vertical: 1;
        & > .vlist--cursor { background: $block-cursor-background; color: $block-cursor-foreground; text-style: bold; }
        & > .vlist--cursor-blur { background: $block-cursor-blurred-background; }
        & > .vlist--match { background: $warning 30%; }
        & > .vlist--empty { color: $text-muted; text-style: italic; }
    }
    """

    cursor: reactive[int] = reactive(0, always_update=True, init=False)
    """Index of the row under the cursor."""

    @dataclass
    class Highlighted(Message):
        """The cursor moved to another row."""

        vlist: VirtualList
        index: int

        @property
        def control(self) -> VirtualList:
            return self.vlist

    @dataclass
    class Selected(Message):
        """A row was chosen (enter, `l`, double click)."""

        vlist: VirtualList
        index: int

        @property
        def control(self) -> VirtualList:
            return self.vlist

    def __init__(
        self, *, name: str | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._cache: LRUCache[tuple[int, int, bool, bool, int], Strip] = LRUCache(512)
        self._generation = 0
        self.empty_text = "nothing here"
        self.search_query = ""
        self._scroll_pending = False

    # -- for subclasses ------------------------------------------------------------------

    @property
    def row_count(self) -> int:
        """Number of rows."""
        return 0

    def render_row(self, index: int, width: int) -> Text:
        """The text of row ``index`` (styles allowed, no markup)."""
        return Text(str(index))

    def row_text(self, index: int) -> str:
        """Plain text a search looks at for row ``index``."""
        return self.render_row(index, 1000).plain

    def cstyle(self, component: str) -> Style:
        """A component class's colour and text style, without its background, for spans
        (so a row's cursor or match background shows through)."""
        full = self.get_component_rich_style(component)
        return Style(
            color=full.color,
            bold=full.bold,
            italic=full.italic,
            underline=full.underline,
            strike=full.strike,
        )

    def notify_style_update(self) -> None:
        """The theme or CSS changed: drawn rows are stale."""
        super().notify_style_update()
        self._cache.clear()

    # -- data changes ----------------------------------------------------------------------

    def forget_rows(self) -> None:
        """Rows may look different: each is made afresh the next time it is drawn (those
        on screen stay as they are until something draws them)."""
        self._generation += 1
        self._cache.clear()

    def reset(self, cursor: int | None = 0) -> None:
        """The rows changed: redraw everything (and optionally move the cursor)."""
        self.forget_rows()
        set_scroll_range(self, Size(self.size.width, self.row_count))
        if cursor is not None:
            self.set_cursor(cursor, post=True)
        self.refresh()

    def grow(self) -> None:
        """Rows were appended: extend the scroll range, keep the cursor."""
        set_scroll_range(self, Size(self.size.width, self.row_count))
        self.refresh()

    def redraw(self) -> None:
        """Rows look different (same count)."""
        self.forget_rows()
        self.refresh()

    # -- cursor ----------------------------------------------------------------------------

    def set_cursor(self, index: int, *, post: bool = True, center: bool = False) -> None:
        """Move the cursor to ``index`` (clamped) and scroll it into view."""
        count = self.row_count
        index = max(0, min(index, count - 1)) if count else 0
        old = self.cursor
        self.set_reactive(VirtualList.cursor, index)
        self._refresh_row(old)
        self._refresh_row(index)
        self._scroll_to_cursor(center=center)
        if post and count:
            self.post_message(self.Highlighted(self, index))

    def watch_cursor(self, old: int, new: int) -> None:
        self._refresh_row(old)
        self._refresh_row(new)
        self._scroll_to_cursor()
        if self.row_count:
            self.post_message(self.Highlighted(self, new))

    def _refresh_row(self, index: int) -> None:
        y = index - round(self.scroll_offset.y)
        if 0 <= y < self.size.height:
            self.refresh_line(y)

    def _scroll_to_cursor(self, center: bool = False, *, again: bool = True) -> None:
        """Scroll so the cursor row is on screen (``center``: in the middle).

        A list whose rows just changed, or that is hidden (a narrow terminal shows one pane
        at a time), cannot scroll yet: it tries again after the next refresh, and whenever
        its size changes (see :meth:`on_resize`), until the cursor row is on screen.
        """
        height = self.scrollable_content_region.height or self.size.height
        if height > 0:
            top = round(self.scroll_offset.y)
            if center:
                self.scroll_to(y=max(0, self.cursor - height // 2), animate=False)
            elif self.cursor < top:
                self.scroll_to(y=self.cursor, animate=False)
            elif self.cursor >= top + height:
                self.scroll_to(y=self.cursor - height + 1, animate=False)
        if self.cursor_on_screen():
            self._scroll_pending = False
        elif again:
            self._scroll_pending = True
            self.call_after_refresh(self._scroll_to_cursor, center, again=False)

    def cursor_on_screen(self) -> bool:
        """The cursor row is within the visible rows."""
        height = self.scrollable_content_region.height or self.size.height
        top = round(self.scroll_offset.y)
        return height > 0 and top <= self.cursor < top + height

    def action_cursor_down(self) -> None:
        self.set_cursor(self.cursor + 1)

    def action_cursor_up(self) -> None:
        self.set_cursor(self.cursor - 1)

    def action_first(self) -> None:
        self.set_cursor(0)

    def action_last(self) -> None:
        self.set_cursor(self.row_count - 1)

    def action_page_down(self) -> None:
        self.set_cursor(self.cursor + max(1, self.size.height - 1))

    def action_page_up(self) -> None:
        self.set_cursor(self.cursor - max(1, self.size.height - 1))

    def select(self) -> None:
        """Choose the row under the cursor."""
        if self.row_count:
            self.post_message(self.Selected(self, self.cursor))

    # -- search ----------------------------------------------------------------------------

    def find(self, query: str, start: int, step: int) -> int | None:
        """The next row (from ``start``, going ``step`` = 1 or -1, wrapping) whose text
        contains ``query`` (case-insensitive)."""
        count = self.row_count
        if not query or not count:
            return None
        needle = query.casefold()
        for k in range(count):
            i = (start + step * k) % count
            if needle in self.row_text(i).casefold():
                return i
        return None

    def count(self, query: str, budget: float = 0.05) -> tuple[int, bool]:
        """Rows whose text contains ``query``: ``(count, complete)``; counting stops after
        ``budget`` seconds (``complete`` is then False and the count a lower bound)."""
        count = self.row_count
        if not query or not count:
            return 0, True
        needle = query.casefold()
        deadline = time.monotonic() + budget
        found = 0
        for i in range(count):
            if needle in self.row_text(i).casefold():
                found += 1
            if i % 256 == 255 and time.monotonic() > deadline:
                return found, False
        return found, True

    # -- mouse -----------------------------------------------------------------------------

    async def _on_click(self, event: events.Click) -> None:
        row = event.y + round(self.scroll_offset.y)
        if 0 <= row < self.row_count:
            event.stop()
            self.focus()
            if event.chain >= 2 and row == self.cursor:
                self.select()
            else:
                self.set_cursor(row)

    # -- line API --------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width or self.size.width
        row = round(self.scroll_offset.y) + y
        count = self.row_count
        base = self.line_style
        if row >= count:
            if count == 0:
                return self._empty_line(y, width)
            return Strip.blank(width, base)
        selected = row == self.cursor
        key = (row, width, selected, self.has_focus, self._generation)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        try:
            text = self.render_row(row, width)
        except Exception as err:  # a row the data makes undrawable must not end the app
            text = Text(
                visible(
                    f" ⚠ cannot draw this row: {type(err).__name__}: {err}"[:200],
                    keep_newlines=False,
                )
            )
        text.no_wrap = True
        text.overflow = "ellipsis"
        if text.cell_len > width:  # a row wider than the pane ends with an ellipsis
            text.rstrip_end(width)
            text.truncate(width, overflow="ellipsis")
        if self.search_query and self.search_query.casefold() in text.plain.casefold():
            text.highlight_words(
                [self.search_query],
                self.get_component_rich_style("vlist--match"),
                case_sensitive=False,
            )
        segments = visible_segments(text.render(self.app.console, end=""))
        if selected:  # the cursor's background runs the whole width of the row
            cursor = self.get_component_rich_style(
                "vlist--cursor" if self.has_focus else "vlist--cursor-blur"
            )
            strip = Strip(segments).apply_style(cursor).crop_extend(0, width, base + cursor)
        else:
            strip = Strip(segments).crop_extend(0, width, base)
        strip = strip.apply_style(base)
        self._cache[key] = strip
        return strip

    def empty_message(self) -> str:
        """What the list says when it has no rows."""
        return self.empty_text

    def _empty_line(self, y: int, width: int) -> Strip:
        """Line ``y`` of the empty message, wrapped to the width."""
        base = self.line_style
        message = self.empty_message()
        if not message:
            return Strip.blank(width, base)
        lines = Text(message).wrap(self.app.console, max(1, width - 1))
        if y >= len(lines):
            return Strip.blank(width, base)
        style = self.get_component_rich_style("vlist--empty")
        segments = visible_segments([Segment(" " + lines[y].plain.rstrip(), style)])
        return Strip(segments).crop_extend(0, width, base)

    def on_resize(self, event: events.Resize) -> None:
        self._cache.clear()
        self.virtual_size = Size(event.size.width, self.row_count)
        if self._scroll_pending and self.row_count:
            self.call_after_refresh(self._scroll_to_pending)

    def _scroll_to_pending(self) -> None:
        if self.cursor_on_screen():
            self._scroll_pending = False
        else:
            self._scroll_to_cursor(center=True, again=False)

    def on_focus(self) -> None:
        self._refresh_row(self.cursor)

    def on_blur(self) -> None:
        self._refresh_row(self.cursor)
