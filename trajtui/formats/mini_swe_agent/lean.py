"""A mini-swe-agent trajectory read in one pass and bounded memory, its steps built when shown.

:func:`scan` streams the file through the core engine for big JSON documents
(:class:`~trajtui.core.io.jsondoc.DocumentScan`): ``info`` and the other top-level members
are decoded, each message is looked at once and let go. Of a message only numbers are kept,
in compact arrays: its byte span, its role, whether it is an interruption or names a tool
call, the id it answers (a tool message's ``tool_call_id``, as a 64-bit hash) and the ids of
the actions it asks for (an assistant's), and its state as an observation (the outcome of
its return code). The row's figures (title, tokens, timestamps, tools) are folded as the
messages pass.

After the pass, which message answers which action is worked out from those numbers
(:class:`Lean` ``plan``: the same rules as mini's own pairing, by call id for tool calls,
else the messages that follow), giving every step as a few integers (its kind, its message,
its action, the message answering it). :class:`MiniSteps` builds the steps a window at a
time from them, reading only those steps' messages again by their spans: what a run holds
is what is shown, not the file, whatever its size.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from trajtui.core.docruns import ScanReading, Unreadable
from trajtui.core.io import safeio
from trajtui.core.io.jsondoc import TOP, Span, Spans, read_item
from trajtui.core.io.jsonutil import JsonError
from trajtui.core.io.text import flat
from trajtui.core.model import Field, Kind, Outcome, Step
from trajtui.core.values import mapping, string, text_parts
from trajtui.core.windowed import WindowedSteps
from trajtui.formats.mini_swe_agent.steps import (
    actions,
    call_step,
    exit_step,
    prompt_step,
    state,
    task_text,
    thought_step,
    timestamp,
    usage_of,
)

MESSAGES = "messages"
_ARRAYS = frozenset({MESSAGES, TOP})

# a message's role
OTHER, ASSISTANT, EXIT, TOOL, USER = range(5)
_ROLES = {"assistant": ASSISTANT, "exit": EXIT, "tool": TOOL, "user": USER}
# a message's flags
INTERRUPT, NAMES_CALL = 1, 2
# a step's kind
PROMPT, THOUGHT, CALL, EXIT_MESSAGE, EXIT_INFO = range(5)
# a call id: none (answered by the messages that follow), empty (answered by none), or a hash
NO_ID, EMPTY_ID = 0, 1
_OUTCOMES = list(Outcome)
_NONE = _OUTCOMES.index(Outcome.NONE)
_ERROR = _OUTCOMES.index(Outcome.ERROR)


def call_key(call_id: str | None) -> int:
    """A call id as an integer: :data:`NO_ID`, :data:`EMPTY_ID`, or its hash (the same
    within the process that read the file, where it is compared)."""
    if call_id is None:
        return NO_ID
    if not call_id:
        return EMPTY_ID
    h = hash(call_id)
    return h if h not in (NO_ID, EMPTY_ID) else 2


@dataclass(slots=True)
class Lean:
    """A trajectory as :func:`scan` keeps it: its top-level members, numbers per message
    and per step, and the run's figures folded.

    Attributes:
        info: ``info`` (empty for the bare list).
        trajectory_format: ``trajectory_format`` (None for the bare list).
        instance_id: ``instance_id`` (batch runs), or None.
        warning: Something tolerated while decoding (invalid UTF-8...), or None.
        title: The task, from the first user message that states one.
        tools: The tools the actions name.
        tokens_in: The model calls' prompt tokens, summed (None: none says).
        tokens_out: Their completion tokens.
        first: The earliest message timestamp (Unix seconds), or None.
        last: The latest.
        partial: The messages read so far of a file still being read (no exit yet, its
            members after the messages not read yet).
    """

    info: dict[str, Any] = field(default_factory=dict)
    partial: bool = False
    trajectory_format: str | None = None
    instance_id: str | None = None
    warning: str | None = None
    title: str = ""
    tools: set[str] = field(default_factory=set)
    tokens_in: int | None = None
    tokens_out: int | None = None
    first: float | None = None
    last: float | None = None
    spans: Spans = field(default_factory=Spans)
    ident: tuple[int, int] = (0, 0)
    size: int = 0
    path: str = ""
    role: array[int] = field(default_factory=lambda: array("b"))
    flags: array[int] = field(default_factory=lambda: array("b"))
    answers: array[int] = field(default_factory=lambda: array("q"))
    outcome: array[int] = field(default_factory=lambda: array("b"))
    asks: array[int] = field(default_factory=lambda: array("q"))
    asks_from: array[int] = field(default_factory=lambda: array("q", [0]))
    step_kind: array[int] = field(default_factory=lambda: array("b"))
    step_message: array[int] = field(default_factory=lambda: array("q"))
    step_action: array[int] = field(default_factory=lambda: array("l"))
    step_answer: array[int] = field(default_factory=lambda: array("q"))

    def add(self, msg: Any) -> None:
        """Fold one message (then let go)."""
        m = mapping(msg)
        role = _ROLES.get(string(m.get("role")) or "", OTHER)
        extra = mapping(m.get("extra"))
        interrupt = bool(extra.get("interrupt_type"))
        self.role.append(role)
        self.flags.append(
            (INTERRUPT if interrupt else 0) | (NAMES_CALL if m.get("tool_call_id") else 0)
        )
        self.answers.append(call_key(string(m.get("tool_call_id"))) if role == TOOL else NO_ID)
        t = timestamp(m)
        if t is not None:
            self.first = t if self.first is None else min(self.first, t)
            self.last = t if self.last is None else max(self.last, t)
        if role == ASSISTANT:
            self.outcome.append(_NONE)
            for action in actions(m, commands=False):
                self.asks.append(call_key(action.call_id))
                self.tools.add(action.tool)
            tin, tout = usage_of(m)
            if tin is not None:
                self.tokens_in = tin if self.tokens_in is None else self.tokens_in + tin
            if tout is not None:
                self.tokens_out = tout if self.tokens_out is None else self.tokens_out + tout
        else:
            self.outcome.append(_OUTCOMES.index(state(m)[1]))
            if not self.title and m.get("role") == "user" and not interrupt:
                text = text_parts(m.get("content"))
                if text.strip():
                    self.title = flat(task_text(text))
        self.asks_from.append(len(self.asks))

    def plan(self, n: int) -> None:
        """Work out the steps of the first ``n`` messages: which message answers which
        action (mini's own rules)."""
        used = bytearray(n)
        by_call: dict[int, int] = {}
        for i in range(n):
            key = self.answers[i]
            if key not in (NO_ID, EMPTY_ID) and key not in by_call:
                by_call[key] = i
        exited = False
        for i in range(n):
            if used[i]:
                continue
            role = self.role[i]
            if role == ASSISTANT:
                self._step(THOUGHT, i, -1, -1)
                following = self._following(i, n)
                for a in range(self.asks_from[i], self.asks_from[i + 1]):
                    key, j = self.asks[a], -1
                    if key != NO_ID:
                        found = by_call.get(key)
                        if found is not None and not used[found]:
                            j = found
                    elif following:
                        j = following.pop(0)
                    if j >= 0:
                        used[j] = 1
                    self._step(CALL, i, a - self.asks_from[i], j)
            elif role == EXIT:
                exited = True
                self._step(EXIT_MESSAGE, i, -1, -1)
            else:
                self._step(PROMPT, i, -1, -1)
        if not exited and not self.partial and string(self.info.get("exit_status")):
            self._step(EXIT_INFO, -1, -1, -1)

    def _step(self, kind: int, message: int, action: int, answer: int) -> None:
        self.step_kind.append(kind)
        self.step_message.append(message)
        self.step_action.append(action)
        self.step_answer.append(answer)

    def _following(self, i: int, n: int) -> list[int]:
        """The observation messages right after assistant message ``i`` (no tool call id)."""
        out = []
        for j in range(i + 1, n):
            if self.role[j] not in (USER, TOOL) or self.flags[j]:
                break
            out.append(j)
        return out

    @property
    def steps(self) -> int:
        return len(self.step_kind)

    def calls(self) -> Iterator[int]:
        """The outcome (index in :class:`Outcome`) of each tool call, in order."""
        for kind, answer in zip(self.step_kind, self.step_answer, strict=True):
            if kind == CALL:
                yield self.outcome[answer] if answer >= 0 else _NONE

    def call_figures(self) -> tuple[int, int | None]:
        """(tool calls, failed ones: None when no call's state is known)."""
        calls = list(self.calls())
        known = any(c != _NONE for c in calls)
        return len(calls), sum(1 for c in calls if c == _ERROR) if known else None

    def span_ms(self) -> float | None:
        """The span of the messages' timestamps, in ms."""
        if self.first is None or self.last is None:
            return None
        return (self.last - self.first) * 1000


class Reading(ScanReading):
    """A trajectory file read in one pass, watched as it goes: iterating it reads the file,
    giving after each message the byte offset read up to; :meth:`partial` is the run of the
    messages read so far, :meth:`finish` the whole one once the iteration ends.

    Raises (iterating):
        OSError: It cannot be opened or read.
    """

    def __init__(self, path: str) -> None:
        self.lean = Lean(path=path)

    def __iter__(self) -> Iterator[int]:
        lean = self.lean

        def visit(key: str, span: Span, item: Any) -> None:
            lean.add(item)
            lean.spans.append(span)

        return self._scan_file(lean, _ARRAYS, visit)

    def _members(self, lean: Lean) -> bool:
        """Set the top-level members of ``lean``; False when it is no trajectory (yet)."""
        assert self._scan is not None
        scanned = self._scan.scanned
        value = scanned.value
        key = TOP if isinstance(value, list) else MESSAGES
        if key not in scanned.counts:
            return False
        if isinstance(value, dict):
            lean.info = mapping(value.get("info"))
            lean.trajectory_format = string(value.get("trajectory_format"))
            lean.instance_id = string(value.get("instance_id"))
        lean.warning = "; ".join(scanned.warnings) or None
        return True

    def partial(self) -> Lean | None:
        """The run of the messages read so far (None before they start); call it between
        two messages of the iteration. It shares the per-message arrays, which only grow."""
        if self._scan is None:
            return None
        so_far = replace(
            self.lean,
            partial=True,
            tools=set(self.lean.tools),
            step_kind=array("b"),
            step_message=array("q"),
            step_action=array("l"),
            step_answer=array("q"),
        )
        if not self._members(so_far):
            return None
        so_far.plan(len(so_far.role))
        return so_far

    def finish(self) -> Lean:
        """The whole trajectory, once read.

        Raises:
            Unreadable: It is not a trajectory.
        """
        if self._error is not None:
            raise Unreadable(*self._error)
        if not self._members(self.lean):
            raise Unreadable(1, "not a mini-swe-agent trajectory (no messages array)")
        self.lean.plan(len(self.lean.role))
        return self.lean


def scan(path: str) -> Lean:
    """The trajectory in the file ``path``, read in one pass (:class:`Lean`).

    Raises:
        OSError: It cannot be read.
        Unreadable: It is not a trajectory.
    """
    reading = Reading(path)
    for _ in reading:
        pass
    return reading.finish()


class MiniSteps(WindowedSteps):
    """A run's timeline built from its :class:`Lean` on demand, a window of steps at a
    time, each step's messages read again by their spans (the file checked to be the one
    scanned)."""

    WINDOW = 32
    WINDOWS_KEPT = 4

    def __init__(self, ref: str, lean: Lean) -> None:
        super().__init__(ref, lean.steps)
        self._lean = lean

    def _messages(self, wanted: set[int]) -> tuple[dict[int, dict[str, Any]], str | None]:
        lean = self._lean
        try:
            with safeio.open_regular(lean.path) as f:
                if f.ident != lean.ident or f.size != lean.size:
                    return {}, "the file changed since it was read"
                return {i: mapping(read_item(f, lean.spans[i])) for i in sorted(wanted)}, None
        except (OSError, JsonError) as err:
            return {}, f"cannot read it again: {getattr(err, 'strerror', None) or err}"

    def _build(self, lo: int, hi: int) -> list[Step]:
        lean, ref = self._lean, self._ref
        wanted = {
            i for k in range(lo, hi) for i in (lean.step_message[k], lean.step_answer[k]) if i >= 0
        }
        got, lost = self._messages(wanted)
        built = []
        for k in range(lo, hi):
            n, kind, i = k + 1, lean.step_kind[k], lean.step_message[k]
            msg = got.get(i, {})
            if kind == EXIT_INFO:
                raw = {key: lean.info.get(key) for key in ("exit_status", "submission")}
                step = exit_step(ref, n, {}, lean.info, raw, lean.first)
            elif lost is not None:
                step = Step(
                    ref=f"{ref}/step-{n}",
                    number=n,
                    kind=Kind.OTHER,
                    title="(not read)",
                    fields=(Field("step body", f"not shown: {lost} (open it again to read it)"),),
                )
            elif kind == THOUGHT:
                step = thought_step(ref, n, msg, lean.first)
            elif kind == CALL:
                action = actions(msg)[lean.step_action[k]]
                answer = lean.step_answer[k]
                step = call_step(
                    ref, n, msg, action, got.get(answer) if answer >= 0 else None, lean.first
                )
            elif kind == EXIT_MESSAGE:
                step = exit_step(ref, n, msg, mapping(msg.get("extra")), msg, lean.first)
            else:
                step = prompt_step(ref, n, msg, lean.first)
            built.append(step)
        return built
