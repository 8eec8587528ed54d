"""The pieces every figure is made of: a :class:`Rate` with its counts, a labelled
:class:`Line` with the runs behind it, a titled :class:`Section`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from trajtui.core.stats.facts import RunFacts

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
    value = rate.value
    return Line(
        label,
        "—" if value is None else num(value),
        f"({rate.num:,}/{rate.den:,} {what})",
        value,
        tuple(picks),
        f"{rate.num:,}/{rate.den:,}",
    )


def refs(runs: Sequence[RunFacts]) -> list[str]:
    return [r.ref for r in runs]


def picks(runs: Sequence[RunFacts]) -> tuple[Pick, ...]:
    return tuple(r.pick for r in runs)
