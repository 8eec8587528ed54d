"""The figures of a group of runs (:func:`figures`): sections of labelled lines, each with
its counts and the runs behind it, and the same as JSON data.

Every rate carries its numerator and denominator (:class:`Rate`); every line knows the
runs it counts (``picks``: ``(source, entry index)`` pairs), so the stats screen opens
them and ``--json`` lists their refs.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from trajtui.core.model import Verdict
from trajtui.core.stats.attempts import attempt_figures
from trajtui.core.stats.estimators import PERCENTILE_METHOD, percentile, score_interval
from trajtui.core.stats.facts import RunFacts
from trajtui.core.stats.lines import INTERVAL_NOTE, Line, Pick, Rate, Section, interval_json
from trajtui.core.stats.lines import interval_text as interval_text
from trajtui.core.stats.lines import num as _num
from trajtui.core.stats.lines import picks as _picks
from trajtui.core.stats.lines import rate_line as _rate_line
from trajtui.core.stats.lines import refs as _refs
from trajtui.core.stats.parts import Parts
from trajtui.core.stats.passk import PassTally
from trajtui.core.stats.tally import Tally, graded_pass
from trajtui.core.stats.tools import tool_figures
from trajtui.core.units import cost as _cost
from trajtui.core.units import duration as _duration
from trajtui.core.units import many, share

__all__ = ["Figures", "Line", "Pick", "Rate", "Section", "figures"]

GRADED = "pass of graded"
"""The line of the share of graded runs that passed (the run list's ``87.0% pass``)."""
VERDICTS = (Verdict.PASS, Verdict.FAIL, Verdict.ERROR, Verdict.TIMEOUT, Verdict.UNKNOWN)


@dataclass(slots=True)
class Figures:
    """The figures of one group of runs.

    Attributes:
        name: The group (``all``, or the field's value).
        runs: The runs counted.
        sections: The figures, for reading.
        data: The same, as JSON data (every rate with its counts, refs behind each).
    """

    name: str
    runs: list[RunFacts]
    sections: list[Section]
    data: dict[str, Any]


def figures(name: str, runs: Sequence[RunFacts], parts: Parts = ()) -> Figures:
    """The figures of ``runs`` (a group called ``name``): the common ones, then those of
    each format's ``parts`` (eval samples, forecasts...)."""
    sections: list[Section] = []
    data: dict[str, Any] = {"group": name, "runs": len(runs), "refs": _refs(runs)}
    for part in (
        _outcomes,
        _scores,
        _trials,
        attempt_figures,
        _measures,
        tool_figures,
        *(p.figures for p in parts),
    ):
        part(runs, sections, data)
    return Figures(name, list(runs), sections, data)


Part = Callable[[Sequence[RunFacts], list[Section], dict[str, Any]], None]


def _outcomes(runs: Sequence[RunFacts], sections: list[Section], data: dict[str, Any]) -> None:
    by: dict[Verdict, list[RunFacts]] = defaultdict(list)
    for r in runs:
        by[r.verdict].append(r)
    sec = Section("outcomes", note="of the runs; trials records: pass = every trial passed")
    out: dict[str, Any] = {}
    for v in VERDICTS:
        members = by.get(v, [])
        rate = Rate(len(members), len(runs))
        sec.lines.append(_rate_line(v.value, rate, "runs", [m.pick for m in members]))
        out[v.value] = {**rate.to_json(), "refs": _refs(members)}
    # The run list's share: of the runs the file grades pass or fail, whatever else they
    # are (a graded timeout is graded); trials records count in the trials section.
    tally = Tally()
    for r in runs:
        tally.add(r.summary)
    if tally.graded:
        passed = [r for r in runs if graded_pass(r.summary)]
        rate = Rate(tally.passed, tally.graded)
        sec.lines.append(_rate_line(GRADED, rate, "graded runs", [m.pick for m in passed]))
        out["graded"] = {**rate.to_json(), "refs": _refs(passed)}
    sections.append(sec)
    data["outcomes"] = out


def _scores(runs: Sequence[RunFacts], sections: list[Section], data: dict[str, Any]) -> None:
    by: dict[str, list[RunFacts]] = defaultdict(list)
    for r in runs:
        s = r.summary
        if s.score is not None and s.score == s.score and s.score_label is not None:
            by[s.score_label].append(r)
    if not by:
        return
    sec = Section("score", note=f"mean, by what the score is; {INTERVAL_NOTE}")
    out: dict[str, Any] = {}
    for label in sorted(by):
        members = by[label]
        iv = score_interval([m.summary.score for m in members if m.summary.score is not None])
        assert iv is not None
        sec.lines.append(
            Line(f"mean {label}", _num(iv.mean), interval_text(iv), None, _picks(members))
        )
        out[label] = {**interval_json(iv), "refs": _refs(members)}
    sections.append(sec)
    data["score"] = out


def _trials(runs: Sequence[RunFacts], sections: list[Section], data: dict[str, Any]) -> None:
    tally = PassTally()
    counted: list[RunFacts] = []
    for r in runs:
        if tally.add(r.summary):
            counted.append(r)
    if not counted:
        return
    k_max = tally.k_max
    assert k_max is not None
    same_n = tally.k
    sec = Section(
        "trials",
        note="unbiased estimator of Chen et al. 2021: pass@k = mean of 1-C(n-c,k)/C(n,k), "
        "pass^k = mean of C(c,k)/C(n,k) over tasks with at least k graded trials",
    )
    estimates: list[dict[str, Any]] = []
    picks = _picks(counted)
    for hat in (False, True):
        for k in range(1, k_max + 1):
            if k == 1 and hat:
                continue  # pass^1 is pass@1
            e = tally.estimate(hat, k)
            if e is None:
                continue
            if k == 1 and same_n is not None:
                detail = f"({tally.passed:,}/{tally.trials:,} trials)"
            else:
                detail = f"(mean over {many(e.tasks, 'task')})"
            if e.excluded:
                detail += f"; {e.excluded:,} with fewer than {k} trials left out"
            sec.lines.append(Line(e.name, share(e.value), detail, e.value, picks))
            estimates.append(
                {
                    "name": e.name,
                    "k": e.k,
                    "value": e.value,
                    "tasks": e.tasks,
                    "excluded": e.excluded,
                }
            )
    file_metrics: dict[str, Any] = {}
    for key in ("passRate", "passAtK", "passExpK"):
        having = [(r, v) for r in counted for k, v in r.summary.file_metrics if k == key]
        if not having:
            continue
        mean = sum(v for _, v in having) / len(having)
        sec.lines.append(
            Line(
                f"file {key}",
                share(mean),
                f"(the file's own, mean over {many(len(having), 'task')})",
                mean,
                _picks([r for r, _ in having]),
            )
        )
        file_metrics[key] = {
            "mean": mean,
            "tasks": len(having),
            "refs": _refs([r for r, _ in having]),
        }
    disagree = [
        r
        for r in counted
        if r.summary.passes is not None
        and r.summary.graded is not None
        and 0 < r.summary.passes < r.summary.graded
    ]
    rate = Rate(len(disagree), len(counted))
    shown = ", ".join(r.ref for r in disagree[:8]) + (" …" if len(disagree) > 8 else "")
    sec.lines.append(
        Line(
            "trials disagree",
            f"{len(disagree):,}",
            f"({len(disagree):,}/{many(len(counted), 'task')}){': ' + shown if shown else ''}",
            rate.value,
            _picks(disagree),
        )
    )
    sections.append(sec)
    data["trials"] = {
        "tasks": len(counted),
        "trials": tally.trials,
        "passed": tally.passed,
        "estimator": "chen2021",
        "estimates": estimates,
        "file": file_metrics,
        "disagree": {**rate.to_json(), "refs": _refs(disagree)},
    }


MEASURES: tuple[tuple[str, Callable[[RunFacts], float | None], Callable[[float], str]], ...] = (
    ("duration", lambda r: r.summary.duration_ms, _duration),
    ("cost", lambda r: r.summary.cost, _cost),
    ("tokens in", lambda r: r.tokens_in, lambda v: f"{v:,.0f}"),
    ("tokens out", lambda r: r.tokens_out, lambda v: f"{v:,.0f}"),
)


def _measures(runs: Sequence[RunFacts], sections: list[Section], data: dict[str, Any]) -> None:
    sec = Section(
        "duration, cost, tokens", note=f"totals over the runs; percentiles: {PERCENTILE_METHOD}"
    )
    out: dict[str, Any] = {}
    for name, get, show in MEASURES:
        having = [(r, v) for r in runs if (v := get(r)) is not None and v == v]
        if not having:
            continue
        values = [float(v) for _, v in having]
        total, p50, p90, top = (
            sum(values),
            percentile(values, 50),
            percentile(values, 90),
            max(values),
        )
        sec.lines.append(
            Line(
                f"total {name}",  # the figure is a total: said where groups show it alone
                show(total),
                f"per run: p50 {show(p50)} · p90 {show(p90)} · max {show(top)}  "
                f"(n={len(values):,} runs)",
                None,
                _picks([r for r, _ in having]),
            )
        )
        out[name.replace(" ", "_")] = {
            "total": total,
            "p50": p50,
            "p90": p90,
            "max": top,
            "n": len(values),
            "refs": _refs([r for r, _ in having]),
        }
    if sec.lines:
        sections.append(sec)
        data["measures"] = out
        data["percentile_method"] = PERCENTILE_METHOD
