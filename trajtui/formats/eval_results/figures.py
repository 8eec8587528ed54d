"""What eval results add to ``trajtui stats``: accuracy over the samples with a ground
truth, the confusion table of ground truth against verdict, and AUPRC with the verdict's
severity as the score, read from each sample step's :class:`~.samples.Sample`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from trajtui.core.model import Kind, Outcome, Run
from trajtui.core.stats.estimators import AP_METHOD, average_precision
from trajtui.core.stats.facts import RunFacts
from trajtui.core.stats.lines import Line, Rate, Section, num, picks, rate_line, refs
from trajtui.core.stats.parts import FormatFigures
from trajtui.formats.eval_results.samples import Sample

SEVERITY = {
    "low risk": 0,
    "low": 0,
    "high risk": 1,
    "high": 1,
    "critical risk": 2,
    "critical": 2,
}
"""The rank of an eval verdict label (least to most severe): the score ranked for AUPRC."""


@dataclass(frozen=True, slots=True)
class Graded:
    """One sample as the statistics count it: its ground truth and verdict labels (None:
    null or absent) and whether it was graded correct (None: not graded, or failed)."""

    gt: str | None
    verdict: str | None
    correct: bool | None


def _label(value: Any) -> str | None:
    if value is None or isinstance(value, str):
        return value
    return str(value)


def graded(run: Run) -> tuple[Graded, ...]:
    """The run's samples, in order."""
    return tuple(
        Graded(
            _label(step.detail.gt_verdict),
            _label(step.detail.verdict),
            True
            if step.outcome is Outcome.PASS
            else False
            if step.outcome is Outcome.FAIL
            else None,
        )
        for step in run.steps
        if step.kind is Kind.SAMPLE and isinstance(step.detail, Sample)
    )


class EvalFigures(FormatFigures):
    """Eval samples: accuracy, confusion table, AUPRC."""

    key = "eval"
    about = (
        "eval samples",
        "accuracy, confusion table (gt -> verdict), AUPRC (average precision, step-wise) for "
        "gt >= High and gt >= Critical",
    )

    def facts(self, run: Run) -> tuple[Graded, ...] | None:
        return graded(run) or None

    def figures(
        self, runs: Sequence[RunFacts], sections: list[Section], data: dict[str, Any]
    ) -> None:
        members = [r for r in runs if r.part(self.key)]
        if not members:
            return
        samples: list[tuple[RunFacts, Graded]] = [(r, s) for r in members for s in r.part(self.key)]
        with_gt = [(r, s) for r, s in samples if s.correct is not None and s.gt is not None]
        correct = [(r, s) for r, s in with_gt if s.correct]
        sec = Section(
            "eval samples",
            note="accuracy: of the samples with a ground truth; "
            f"AUPRC: {AP_METHOD}; score = the verdict's severity rank",
        )
        acc = Rate(len(correct), len(with_gt))
        sec.lines.append(rate_line("accuracy", acc, "samples", picks(members)))
        table: Counter[tuple[str | None, str | None]] = Counter(
            (s.gt, s.verdict) for _, s in samples
        )
        for (gt, verdict), n in sorted(
            table.items(), key=lambda kv: (str(kv[0][0]), str(kv[0][1]))
        ):
            behind = list(
                dict.fromkeys(r.pick for r, s in samples if (s.gt, s.verdict) == (gt, verdict))
            )
            sec.lines.append(
                Line(
                    f"gt {gt or 'null'} → {verdict or 'null'}",
                    f"{n:,}",
                    "samples",
                    None,
                    tuple(behind),
                )
            )
        auprc: dict[str, Any] = {}
        for name, rank in (("≥ High", 1), ("≥ Critical", 2)):
            ranked = [
                (SEVERITY[s.verdict.casefold()], SEVERITY[s.gt.casefold()] >= rank)
                for _, s in samples
                if s.gt is not None
                and s.verdict is not None
                and s.gt.casefold() in SEVERITY
                and s.verdict.casefold() in SEVERITY
            ]
            positives = sum(1 for _, p in ranked if p)
            ap = average_precision([float(a) for a, _ in ranked], [p for _, p in ranked])
            detail = f"(n={len(ranked):,} samples, {positives:,} positive)"
            sec.lines.append(
                Line(f"AUPRC {name}", "—" if ap is None else num(ap), detail, ap, picks(members))
            )
            auprc[name] = {"value": ap, "n": len(ranked), "positives": positives}
        sections.append(sec)
        data["eval"] = {
            "accuracy": acc.to_json(),
            "confusion": [
                {"gt_verdict": g, "verdict": v, "count": n}
                for (g, v), n in sorted(table.items(), key=str)
            ],
            "auprc": auprc,
            "auprc_method": AP_METHOD,
            "refs": refs(members),
        }


FIGURES = EvalFigures()
"""The eval results format's figures (``Format.figures`` names it)."""
