"""Figures of tasks run several times as runs of their own (a Harbor job's trials: see
:mod:`trajtui.core.stats.tasks`): pass@k and pass^k over each task's graded attempts, as the
``trials`` section counts a trials record's trials, and beside them the figures the source's
own summary file computed over the same tasks, under the file's names."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trajtui.core.stats.facts import RunFacts
from trajtui.core.stats.lines import Line, Section
from trajtui.core.stats.lines import num as _num
from trajtui.core.stats.lines import picks as _picks
from trajtui.core.stats.lines import refs as _refs
from trajtui.core.stats.tasks import OwnFigures, tally
from trajtui.core.units import many


def attempt_figures(
    runs: Sequence[RunFacts], sections: list[Section], data: dict[str, Any]
) -> None:
    members = [r for r in runs if r.attempt is not None]
    if not members:
        return
    counted = tally((r.source, r.attempt) for r in members if r.attempt is not None)
    t = counted.tally
    sec = Section(
        "attempts",
        note="tasks run several times, an attempt a run (Harbor trials); unbiased estimator "
        "of Chen et al. 2021 over each task's graded attempts (those with a reward), "
        "pass = reward 1 or more",
    )
    picks = _picks(members)
    estimates: list[dict[str, Any]] = []
    for hat in (False, True):
        for k in range(2 if hat else 1, (t.k_max or 0) + 1):
            e = t.estimate(hat, k)
            if e is None:
                continue
            detail = f"(mean over {many(e.tasks, 'task')}"
            if e.excluded:
                detail += f"; {e.excluded:,} with fewer than {k} graded attempts left out"
            sec.lines.append(Line(e.name, _num(e.value), detail + ")", e.value, picks))
            estimates.append(
                {"name": e.name, "k": k, "value": e.value, "tasks": e.tasks, "excluded": e.excluded}
            )
    ungraded = [r for r in members if r.attempt is not None and not r.attempt.graded]
    sec.lines.append(
        Line(
            "attempts",
            f"{counted.attempts:,}",
            f"of {many(counted.tasks, 'task')} · {counted.graded:,} graded · {counted.passed:,} passed"
            f" · {counted.ungraded:,} without a reward (left out)",
            None,
            picks,
        )
    )
    own: dict[tuple[int, str, str], tuple[OwnFigures, list[RunFacts]]] = {}
    for r in members:
        o = r.attempt.own if r.attempt is not None else None
        if o is not None:
            own.setdefault((r.source, o.path, o.group), (o, []))[1].append(r)
    files: list[dict[str, Any]] = []
    for o, behind in own.values():
        for name, value in o.figures:
            if name.startswith("pass_at_k"):
                sec.lines.append(
                    Line(
                        f"file {name}",
                        _num(value),
                        f"(the file's own: {o.group}, {o.path}; {o.note})",
                        value,
                        _picks(behind),
                    )
                )
        files.append({"path": o.path, "group": o.group, "figures": dict(o.figures), "note": o.note})
    sections.append(sec)
    data["attempts"] = {
        "tasks": counted.tasks,
        "attempts": counted.attempts,
        "graded": counted.graded,
        "passed": counted.passed,
        "ungraded": {"count": counted.ungraded, "refs": _refs(ungraded)},
        "estimator": "chen2021",
        "estimates": estimates,
        "file": files,
        "refs": _refs(members),
    }
