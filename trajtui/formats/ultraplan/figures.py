"""What ultraplan plans add to ``trajtui stats``: their result files by validity (the
protocol's VALID, VALID_WITH_WARNINGS, INVALID: each result step's :class:`~.verdict.Judgement`)
and the share of results that succeeded."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trajtui.core.model import Outcome, Run
from trajtui.core.stats.facts import RunFacts
from trajtui.core.stats.lines import Rate, Section, picks, rate_line, refs
from trajtui.core.stats.parts import FormatFigures
from trajtui.formats.ultraplan.verdict import Judgement, Verdict

Results = tuple[tuple[Verdict, Outcome], ...]
"""Each result of a plan: its validation verdict and its outcome (success: pass)."""


class UltraplanFigures(FormatFigures):
    """ultraplan results: validity and task success."""

    key = "ultraplan"
    about = (
        "ultraplan",
        "results by validity (VALID, VALID_WITH_WARNINGS, INVALID) and task success",
    )

    def facts(self, run: Run) -> Results | None:
        return (
            tuple(
                (s.detail.verdict, s.outcome) for s in run.steps if isinstance(s.detail, Judgement)
            )
            or None
        )

    def figures(
        self, runs: Sequence[RunFacts], sections: list[Section], data: dict[str, Any]
    ) -> None:
        results: list[tuple[RunFacts, Results]] = [
            (r, found) for r in runs if (found := r.part(self.key))
        ]
        if not results:
            return
        total = sum(len(found) for _, found in results)
        sec = Section("ultraplan results", note="every result file, retries included")
        out: dict[str, Any] = {}
        for verdict in Verdict:
            n = sum(1 for _, found in results for v, _ in found if v is verdict)
            behind = [r for r, found in results if any(v is verdict for v, _ in found)]
            rate = Rate(n, total)
            sec.lines.append(rate_line(verdict.value, rate, "results", picks(behind)))
            out[verdict.value] = {**rate.to_json(), "refs": refs(behind)}
        ok = sum(1 for _, found in results for _, o in found if o is Outcome.PASS)
        rate = Rate(ok, total)
        succeeded = [r for r, found in results if any(o is Outcome.PASS for _, o in found)]
        sec.lines.append(rate_line("task success", rate, "results", picks(succeeded)))
        sections.append(sec)
        data["ultraplan"] = {
            "validity": out,
            "success": {**rate.to_json(), "refs": refs(succeeded)},
        }


FIGURES = UltraplanFigures()
"""The ultraplan format's figures (``Format.figures`` names it)."""
