"""An Inspect log's own figures (its header) and a sample's row and run.

The header (``header.json`` of an ``.eval`` log, the members before ``samples`` of a
``.json`` log; ``_journal/start.json`` while the eval runs) says the task, the model, the
log's status (``started``, ``success``, ``cancelled``, ``error``), its results (each
scorer's metrics, ``accuracy``, ``stderr``..., as the file computed them: never recomputed
here; the R package vitals writes accuracy on a 0-100 scale, shown as written) and its
stats (the model usage of the whole eval).

A run is one sample and epoch (``ID/epoch-N``): listed from its summary (``summaries.json``)
or from the sample itself, built whole from the sample when opened.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from trajtui.core.io.text import one_line
from trajtui.core.model import Field, Run, RunSummary
from trajtui.formats.inspect.ident import FORMAT_ID as FORMAT_ID
from trajtui.formats.inspect.sample import input_text, moment, timeline
from trajtui.formats.inspect.scores import error_text, usage_totals, verdict


@dataclass(frozen=True, slots=True)
class LogInfo:
    """What a log's header says, for every sample of the log.

    Attributes:
        status: The log's status (``started`` when it has no header yet).
        task: ``eval.task``.
        model: ``eval.model`` (vitals: without a provider).
        headline: The scorer the run list shows (``results.headline.scorer``, else the
            first scorer of ``results.scores``), or None.
        results: ``(scorer, metric, value)`` of every metric in ``results``, as written.
        fields: The header's values for the run detail.
        error: The log's error message (an ``error`` log), or None.
        version: ``eval.packages.inspect_ai`` (what the writer says it is), or None.
    """

    status: str | None
    task: str | None
    model: str | None
    headline: str | None
    results: tuple[tuple[str, str, Any], ...]
    fields: tuple[Field, ...]
    error: str | None = None
    version: str | None = None


@dataclass(frozen=True, slots=True)
class InspectRun:
    """What a sample's run keeps for its view (``Run.detail``).

    Attributes:
        log: The log's header.
        sample_id: The sample's id as the file writes it.
        epoch: Its epoch.
        scores: ``(scorer, value, answer, explanation)`` of each of its scores.
    """

    log: LogInfo
    sample_id: Any
    epoch: Any
    scores: tuple[tuple[str, Any, Any, Any], ...]


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


def log_info(header: dict[str, Any], *, started: bool = False) -> LogInfo:
    """The :class:`LogInfo` of a header (``started``: it is ``_journal/start.json``, the log
    of an eval still running or one that was killed)."""
    ev = _obj(header.get("eval"))
    status = "started" if started else _text(header.get("status"))
    results = _obj(header.get("results"))
    found: list[tuple[str, str, Any]] = []
    scores = _list(results.get("scores"))
    for s in scores:
        if not isinstance(s, dict):
            continue
        name = str(s.get("name") or s.get("scorer") or "score")
        metrics = _obj(s.get("metrics"))
        for key, m in metrics.items():
            value = m.get("value") if isinstance(m, dict) else m
            found.append((name, str(key), value))
    if not scores and isinstance(results.get("metrics"), dict):  # before 0.3.3x: one scorer
        scorer = results.get("scorer")
        name = str(scorer.get("name")) if isinstance(scorer, dict) else "score"
        for key, m in results["metrics"].items():
            found.append((name, str(key), m.get("value") if isinstance(m, dict) else m))
    head = _obj(results.get("headline"))
    headline = _text(head.get("scorer") or head.get("score")) or (found[0][0] if found else None)
    packages = _obj(ev.get("packages"))
    error = header.get("error")
    fields: list[Field] = [
        Field("log status", status),
        Field("task", ev.get("task")),
        Field("model", ev.get("model")),
    ]
    for label, value in (
        ("created", ev.get("created")),
        ("eval_id", ev.get("eval_id")),
        ("run_id", ev.get("run_id")),
        ("task_file", ev.get("task_file")),
        ("inspect_ai", packages.get("inspect_ai")),
        ("total_samples", results.get("total_samples")),
        ("completed_samples", results.get("completed_samples")),
    ):
        if value is not None:
            fields.append(Field(label, value))
    for scorer, metric, value in found:
        fields.append(Field(f"log {scorer} {metric}", value))
    stats = _obj(header.get("stats"))
    tin, tout, cost = usage_totals(stats.get("model_usage"))
    if tin is not None:
        fields.append(Field("log input_tokens", tin))
    if tout is not None:
        fields.append(Field("log output_tokens", tout))
    if cost is not None:
        fields.append(Field("log total_cost", cost))
    if error is not None:
        fields.append(Field("log error", error_text(error)))
    return LogInfo(
        status=status,
        task=_text(ev.get("task")),
        model=_text(ev.get("model")),
        headline=headline,
        results=tuple(found),
        fields=tuple(fields),
        error=error_text(error),
        version=_text(packages.get("inspect_ai")),
    )


def sample_ref(obj: dict[str, Any]) -> str:
    """A sample's reference: ``ID/epoch-N`` (the same sample of two logs has the same one,
    so two logs compare sample by sample)."""
    epoch = obj.get("epoch")
    return f"{obj.get('id')}/epoch-{epoch if epoch is not None else 1}"


def _metadata(obj: dict[str, Any], log: LogInfo, scorer: str | None) -> tuple[tuple[str, str], ...]:
    out: dict[str, str] = {}
    for key, value in (("task", log.task), ("model", log.model), ("log_status", log.status)):
        if value is not None:
            out[key] = value
    out["sample_id"] = str(obj.get("id"))
    out["epoch"] = str(obj.get("epoch"))
    if scorer is not None:
        out["scorer"] = scorer
    began = obj.get("started_at")  # (a sample's, as its summary says: 0.3.1xx and later)
    if isinstance(began, str) and began:
        out["started"] = began
        when = moment(began)
        if when is not None:  # the day it started, UTC (stats --by date), as Codex's
            out["date"] = datetime.fromtimestamp(when / 1000, UTC).strftime("%Y-%m-%d")
    scores = obj.get("scores")
    if isinstance(scores, dict):
        for name, score in scores.items():
            value = score.get("value") if isinstance(score, dict) else score
            if isinstance(value, str | int | float | bool):
                out[f"score.{name}"] = str(value)
    meta = obj.get("metadata")
    if isinstance(meta, dict):
        for key, value in meta.items():
            if isinstance(value, str | int | float | bool) and str(key) not in out:
                out[str(key)] = str(value)
    return tuple(out.items())


def with_scores(obj: dict[str, Any], log: LogInfo) -> dict[str, Any]:
    """``obj`` with its ``scores`` by scorer: very old logs (before 0.3.3x) have one
    ``score``, of the log's one scorer."""
    if obj.get("scores") is None and isinstance(obj.get("score"), dict):
        return {**obj, "scores": {log.headline or "score": obj["score"]}}
    return obj


def summary_row(obj: dict[str, Any], log: LogInfo) -> RunSummary:
    """The run-list row of a sample from its summary (or the sample itself): what it does
    not say (its steps, tool calls) is unknown until the sample is read."""
    obj = with_scores(obj, log)
    v = verdict(obj, log.headline)
    tin, tout, cost = usage_totals(obj.get("model_usage"))
    total = obj.get("total_time")
    duration = (
        float(total) * 1000
        if isinstance(total, int | float) and not isinstance(total, bool)
        else None
    )
    return RunSummary(
        ref=sample_ref(obj),
        index=0,
        format=FORMAT_ID,
        status=v.status,
        outcome=v.outcome,
        duration_ms=duration,
        score=v.score,
        score_label=v.scorer,
        passed=v.passed,
        cost=cost,
        title=one_line(input_text(obj.get("input"))),
        metadata=_metadata(obj, log, v.scorer),
        tokens_in=tin,
        tokens_out=tout,
    )


def reductions(value: Any) -> dict[tuple[str, str], Any]:
    """A log's epoch reductions (``reductions.json``, the ``.json`` log's ``reductions`` or
    ``results.sample_reductions``): each scorer's value for a sample over its epochs, by
    ``(scorer, sample id)``."""
    out: dict[tuple[str, str], Any] = {}
    for entry in value if isinstance(value, list) else ():
        if not isinstance(entry, dict):
            continue
        scorer = str(entry.get("scorer"))
        for s in entry.get("samples") or ():
            if isinstance(s, dict):
                out[(scorer, str(s.get("sample_id")))] = s.get("value")
    return out


def build_run(
    sample: dict[str, Any],
    log: LogInfo,
    ref: str,
    path: str,
    reduced: dict[tuple[str, str], Any] | None = None,
) -> Run:
    """Sample ``sample``'s whole run, listed as ``ref`` (``reduced``: the log's
    :func:`reductions`, shown beside the sample's own scores)."""
    listed = replace(summary_row(sample, log), ref=ref)
    line = timeline(sample, ref)
    summary = replace(
        listed,
        steps=len(line.steps),
        tool_calls=line.tool_calls,
        failed_tool_calls=line.failed,
        tools=line.tools,
    )
    scores: list[tuple[str, Any, Any, Any]] = []
    fields: list[Field] = [
        Field("input", sample.get("input")),
        Field("target", sample.get("target")),
    ]
    raw_scores = with_scores(sample, log).get("scores")
    if isinstance(raw_scores, dict):
        for name, s in raw_scores.items():
            s = s if isinstance(s, dict) else {"value": s}
            scores.append((str(name), s.get("value"), s.get("answer"), s.get("explanation")))
            if s.get("answer") is not None:
                fields.append(Field(f"answer {name}", s.get("answer")))
            if s.get("explanation") is not None:
                fields.append(Field(f"explanation {name}", s.get("explanation"), markdown=True))
    output = sample.get("output")
    if isinstance(output, dict) and output.get("completion"):
        fields.append(Field("output", output.get("completion"), markdown=True))
    fields.append(Field("messages", line.messages))
    for key in ("total_time", "working_time", "started_at", "completed_at", "uuid"):
        if sample.get(key) is not None:
            fields.append(Field(key, sample.get(key)))
    usage = sample.get("model_usage")
    if isinstance(usage, dict) and usage:
        fields.append(Field("model_usage", usage))
    if sample.get("error") is not None:
        fields.append(Field("error", error_text(sample.get("error"))))
        if isinstance(sample["error"], dict) and sample["error"].get("traceback"):
            fields.append(Field("traceback", sample["error"]["traceback"]))
    if sample.get("limit") is not None:
        fields.append(Field("limit", sample.get("limit")))
    for (scorer, sid), value in (reduced or {}).items():
        if sid == str(sample.get("id")):
            fields.append(Field(f"log {scorer} over epochs", value))
    fields.extend(log.fields)
    return Run(
        summary=summary,
        steps=line.steps,
        fields=tuple(fields),
        raw=sample,
        detail=InspectRun(log, sample.get("id"), sample.get("epoch"), tuple(scores)),
        path=path,
        metadata=summary.metadata,
        run_tokens_in=summary.tokens_in,
        run_tokens_out=summary.tokens_out,
    )


def _obj(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
