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

Which message answers which action is worked out from numbers kept per message
(:mod:`~.lean`); the functions here build one step from the messages it is made of, when
it is shown.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from trajtui.core.io.jsonutil import JsonError, loads
from trajtui.core.io.text import one_line
from trajtui.core.model import Field, Kind, Outcome, Step
from trajtui.core.values import count, integer, mapping, num, sequence, string, text_parts

NOT_EXECUTED = "action was not executed"
_FENCE = re.compile(r"```(?:bash|mswea_bash_command)[ \t\r\f\v]*\n")
_PREFIX = "Please solve this issue:"
_LEAD = "Consider the following PR description:"
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


def task_text(text: str) -> str:
    """The task a prompt states: the ``<pr_description>`` (without the SWE-bench config's
    own ``Consider the following PR description:``), or what follows ``Please solve this
    issue:``, else the prompt."""
    start = text.find("<pr_description>")
    if start >= 0:
        start += len("<pr_description>")
        end = text.find("</pr_description>", start)
        inner = text[start : end if end >= 0 else len(text)].strip()
        return inner[len(_LEAD) :].lstrip() if inner.startswith(_LEAD) else inner
    stripped = text.lstrip()
    if stripped.startswith(_PREFIX):
        return stripped[len(_PREFIX) :].lstrip()
    return text


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


def actions(msg: dict[str, Any], *, commands: bool = True) -> list[_Action]:
    """The actions of an assistant message, in order (without ``commands``: their tools
    and call ids alone, as a listing keeps them)."""
    extra = mapping(msg.get("extra"))
    calls = sequence(msg.get("tool_calls"))
    if calls:
        parsed = {}
        if commands:
            parsed = {
                string(mapping(a).get("tool_call_id")): a for a in sequence(extra.get("actions"))
            }
        out = []
        for tc in calls:
            tc = mapping(tc)
            fn = mapping(tc.get("function"))
            call_id = string(tc.get("id"))
            command: Any = None
            if commands:
                if call_id in parsed:
                    command = mapping(parsed.get(call_id)).get("command")
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


def state(obs: dict[str, Any] | None) -> tuple[str | None, Outcome, str | None]:
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


def offset(msg: dict[str, Any] | None, t0: float | None) -> float | None:
    """When ``msg`` was written, in ms from ``t0`` (the run's first timestamp)."""
    t = timestamp(msg) if msg is not None else None
    return None if t is None or t0 is None else (t - t0) * 1000


def _step(ref: str, n: int, kind: Kind, title: str, **kw: Any) -> Step:
    return Step(ref=f"{ref}/step-{n}", number=n, kind=kind, title=title, **kw)


def prompt_step(ref: str, n: int, msg: dict[str, Any], t0: float | None) -> Step:
    """A ``system``/``user`` message (or one of another role) no action answered by."""
    role = string(msg.get("role"))
    text = text_parts(msg.get("content"))
    interrupt = string(mapping(msg.get("extra")).get("interrupt_type"))
    who = role or "message"
    return _step(
        ref,
        n,
        Kind.OTHER if interrupt else Kind.MESSAGE,
        f"{interrupt or who}: {one_line(text)}" if text.strip() else f"{interrupt or who}",
        status=interrupt,
        outcome=Outcome.ERROR if interrupt == "FormatError" else Outcome.NONE,
        error=interrupt,
        text=text,
        offset_ms=offset(msg, t0),
        raw=msg,
    )


def thought_step(ref: str, n: int, msg: dict[str, Any], t0: float | None) -> Step:
    """An assistant message's text, with its model call's tokens and cost."""
    extra = mapping(msg.get("extra"))
    usage = mapping(mapping(extra.get("response")).get("usage"))
    text = text_parts(msg.get("content"))
    shown = {k: v for k, v in msg.items() if k != "extra"}
    shown["extra"] = {k: v for k, v in extra.items() if k != "response"}
    return _step(
        ref,
        n,
        Kind.THOUGHT,
        one_line(text) or "(no text)",
        text=text,
        markdown=True,
        offset_ms=offset(msg, t0),
        tokens_in=count(usage.get("prompt_tokens")),
        tokens_out=count(usage.get("completion_tokens")),
        cost=num(extra.get("cost")),
        raw=shown,
    )


def usage_of(msg: dict[str, Any]) -> tuple[int | None, int | None]:
    """An assistant message's model call's (prompt, completion) tokens, as its step says."""
    usage = mapping(mapping(mapping(msg.get("extra")).get("response")).get("usage"))
    return count(usage.get("prompt_tokens")), count(usage.get("completion_tokens"))


def call_step(
    ref: str,
    n: int,
    msg: dict[str, Any],
    action: _Action,
    obs: dict[str, Any] | None,
    t0: float | None,
) -> Step:
    """An action of assistant message ``msg``, answered by ``obs`` (or by nothing)."""
    status, outcome, error = state(obs)
    return _step(
        ref,
        n,
        Kind.TOOL_CALL,
        action.tool,
        status=status,
        outcome=outcome,
        error=error,
        input=action.command,
        output=_output(obs),
        tools=(action.tool,),
        offset_ms=offset(obs or msg, t0),
        stored_id=action.call_id,
        fields=_obs_fields(obs),
        raw=obs,
    )


def exit_step(
    ref: str, n: int, msg: dict[str, Any], extra: dict[str, Any], raw: Any, t0: float | None
) -> Step:
    """The run's end: the ``exit`` message (2.x), or ``info`` (``msg`` empty)."""
    status = string(extra.get("exit_status"))
    submission = extra.get("submission")
    text = text_parts(msg.get("content"))
    outcome = exit_outcome(status)
    fields = tuple(
        Field(key, extra[key]) for key in ("exception_str", "traceback") if extra.get(key)
    )
    return _step(
        ref,
        n,
        Kind.RESULT,
        f"exit: {status or 'no status'}",
        status=status,
        outcome=outcome,
        error=one_line(text) if text.strip() and outcome is Outcome.ERROR else None,
        text=text or None,
        output=submission,
        offset_ms=offset(msg, t0) if msg else None,
        fields=fields,
        raw=raw,
    )
