"""What a format adds to the statistics: :class:`FormatFigures`.

The common figures (outcomes, scores, trials, attempts, durations, tool calls) are read
from the neutral model for every run. A kind of data only some formats have (eval samples
with a ground truth, forecasts' Brier scores, ultraplan results' validity) is counted by the
format that has it: its package names a :class:`FormatFigures` (``Format.figures``), and the
statistics are given every format's (``collect(..., parts=...)``, ``grouped(..., parts)``),
so nothing here names a format.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from trajtui.core.model import Run

if TYPE_CHECKING:
    from trajtui.core.stats.facts import RunFacts
    from trajtui.core.stats.lines import Section


class FormatFigures:
    """The figures of one kind of data, counted beside the common ones.

    Attributes:
        key: Its name: where its facts of a run are kept (:meth:`RunFacts.part`) and, by
            convention, its object in the JSON figures (``eval``, ``forecast``).
        about: Its line in ``trajtui stats --help``: what it is called there and what it
            counts.
    """

    key: str = ""
    about: tuple[str, str] = ("", "")

    def facts(self, run: Run) -> Any:
        """What it counts of one whole run, typed and small (kept for every run counted);
        None when the run has none of its data (runs of other formats included)."""
        return None

    def figures(
        self, runs: Sequence[RunFacts], sections: list[Section], data: dict[str, Any]
    ) -> None:
        """Append its sections over ``runs`` to ``sections`` and its JSON to ``data``;
        nothing when no run has its data."""


Parts = Sequence[FormatFigures]
"""The figures every format adds, in the registry's order."""
