"""Text from the data, handed to Textual so that it is shown as it is and nothing more.

Textual reads a plain ``str`` as content markup wherever it takes one (border titles,
``Static.update``, notifications): a run id ``x[/bold]`` would end the app with a
``MarkupError`` and ``[@click=app.quit]`` would become a link that runs an action. And
Textual writes text to the terminal as it is: an ``ESC ] 0;`` in a directory name would set
the window title, ``ESC ] 52;`` write the clipboard. So every string that may hold data goes
through one of these:

* :func:`literal` for titles, labels and headers (``str`` or ``rich.text.Text``): a
  :class:`~textual.content.Content` that is never parsed, with every control character made
  visible (:func:`~trajtui.core.io.text.visible`);
* :func:`~trajtui.render.safe.visible_segments` for widgets that draw lines themselves (the
  lists and the detail pane): a last check on what reaches the terminal, whatever the
  renderable was built from.

Notifications go through :meth:`trajtui.ui.app.TrajtuiApp.notify`, which never parses markup.
Every text box is a :class:`SafeInput`: its value may be a path or something pasted (a
reference copied with ``Y``), drawn made visible while the value stays as it is.
"""

from __future__ import annotations

from itertools import pairwise

from rich.text import Text
from textual.content import Content
from textual.strip import Strip
from textual.widgets import Input

from trajtui.core.io.text import visible
from trajtui.render.safe import visible_segments

__all__ = ["SafeInput", "literal", "safe_text", "visible_segments"]


def safe_text(text: Text, *, lines: bool = False) -> Text:
    """``text`` with every control, bidi or invisible character made visible, styles kept
    (``lines``: its line breaks kept, else shown as ``⏎``)."""
    plain = text.plain
    if visible(plain, keep_newlines=lines) == plain:
        return text
    cuts = sorted({0, len(plain), *(s.start for s in text.spans), *(s.end for s in text.spans)})
    out = text.blank_copy()
    for start, end in pairwise(cuts):
        piece = Text(visible(plain[start:end], keep_newlines=lines))
        for span in text.spans:
            if span.start <= start and end <= span.end:
                piece.stylize(span.style)
        out.append_text(piece)
    return out


def literal(text: str | Text, *, lines: bool = False) -> Content:
    """Content that shows ``text`` literally: no markup, no terminal controls, one line
    (``lines``: its line breaks kept)."""
    if isinstance(text, Text):
        return Content.from_rich_text(safe_text(text, lines=lines))
    return Content(visible(text, keep_newlines=lines))


class SafeInput(Input):
    """A text box whose value is drawn with every control, bidi or invisible character made
    visible (the value itself is kept as it is: a path names the real file)."""

    def render_line(self, y: int) -> Strip:
        strip = super().render_line(y)
        segments = list(strip)
        safe = visible_segments(segments)
        if safe == segments:
            return strip
        width = strip.cell_length
        return Strip(safe).crop(0, width).extend_cell_length(width)
