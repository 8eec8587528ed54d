"""The blank lines of a JSONL file, noted while it is indexed, and each record's line number.

A file's blank lines are kept as runs (``first``, ``last`` line numbers): a count and at most
:data:`MAX_BLANK_RANGES` runs listed one by one, so a file of a million blank lines costs
little. A record's line number is its index plus the blank lines before it, found in two
arrays that change only where the count of blank lines does.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from dataclasses import dataclass

MAX_BLANK_RANGES = 1000
"""Runs of blank lines listed one by one; the rest are counted."""


@dataclass(frozen=True, slots=True)
class BlankLines:
    """The blank lines of a file.

    Attributes:
        total: How many.
        ranges: ``(first, last)`` line numbers of runs of blank lines, in order (at most
            :data:`MAX_BLANK_RANGES`).
        unlisted: Blank lines after the listed ranges.
        unlisted_from: Line of the first of those.
    """

    total: int
    ranges: tuple[tuple[int, int], ...]
    unlisted: int = 0
    unlisted_from: int = 0


class BlankRuns:
    """The blank lines a scan has met so far.

    :class:`~trajtui.core.jsonl.index.LineIndex`'s hot loop reads and writes ``total``, ``first``,
    ``last``, ``gap_at`` and ``gap_blanks`` directly (copied to locals for each chunk);
    everything else goes through the methods.

    Attributes:
        total: Blank lines so far.
        first: First line of the open run of blank lines.
        last: Last line of the open run (``last < first``: no run is open).
        gap_at: Record index where the count of blank lines before it changes.
        gap_blanks: Blank lines before that record.
    """

    __slots__ = (
        "_ranges",
        "_unlisted",
        "_unlisted_from",
        "first",
        "gap_at",
        "gap_blanks",
        "last",
        "total",
    )

    def __init__(self) -> None:
        self.gap_at = array("Q")
        self.gap_blanks = array("Q")
        self.total = 0
        self._ranges: list[tuple[int, int]] = []  # closed runs of blank lines
        self.first, self.last = 0, -1
        self._unlisted = 0
        self._unlisted_from = 0

    def note(self, line: int) -> None:
        """Note blank line ``line`` (outside the hot loop)."""
        self.total += 1
        if line == self.last + 1:
            self.last = line
        else:
            self.close(self.first, self.last)
            self.first = self.last = line

    def close(self, first: int, last: int) -> None:
        """Keep the run of blank lines ``first`` to ``last`` (nothing when ``last < first``)."""
        if last < first:
            return
        if len(self._ranges) < MAX_BLANK_RANGES:
            self._ranges.append((first, last))
        else:
            if not self._unlisted:
                self._unlisted_from = first
            self._unlisted += last - first + 1

    def mark(self, record: int) -> None:
        """Record ``record`` comes next: note how many blank lines are before it, when that
        changed since the last record."""
        if self.total != (self.gap_blanks[-1] if self.gap_blanks else 0):
            self.gap_at.append(record)
            self.gap_blanks.append(self.total)

    def line_of(self, record: int) -> int:
        """1-based line number of record ``record``."""
        k = bisect_right(self.gap_at, record) - 1
        return record + 1 + (self.gap_blanks[k] if k >= 0 else 0)

    def lines(self) -> BlankLines:
        """The blank lines found so far."""
        ranges = list(self._ranges)
        unlisted, since = self._unlisted, self._unlisted_from
        first, last = self.first, self.last
        if last >= first:
            if len(ranges) < MAX_BLANK_RANGES:
                ranges.append((first, last))
            else:
                unlisted += last - first + 1
                since = since or first
        return BlankLines(self.total, tuple(ranges), unlisted, since)

    def nbytes(self) -> int:
        """Memory held by the arrays of line numbers."""
        return sum(a.itemsize * len(a) for a in (self.gap_at, self.gap_blanks))
