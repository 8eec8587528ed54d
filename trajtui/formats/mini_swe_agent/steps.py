"""A mini-swe-agent run's timeline, from its messages.

* ``system`` and ``user`` messages are prompt steps; a ``user`` message with
  ``extra.interrupt_type`` (a ``FormatError``, a human's input) is said as such.
* An ``assistant`` message is a thought (its text, its model call's tokens from
  ``extra.response.usage`` and cost from ``extra.cost``), followed by one tool call per
  action: a native tool call (1.1: ``tool_calls``, answered by the ``tool`` message of
  the same ``tool_call_id``), an entry of ``extra.actions`` (2.x text-based configs,
  answered by the next ``user`` messages), or the one fenced ```` ```bash ```` (or
  ```` ```mswea_bash_command ````) block of its text (1.x and the bare list: mini runs an
  action only when there is exactly one), answered by the next ``user`` message.
* A tool call's state is its return code: ``extra.returncode`` (2.x), else the
  ``<returncode>`` of the observation's text (1.x). ``exception_info`` is an error, except
  ``action was not executed`` (what 2.x records for the submit command itself), which is
  neither a success nor a failure.
* The ``exit`` message (2.x), or else ``info.exit_status`` (1.x), is the result step: the
  exit status, and the submission as its output.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from trajtui.core.io.jsonutil import JsonError, loads
from trajtui.core.io.text import one_line
from trajtui.core.model import Field, Kind, Outcome, Step
from trajtui.core.values import count, integer, mapping, num, sequence, string, text_parts

NOT_EXECUTED = "action was not executed"
_FENCE = re.compile(r"```(?:bash|mswea_bash_command)[ \t\r\f\v]*\n")
_RETURNCODE = re.compile(r"<returncode>\s*(-?\d+)\s*</returncode>|\"returncode\":\s*(-?\d+)")


def exit_outcome(status: str | None) -> Outcome:
    """The category of an exit status word: ``Submitted`` done, limits a timeout, any other
    word (``RepeatedFormatError``, an exception's name) an error; none when there is none."""
    if not status:
        return Outcome.NONE
    if status == "Submitted":
        return Outcome.DONE
    if status in ("LimitsExceeded", "TimeExceeded") or "Timeout" in status:
        return Outcome.TIMEOUT
    return Outcome.ERROR


def timestamp(msg: dict[str, Any]) -> float | None:
    """When a message was written (Unix seconds): ``extra.timestamp`` (2.x) or
    ``timestamp`` (1.x)."""
    for value in (mapping(msg.get("extra")).get("timestamp"), msg.get("timestamp")):
        t = num(value)
        if t is not None and math.isfinite(t):
            return t
    return None


@dataclass(slots=True)
class _Action:
    tool: str
    command: Any
    call_id: str | None = None


def _actions(msg: dict[str, Any]) -> list[_Action]:
    extra = mapping(msg.get("extra"))
    parsed = {string(mapping(a).get("tool_call_id")): a for a in sequence(extra.get("actions"))}
    calls = sequence(msg.get("tool_calls"))
    if calls:
        out = []
        for tc in calls:
            tc = mapping(tc)
            fn = mapping(tc.get("function"))
            call_id = string(tc.get("id"))
            command: Any = (
                mapping(parsed.get(call_id)).get("command") if call_id in parsed else None
            )
            if command is None:
                command = _arguments(fn.get("arguments"))
            out.append(_Action(string(fn.get("name")) or "bash", command, call_id))
        return out
    if sequence(extra.get("actions")):
        return [_Action("bash", mapping(a).get("command")) for a in sequence(extra.get("actions"))]
    blocks = _blocks(text_parts(msg.get("content")))
    return [_Action("bash", blocks[0])] if len(blocks) == 1 else []


def _blocks(text: str, most: int = 2) -> list[str]:
    """The fenced ```` ```bash ```` (or ```` ```mswea_bash_command ````) blocks of
    ``text``, up to ``most`` (mini runs an action only when there is exactly one); found
    with one pass over the text whatever it holds (no backtracking)."""
    out: list[str] = []
    pos = 0
    while len(out) < most:
        opened = _FENCE.search(text, pos)
        if opened is None:
            break
        end = text.find("\n```", opened.end())
        if end < 0:
            break
        out.append(text[opened.end() : end])
        pos = end + 4
    return out


def _arguments(value: Any) -> Any:
    if isinstance(value, str):
        try:
            value, _ = loads(value)
        except JsonError:
            return value
    command = mapping(value).get("command")
    return command if command is not None else value


def _state(obs: dict[str, Any] | None) -> tuple[str | None, Outcome, str | None]:
    """(status word, outcome, error) of an action from its observation."""
    if obs is None:
        return None, Outcome.NONE, None
    extra = mapping(obs.get("extra"))
    exception = string(extra.get("exception_info"))
    code = integer(extra.get("returncode"))
    if exception == NOT_EXECUTED:
        return "not executed", Outcome.NONE, None
    if exception:
        return "exception", Outcome.ERROR, exception
    if code is None:
        found = _RETURNCODE.search(text_parts(obs.get("content"))[:4096])
        if found:
            code = int(found.group(1) or found.group(2))
    if code is None:
        return None, Outcome.NONE, None
    return f"returncode {code}", Outcome.DONE if code == 0 else Outcome.ERROR, None


def _obs_fields(obs: dict[str, Any] | None) -> tuple[Field, ...]:
    """The observation's ``returncode`` and ``exception_info``, as the file has them."""
    extra = mapping(None if obs is None else obs.get("extra"))
    return tuple(
        Field(key, extra[key])
        for key in ("returncode", "exception_info")
        if extra.get(key) is not None and extra.get(key) != ""
    )


def _output(obs: dict[str, Any] | None) -> Any:
    if obs is None:
        return None
    raw = mapping(obs.get("extra")).get("raw_output")
    return raw if isinstance(raw, str) else text_parts(obs.get("content"))


class _Builder:
    def __init__(self, ref: str, messages: list[Any]) -> None:
        self.ref = ref
        self.messages = [mapping(m) for m in messages]
        stamps = [t for t in (timestamp(m) for m in self.messages) if t is not None]
        self.t0 = min(stamps) if stamps else None
        self.steps: list[Step] = []
        self.used: set[int] = set()
        self.by_call: dict[str, int] = {}
        for i, m in enumerate(self.messages):
            call_id = string(m.get("tool_call_id"))
            if m.get("role") == "tool" and call_id and call_id not in self.by_call:
                self.by_call[call_id] = i

    def offset(self, msg: dict[str, Any]) -> float | None:
        t = timestamp(msg)
        return None if t is None or self.t0 is None else (t - self.t0) * 1000

    def add(self, kind: Kind, title: str, **kw: Any) -> None:
        n = len(self.steps) + 1
        self.steps.append(Step(ref=f"{self.ref}/step-{n}", number=n, kind=kind, title=title, **kw))

    def build(self, info: dict[str, Any]) -> list[Step]:
        exited = False
        for i, msg in enumerate(self.messages):
            if i in self.used:
                continue
            role = string(msg.get("role"))
            if role == "assistant":
                self.assistant(i, msg)
            elif role == "exit":
                exited = True
                self.exit(msg, mapping(msg.get("extra")), msg)
            else:
                self.prompt(msg, role)
        status = string(info.get("exit_status"))
        if not exited and status:
            self.exit({}, info, {k: info.get(k) for k in ("exit_status", "submission")})
        return self.steps

    def prompt(self, msg: dict[str, Any], role: str | None) -> None:
        text = text_parts(msg.get("content"))
        interrupt = string(mapping(msg.get("extra")).get("interrupt_type"))
        who = role or "message"
        self.add(
            Kind.OTHER if interrupt else Kind.MESSAGE,
            f"{interrupt or who}: {one_line(text)}" if text.strip() else f"{interrupt or who}",
            status=interrupt,
            outcome=Outcome.ERROR if interrupt == "FormatError" else Outcome.NONE,
            error=interrupt,
            text=text,
            offset_ms=self.offset(msg),
            raw=msg,
        )

    def assistant(self, i: int, msg: dict[str, Any]) -> None:
        extra = mapping(msg.get("extra"))
        usage = mapping(mapping(extra.get("response")).get("usage"))
        text = text_parts(msg.get("content"))
        shown = {k: v for k, v in msg.items() if k != "extra"}
        shown["extra"] = {k: v for k, v in extra.items() if k != "response"}
        self.add(
            Kind.THOUGHT,
            one_line(text) or "(no text)",
            text=text,
            markdown=True,
            offset_ms=self.offset(msg),
            tokens_in=count(usage.get("prompt_tokens")),
            tokens_out=count(usage.get("completion_tokens")),
            cost=num(extra.get("cost")),
            raw=shown,
        )
        following = self._following(i)
        for action in _actions(msg):
            obs: dict[str, Any] | None = None
            if action.call_id is not None:
                j = self.by_call.get(action.call_id)
                if j is not None and j not in self.used:
                    self.used.add(j)
                    obs = self.messages[j]
            elif following:
                j = following.pop(0)
                self.used.add(j)
                obs = self.messages[j]
            status, outcome, error = _state(obs)
            command = action.command
            self.add(
                Kind.TOOL_CALL,
                action.tool,
                status=status,
                outcome=outcome,
                error=error,
                input=command,
                output=_output(obs),
                tools=(action.tool,),
                offset_ms=self.offset(obs or msg),
                stored_id=action.call_id,
                fields=_obs_fields(obs),
                raw=obs,
            )

    def _following(self, i: int) -> list[int]:
        """The observation messages right after assistant message ``i`` (no tool call id)."""
        out = []
        for j in range(i + 1, len(self.messages)):
            m = self.messages[j]
            if m.get("role") not in ("user", "tool") or m.get("tool_call_id"):
                break
            if mapping(m.get("extra")).get("interrupt_type"):
                break
            out.append(j)
        return out

    def exit(self, msg: dict[str, Any], extra: dict[str, Any], raw: Any) -> None:
        status = string(extra.get("exit_status"))
        submission = extra.get("submission")
        text = text_parts(msg.get("content"))
        outcome = exit_outcome(status)
        fields = tuple(
            Field(key, extra[key]) for key in ("exception_str", "traceback") if extra.get(key)
        )
        self.add(
            Kind.RESULT,
            f"exit: {status or 'no status'}",
            status=status,
            outcome=outcome,
            error=one_line(text) if text.strip() and outcome is Outcome.ERROR else None,
            text=text or None,
            output=submission,
            offset_ms=self.offset(msg),
            fields=fields,
            raw=raw,
        )


def build_steps(ref: str, messages: list[Any], info: dict[str, Any]) -> list[Step]:
    """The timeline of the run ``ref``."""
    return _Builder(ref, messages).build(info)


def tool_calls(steps: list[Step]) -> Iterator[Step]:
    """The tool-call steps."""
    return (s for s in steps if s.kind is Kind.TOOL_CALL)


def span_ms(messages: list[Any]) -> float | None:
    """The span of the messages' timestamps, in ms (None with fewer than one)."""
    stamps = [t for t in (timestamp(mapping(m)) for m in messages) if t is not None]
    return (max(stamps) - min(stamps)) * 1000 if stamps else None
