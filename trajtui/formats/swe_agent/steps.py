"""A SWE-agent run's timeline.

* The prompts: the ``history`` messages before the model's first turn (the system prompt,
  the problem statement), demonstrations (``is_demo``) left out.
* Each ``trajectory`` item: its thought (``thought``, else ``response``), then its action
  as a tool call (the tool: the action's first word, the command SWE-agent runs; input
  the action, output the observation, duration ``execution_time``). SWE-agent records no
  exit code or failure flag: a tool call's state is unknown, never guessed from its text.
  An item without an action (the last of a run stopped by a limit) is its thought alone.
* A file without ``trajectory`` (a demonstration) is read from its ``history``: each
  assistant message's thought and ``action``, answered by the next message.
* The result: ``info.exit_status``, the submission as its output.
"""

from __future__ import annotations

import math
from typing import Any

from trajtui.core.io.text import one_line
from trajtui.core.model import Field, Kind, Outcome, Step
from trajtui.core.values import mapping, num, string, text_parts

TIMEOUTS = ("exit_cost", "exit_total_execution_time", "exit_command_timeout")


def exit_outcome(status: str | None) -> Outcome:
    """The category of an exit status: ``submitted`` (also autosubmitted after a limit,
    ``submitted (exit_cost)``) done, the limits of cost and time a timeout, any other
    ``exit_*`` an error; none when there is none."""
    if not status:
        return Outcome.NONE
    if status.startswith("submitted"):
        return Outcome.DONE
    if status in TIMEOUTS:
        return Outcome.TIMEOUT
    return Outcome.ERROR


def between(text: str, start: str, end: str) -> str | None:
    """The text after the first ``start`` up to the next ``end`` (or to the end), stripped;
    None without ``start`` (found with ``str.find``: linear whatever the text)."""
    i = text.find(start)
    if i < 0:
        return None
    i += len(start)
    j = text.find(end, i)
    return text[i : j if j >= 0 else len(text)].strip()


def task_text(text: str) -> str:
    """The problem a prompt states: its ``<pr_description>``, or its ``ISSUE:`` up to its
    ``INSTRUCTIONS:`` (0.x)."""
    for start, end in (("<pr_description>", "</pr_description>"), ("ISSUE:", "\nINSTRUCTIONS:")):
        found = between(text, start, end)
        if found:
            return found
    return text


def tool_of(action: str) -> str | None:
    """The command an action runs: its first word."""
    words = action.split(None, 1)
    return words[0] if words else None


def seconds(item: dict[str, Any]) -> float | None:
    """A step's ``execution_time``, when it is a finite number of seconds."""
    t = num(item.get("execution_time"))
    return t if t is not None and math.isfinite(t) else None


def _demo(msg: dict[str, Any]) -> bool:
    return msg.get("is_demo") is True or msg.get("message_type") == "demonstration"


def prompts(history: list[Any]) -> list[dict[str, Any]]:
    """The history messages before the model's first turn (demonstrations left out)."""
    out = []
    for m in history:
        m = mapping(m)
        if m.get("role") == "assistant":
            break
        if not _demo(m):
            out.append(m)
    return out


def _step(prefix: str, n: int, kind: Kind, title: str, **kw: Any) -> Step:
    return Step(ref=f"{prefix}/step-{n}", number=n, kind=kind, title=title, **kw)


def message_step(prefix: str, n: int, msg: dict[str, Any]) -> Step:
    """A prompt: a history message before the model's first turn."""
    role = string(msg.get("role")) or "message"
    text = text_parts(msg.get("content"))
    shown = task_text(text) if role == "user" else text
    return _step(prefix, n, Kind.MESSAGE, f"{role}: {one_line(shown)}", text=text, raw=msg)


def turn_steps(thought: str, action: str) -> tuple[bool, bool]:
    """Whether a turn shows (its thought, its action): the thought when it has text or
    there is no action, the action when there is one."""
    return bool(thought.strip() or not action.strip()), bool(action.strip())


def thought_step(prefix: str, n: int, thought: str, raw: Any) -> Step:
    return _step(
        prefix,
        n,
        Kind.THOUGHT,
        one_line(thought) or "(no text)",
        text=thought,
        markdown=True,
        raw=raw,
    )


def call_step(
    prefix: str, n: int, action: str, observation: Any, seconds: float | None, raw: Any
) -> Step:
    """A turn's action as a tool call (its state unknown: SWE-agent records none)."""
    shown = action.rstrip("\n")
    tool = tool_of(shown)
    return _step(
        prefix,
        n,
        Kind.TOOL_CALL,
        tool or one_line(shown),
        input=shown,
        output=observation,
        duration_ms=None if seconds is None else seconds * 1000,
        tools=(tool,) if tool else (),
        raw=raw,
    )


def has_result(info: dict[str, Any]) -> bool:
    """Whether ``info`` ends the run with a result step (an exit status or a submission)."""
    return string(info.get("exit_status")) is not None or "submission" in info


def result_step(prefix: str, n: int, info: dict[str, Any]) -> Step:
    status = string(info.get("exit_status"))
    fields = []
    if status and status.startswith("submitted ("):
        fields.append(Field("autosubmitted", f"after {status[len('submitted (') : -1]}"))
    return _step(
        prefix,
        n,
        Kind.RESULT,
        f"exit: {status or 'no status'}",
        status=status,
        outcome=exit_outcome(status),
        output=info.get("submission"),
        fields=tuple(fields),
        raw={k: info.get(k) for k in ("exit_status", "submission")},
    )


def item_turn(item: dict[str, Any]) -> tuple[str, str]:
    """A trajectory item's (thought, action)."""
    return string(item.get("thought")) or string(item.get("response")) or "", string(
        item.get("action")
    ) or ""


def history_turn(msg: dict[str, Any]) -> tuple[str, str]:
    """An assistant history message's (thought, action) (a file without ``trajectory``)."""
    return string(msg.get("thought")) or text_parts(msg.get("content")), string(
        msg.get("action")
    ) or ""


def demo(msg: dict[str, Any]) -> bool:
    """A demonstration message (left out)."""
    return _demo(msg)


class _Builder:
    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.steps: list[Step] = []

    def message(self, msg: dict[str, Any]) -> None:
        self.steps.append(message_step(self.prefix, len(self.steps) + 1, msg))

    def turn(
        self, thought: str, action: str, observation: Any, seconds: float | None, raw: Any
    ) -> None:
        shows_thought, shows_call = turn_steps(thought, action)
        if shows_thought:
            self.steps.append(thought_step(self.prefix, len(self.steps) + 1, thought, raw))
        if shows_call:
            n = len(self.steps) + 1
            self.steps.append(call_step(self.prefix, n, action, observation, seconds, raw))

    def result(self, info: dict[str, Any]) -> None:
        if has_result(info):
            self.steps.append(result_step(self.prefix, len(self.steps) + 1, info))


def build_steps(
    prefix: str, trajectory: list[dict[str, Any]] | None, history: list[Any], info: dict[str, Any]
) -> list[Step]:
    """The timeline of one trajectory; its step references start ``prefix/step-``."""
    b = _Builder(prefix)
    first = prompts(history)
    for m in first:
        b.message(m)
    if trajectory is not None:
        for item in trajectory:
            thought, action = item_turn(item)
            b.turn(thought, action, item.get("observation"), seconds(item), item)
    else:
        rest = [mapping(m) for m in history if not _demo(mapping(m))][len(first) :]
        for i, m in enumerate(rest):
            if m.get("role") != "assistant":
                continue
            answer = (
                rest[i + 1]
                if i + 1 < len(rest) and rest[i + 1].get("role") != "assistant"
                else None
            )
            thought, action = history_turn(m)
            output = None if answer is None else text_parts(answer.get("content"))
            b.turn(thought, action, output, None, m)
    b.result(info)
    return b.steps
