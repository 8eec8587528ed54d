"""Confusion tables: samples counted by (ground truth, verdict), labels in severity order."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from trajtui.core.io.jsonutil import dumps_line

VERDICT_ORDER = ("Low Risk", "Low", "High Risk", "High", "Critical Risk", "Critical")
"""Known verdicts, least to most severe: the order of a confusion table's labels."""


def label_of(value: Any) -> str | None:
    if value is None or isinstance(value, str):
        return value
    return dumps_line(value)


def _label_key(label: str | None) -> tuple[int, int, str]:
    if label is None:
        return (2, 0, "")
    if label in VERDICT_ORDER:
        return (0, VERDICT_ORDER.index(label), label)
    return (1, 0, label)


@dataclass(frozen=True, slots=True)
class Confusion:
    """Counts of samples by (ground truth, verdict); null is a category of its own.

    Attributes:
        counts: ``((gt_verdict, verdict), count)`` pairs, in label order.
        gt_labels: Ground-truth labels seen (known verdicts by severity, then others
            alphabetically, then None).
        verdict_labels: Verdicts seen, in the same order.
    """

    counts: tuple[tuple[tuple[str | None, str | None], int], ...]
    gt_labels: tuple[str | None, ...]
    verdict_labels: tuple[str | None, ...]

    def count(self, gt_verdict: str | None, verdict: str | None) -> int:
        """Samples whose ground truth is ``gt_verdict`` and verdict ``verdict``."""
        for key, n in self.counts:
            if key == (gt_verdict, verdict):
                return n
        return 0

    @property
    def total(self) -> int:
        """Samples counted."""
        return sum(n for _, n in self.counts)

    def rows(self) -> list[dict[str, Any]]:
        """The table as JSON-able rows ``{gt_verdict, verdict, count}``."""
        return [{"gt_verdict": g, "verdict": v, "count": n} for (g, v), n in self.counts]


def confusion_of(pairs: Iterable[tuple[Any, Any]]) -> Confusion:
    """The confusion table of ``(gt_verdict, verdict)`` pairs (values as in the file;
    non-text values are counted by their JSON text)."""
    return confusion_of_counts(Counter((label_of(g), label_of(v)) for g, v in pairs))


def confusion_of_counts(tally: Mapping[tuple[str | None, str | None], int]) -> Confusion:
    gts = tuple(sorted({g for g, _ in tally}, key=_label_key))
    verdicts = tuple(sorted({v for _, v in tally}, key=_label_key))
    ordered = sorted(tally.items(), key=lambda kv: (_label_key(kv[0][0]), _label_key(kv[0][1])))
    return Confusion(tuple(ordered), gts, verdicts)


CONFUSION = "confusion (gt_verdict, verdict, count)"
"""Label of a run's confusion table field."""
