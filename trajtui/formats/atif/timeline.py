"""ATIF trajectories and Harbor trials as trajtui runs: the run-list row, the timeline, the
fields of a run.

One ATIF step is one timeline step, numbered by its ``step_id`` (``RUN/step-N``): a step
of the agent with tool calls is a tool step, its calls paired with their results; a step of
the agent without is a model call (or a thought, when it has only reasoning); a user step
is a message; a system step is ``other`` (``task`` when it hands work to subagents).
Everything else a step holds (reasoning, metrics, extra, subagent references) is a field;
``r`` shows the step as in the file.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from trajtui.core.io.text import one_line
from trajtui.core.model import Call, Field, Kind, Outcome, RunSummary, Step, StepState
from trajtui.core.values import count, string, tool_names
from trajtui.formats.atif.facts import (
    Answer,
    Pairing,
    Totals,
    call_failed,
    span_ms,
    tool_call_counts,
    totals,
)
from trajtui.formats.atif.ident import FORMAT_ID as FORMAT_ID
from trajtui.formats.atif.trajectory import (
    AtifStep,
    SubagentRef,
    ToolCall,
    Trajectory,
    content_text,
)
from trajtui.formats.atif.trial import TrialResult, verdict
from trajtui.formats.atif.usage import run_cost, run_tokens
from trajtui.formats.atif.verifier import Report

ChildRef = Callable[[SubagentRef], str | None]
"""The run a subagent reference was listed as, if it was."""


def _title(step: AtifStep) -> str:
    if step.calls:
        names = [c.name or c.call_id or "(unnamed call)" for c in step.calls]
        shown = ", ".join(names[:4]) + (f" … {len(names)} calls" if len(names) > 4 else "")
        title = one_line(shown, 160)
    else:
        text = one_line(step.text or "", 160) or (
            one_line(step.reasoning, 160) if step.reasoning else ""
        )
        title = f"{step.source or 'step'}: {text}" if text else f"{step.source or 'step'}"
    return f"copied · {title}" if step.copied else title


_CALL_STATE = {True: StepState.FAILED, False: StepState.OK, None: StepState.UNKNOWN}
"""A call's state by what its results say (``call_failed``)."""


def _kind(step: AtifStep, refs: bool) -> Kind:
    if step.calls:
        return Kind.TOOL_CALL
    if step.source == "agent":
        return Kind.THOUGHT if not (step.text or "").strip() and step.reasoning else Kind.MODEL_CALL
    if step.source == "user":
        return Kind.MESSAGE
    if refs:
        return Kind.TASK
    return Kind.OTHER


def _call_label(n: int, call: ToolCall) -> str:
    name = call.name or "(unnamed)"
    return f"call {n}: {name}" + (f" ({call.call_id})" if call.call_id else "")


def _shown(content: Any) -> Any:
    text = content_text(content)
    return text if text is not None else content


def _subagent(ref: SubagentRef, child: ChildRef) -> dict[str, Any]:
    out: dict[str, Any] = {"run": child(ref)}
    for key in ("trajectory_path", "trajectory_id", "session_id", "extra"):
        value = getattr(ref, key)
        if value is not None:
            out[key] = value
    return out


def _metrics_fields(step: AtifStep) -> list[Field]:
    m = step.metrics
    out: list[Field] = []
    if m is not None:
        tokens = {
            k: v
            for k, v in (
                ("prompt_tokens", m.prompt_tokens),
                ("completion_tokens", m.completion_tokens),
                ("cached_tokens", m.cached_tokens),
            )
            if v is not None
        }
        if tokens:
            out.append(Field("tokens", tokens))
        if m.cost_usd is not None:
            out.append(Field("cost_usd", m.cost_usd))
        extra = step.raw.get("metrics", {}).get("extra")
        if extra is not None:
            out.append(Field("metrics extra", extra))
    return out


def build_step(
    step: AtifStep,
    steps: tuple[AtifStep, ...],
    pairing: Pairing,
    run_ref: str,
    t0: float | None,
    child: ChildRef,
    content: Callable[[Answer], Any] = lambda a: a.result.content,
) -> Step:
    """The timeline step of one ATIF step (whole: not :func:`lightened
    <trajtui.formats.atif.trajectory.lighten>`); ``steps`` may be lightened, ``content``
    gives a result's content (read again when ``pairing`` was made of lightened steps)."""
    fields: list[Field] = []
    if step.reasoning is not None:
        fields.append(Field("reasoning", step.reasoning, markdown=True))
    failures: list[str] = []
    verdicts: list[bool | None] = []
    single = len(step.calls) == 1
    tool_input: Any = None
    tool_output: Any = None
    for ci, call in enumerate(step.calls):
        answers = pairing.results_of(step.position, ci)
        failed = call_failed(answers)
        verdicts.append(failed)
        label = _call_label(ci + 1, call)
        if failed:
            failures.append(f"{label} failed")
        shown = [_shown(content(a)) for a in answers]
        elsewhere = [a.step for a in answers if a.step != step.position]
        if single:
            tool_input = call.arguments
            tool_output = shown[0] if len(shown) == 1 else shown or None
            if call.call_id:
                fields.append(Field("tool_call_id", call.call_id))
        else:
            fields.append(Field(label, call.arguments))
            for k, value in enumerate(shown, 1):
                fields.append(
                    Field(f"result of call {ci + 1}" + (f" ({k})" if len(shown) > 1 else ""), value)
                )
        if not answers:
            fields.append(Field(f"result of call {ci + 1}", "none in the file"))
        for pos in elsewhere:
            fields.append(
                Field(f"result of call {ci + 1} is in", f"{run_ref}/step-{steps[pos - 1].number}")
            )
    for ri, result in enumerate(step.results):
        answered = pairing.call_of(step.position, ri)
        if answered is not None and answered[0] == step.position:
            continue  # shown with its call
        value = _shown(result.content)
        if answered is not None:  # a result in a step of its own
            caller = steps[answered[0] - 1]
            call = caller.calls[answered[1]]
            fields.append(
                Field(
                    "answers",
                    f"{run_ref}/step-{caller.number}: {_call_label(answered[1] + 1, call)}",
                )
            )
            if tool_output is None and not step.calls:
                tool_output = value
            verdicts.append(result.failed)
            if result.failed:
                failures.append(
                    f"the result of {call.name or call.call_id or 'a call'} says it failed"
                )
        elif value is not None:
            fields.append(
                Field("observation" if len(step.results) == 1 else f"observation {ri + 1}", value)
            )
        for ref in result.subagents:
            fields.append(Field("subagent", _subagent(ref, child)))
    if step.model_name is not None:
        fields.append(Field("model_name", step.model_name))
    for key in ("reasoning_effort", "llm_call_count"):
        if key in step.raw:
            fields.append(Field(key, step.raw[key]))
    fields.extend(_metrics_fields(step))
    if step.copied:
        fields.append(Field("is_copied_context", True))
    if step.timestamp is not None:
        fields.append(Field("timestamp", step.timestamp))
    if "extra" in step.raw:
        fields.append(Field("extra", step.raw["extra"]))
    status: str | None = None
    outcome = Outcome.NONE
    if any(v is True for v in verdicts):
        status, outcome = "failed", Outcome.ERROR
    elif verdicts and all(v is False for v in verdicts):
        status, outcome = "ok", Outcome.DONE
    text = step.text
    if text == "" and (step.calls or step.results):
        text = None  # a tool step's empty message: nothing to show
    has_refs = any(r.subagents for r in step.results)
    m = step.metrics
    # each call once, as the row counts them (copied context is not the run's own calls;
    # a step of results answers calls counted where they were made)
    calls: tuple[Call, ...] = ()
    if not step.copied:
        calls = tuple(
            Call(c.name, _CALL_STATE[v]) for c, v in zip(step.calls, verdicts, strict=False)
        )
    return Step(
        ref=f"{run_ref}/step-{step.number}",
        number=step.number,
        kind=_kind(step, has_refs),
        title=_title(step),
        status=status,
        outcome=outcome,
        offset_ms=None
        if step.time is None or t0 is None or step.copied
        else (step.time - t0) * 1000,
        text=text,
        markdown=step.source in ("agent", "user"),
        input=tool_input,
        output=tool_output,
        error="\n".join(failures) or None,
        tools=_tools_of_step(step, steps, pairing),
        tokens_in=count(m.prompt_tokens) if m is not None else None,
        tokens_out=count(m.completion_tokens) if m is not None else None,
        cost=m.cost_usd if m is not None else None,
        calls=calls,
        fields=tuple(fields),
        raw=step.raw,
    )


def _tools_of_step(
    step: AtifStep, steps: tuple[AtifStep, ...], pairing: Pairing
) -> tuple[str, ...]:
    """The tools a step calls, or, for a step of results, the tools whose calls it answers."""
    if step.calls:
        return tool_names(c.name for c in step.calls)
    answered = (pairing.call_of(step.position, ri) for ri in range(len(step.results)))
    return tool_names(
        steps[a[0] - 1].calls[a[1]].name
        for a in answered
        if a is not None and a[0] != step.position
    )


_BRACKETS = (("<<", ">>"), ("<", ">"), ("[", "]"), ("{", "}"), ("(", ")"), ("*", "*"))


def redacted(text: str) -> bool:
    """Whether ``text`` is only a placeholder a redacting exporter left for a message
    (``<<evallab-redacted: 2135 bytes, sha256:…>>``, ``[REDACTED]``): one short line, in
    brackets, that says "redacted"."""
    text = text.strip()
    if not text or len(text) > 300 or "\n" in text or "redacted" not in text.lower():
        return False
    if text.lower().strip("*") == "redacted":
        return True
    return any(text.startswith(a) and text.endswith(b) for a, b in _BRACKETS)


def _first_user_text(trajectory: Trajectory | None) -> str:
    """The first user message that has text (which may be a redaction placeholder)."""
    for step in trajectory.steps if trajectory is not None else ():
        if step.source == "user" and step.text and step.text.strip():
            return step.text
    return ""


def run_title(trajectory: Trajectory | None, trial: TrialResult | None) -> str:
    """A run's title: its first user message, or, when that is empty or redacted (every
    trial of a job would then look the same), the trial's task; the placeholder itself
    only when there is no task to name."""
    first = _first_user_text(trajectory)
    if first and not redacted(first):
        return one_line(first, 160)
    task = one_line(trial.task_name, 160) if trial is not None and trial.task_name else ""
    return task or one_line(first, 160)


def summarize(
    ref: str,
    trajectory: Trajectory | None,
    pairing: Pairing | None,
    trial: TrialResult | None,
    *,
    in_trial: bool,
    finished: bool = True,
    title: str | None = None,
) -> RunSummary:
    """The run-list row of a trial (``in_trial``) or of a trajectory on its own."""
    status, outcome = verdict(trial, finished=finished) if in_trial else (None, Outcome.NONE)
    calls: int | None = None
    failed: int | None = None
    if trajectory is not None and pairing is not None:
        calls, failed = tool_call_counts(trajectory.steps, pairing)
    duration = trial.duration_ms if trial is not None else None
    label = None
    if duration is None and trajectory is not None:
        duration = span_ms(trajectory.steps)
        label = "span of step timestamps" if duration is not None else None
    tokens_in, tokens_out = run_tokens(trajectory, trial)
    return RunSummary(
        ref=ref,
        index=0,
        format=FORMAT_ID,
        status=status,
        outcome=outcome,
        steps=len(trajectory.steps) if trajectory is not None else None,
        failed_tool_calls=failed,
        tool_calls=calls,
        duration_ms=duration,
        duration_label=label,
        score=trial.score if trial is not None else None,
        score_label=trial.score_label if trial is not None else None,
        passed=trial.passed if trial is not None else None,
        cost=run_cost(trajectory, trial),
        title=title if title is not None else run_title(trajectory, trial),
        metadata=run_metadata(trajectory, trial),
        tools=_tools(trajectory),
        tokens_in=tokens_in,
        tokens_out=tokens_out,
    )


def _tools(trajectory: Trajectory | None) -> tuple[str, ...]:
    """Names of the tools a trajectory called (copied context left out), sorted, once."""
    if trajectory is None:
        return ()
    return tuple(
        sorted({c.name for s in trajectory.steps if not s.copied for c in s.calls if c.name})
    )


def _total_fields(sums: Totals) -> list[Field]:
    out = []
    for name in ("prompt_tokens", "completion_tokens", "cached_tokens", "cost_usd"):
        total = getattr(sums, name)
        if total is not None:
            out.append(Field(f"{name} ({total.source})", total.value))
    return out


def trial_fields(trial: TrialResult, result_path: str) -> list[Field]:
    """What a trial's ``result.json`` says, as fields."""
    out = [Field("result file", result_path)]
    for label, value in (
        ("task", trial.task_name),
        ("trial", trial.trial_name),
        ("dataset", trial.dataset),
        ("agent", string(trial.agent.get("name"))),
        ("agent version", string(trial.agent.get("version"))),
        (
            "model",
            string((trial.agent.get("model_info") or {}).get("name"))
            if isinstance(trial.agent.get("model_info"), dict)
            else None,
        ),
    ):
        if value is not None:
            out.append(Field(label, value))
    if trial.rewards is not None:
        out.append(Field("rewards", trial.rewards))
    exc = trial.exception
    if exc is not None:
        out.append(
            Field("exception", f"{exc.get('exception_type')}: {exc.get('exception_message')}")
        )
        if isinstance(exc.get("exception_traceback"), str):
            out.append(Field("traceback", exc["exception_traceback"]))
    for label, value in (("started_at", trial.started_at), ("finished_at", trial.finished_at)):
        if value is not None:
            out.append(Field(label, value))
    if trial.agent_result is not None:
        shown = {
            k: v for k, v in trial.agent_result.items() if v is not None and k != "rollout_details"
        }
        if shown:
            out.append(Field("agent_result", shown))
    return out


def verifier_fields(reports: tuple[Report, ...] | None) -> list[Field]:
    """The trace of each failed test of the verifier's reports (the view lists the tests
    themselves), as a field: folded when long, searched with the run."""
    out = []
    for report in reports or ():
        for test in report.failed:
            if test.trace:
                out.append(Field(f"trace of {test.name}", test.trace))
    return out


def trajectory_fields(
    trajectory: Trajectory, continued: str | None, children: list[str]
) -> list[Field]:
    """What a trajectory's root says, as fields (``continued``: the run its next segment
    is listed as; ``children``: the runs of its subagents)."""
    root = trajectory.root
    out = [Field("trajectory file", trajectory.path)]
    for key in ("schema_version", "session_id", "trajectory_id"):
        if key in root:
            out.append(Field(key, root[key]))
    agent = trajectory.agent
    for key in ("name", "version", "model_name", "model", "provider"):
        if key in agent:
            out.append(Field(f"agent.{key}", agent[key]))
    out.extend(_total_fields(totals(trajectory)))
    if "notes" in root:
        out.append(Field("notes", root["notes"], markdown=True))
    if trajectory.continued_ref is not None:
        out.append(
            Field(
                "continued in",
                f"{continued} ({trajectory.continued_ref})"
                if continued
                else f"{trajectory.continued_ref} (not found)",
            )
        )
    if children:
        out.append(Field("subagents", children))
    if trajectory.final_metrics is not None:
        out.append(Field("final_metrics", trajectory.final_metrics))
    tools = agent.get("tool_definitions")
    if isinstance(tools, list):
        names = [
            string((t.get("function") or {}).get("name"))
            if isinstance(t, dict) and isinstance(t.get("function"), dict)
            else None
            for t in tools
        ]
        out.append(Field("tool_definitions", [n or "(unnamed)" for n in names]))
    for key, value in (("agent.extra", agent.get("extra")), ("extra", root.get("extra"))):
        if value is not None:
            out.append(Field(key, value))
    return out


def run_metadata(
    trajectory: Trajectory | None, trial: TrialResult | None
) -> tuple[tuple[str, str], ...]:
    """A run's facts for grouping: ``agent``, ``agent_version``, ``model`` (the trajectory's
    ``agent``, else the trial's ``agent_info``), ``task`` and ``dataset`` (the trial's
    ``task_name`` and ``source``), ``started`` (the trial's ``started_at``) and its UTC
    ``date``, each where the files say."""
    agent = trajectory.agent if trajectory is not None else {}
    info = trial.agent if trial is not None else {}
    model_info = info.get("model_info")
    pairs = (
        ("agent", string(agent.get("name")) or string(info.get("name"))),
        ("agent_version", string(agent.get("version")) or string(info.get("version"))),
        (
            "model",
            (trajectory.model_name if trajectory is not None else None)
            or (string(model_info.get("name")) if isinstance(model_info, dict) else None),
        ),
        ("task", trial.task_name if trial is not None else None),
        ("dataset", trial.dataset if trial is not None else None),
        ("started", trial.started_at if trial is not None else None),
        ("date", _day(trial.started_at) if trial is not None else None),
    )
    return tuple((k, v) for k, v in pairs if v)


def _day(stamp: str | None) -> str | None:
    """The UTC day of an ISO time with its offset (``stats --by date``), else None (a time
    without one names no day: its zone is not said)."""
    try:
        when = datetime.fromisoformat((stamp or "").strip().replace("Z", "+00:00"))
        return when.astimezone(UTC).strftime("%Y-%m-%d") if when.tzinfo is not None else None
    except (OverflowError, ValueError):
        return None
