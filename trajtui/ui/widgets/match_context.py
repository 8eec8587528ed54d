"""Which of the detail's matches is the one meant: told by the text around it.

A search hit (``ctrl+g``) names a match in a field's text; the detail pane shows the object
laid out (wrapped, indented, a title repeating the text's start, long values folded), where
the same words may appear several times. The hit's snippet holds the text around its match:
the match on screen whose surroundings agree with it best is the hit's, and one that agrees
fully is the hit itself. The same context keeps the current match when the pane is laid out
again (``o`` unfolds or folds, a resize).

Text is compared without whitespace (wrapping and indenting change it) and without case.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

REACH = 40
"""Characters of context compared on each side of a match."""
LINES = 4
"""Lines looked at on each side of a match for its context."""


def _norm(text: str) -> str:
    return "".join(text.split()).casefold()


@dataclass(frozen=True, slots=True)
class MatchContext:
    """The text before and after a match, without whitespace, in lower case."""

    before: str
    after: str

    @classmethod
    def of_snippet(cls, text: str, start: int, end: int) -> MatchContext:
        """The context a search hit's snippet gives (its ``…`` cuts and ``⏎`` dropped)."""
        before = text[:start].lstrip("…").replace("⏎", " ")
        after = text[end:].rstrip("…").replace("⏎", " ")
        return cls(_norm(before)[-REACH:], _norm(after)[:REACH])

    @classmethod
    def on_screen(cls, lines: Sequence[str], y: int, start: int, end: int) -> MatchContext:
        """The context of the match ``lines[y][start:end]``."""
        before = "".join(lines[max(0, y - LINES) : y]) + lines[y][:start]
        after = lines[y][end:] + "".join(lines[y + 1 : y + 1 + LINES])
        return cls(_norm(before)[-REACH:], _norm(after)[:REACH])

    def agreement(self, other: MatchContext) -> int:
        """Characters of context the two have in common next to the match."""
        n = 0
        for a, b in zip(reversed(self.before), reversed(other.before), strict=False):
            if a != b:
                break
            n += 1
        for a, b in zip(self.after, other.after, strict=False):
            if a != b:
                break
            n += 1
        return n

    @property
    def size(self) -> int:
        return len(self.before) + len(self.after)


def best_match(
    lines: Sequence[str], matches: Sequence[tuple[int, int, int]], wanted: MatchContext
) -> tuple[int, bool]:
    """The index of the match in ``matches`` (``(line, start, end)``) whose context agrees
    best with ``wanted`` (the first of equals), and whether it agrees fully."""
    best, score = 0, -1
    for k, (y, start, end) in enumerate(matches):
        found = MatchContext.on_screen(lines, y, start, end).agreement(wanted)
        if found > score:
            best, score = k, found
    return best, score >= wanted.size
