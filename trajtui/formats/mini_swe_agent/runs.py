"""A mini-swe-agent run's row, fields and detail, from its trajectory.

The numbers are the file's: cost and API calls from ``info.model_stats``
(``instance_cost`` of 0 with API calls made is a price mini did not know, and so no cost;
the file's figure is still in the detail under its name), tokens summed over the model
calls' ``extra.response.usage`` (2.x; 1.x files keep no usage), the duration the span of
the messages' timestamps, the status ``info.exit_status`` as written.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from trajtui.core.model import Field, Outcome, Run, RunSummary
from trajtui.core.values import count, mapping, num, string, tool_names
from trajtui.formats.mini_swe_agent.lean import Lean, MiniSteps
from trajtui.formats.mini_swe_agent.steps import exit_outcome

FORMAT_ID = "mini-swe-agent"
SPAN = "span of message timestamps"


@dataclass(frozen=True, slots=True)
class MiniRun:
    """The typed detail of a mini-swe-agent run (:attr:`Run.detail`).

    Attributes:
        version: ``info.mini_version``.
        trajectory_format: ``trajectory_format`` (None: the bare list).
        model: ``info.config.model.model_name``.
        api_calls: ``info.model_stats.api_calls``.
        instance_cost: ``info.model_stats.instance_cost`` as written.
        cost_known: Whether that figure is the run's cost (not a 0 for an unknown price).
        predicted: The ``preds.json`` entry of the run's instance, when read.
    """

    version: str | None
    trajectory_format: str | None
    model: str | None
    api_calls: int | None
    instance_cost: float | None
    cost_known: bool
    predicted: dict[str, Any] | None = None


def detail_of(traj: Lean, predicted: dict[str, Any] | None = None) -> MiniRun:
    stats = mapping(traj.info.get("model_stats"))
    calls = count(stats.get("api_calls"))
    cost = num(stats.get("instance_cost"))
    cost = cost if cost is not None and math.isfinite(cost) else None
    known = cost is not None and not (cost == 0 and (calls or 0) > 0)
    model = string(mapping(mapping(traj.info.get("config")).get("model")).get("model_name"))
    return MiniRun(
        string(traj.info.get("mini_version")),
        traj.trajectory_format,
        model,
        calls,
        cost,
        known,
        predicted,
    )


def metadata_of(d: MiniRun, traj: Lean) -> tuple[tuple[str, str], ...]:
    config = mapping(traj.info.get("config"))
    env = mapping(config.get("environment"))
    out = {
        "model": d.model,
        "api_calls": None if d.api_calls is None else str(d.api_calls),
        "mini_version": d.version,
        "trajectory_format": d.trajectory_format,
        "agent_type": string(config.get("agent_type")),
        "environment_type": string(config.get("environment_type")),
        "image": string(env.get("image")),
        "instance_id": traj.instance_id,
    }
    if d.model is None and d.predicted is not None:
        out["model"] = string(d.predicted.get("model_name_or_path"))
    return tuple((k, v) for k, v in out.items() if v)


def summarize(ref: str, traj: Lean, d: MiniRun) -> RunSummary:
    status = string(traj.info.get("exit_status")) or None
    calls, failed = traj.call_figures()
    span = traj.span_ms()
    return RunSummary(
        ref=ref,
        index=0,
        format=FORMAT_ID,
        status=status,
        outcome=exit_outcome(status),
        steps=traj.steps,
        failed_tool_calls=failed,
        tool_calls=calls,
        duration_ms=span,
        duration_label=SPAN if span is not None else None,
        cost=d.instance_cost if d.cost_known else None,
        title=traj.title,
        metadata=metadata_of(d, traj),
        tools=tuple(sorted(set(tool_names(traj.tools)))),
        tokens_in=traj.tokens_in,
        tokens_out=traj.tokens_out,
    )


def fields_of(traj: Lean, d: MiniRun) -> tuple[Field, ...]:
    info = traj.info
    out = [
        Field("exit_status", info.get("exit_status")),
        Field("model", d.model),
        Field("api_calls", d.api_calls),
    ]
    if d.instance_cost is not None:
        note = "" if d.cost_known else f" (0 with {d.api_calls} API calls: the price was not known)"
        out.append(Field("instance_cost", f"{d.instance_cost}{note}" if note else d.instance_cost))
    out += [
        Field("mini_version", d.version),
        Field(
            "trajectory_format",
            d.trajectory_format
            or ("(not read yet)" if traj.partial else "none (a bare list of messages)"),
        ),
        Field("instance_id", traj.instance_id),
    ]
    for key in ("exception_str",):
        if info.get(key):
            out.append(Field(key, info[key]))
    if d.predicted is not None:
        out.append(Field("preds.json model_name_or_path", d.predicted.get("model_name_or_path")))
    return tuple(f for f in out if f.value is not None)


def build_run(ref: str, traj: Lean, path: str, predicted: dict[str, Any] | None = None) -> Run:
    """The run ``ref`` of the file ``path``: its steps built when shown (:class:`MiniSteps`)."""
    d = detail_of(traj, predicted)
    summary = summarize(ref, traj, d)
    return Run(
        summary=summary,
        steps=MiniSteps(ref, traj),
        fields=fields_of(traj, d),
        raw={k: v for k, v in traj.info.items() if k != "config"},
        detail=d,
        path=path,
        metadata=summary.metadata,
    )


def predicted_only(ref: str, entry: dict[str, Any], path: str) -> Run:
    """A run ``preds.json`` names that has no trajectory: its prediction alone."""
    model = string(entry.get("model_name_or_path"))
    patch = entry.get("model_patch")
    meta = (("model", model),) if model else ()
    summary = RunSummary(
        ref=ref,
        index=0,
        format=FORMAT_ID,
        status=None,
        outcome=Outcome.NONE,
        title="(no trajectory: in preds.json only)",
        metadata=meta,
    )
    return Run(
        summary=summary,
        fields=(
            Field("trajectory", "no trajectory found: this instance is in preds.json only"),
            Field("model_name_or_path", model),
            Field("model_patch", patch),
        ),
        raw=entry,
        path=path,
        metadata=meta,
    )
