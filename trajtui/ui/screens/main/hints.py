"""What the filter boxes say under them when a query does not parse: the problem underlined,
then the message."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Input

from trajtui.core.io.text import visible
from trajtui.core.query import QueryError


def room(box: Input) -> int:
    """Characters a line of ``box`` (and of the hint under it) holds."""
    return max(20, box.content_region.width or box.size.width - 2)


def fits(box: Input, text: str) -> bool:
    """The whole of ``text`` shows in ``box`` (so carets can go right under it)."""
    return len(text) < room(box)


def error_lines(
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
