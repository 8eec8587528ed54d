"""Figures of one format's kind of data, read from the neutral model: eval samples
(accuracy, confusion table, AUPRC), forecasts (mean Brier score), ultraplan results
(validity, task success)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from trajtui.core.model import Outcome
from trajtui.core.stats.estimators import AP_METHOD, average_precision, score_interval
from trajtui.core.stats.facts import VALIDITY, RunFacts
from trajtui.core.stats.lines import (
    INTERVAL_NOTE,
    Line,
    Rate,
    Section,
    interval_json,
    interval_text,
)
from trajtui.core.stats.lines import num as _num
from trajtui.core.stats.lines import picks as _picks
from trajtui.core.stats.lines import rate_line as _rate_line
from trajtui.core.stats.lines import refs as _refs

SEVERITY = {
    "low risk": 0,
    "low": 0,
    "high risk": 1,
    "high": 1,
    "critical risk": 2,
    "critical": 2,
}
"""The rank of an eval verdict label (least to most severe): the score ranked for AUPRC."""


def eval_figures(runs: Sequence[RunFacts], sections: list[Section], data: dict[str, Any]) -> None:
    members = [r for r in runs if r.samples]
    if not members:
        return
    samples = [(r, s) for r in members for s in r.samples]
    graded = [(r, s) for r, s in samples if s.correct is not None and s.gt is not None]
    correct = [(r, s) for r, s in graded if s.correct]
    sec = Section(
        "eval samples",
        note="accuracy: of the samples with a ground truth; "
        f"AUPRC: {AP_METHOD}; score = the verdict's severity rank",
    )
    acc = Rate(len(correct), len(graded))
    sec.lines.append(_rate_line("accuracy", acc, "samples", _picks(members)))
    table: Counter[tuple[str | None, str | None]] = Counter((s.gt, s.verdict) for _, s in samples)
    for (gt, verdict), n in sorted(table.items(), key=lambda kv: (str(kv[0][0]), str(kv[0][1]))):
        behind = list(
            dict.fromkeys(r.pick for r, s in samples if (s.gt, s.verdict) == (gt, verdict))
        )
        sec.lines.append(
            Line(
                f"gt {gt or 'null'} → {verdict or 'null'}", f"{n:,}", "samples", None, tuple(behind)
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
            Line(f"AUPRC {name}", "—" if ap is None else _num(ap), detail, ap, _picks(members))
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
        "refs": _refs(members),
    }


def forecast_figures(
    runs: Sequence[RunFacts], sections: list[Section], data: dict[str, Any]
) -> None:
    members = [r for r in runs if r.summary.score_label == "brier" and r.summary.score is not None]
    if not members:
        return
    iv = score_interval([r.summary.score for r in members if r.summary.score is not None])
    assert iv is not None
    sections.append(
        Section(
            "forecasts",
            [Line("mean Brier", _num(iv.mean), interval_text(iv, "runs"), None, _picks(members))],
            note=f"lower is better; {INTERVAL_NOTE}",
        )
    )
    data["forecast"] = {
        "mean_brier": iv.mean,
        **{k: v for k, v in interval_json(iv).items() if k != "mean"},
        "refs": _refs(members),
    }


def ultraplan_figures(
    runs: Sequence[RunFacts], sections: list[Section], data: dict[str, Any]
) -> None:
    members = [r for r in runs if r.validity]
    if not members:
        return
    total = sum(len(r.validity) for r in members)
    sec = Section("ultraplan results", note="every result file, retries included")
    out: dict[str, Any] = {}
    for word in VALIDITY:
        n = sum(r.validity.count(word) for r in members)
        behind = [r for r in members if word in r.validity]
        rate = Rate(n, total)
        sec.lines.append(_rate_line(word, rate, "results", _picks(behind)))
        out[word] = {**rate.to_json(), "refs": _refs(behind)}
    ok = sum(r.results.count(Outcome.PASS) for r in members)
    rate = Rate(ok, total)
    succeeded = [r for r in members if Outcome.PASS in r.results]
    sec.lines.append(_rate_line("task success", rate, "results", _picks(succeeded)))
    sections.append(sec)
    data["ultraplan"] = {"validity": out, "success": {**rate.to_json(), "refs": _refs(succeeded)}}
