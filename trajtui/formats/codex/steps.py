"""A rollout line as a timeline step (or none), decided by the line alone.

The timeline is built from the ``response_item`` lines (complete, ordered, with call ids):
Codex writes the same text again as events (``user_message``, ``agent_message``,
``agent_reasoning``, 0.171's ``item_completed``), and those copies are never steps, so
text recorded twice shows once. Events with no item of their own are steps: an aborted
turn, an error, a review mode entered. A call's output item is no step of its own: it is
the call's output (:func:`call_step` gets it). Bookkeeping lines (``turn_context``,
``state``, ``token_count``, ``ghost_snapshot``, the tool schemas of ``additional_tools``,
``world_state``) are folded into the run's facts. A line of a type this module does not
know is a step of kind ``other`` holding the line verbatim.

Turns: the core timeline has no grouping level, so each turn starts with a marker: the
user's prompt is the step titled ``turn N ·`` (N counted by :mod:`.fold`), the steps up to
the next prompt are that turn's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from trajtui.core.io.text import one_line
from trajtui.core.model import Field, Kind, Outcome, Step
from trajtui.core.values import mapping, string
from trajtui.formats.codex import items
from trajtui.formats.codex.lines import (
    COMPACTED,
    EVENT_MSG,
    HIDDEN_TAGS,
    NOT_OBJECT,
    RESPONSE_ITEM,
    SESSION_META,
    Line,
)

HIDDEN_ITEMS = frozenset({"ghost_snapshot", "additional_tools", *items.OUTPUT_TYPES})
"""Response items that are no step: /undo snapshots, tool schemas, and outputs (folded
into their call)."""

SHOWN_EVENTS = frozenset(
    {
        "turn_aborted",
        "error",
        "stream_error",
        "warning",
        "entered_review_mode",
        "exited_review_mode",
        "thread_rolled_back",
        "undo_completed",
    }
)
"""Events that are steps: they have no response item saying the same."""

ERROR_EVENTS = frozenset({"turn_aborted", "error", "stream_error"})

KNOWN_EVENTS = frozenset(
    {
        "user_message",
        "agent_message",
        "agent_message_delta",
        "agent_reasoning",
        "agent_reasoning_delta",
        "agent_reasoning_raw_content",
        "agent_reasoning_raw_content_delta",
        "agent_reasoning_section_break",
        "token_count",
        "task_started",
        "task_complete",
        "turn_started",
        "turn_complete",
        "item_started",
        "item_completed",
        "thread_settings_applied",
        "session_configured",
        "exec_command_begin",
        "exec_command_end",
        "exec_command_output_delta",
        "exec_approval_request",
        "apply_patch_approval_request",
        "patch_apply_begin",
        "patch_apply_end",
        "mcp_tool_call_begin",
        "mcp_tool_call_end",
        "mcp_list_tools_response",
        "web_search_begin",
        "web_search_end",
        "view_image_tool_call",
        "plan_update",
        "turn_diff",
        "background_event",
        "context_compacted",
        "get_history_entry_response",
        "list_custom_prompts_response",
        "shutdown_complete",
        "undo_started",
        "conversation_path",
        "raw_response_item",
        "deprecation_notice",
    }
)
"""Events that copy what a response item says, or are bookkeeping: never steps."""


def makes_step(line: Line) -> bool:
    """Whether ``line`` is a step of the timeline (by the line alone, so counting steps
    and finding step N need no other line)."""
    tag = line.tag
    if tag == RESPONSE_ITEM:
        return line.kind not in HIDDEN_ITEMS
    if tag == EVENT_MSG:
        return line.kind in SHOWN_EVENTS or line.kind not in KNOWN_EVENTS
    return tag not in HIDDEN_TAGS


def is_prompt(line: Line) -> bool:
    """A user message the user wrote (not context Codex injected): a turn's start."""
    p = line.payload
    if line.tag != RESPONSE_ITEM or line.kind != "message" or p.get("role") != "user":
        return False
    return items.injected(items.content_text(p.get("content"))) is None


@dataclass(frozen=True, slots=True)
class Answer:
    """What answered a call: its output item and when it was written.

    Attributes:
        output: The output item's ``output`` as written.
        time: Its line's time (epoch ms), or None.
        failed: A 0.171 ``item_completed`` said the command failed.
    """

    output: Any
    time: float | None = None
    failed: bool = False


def call_state(answer: Answer | None) -> tuple[str, Outcome]:
    """A call's status word and outcome: ``pending`` when nothing answered it (a turn
    interrupted before its output: never completed), ``failed`` for an exit code other than
    0 (or a command said failed), ``completed`` for 0, ``answered`` for an output that says
    no exit code (its outcome unknown)."""
    if answer is None:
        return "pending", Outcome.RUNNING
    code = items.exit_code(answer.output)
    if answer.failed or (code is not None and code != 0):
        return "failed", Outcome.ERROR
    if code == 0:
        return "completed", Outcome.DONE
    return "answered", Outcome.NONE


def build_step(
    line: Line,
    raw: Any,
    *,
    ref: str,
    number: int,
    start: float | None,
    answer: Answer | None = None,
    turn: int | None = None,
) -> Step:
    """The step of ``line`` (one for which :func:`makes_step` is true).

    Args:
        line: The line, normalised.
        raw: The line as in the file (kept verbatim as the step's raw JSON).
        ref: The step's reference.
        number: Its 1-based position in the timeline.
        start: The run's first time (epoch ms), for offsets.
        answer: What answered it, for a call.
        turn: The turn a user prompt starts.
    """
    p = line.payload
    offset = None if line.time is None or start is None else line.time - start
    base: dict[str, Any] = {"ref": ref, "number": number, "offset_ms": offset, "raw": raw}
    if line.tag == RESPONSE_ITEM:
        return _item_step(p, line.kind or "", base, answer, turn, line.time)
    if line.tag == EVENT_MSG:
        kind = line.kind or "event"
        message = string(p.get("message")) or string(p.get("reason"))
        error = (message or kind) if kind in ERROR_EVENTS else None
        title = f"{kind.replace('_', ' ')}" + (f": {one_line(message)}" if message else "")
        dur = p.get("duration_ms")
        return Step(
            kind=Kind.OTHER,
            title=title,
            status=string(p.get("reason")) if kind == "turn_aborted" else None,
            outcome=Outcome.ERROR if error else Outcome.NONE,
            error=error,
            duration_ms=dur
            if isinstance(dur, (int, float)) and not isinstance(dur, bool)
            else None,
            fields=_fields(p, ("type", "message", "reason", "duration_ms")),
            **base,
        )
    if line.tag == SESSION_META:
        return Step(kind=Kind.OTHER, title=_session_title(p), fields=_meta_fields(p), **base)
    if line.tag == COMPACTED:
        summary = string(p.get("message")) or ""
        kept = p.get("replacement_history")
        title = "compacted" + (f": {one_line(summary)}" if summary else "")
        extra = (Field("replacement history items", len(kept)),) if isinstance(kept, list) else ()
        return Step(kind=Kind.OTHER, title=title, text=summary or None, fields=extra, **base)
    what = "line is not a JSON object" if line.tag == NOT_OBJECT else line.tag
    return Step(kind=Kind.OTHER, title=one_line(what), **base)


def _item_step(
    p: dict[str, Any],
    kind: str,
    base: dict[str, Any],
    answer: Answer | None,
    turn: int | None,
    time: float | None,
) -> Step:
    if kind == "message":
        role = string(p.get("role")) or "?"
        text = items.content_text(p.get("content"))
        if role == "assistant":
            title = one_line(text) if text.strip() else "(empty)"
            return Step(kind=Kind.MESSAGE, title=title, text=text, markdown=True, **base)
        context = items.injected(text) if role == "user" else items.leading_tag(text)
        if role == "user" and context is None:
            head = f"turn {turn} · " if turn is not None else ""
            title = head + (one_line(text) if text.strip() else "(empty)")
            return Step(kind=Kind.MESSAGE, title=title, text=text, **base)
        label = context or f"{role} message"
        return Step(kind=Kind.OTHER, title=f"{role} context: {one_line(label)}", text=text, **base)
    if kind == "reasoning":
        text = items.reasoning_text(p)
        title = one_line(text) if text.strip() else "reasoning (encrypted)"
        return Step(kind=Kind.THOUGHT, title=title, text=text or None, markdown=True, **base)
    if kind in items.CALL_TYPES or kind in items.STATUS_CALL_TYPES:
        return _call_step(p, kind, base, answer, time)
    what = f"{kind or 'item'}"
    return Step(kind=Kind.OTHER, title=one_line(what), **base)


def _call_step(
    p: dict[str, Any], kind: str, base: dict[str, Any], answer: Answer | None, time: float | None
) -> Step:
    tool = items.call_tool(p)
    summary = items.call_summary(p)
    title = tool + (f" {one_line(summary)}" if summary else "")
    if kind in items.STATUS_CALL_TYPES:  # no output item follows: its own status says
        status = string(p.get("status"))
        outcome = {"completed": Outcome.DONE, "failed": Outcome.ERROR}.get(
            status or "", Outcome.NONE
        )
        output = None
    else:
        status, outcome = call_state(answer)
        output = None if answer is None else items.output_text(answer.output)
    duration = None  # from the call's line to its output's
    if answer is not None and answer.time is not None and time is not None:
        duration = max(0.0, answer.time - time)
    return Step(
        kind=Kind.TOOL_CALL,
        title=title,
        status=status,
        outcome=outcome,
        input=items.call_input(p),
        output=output,
        stored_id=string(p.get("call_id")),
        tools=(tool,),
        duration_ms=duration,
        fields=_fields(p, ("type", "name", "arguments", "input", "call_id", "action", "id")),
        **base,
    )


def _fields(p: dict[str, Any], skip: tuple[str, ...]) -> tuple[Field, ...]:
    return tuple(
        Field(k, v)
        for k, v in p.items()
        if k not in skip and k != "internal_chat_message_metadata_passthrough"
    )


def _session_title(p: dict[str, Any]) -> str:
    version = string(p.get("cli_version"))
    cwd = string(p.get("cwd"))
    parts = ["session", string(p.get("id")) or ""]
    if version:
        parts.append(f"codex {version}")
    if cwd:
        parts.append(cwd)
    return one_line(" · ".join(x for x in parts if x))


def _meta_fields(p: dict[str, Any]) -> tuple[Field, ...]:
    out = []
    for key, value in p.items():
        if key == "base_instructions":
            text = string(mapping(value).get("text")) or ""
            out.append(Field("base_instructions", f"(system prompt, {len(text):,} characters)"))
        else:
            out.append(Field(key, value))
    return tuple(out)


def inherited_step(line: Line, raw: Any, run_ref: str, number: int, lines: int) -> Step:
    """The step a fork's copied history is folded into: the parent's ``session_meta``
    (``line``) and the ``lines`` after it that the fork copied from the parent (none of
    them this session's own turns, calls or tokens)."""
    p = line.payload
    parent = string(p.get("id")) or "?"
    version = string(p.get("cli_version"))
    title = (
        f"inherited history of {parent}"
        + (f" (codex {version})" if version else "")
        + f" · {lines:,} line{'s' if lines != 1 else ''} copied when this session was forked"
    )
    return Step(
        ref=f"{run_ref}/step-{number}",
        number=number,
        kind=Kind.OTHER,
        title=one_line(title),
        fields=(Field("inherited lines", lines), *_meta_fields(p)),
        raw=raw,
    )
