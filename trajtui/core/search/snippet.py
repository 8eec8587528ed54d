"""One line of context around a match, made safe to print."""

from __future__ import annotations

from dataclasses import dataclass

from trajtui.core.io.text import visible

WIDTH = 120
"""Characters of a snippet (about: a stand-in for an invisible character is longer)."""
BEFORE = 40
"""Characters of context before the match, at most."""


@dataclass(frozen=True, slots=True)
class Snippet:
    """A match in one line of its text.

    Attributes:
        text: The line: line breaks shown as ``⏎``, tabs as spaces, every control or
            invisible character as a visible stand-in; ``…`` where the text was cut.
        start: Where the match starts in ``text``.
        end: Where it ends.
    """

    text: str
    start: int
    end: int

    @property
    def match(self) -> str:
        """The match as shown."""
        return self.text[self.start : self.end]


def _show(text: str) -> str:
    return visible(text, keep_newlines=False, tab=" ")


def snippet(text: str, start: int, end: int, width: int = WIDTH) -> Snippet:
    """The snippet of the match ``text[start:end]``: up to :data:`BEFORE` characters before
    it (from the start of its line when that is near), the match (cut when longer than the
    line), and what follows, about ``width`` characters in all.

    Args:
        text: The field's text.
        start: Start of the match in ``text``.
        end: End of the match.
        width: Characters of the line.
    """
    line_start = text.rfind("\n", max(0, start - BEFORE), start) + 1
    lo = max(line_start, start - BEFORE)
    while lo < start and text[lo] in " \t":
        lo += 1
    before = _show(text[lo:start])
    lead = "…" if lo > 0 else ""
    match = _show(text[start : min(end, start + width)])
    if len(match) > width - len(before) - len(lead):
        match = match[: max(1, width - len(before) - len(lead) - 1)] + "…"
        return Snippet(lead + before + match, len(lead) + len(before), len(lead + before + match))
    room = width - len(lead) - len(before) - len(match)
    after_raw = text[end : end + room + 1]
    after = _show(after_raw)
    tail = ""
    if len(after) > room or end + len(after_raw) < len(text):
        after = after[: max(0, room - 1)]
        tail = "…"
    line = lead + before + match + after + tail
    return Snippet(line, len(lead) + len(before), len(lead) + len(before) + len(match))
