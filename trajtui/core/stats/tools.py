"""The tool-calls section of the figures: calls and failed calls in all (the run list's
counts, summed), by tool (the calls of the runs read whole), and the runs whose file flags
``toolErrors``.

Unknown is never counted as 0: a run whose format records calls but does not tell which
failed (``failed_tool_calls`` None) is left out of the failures and said, in all and for
each tool.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from trajtui.core.model import StepState
from trajtui.core.stats.estimators import percentile
from trajtui.core.stats.facts import RunFacts
from trajtui.core.stats.lines import Line, Rate, Section
from trajtui.core.stats.lines import picks as _picks
from trajtui.core.stats.lines import refs as _refs
from trajtui.core.units import duration as _duration
from trajtui.core.units import share

FLAG = "toolErrors"
"""The file's own flag (acp-harness: a tool call failed, or the run timed out)."""

NOTE = (
    "all: the run list's counts (a call's two halves once); by tool: the same calls, of "
    "the runs read whole; failed: the calls the file says failed, of the runs whose "
    "format tells"
)


def _failed_text(failed: int, told: int, calls: int, runs_told: bool = True) -> str:
    """``3 failed · failure rate 7.5% (3/40)`` of the calls told; ``failures not told`` when
    no run of them tells (``runs_told`` False, or calls made but none told)."""
    if not runs_told or (calls and not told):
        return "failures not told by the file"  # never "0 failed"
    rate = Rate(failed, told)
    text = f"{failed:,} failed · failure rate {share(rate.value)} ({failed:,}/{told:,})"
    if told < calls:
        text += f"; {calls - told:,} calls of runs that do not tell failures left out"
    return text


def tool_figures(runs: Sequence[RunFacts], sections: list[Section], data: dict[str, Any]) -> None:
    """The tool-calls section of ``runs`` (none when no run records tool calls or a flag)."""
    having = [r for r in runs if r.summary.tool_calls is not None]
    flagged_known = [r for r in runs if r.summary.tool_errors is not None]
    loaded = [r for r in runs if r.loaded]
    by: dict[str, list[tuple[RunFacts, bool, float | None]]] = defaultdict(list)
    failed_state = StepState.FAILED  # looked up once: a million calls are counted here
    for r in loaded:
        for c in r.calls:
            by[c.tool or "(unnamed)"].append((r, c.state is failed_state, c.duration_ms))
    if not having and not by and not flagged_known:
        return
    sec = Section("tool calls", note=NOTE)
    out: dict[str, Any] = {}
    if having:
        told = [r for r in having if r.summary.failed_tool_calls is not None]
        untold = [r for r in having if r.summary.failed_tool_calls is None]
        calls = sum(r.summary.tool_calls or 0 for r in having)
        told_calls = sum(r.summary.tool_calls or 0 for r in told)
        failed = sum(r.summary.failed_tool_calls or 0 for r in told)
        rate = Rate(failed, told_calls)
        failing = [r for r in told if r.summary.failed_tool_calls]
        detail = "calls · " + _failed_text(failed, told_calls, calls, bool(told))
        sec.lines.append(Line("all", f"{calls:,}", detail, rate.value, _picks(failing or having)))
        out["all"] = {
            "calls": calls,
            "failures": rate.to_json(),
            "runs": len(having),
            "untold_runs": len(untold),
            "untold_calls": calls - told_calls,
        }
    if flagged_known:
        flagged = [r for r in flagged_known if r.summary.tool_errors]
        rate = Rate(len(flagged), len(flagged_known))
        sec.lines.append(
            Line(
                FLAG,
                f"{len(flagged):,}",
                f"runs the file flags ({len(flagged):,}/{len(flagged_known):,} runs)",
                rate.value,
                _picks(flagged),
                f"{len(flagged):,}/{len(flagged_known):,}",
            )
        )
        out["flagged"] = {**rate.to_json(), "refs": _refs(flagged)}
    rows: dict[str, Any] = {}
    for tool in sorted(by, key=lambda t: (-len(by[t]), t)):
        items = by[tool]
        # failures of the calls of runs whose file tells failures, as "all" counts them
        told_items = [f for r, f, _ in items if r.summary.failed_tool_calls is not None]
        failures = sum(told_items)
        durations = [d for _, _, d in items if d is not None]
        median = percentile(durations, 50) if durations else None
        rate = Rate(failures, len(told_items))
        runs_of: dict[int, RunFacts] = {}  # each run once (one RunFacts a run)
        for r, _, _ in items:
            runs_of.setdefault(id(r), r)
        members = [r.pick for r in runs_of.values()]
        med = "—" if median is None else _duration(median)
        sec.lines.append(
            Line(
                tool,
                f"{len(items):,}",
                f"calls · {_failed_text(failures, len(told_items), len(items))} · median {med}"
                f" (n={len(durations):,})",
                rate.value,
                tuple(members),
            )
        )
        rows[tool] = {
            "calls": len(items),
            "failures": rate.to_json(),
            "untold_calls": len(items) - len(told_items),
            "median_duration_ms": median,
            "durations": len(durations),
            "refs": [r.ref for r in runs_of.values()],
        }
    out["by_tool"] = rows
    sections.append(sec)
    data["tools"] = out
