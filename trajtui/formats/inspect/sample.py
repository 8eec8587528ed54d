"""One Inspect sample as a timeline: its events (or, without events, its messages) as steps.

A sample (``samples/<id>_epoch_<n>.json`` of an ``.eval`` log, an item of a ``.json`` log's
``samples``) records what happened as ``events`` (``transcript.events`` up to 0.3.45):

* ``sample_init``: the input and target (a ``task`` step);
* ``model``: a model call, its output message, the tool calls it asks for, its tokens
  (``output.usage``) and time (``working_time``); its input messages are ``input`` or, from
  0.3.186, ranges (``input_refs``) of the sample's ``events_data.messages`` pool;
* ``tool``: a tool call with its ``arguments``, its ``result`` and, when it failed, its
  ``error`` (``{type, message}``): a tool call step, failed when it has an error;
* ``score``: a scorer's score (a ``result`` step); ``error``: the error that ended the
  sample; ``logger``, ``info``, ``sample_limit``, ``input``, ``approval``, ``compaction``,
  ``interrupt``, ``subtask``: steps of their own;
* ``span_begin``/``span_end``/``step`` (the structure), ``state``/``store`` (state diffs),
  ``sandbox``: not steps (they hold no content of their own to read).

A tool call a model asked for that no ``tool`` event answers (the R package vitals writes
no tool events) is counted on the model call, its state unknown, never failed. A sample
without events (hand-made logs) is read from its ``messages``: each tool message a tool
call step (failed when it has an ``error``), the others message steps.

``attachment://<hash>`` strings (bodies Inspect stores once, in ``attachments``) are shown
resolved. Times: offsets from the sample's ``started_at`` (else its first event), from each
event's ``timestamp`` (``working_start`` is not an offset one can use: it mixes clocks).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from trajtui.core.io.text import one_line
from trajtui.core.model import Call, Field, Kind, Outcome, Step, StepState
from trajtui.formats.inspect.content import content_text, input_text

__all__ = ["Timeline", "content_text", "events_of", "input_text", "moment", "timeline"]

ATTACHMENT = "attachment://"
_HIDDEN = {"span_begin", "span_end", "step", "state", "store", "sandbox", "anchor", "branch"}
_TITLES = {
    "logger": "log",
    "info": "info",
    "sample_limit": "limit",
    "input": "input",
    "approval": "approval",
    "compaction": "compaction",
    "interrupt": "interrupt",
    "subtask": "subtask",
    "checkpoint": "checkpoint",
    "review": "review",
    "sentinel": "sentinel",
    "score_edit": "score edit",
}


@dataclass(frozen=True, slots=True)
class Timeline:
    """A sample's steps and what they count.

    Attributes:
        steps: The steps, in time order.
        tool_calls: Tool calls made (a tool event each; a call no event answers, once).
        failed: Tool calls that failed (tool events with an ``error``; tool messages with
            one, for a sample without events).
        messages: Messages of the sample's conversation (``messages``).
        tools: The tools called, sorted, once each.
    """

    steps: tuple[Step, ...]
    tool_calls: int
    failed: int
    messages: int
    tools: tuple[str, ...]


def moment(value: Any) -> float | None:
    """Epoch milliseconds of an ISO timestamp, or None."""
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value.strip().replace("Z", "+00:00")).timestamp() * 1000
    except ValueError:
        return None


class _Attachments:
    def __init__(self, table: Any) -> None:
        self.table = table if isinstance(table, dict) else {}

    def __call__(self, value: Any) -> Any:
        """``value`` with every ``attachment://`` string replaced by its body."""
        if not self.table:
            return value
        if isinstance(value, str):
            if value.startswith(ATTACHMENT):
                body = self.table.get(value[len(ATTACHMENT) :])
                return body if isinstance(body, str) else value
            return value
        if isinstance(value, list):
            return [self(v) for v in value]
        if isinstance(value, dict):
            return {k: self(v) for k, v in value.items()}
        return value


def events_of(sample: dict[str, Any]) -> list[Any] | None:
    """The sample's events (``events``, or ``transcript.events`` of old logs), or None."""
    events = sample.get("events")
    if isinstance(events, list) and events:
        return events
    transcript = sample.get("transcript")
    if isinstance(transcript, dict) and isinstance(transcript.get("events"), list):
        return transcript["events"] or None
    return None


def timeline(sample: dict[str, Any], ref: str) -> Timeline:
    """The steps of ``sample`` (a run called ``ref``) and their counts."""
    att = _Attachments(sample.get("attachments"))
    messages = sample.get("messages")
    n_messages = len(messages) if isinstance(messages, list) else 0
    events = events_of(sample)
    if events is not None:
        made = list(_from_events(sample, events, att))
    else:
        made = list(_from_messages(messages if isinstance(messages, list) else [], att))
    steps = tuple(_step(ref, n, item) for n, item in enumerate(_ordered(made, sample), 1))
    calls = sum(1 for s in steps if s.kind is Kind.TOOL_CALL) + sum(
        len(s.calls or ()) for s in steps if s.kind is not Kind.TOOL_CALL
    )
    failed = sum(1 for s in steps if s.kind is Kind.TOOL_CALL and s.outcome is Outcome.ERROR)
    tools = sorted({t for s in steps for t in s.tools})
    return Timeline(steps, calls, failed, n_messages, tuple(tools))


@dataclass(slots=True)
class _Made:
    at: float | None
    kind: Kind
    title: str
    values: dict[str, Any]


def _ordered(made: list[_Made], sample: dict[str, Any]) -> list[tuple[_Made, float | None]]:
    """The steps in time order (a tool event is written after what it contains, its
    timestamp its start), each with its offset from the sample's start (its ``started_at``,
    or its first event when that is earlier: the init events are)."""
    times = [m.at for m in made if m.at is not None]
    began = moment(sample.get("started_at"))
    if began is not None:
        times.append(began)
    start = min(times, default=None)  # the first event may precede started_at (init)
    order = sorted(range(len(made)), key=lambda i: (made[i].at is None, made[i].at or 0, i))
    if any(m.at is None for m in made):
        order = list(range(len(made)))  # not every step has a time: keep the file's order
    out: list[tuple[_Made, float | None]] = []
    for i in order:
        at = made[i].at
        out.append((made[i], None if at is None or start is None else at - start))
    return out


def _step(ref: str, n: int, item: tuple[_Made, float | None]) -> Step:
    made, offset = item
    return Step(
        ref=f"{ref}/step-{n}",
        number=n,
        kind=made.kind,
        title=made.title,
        offset_ms=offset,
        **made.values,
    )


def _answered(events: list[Any]) -> set[str]:
    return {
        str(e["id"])
        for e in events
        if isinstance(e, dict) and e.get("event") == "tool" and e.get("id") is not None
    }


def _from_events(sample: dict[str, Any], events: list[Any], att: _Attachments) -> Iterator[_Made]:
    answered = _answered(events)
    pool = (
        (sample.get("events_data") or {}).get("messages")
        if isinstance(sample.get("events_data"), dict)
        else None
    )
    pool = pool if isinstance(pool, list) else sample.get("message_pool")
    for e in events:
        if not isinstance(e, dict):
            continue
        kind = e.get("event")
        if kind in _HIDDEN:
            continue
        at = moment(e.get("timestamp"))
        if kind == "sample_init":
            yield _init(e, at, att)
        elif kind == "model":
            yield _model(e, at, att, answered, pool)
        elif kind == "tool":
            yield _tool(e, at, att)
        elif kind == "score":
            yield _score(e, at, att)
        elif kind == "error":
            err = e.get("error")
            message = err.get("message") if isinstance(err, dict) else err
            text = str(message) if message is not None else "error"
            tb = err.get("traceback") if isinstance(err, dict) else None
            yield _Made(
                at,
                Kind.OTHER,
                f"error: {one_line(text)}",
                {
                    "status": "error",
                    "outcome": Outcome.ERROR,
                    "error": text,
                    "text": tb if isinstance(tb, str) else None,
                    "raw": e,
                },
            )
        else:
            yield _other(e, at, att, str(kind))


def _init(e: dict[str, Any], at: float | None, att: _Attachments) -> _Made:
    sample = _obj(e.get("sample"))
    text = input_text(att(sample.get("input")))
    fields = []
    if "target" in sample:
        fields.append(Field("target", sample.get("target")))
    return _Made(
        at,
        Kind.TASK,
        f"input: {one_line(text)}" if text else "sample",
        {
            "text": text or None,
            "input": att(sample.get("input")),
            "fields": tuple(fields),
            "raw": e,
        },
    )


def _message_calls(message: Any) -> list[dict[str, Any]]:
    calls = message.get("tool_calls") if isinstance(message, dict) else None
    return [c for c in calls if isinstance(c, dict)] if isinstance(calls, list) else []


def _model(
    e: dict[str, Any], at: float | None, att: _Attachments, answered: set[str], pool: Any
) -> _Made:
    output = _obj(e.get("output"))
    choices = _list(output.get("choices"))
    message = choices[0].get("message") if choices and isinstance(choices[0], dict) else None
    text = content_text(att(message.get("content"))) if isinstance(message, dict) else ""
    if not text and isinstance(output.get("completion"), str):
        text = att(output["completion"])
    calls = _message_calls(message)
    names = tuple(dict.fromkeys(str(c.get("function")) for c in calls if c.get("function")))
    unanswered = tuple(
        Call(str(c["function"]) if c.get("function") else None, StepState.UNKNOWN)
        for c in calls
        if str(c.get("id")) not in answered
    )
    usage = _obj(output.get("usage"))
    model_input: Any = e.get("input")
    refs = e.get("input_refs")
    if (not model_input) and isinstance(refs, list) and isinstance(pool, list):
        model_input = [
            m for r in refs if isinstance(r, list) and len(r) == 2 for m in pool[r[0] : r[1]]
        ]
    error = e.get("error")
    title = one_line(text) if text else (f"calls {', '.join(names)}" if names else "model call")
    fields = [Field("model", e.get("model"))] if e.get("model") is not None else []
    if output.get("stop_reason") is not None or (
        choices and isinstance(choices[0], dict) and choices[0].get("stop_reason")
    ):
        fields.append(
            Field(
                "stop_reason",
                choices[0].get("stop_reason") if choices else output.get("stop_reason"),
            )
        )
    if calls:
        fields.append(Field("tool_calls", att(calls)))
    if usage:
        fields.append(Field("usage", usage))
    return _Made(
        at,
        Kind.MODEL_CALL,
        title,
        {
            "text": text or None,
            "markdown": True,
            "input": att(model_input) if model_input else None,
            "tools": names,
            "calls": unanswered,
            "tokens_in": _int(usage.get("input_tokens")),
            "tokens_out": _int(usage.get("output_tokens")),
            "cost": _float(usage.get("total_cost")),
            "duration_ms": _seconds(e.get("working_time")),
            "error": str(error) if error else None,
            "status": "error" if error else None,
            "outcome": Outcome.ERROR if error else Outcome.NONE,
            "fields": tuple(fields),
            "raw": e,
        },
    )


def _tool(e: dict[str, Any], at: float | None, att: _Attachments) -> _Made:
    name = str(e.get("function")) if e.get("function") is not None else None
    error = e.get("error")
    message = None
    if isinstance(error, dict):
        message = str(error.get("message") or error.get("type") or "error")
        if error.get("type") not in (None, "unknown"):
            message = f"{error.get('type')}: {message}"
    elif error:
        message = str(error)
    elif e.get("failed") is True:  # a tool the agent marked failed, without an error object
        message = "failed"
    if e.get("pending"):
        status, outcome = "pending", Outcome.RUNNING
    elif message is not None:
        status, outcome = "error", Outcome.ERROR
    else:
        status, outcome = "ok", Outcome.DONE
    return _Made(
        at,
        Kind.TOOL_CALL,
        name or "tool",
        {
            "input": att(e.get("arguments")),
            "output": att(e.get("result")),
            "error": message,
            "status": status,
            "outcome": outcome,
            "tools": (name,) if name else (),
            "duration_ms": _seconds(e.get("working_time")),
            "stored_id": str(e["id"]) if e.get("id") is not None else None,
            "raw": e,
        },
    )


def _score(e: dict[str, Any], at: float | None, att: _Attachments) -> _Made:
    score = _obj(e.get("score"))
    scorer = e.get("scorer")
    value = score.get("value")
    head = f"score {scorer}: " if scorer else "score: "
    fields = [Field("value", value)]
    for key in ("answer", "target"):
        if key == "answer" and score.get("answer") is not None:
            fields.append(Field("answer", att(score.get("answer"))))
        elif key == "target" and e.get("target") is not None:
            fields.append(Field("target", e.get("target")))
    if e.get("intermediate"):
        fields.append(Field("intermediate", True))
    explanation = score.get("explanation")
    return _Made(
        at,
        Kind.RESULT,
        head + one_line(str(value) if not isinstance(value, str) else value),
        {
            "text": att(explanation) if isinstance(explanation, str) else None,
            "markdown": True,
            "fields": tuple(fields),
            "raw": e,
        },
    )


def _other(e: dict[str, Any], at: float | None, att: _Attachments, kind: str) -> _Made:
    text: Any = None
    for key in ("message", "data", "input", "content", "summary"):
        if e.get(key) is not None:
            text = att(e.get(key))
            break
    if isinstance(text, dict) and isinstance(text.get("message"), str):
        text = text["message"]
    shown = text if isinstance(text, str) else None
    title = _TITLES.get(kind, kind)
    if shown:
        title = f"{title}: {one_line(shown)}"
    return _Made(
        at, Kind.OTHER, title, {"text": shown, "output": None if shown else text, "raw": e}
    )


def _from_messages(messages: list[Any], att: _Attachments) -> Iterator[_Made]:
    answered = {
        str(m.get("tool_call_id"))
        for m in messages
        if isinstance(m, dict) and m.get("role") == "tool" and m.get("tool_call_id") is not None
    }
    for m in messages:
        if not isinstance(m, dict):
            continue
        role = str(m.get("role") or "message")
        text = content_text(att(m.get("content")))
        if role == "tool":
            err = m.get("error")
            message = None
            if isinstance(err, dict):
                message = str(err.get("message") or err.get("type") or "error")
                if err.get("type") not in (None, "unknown"):
                    message = f"{err.get('type')}: {message}"
            elif err:
                message = str(err)
            name = str(m.get("function")) if m.get("function") else None
            yield _Made(
                None,
                Kind.TOOL_CALL,
                name or "tool",
                {
                    "output": text,
                    "error": message,
                    "status": "error" if message else "ok",
                    "outcome": Outcome.ERROR if message else Outcome.DONE,
                    "tools": (name,) if name else (),
                    "stored_id": str(m["tool_call_id"])
                    if m.get("tool_call_id") is not None
                    else None,
                    "raw": m,
                },
            )
            continue
        calls = _message_calls(m)
        names = tuple(dict.fromkeys(str(c.get("function")) for c in calls if c.get("function")))
        unanswered = tuple(
            Call(str(c["function"]) if c.get("function") else None, StepState.UNKNOWN)
            for c in calls
            if str(c.get("id")) not in answered
        )
        kind = Kind.THOUGHT if role == "system" else Kind.MESSAGE
        title = (
            f"{role}: {one_line(text)}"
            if text
            else (f"{role}: calls {', '.join(names)}" if names else role)
        )
        yield _Made(
            None,
            kind,
            title,
            {
                "text": text or None,
                "markdown": role == "assistant",
                "tools": names,
                "calls": unanswered,
                "fields": (Field("tool_calls", att(calls)),) if calls else (),
                "raw": m,
            },
        )


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _float(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _seconds(value: Any) -> float | None:
    v = _float(value)
    return None if v is None else v * 1000


def _obj(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
