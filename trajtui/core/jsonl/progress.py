"""What a scan reports as it goes: every source's scan (a JSONL file's index, a directory
format's reading) yields :class:`ScanProgress`, which the CLI's progress lines, the TUI's
title and the row pipeline read."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ScanProgress:
    """How far a scan has got.

    Attributes:
        done: Bytes scanned.
        total: Size of the file when the scan started.
        records: Records found so far.
        finished: The scan reached the end of the file.
    """

    done: int
    total: int
    records: int
    finished: bool = False

    @property
    def fraction(self) -> float:
        """Share of the file scanned, 0.0 to 1.0."""
        return 1.0 if self.total <= 0 else min(1.0, self.done / self.total)
