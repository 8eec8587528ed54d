"""Model calls as steps (titles, fields, durations) and what the model saw at each step
(:class:`StepContext`); helpers to read a message's tool calls and tool results.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from trajtui.core.io.jsonutil import JsonError, dumps_line, loads
from trajtui.core.io.text import one_line
from trajtui.core.model import Call, Field, Kind, Outcome, Run, Step, StepState
from trajtui.core.values import count, mapping, num, sequence, string, tool_names
from trajtui.formats.forecast.detail import ModelCall, forecast_run, model_call
from trajtui.formats.forecast.pool import Message, MessagePool, ToolCall
from trajtui.formats.forecast.timeline import RawStep, Timeline, first_timestamp, timestamp_of


def arguments(call: ToolCall) -> Any:
    """A tool call's arguments decoded from their JSON string (as they are when not JSON)."""
    value = call.arguments
    if isinstance(value, (str, bytes)):
        try:
            return loads(value)[0]
        except JsonError:
            return value
    return value


def call_title(call: ToolCall, limit: int = 40) -> str:
    """``search("FOMC March 2026 rate…")``: the name and the first argument's value."""
    args = arguments(call)
    if isinstance(args, dict) and args:
        first = next(iter(args.values()))
        shown = dumps_line(first)
    elif isinstance(args, str) and args.strip():
        shown = args
    else:
        shown = ""
    shown = one_line(shown, limit=limit) if shown else ""
    return f"{one_line(call.name, limit=60)}({shown})"


_WRAPPER = re.compile(r"^\s*</?(?:output|error)>\s*$")


def message_line(message: Message) -> str:
    """One line for lists: the tool calls made (as step titles show them), else the first
    line of text that is not an ``<output>``/``<error>`` wrapper tag."""
    if message.tool_calls:
        return ", ".join(call_title(c) for c in message.tool_calls)
    for line in message.text.splitlines():
        if line.strip() and not _WRAPPER.match(line):
            return one_line(line)
    return message.title


def message_title(message: Message | None, key: str | None) -> str:
    """A step's title: its tool calls, else the first line of its text."""
    if message is None:
        return f"(message {one_line(key)} is missing)" if key else "(no output)"
    if not message.tool_calls and not message.text.strip():
        return "(empty, no tool call)"
    return message_line(message)


def tool_results(pool: MessagePool, message: Message) -> list[Message]:
    """The tool messages answering ``message``'s tool calls, in pool order."""
    ids = {c.id for c in message.tool_calls if c.id}
    if not ids:
        return []
    found = []
    for key in pool.keys():
        m = pool.get(key)
        if m is not None and m.role == "tool" and m.tool_call_id in ids:
            found.append(m)
    return found


def caller(pool: MessagePool, message: Message) -> Message | None:
    """The assistant message whose tool call ``message`` (a tool result) answers."""
    if not message.tool_call_id:
        return None
    for key in pool.keys():
        m = pool.get(key)
        if m is not None and any(c.id == message.tool_call_id for c in m.tool_calls):
            return m
    return None


def _text(message: Message | None) -> str | None:
    """The message's text; None when its ``content`` is null (tool calls only)."""
    if message is None or mapping(message.raw).get("content") is None:
        return None
    return message.text


def _usage(message: Message) -> dict[str, Any]:
    return mapping(mapping(message.extra.get("response")).get("usage"))


def _response_facts(message: Message) -> list[Field]:
    response = mapping(message.extra.get("response"))
    out = []
    model = string(response.get("model"))
    if model is not None:
        out.append(Field("model", model))
    choices = sequence(response.get("choices"))
    reason = string(mapping(choices[0]).get("finish_reason")) if choices else None
    if reason is not None:
        out.append(Field("finish_reason", reason))
    usage = _usage(message)
    if usage:
        out.append(Field("usage", usage))
    return out


def _step_fields(
    message: Message | None, results: list[Message], format_errors: list[Message]
) -> tuple[Field, ...]:
    out: list[Field] = []
    if message is not None:
        out.extend(_response_facts(message))
        cost = num(message.extra.get("cost"))
        if cost is not None:
            out.append(Field("cost", cost))
        if message.tool_calls:
            calls = [{"name": c.name, "arguments": arguments(c)} for c in message.tool_calls]
            out.append(Field("tool calls", calls))
    if results:
        out.append(Field("tool results", [m.key for m in results]))
    out.extend(Field("format error", f"{m.key}: {m.text}") for m in format_errors)
    return tuple(out)


def _step_duration(pool: MessagePool, raw: RawStep, end: float | None) -> float | None:
    if end is None:
        return None
    seen = [t for t in (timestamp_of(pool.raw(k)) for k in raw.input_keys) if t is not None]
    if not seen or max(seen) > end:
        return None
    return (end - max(seen)) * 1000


def call_facts(line: Timeline) -> tuple[tuple[str, ...], int | None, int | None]:
    """What a run-list row says of a run's model calls: the tools they called (sorted, each
    once), and their input and output tokens summed as :class:`~trajtui.core.model.Run`
    sums its steps' (None when no call says)."""
    pool = line.pool
    tools: set[str] = set()
    tokens: list[int | None] = [None, None]
    for raw in line.steps:
        out = pool.get(raw.output_key) if raw.output_key else None
        if out is None:
            continue
        tools.update(c.name for c in out.tool_calls if c.name)
        usage = _usage(out)
        for k, key in enumerate(("prompt_tokens", "completion_tokens")):
            n = count(usage.get(key))
            if n is not None:
                tokens[k] = n + (tokens[k] or 0)
    return tuple(sorted(tools)), tokens[0], tokens[1]


def _calls(out: Message | None, results: list[Message]) -> tuple[Call, ...]:
    """Each tool call of a model's reply, with its state: failed when its result is an
    error, ok when it has another result, unknown when none answers it."""
    if out is None:
        return ()
    errors = {m.tool_call_id: m.is_error for m in results if m.tool_call_id}
    state = {True: StepState.FAILED, False: StepState.OK, None: StepState.UNKNOWN}
    return tuple(
        Call(c.name or None, state[errors.get(c.id) if c.id else None]) for c in out.tool_calls
    )


def build_steps(run_ref: str, line: Timeline) -> tuple[Step, ...]:
    """The steps of a run: one per model call, with lazily resolved keys."""
    pool = line.pool
    start = first_timestamp(pool)
    steps = []
    previous: set[str] = set()
    for n, raw in enumerate(line.steps, 1):
        out = pool.get(raw.output_key) if raw.output_key else None
        end = timestamp_of(pool.raw(raw.output_key)) if raw.output_key else None
        results = tool_results(pool, out) if out is not None else []
        errors = [m for m in results if m.is_error]
        added = [pool.get(k) for k in raw.input_keys if k not in previous]
        format_errors = [m for m in added if m is not None and m.is_format_error]
        previous = set(raw.input_keys)
        steps.append(
            Step(
                ref=f"{run_ref}/step-{n}",
                number=n,
                kind=Kind.MODEL_CALL,
                title=message_title(out, raw.output_key),
                offset_ms=None if end is None or start is None else (end - start) * 1000,
                duration_ms=_step_duration(pool, raw, end),
                text=_text(out),
                markdown=True,
                input=list(raw.input_keys),
                output=raw.output_key,
                error=errors[0].text if errors else None,
                outcome=Outcome.ERROR if errors else Outcome.DONE if results else Outcome.NONE,
                tools=tool_names(c.name for c in out.tool_calls) if out is not None else (),
                calls=_calls(out, results),
                tokens_in=count(_usage(out).get("prompt_tokens")) if out is not None else None,
                tokens_out=count(_usage(out).get("completion_tokens")) if out is not None else None,
                cost=num(out.extra.get("cost")) if out is not None else None,
                detail=ModelCall(raw.input_keys, raw.output_key),
                fields=_step_fields(out, results, format_errors),
                raw=raw.raw,
            )
        )
    return tuple(steps)


# -- step context --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StepContext:
    """Exactly what the model saw at one step, and what changed since the step before.

    Attributes:
        number: The step number (1-based).
        keys: The keys of the messages it saw, in order.
        messages: Those messages (None for a key the pool does not have).
        added: Keys seen now and not at the previous step (all of them at step 1).
        dropped: Keys seen at the previous step and not now (old board states,
            messages the context manager truncated away, replaced truncation notices).
        dropped_messages: The dropped messages.
        output_key: The key of the message the model produced.
        output: That message.
    """

    number: int
    keys: tuple[str, ...]
    messages: tuple[Message | None, ...]
    added: tuple[str, ...]
    dropped: tuple[str, ...]
    dropped_messages: tuple[Message | None, ...]
    output_key: str | None
    output: Message | None

    def is_added(self, key: str) -> bool:
        """``key`` is new at this step."""
        return key in self.added


def step_context(run: Run, number: int) -> StepContext | None:
    """The context of step ``number`` of a forecast run, or None when it has no such step
    (or no message pool)."""
    pool = forecast_run(run).pool
    if pool is None or not 1 <= number <= len(run.steps):
        return None
    call = model_call(run.steps[number - 1])
    if call is None:
        return None
    previous = model_call(run.steps[number - 2]) if number > 1 else None
    before = previous.input_keys if previous is not None else ()
    now = set(call.input_keys)
    prior = set(before)
    added = tuple(k for k in call.input_keys if k not in prior)
    dropped = tuple(k for k in before if k not in now)
    return StepContext(
        number=number,
        keys=call.input_keys,
        messages=tuple(pool.messages(call.input_keys)),
        added=added,
        dropped=dropped,
        dropped_messages=tuple(pool.messages(dropped)),
        output_key=call.output_key,
        output=pool.get(call.output_key) if call.output_key else None,
    )
