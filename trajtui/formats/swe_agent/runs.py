"""A SWE-agent run's row, fields and detail.

The numbers are the file's ``info.model_stats``: ``instance_cost``, ``tokens_sent`` and
``tokens_received`` (the only token counts in the file: the run's, not its steps'), and
``api_calls``. A 0 there with API calls made is a figure SWE-agent did not know (a model
without a price, a replayed demonstration), so no cost or tokens; the file's figure stays
in the detail under its name. The duration is the sum of the steps' ``execution_time``
(the commands' time: the file has no timestamps).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from trajtui.core.io.text import flat
from trajtui.core.model import Attempt, Field, Kind, Run, RunSummary, Step
from trajtui.core.values import count, mapping, num, string, text_parts
from trajtui.formats.swe_agent.document import Traj
from trajtui.formats.swe_agent.lean import Lean, SweSteps
from trajtui.formats.swe_agent.steps import (
    build_steps,
    exit_outcome,
    prompts,
    seconds,
    task_text,
)

FORMAT_ID = "swe-agent"
COMMAND_TIME = "sum of command times"


@dataclass(frozen=True, slots=True)
class Pred:
    """A prediction of the run's instance (``.pred`` beside it, or ``preds.json``).

    Attributes:
        path: The file it is in.
        model: ``model_name_or_path``.
        patch: ``model_patch``.
    """

    path: str
    model: str | None
    patch: Any


@dataclass(frozen=True, slots=True)
class SweRun:
    """The typed detail of a SWE-agent run (:attr:`Run.detail`).

    Attributes:
        version: ``info.swe_agent_version`` (1.0.1 on).
        model: ``replay_config.agent.model.name``.
        api_calls: ``model_stats.api_calls``.
        instance_cost: ``model_stats.instance_cost`` as written.
        cost_known: Whether it is the run's cost (not a 0 for an unknown price).
        pred: The run's prediction file, when read.
    """

    version: str | None
    model: str | None
    api_calls: int | None
    instance_cost: float | None
    cost_known: bool
    pred: Pred | None = None


def title_of(traj: Traj | Lean) -> str:
    if isinstance(traj, Lean):
        if traj.title:
            return traj.title
    else:
        for m in prompts(traj.history):
            if m.get("role") == "user":
                text = text_parts(m.get("content"))
                if text.strip():
                    return flat(task_text(text))
    problem = mapping(traj.replay_config.get("problem_statement"))
    return flat(string(problem.get("text")) or "")


def _known(value: Any, calls: int | None) -> Any:
    """A model-stats figure, None when it is 0 with API calls made (not counted)."""
    return None if value is None or (value == 0 and (calls or 0) > 0) else value


def detail_of(traj: Traj | Lean, pred: Pred | None) -> SweRun:
    stats = mapping(traj.info.get("model_stats"))
    calls = count(stats.get("api_calls"))
    cost = num(stats.get("instance_cost"))
    cost = cost if cost is not None and math.isfinite(cost) else None
    model = string(mapping(mapping(traj.replay_config.get("agent")).get("model")).get("name"))
    return SweRun(
        string(traj.info.get("swe_agent_version")),
        model,
        calls,
        cost,
        _known(cost, calls) is not None,
        pred,
    )


def metadata_of(traj: Traj | Lean, d: SweRun) -> tuple[tuple[str, str], ...]:
    out = {
        "model": d.model,
        "api_calls": None if d.api_calls is None else str(d.api_calls),
        "swe_agent_version": d.version,
        "swe_rex_version": string(traj.info.get("swe_rex_version")),
        "environment": traj.environment,
        "model_name_or_path": d.pred.model if d.pred else None,
    }
    return tuple((k, v) for k, v in out.items() if v)


def _duration(trajectory: list[dict[str, Any]] | None) -> float | None:
    times = [seconds(i) for i in trajectory or ()]
    known = [t for t in times if t is not None]
    return sum(known) * 1000 if known else None


def _calls(steps: list[Step]) -> list[Step]:
    return [s for s in steps if s.kind is Kind.TOOL_CALL]


def _tools(steps: list[Step]) -> tuple[str, ...]:
    return tuple(sorted({t for s in _calls(steps) for t in s.tools}))


def fields_of(traj: Traj | Lean, d: SweRun) -> tuple[Field, ...]:
    info = traj.info
    stats = mapping(info.get("model_stats"))
    out = [Field("exit_status", info.get("exit_status")), Field("model", d.model)]
    for key in ("instance_cost", "tokens_sent", "tokens_received"):
        value = stats.get(key)
        if value is not None and _known(value, d.api_calls) is None:
            value = f"{value} (0 with {d.api_calls} API calls: not counted)"
        out.append(Field(key, value))
    out.append(Field("api_calls", stats.get("api_calls")))
    if stats.get("total_cost") is not None:
        out.append(Field("total_cost (the whole batch's, so far)", stats["total_cost"]))
    out += [Field("swe_agent_version", d.version), Field("environment", traj.environment)]
    if info.get("best_attempt_idx") is not None:
        out.append(Field("best_attempt_idx", info["best_attempt_idx"]))
    if d.pred is not None:
        out.append(Field(f"model_patch ({d.pred.path})", d.pred.patch))
        out.append(Field("model_name_or_path", d.pred.model))
    return tuple(f for f in out if f.value is not None)


def _attempt(ref: str, n: int, traj: Traj) -> Attempt:
    prefix = f"{ref}/trial-{n}"
    steps = build_steps(prefix, traj.trajectory, traj.history, traj.info)
    status = string(traj.info.get("exit_status"))
    d = detail_of(traj, None)
    return Attempt(
        ref=prefix,
        number=n,
        status=status,
        outcome=exit_outcome(status),
        passed=None,
        score=None,
        duration_ms=_duration(traj.trajectory),
        steps=tuple(steps),
        fields=fields_of(traj, d),
        raw={k: v for k, v in traj.info.items() if not k.startswith("edited_files")},
    )


def build_run(ref: str, traj: Lean, path: str, pred: Pred | None = None) -> Run:
    """The run ``ref`` of the file ``path``: its steps built when shown (:class:`SweSteps`;
    a RetryAgent file's attempts whole)."""
    d = detail_of(traj, pred)
    stats = mapping(traj.info.get("model_stats"))
    attempts = tuple(_attempt(ref, n, a) for n, a in enumerate(traj.attempts, 1))
    steps: Sequence[Step] = ()
    if attempts:
        every = [s for a in attempts for s in a.steps]
        n_steps, calls, tools = len(every), len(_calls(every)), _tools(every)
        known = [a.duration_ms for a in attempts if a.duration_ms is not None]
        duration = sum(known) if known else None
    else:
        steps = SweSteps(ref, traj)
        n_steps, calls, tools = traj.steps, traj.tool_calls, tuple(sorted(traj.tools))
        duration = traj.duration_ms()
    status = string(traj.info.get("exit_status"))
    tokens_in = count(_known(stats.get("tokens_sent"), d.api_calls))
    tokens_out = count(_known(stats.get("tokens_received"), d.api_calls))
    summary = RunSummary(
        ref=ref,
        index=0,
        format=FORMAT_ID,
        status=status,
        outcome=exit_outcome(status),
        steps=n_steps,
        tool_calls=calls,
        duration_ms=duration,
        duration_label=COMMAND_TIME if duration is not None else None,
        attempts=len(attempts) or None,
        cost=d.instance_cost if d.cost_known else None,
        title=title_of(traj) or (title_of(traj.attempts[0]) if traj.attempts else ""),
        metadata=metadata_of(traj, d),
        tools=tools,
        tokens_in=tokens_in,
        tokens_out=tokens_out,
    )
    return Run(
        summary=summary,
        steps=steps,
        attempts=attempts,
        fields=fields_of(traj, d),
        raw={k: v for k, v in traj.info.items() if not k.startswith("edited_files")},
        detail=d,
        path=path,
        metadata=summary.metadata,
        run_tokens_in=tokens_in,
        run_tokens_out=tokens_out,
    )
