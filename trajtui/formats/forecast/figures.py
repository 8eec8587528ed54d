"""What forecast runs add to ``trajtui stats``: the mean Brier score of the runs that have
one, with its 95% interval (read from the run-list row: the score labelled ``brier``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trajtui.core.stats.estimators import score_interval
from trajtui.core.stats.facts import RunFacts
from trajtui.core.stats.lines import (
    INTERVAL_NOTE,
    Line,
    Section,
    interval_json,
    interval_text,
    num,
    picks,
    refs,
)
from trajtui.core.stats.parts import FormatFigures


class ForecastFigures(FormatFigures):
    """Forecasts: the mean Brier score."""

    key = "forecast"
    about = ("forecasts", "mean Brier score, 95% interval (as for scores)")

    def figures(
        self, runs: Sequence[RunFacts], sections: list[Section], data: dict[str, Any]
    ) -> None:
        members = [
            r for r in runs if r.summary.score_label == "brier" and r.summary.score is not None
        ]
        if not members:
            return
        iv = score_interval([r.summary.score for r in members if r.summary.score is not None])
        assert iv is not None
        sections.append(
            Section(
                "forecasts",
                [Line("mean Brier", num(iv.mean), interval_text(iv, "runs"), None, picks(members))],
                note=f"lower is better; {INTERVAL_NOTE}",
            )
        )
        data["forecast"] = {
            "mean_brier": iv.mean,
            **{k: v for k, v in interval_json(iv).items() if k != "mean"},
            "refs": refs(members),
        }


FIGURES = ForecastFigures()
"""The forecast format's figures (``Format.figures`` names it)."""
