"""The pieces every figure is made of: a :class:`Rate` with its counts, a labelled
:class:`Line` with the runs behind it, a titled :class:`Section`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from trajtui.core.stats.estimators import WILSON, Interval, T
from trajtui.core.stats.facts import RunFacts
from trajtui.core.units import share

Pick = tuple[int, int]
"""A run: ``(source index, entry index)`` in the workspace."""


@dataclass(frozen=True, slots=True)
class Rate:
    """A share with its counts: ``num`` of ``den``."""

    num: int
    den: int

    @property
    def value(self) -> float | None:
        """``num / den``; None when ``den`` is 0."""
        return self.num / self.den if self.den else None

    def to_json(self) -> dict[str, Any]:
        """``{"value", "num", "den"}``."""
        return {"value": self.value, "num": self.num, "den": self.den}


@dataclass(frozen=True, slots=True)
class Line:
    """One labelled figure.

    Attributes:
        label: What it is (``pass``, ``pass@3``, ``Bash``).
        value: The figure, short (``0.900``, ``12``): what groups show side by side.
        detail: Its counts and method (``(27/30 trials)``).
        share: A share between 0 and 1 to draw as a bar, or None.
        picks: The runs behind it.
    """

    label: str
    value: str
    detail: str = ""
    share: float | None = None
    picks: tuple[Pick, ...] = ()
    counts: str = ""
    """The counts in short (``27/30``), shown beside ``value`` when groups are side by side."""


@dataclass(slots=True)
class Section:
    """A titled list of lines (``outcomes``, ``trials``...), with a note on method."""

    title: str
    lines: list[Line] = field(default_factory=list)
    note: str = ""


def num(x: float) -> str:
    return f"{x:.3f}"


def rate_line(label: str, rate: Rate, what: str, picks: Sequence[Pick]) -> Line:
    """A share with its counts: ``40.0%  (2/5 runs)`` (spelled as the run list's title
    spells shares)."""
    value = rate.value
    return Line(
        label,
        share(value),
        f"({rate.num:,}/{rate.den:,} {what})",
        value,
        tuple(picks),
        f"{rate.num:,}/{rate.den:,}",
    )


INTERVAL_NOTE = (
    f"95% CI: {WILSON} (Wilson score interval at the effective n, t quantile) for scores "
    f"within [0, 1], never leaving them; else {T} (n-1 df)"
)
"""How the intervals of means are made, for a section's note."""


def interval_text(iv: Interval, what: str = "") -> str:
    """``95% CI [0.125, 0.955]  (wilson, n=5)``: the interval, its method and n (``what``
    the values are: ``runs``)."""
    n = f"n={iv.n:,}" + (f" {what}" if what else "")
    if iv.low is None or iv.high is None:
        return f"({n}; no interval from one value)"
    return f"95% CI [{num(iv.low)}, {num(iv.high)}]  ({iv.method}, {n})"


def interval_json(iv: Interval) -> dict[str, Any]:
    """``{"mean", "ci95": [low, high], "interval": method, "n"}``."""
    return {"mean": iv.mean, "ci95": [iv.low, iv.high], "interval": iv.method, "n": iv.n}


def refs(runs: Sequence[RunFacts]) -> list[str]:
    return [r.ref for r in runs]


def picks(runs: Sequence[RunFacts]) -> tuple[Pick, ...]:
    return tuple(r.pick for r in runs)
