"""acp-harness trajectory steps: kinds, tool-call pairing and counts."""

from __future__ import annotations

from typing import Any

from trajtui.core.io.text import one_line
from trajtui.core.model import Kind, Outcome, Step
from trajtui.core.stats.facts import ToolCall
from trajtui.core.values import fields, mapping, num, sequence, string, text_of
from trajtui.formats.acp.lite import StepLite
from trajtui.formats.acp.pairing import pair_tool_calls, tool_calls, tool_names, tool_of_name

_KINDS = {
    "thought": Kind.THOUGHT,
    "message": Kind.MESSAGE,
    "tool_call": Kind.TOOL_CALL,
    "plan": Kind.PLAN,
}
_TOOL_OUTCOME = {
    "pending": Outcome.RUNNING,
    "in_progress": Outcome.RUNNING,
    "completed": Outcome.DONE,
    "failed": Outcome.ERROR,
}


def _offset(ts: Any, start: float | None) -> float | None:
    t = num(ts)
    if t is None:
        return None
    if start is not None and t > 1e11 and t >= start:  # an epoch timestamp
        return t - start
    return t


def build_steps(trajectory: Any, ref_of: Any, start: float | None) -> tuple[Step, ...]:
    """Steps of one trajectory array.

    Args:
        trajectory: The ``trajectory`` value as in the file (anything).
        ref_of: Function from step number (1-based) to the step's reference.
        start: ``timing.start``, to make epoch timestamps relative.
    """
    raw_steps = sequence(trajectory)
    names: list[str | None] = []
    statuses: list[str | None] = []
    for s in raw_steps:
        m = mapping(s)
        is_tool = m.get("type") == "tool_call"
        names.append((string(m.get("name")) or "") if is_tool else None)
        statuses.append(string(m.get("status")) if is_tool else None)
    pairs = pair_tool_calls(names, statuses)
    steps: list[Step] = []
    for pos, s in enumerate(raw_steps):
        n = pos + 1
        m = mapping(s)
        type_ = string(m.get("type"))
        kind = _KINDS.get(type_ or "", Kind.OTHER)
        status = string(m.get("status"))
        text: str | None = None
        title: str
        if not isinstance(s, dict):
            title = f"(not an object: {type(s).__name__})"
        elif kind in (Kind.MESSAGE, Kind.THOUGHT):
            text = text_of(m.get("content"))
            title = one_line(text) if text.strip() else "(empty)"
        elif kind is Kind.TOOL_CALL:
            title = one_line(string(m.get("name")) or "(unnamed tool)")
        elif kind is Kind.PLAN:
            entries = sequence(m.get("entries"))
            first = one_line(text_of(mapping(entries[0]).get("content"))) if entries else ""
            title = f"{len(entries)} entries" + (f": {first}" if first else "")
        else:
            title = one_line(type_ or "step")
        pair = pairs.get(pos)
        error = string(m.get("error"))
        # A call's completing half is often named by its call id: the tool is the opener's.
        # A half named only by a call id says its tool when the id holds it (Gemini's).
        tool = names[pair] if pair is not None and pair < pos and names[pair] else names[pos]
        tool = tool_of_name(tool)
        steps.append(
            Step(
                ref=ref_of(n),
                number=n,
                kind=kind,
                title=title,
                status=status,
                outcome=_TOOL_OUTCOME.get(status or "", Outcome.NONE)
                if kind is Kind.TOOL_CALL
                else Outcome.NONE,
                offset_ms=_offset(m.get("timestamp"), start),
                duration_ms=num(m.get("duration")),
                text=text,
                markdown=kind in (Kind.MESSAGE, Kind.THOUGHT),
                input=m.get("input"),
                output=m.get("output"),
                error=error,
                pair=None if pair is None else pair + 1,
                stored_id=string(m.get("stepId")),
                tools=(tool,) if tool else (),
                fields=fields(
                    m,
                    (),
                    skip=(
                        "type",
                        "content",
                        "name",
                        "status",
                        "timestamp",
                        "duration",
                        "input",
                        "output",
                        "stepId",
                        "error",
                    ),
                ),
                raw=s,
            )
        )
    return tuple(steps)


def tool_stats(trajectory: Any) -> tuple[int | None, int | None, set[str]]:
    """``(tool calls, tool errors, tool names)`` of a trajectory array, counted as the
    timeline pairs the halves of a call (:func:`trajtui.formats.acp.pairing.count_tool_calls`: the
    same count on every surface); ``(None, None, set())`` when it is not an array.

    A call opened and never completed counts; a completion pairs with the call it
    completes, so a call's two halves count once; a tool error is a call whose status is
    ``failed``. The names are the tools the calls name (:func:`tool_of_name`: a call id
    names none, a Gemini call id the tool it starts with).
    """
    if not isinstance(trajectory, list):
        return None, None, set()
    names: list[str] = []
    statuses: list[str | None] = []
    for s in trajectory:
        if type(s) is StepLite:  # decoded for a run-list row: a missing field is UNSET
            if s.type != "tool_call":
                continue
            name, status = s.name, s.status
        elif not isinstance(s, dict) or s.get("type") != "tool_call":
            continue
        else:
            name, status = s.get("name"), s.get("status")
        names.append(name if isinstance(name, str) else "")
        statuses.append(status if isinstance(status, str) else None)
    return tool_calls(names, statuses)


def lite_calls(trajectory: Any, start: float | None) -> tuple[ToolCall, ...]:
    """The tool calls the statistics count of a trajectory array (of :class:`StepLite`
    or dicts), without building its steps: what
    :func:`trajtui.core.stats.facts.step_calls` gives of :func:`build_steps`' steps (a
    call at its opening half, its tool the one that half names, its state its completing
    half's, its duration that half's ``duration``, else the opening's, else the time
    between their timestamps)."""
    return tool_figures(trajectory, start)[3]


def tool_figures(
    trajectory: Any, start: float | None
) -> tuple[int | None, int | None, set[str], tuple[ToolCall, ...]]:
    """:func:`tool_stats` and :func:`lite_calls` of a trajectory array together, from one
    pairing of its calls (the statistics want both of every run)."""
    items = [s if type(s) is StepLite else _as_lite(s) for s in sequence(trajectory)]
    names: list[str | None] = []
    statuses: list[str | None] = []
    calls: list[str] = []
    failed = 0
    for s in items:
        if s.type == "tool_call":
            name, status = s.name, s.status
            name = name if type(name) is str else ""
            names.append(name)
            calls.append(name)
            if type(status) is str:
                statuses.append(status)
                failed += status == "failed"
            else:
                statuses.append(None)
        else:
            names.append(None)
            statuses.append(None)
    if not isinstance(trajectory, list):
        return None, None, set(), ()
    if not calls:
        return 0, 0, set(), ()
    pairs = pair_tool_calls(names, statuses)
    out: list[ToolCall] = []
    for pos, s in enumerate(items):
        if names[pos] is None:
            continue
        pair = pairs.get(pos)
        if pair is not None and pair < pos:
            continue  # the completing half of a call counted at its opening
        end = items[pair] if pair is not None else s
        state = _TOOL_OUTCOME.get(string(end.status) or "", Outcome.NONE).state
        duration = num(end.duration)
        if duration is None:
            duration = num(s.duration)
        if duration is None and end is not s:
            t0, t1 = _offset(s.timestamp, start), _offset(end.timestamp, start)
            if t0 is not None and t1 is not None:
                duration = t1 - t0
        out.append(ToolCall(tool_of_name(names[pos]), state, duration))
    return len(calls) - len(pairs) // 2, failed, tool_names(calls), tuple(out)


def _as_lite(s: Any) -> StepLite:
    m = mapping(s)
    return StepLite(
        **{k: m[k] for k in ("type", "status", "name", "timestamp", "duration") if k in m}
    )
