"""A SWE-agent trajectory read in one pass and bounded memory, its steps built when shown.

:func:`scan` streams the file through the core engine for big JSON documents
(:class:`~trajtui.core.io.jsondoc.DocumentScan`): ``info``, ``replay_config`` and the other
small members are decoded; each ``trajectory`` item and ``history`` message is looked at
once and let go, keeping its byte span and a few flags in compact arrays (which steps it
shows; for a message, whether it is the model's and whether it is a demonstration); the
row's figures (title, tools, command time) are folded as they pass. After the pass the
steps are worked out from those flags (:meth:`Lean.plan`: the prompts, each turn's thought
and action, the result), a few integers each, and :class:`SweSteps` builds them a window at
a time, reading only those steps' items again by their spans (each item's ``query``, the
conversation copy that makes a 1.1 file grow with the square of its steps, passed over
without being built).

A RetryAgent file's ``attempts`` are each read whole (as :mod:`~.document` reads them):
one attempt at a time while scanning, all of them kept.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

import msgspec

from trajtui.core.docruns import ScanReading, Unreadable
from trajtui.core.io import safeio
from trajtui.core.io.jsondoc import (
    Pread,
    Span,
    Spans,
    read_item,
)
from trajtui.core.io.jsonutil import JsonError
from trajtui.core.io.text import flat
from trajtui.core.model import Field, Kind, Step
from trajtui.core.values import mapping, string, text_parts
from trajtui.core.windowed import WindowedSteps
from trajtui.formats.swe_agent.document import DROPPED, Item, Traj, replay, traj_of
from trajtui.formats.swe_agent.steps import (
    call_step,
    demo,
    has_result,
    history_turn,
    item_turn,
    message_step,
    result_step,
    seconds,
    task_text,
    thought_step,
    tool_of,
    turn_steps,
)

TRAJECTORY, HISTORY, ATTEMPTS = "trajectory", "history", "attempts"
_ARRAYS = frozenset({TRAJECTORY, HISTORY, ATTEMPTS})
# flags of an item or message
SHOWS_THOUGHT, SHOWS_CALL, ASSISTANT, DEMO = 1, 2, 4, 8
# a step's kind
MESSAGE, THOUGHT, CALL, RESULT = range(4)


@dataclass(slots=True)
class Lean:
    """A trajectory as :func:`scan` keeps it.

    Attributes:
        info: ``info`` (empty when absent).
        replay_config: ``replay_config`` decoded.
        environment: ``environment``.
        attempts: A RetryAgent file's attempts, read whole.
        warning: Something tolerated while decoding, or None.
        has_trajectory: Whether the file has a ``trajectory`` array (else the steps are
            read from ``history``).
        title: The problem the first prompt states.
        seconds: The items' ``execution_time`` summed (None: none says).
        partial: The items read so far of a file still being read (no result yet, the
            members after them not read yet).
    """

    path: str = ""
    ident: tuple[int, int] = (0, 0)
    size: int = 0
    info: dict[str, Any] = field(default_factory=dict)
    partial: bool = False
    replay_config: dict[str, Any] = field(default_factory=dict)
    environment: str | None = None
    attempts: tuple[Traj, ...] = ()
    warning: str | None = None
    has_trajectory: bool = False
    title: str = ""
    seconds: float | None = None
    item_tools: set[str] = field(default_factory=set)
    history_tools: set[str] = field(default_factory=set)
    items: Spans = field(default_factory=Spans)
    item_flags: array[int] = field(default_factory=lambda: array("b"))
    history: Spans = field(default_factory=Spans)
    history_flags: array[int] = field(default_factory=lambda: array("b"))
    step_kind: array[int] = field(default_factory=lambda: array("b"))
    step_from: array[int] = field(default_factory=lambda: array("q"))
    step_answer: array[int] = field(default_factory=lambda: array("q"))
    _prompting: bool = True

    def add_item(self, span: Span, item: Any) -> None:
        item = mapping(item)
        thought, action = item_turn(item)
        shows_thought, shows_call = turn_steps(thought, action)
        self.items.append(span)
        self.item_flags.append(
            (SHOWS_THOUGHT if shows_thought else 0) | (SHOWS_CALL if shows_call else 0)
        )
        if shows_call:
            tool = tool_of(action.rstrip("\n"))
            if tool:
                self.item_tools.add(tool)
        t = seconds(item)
        if t is not None:
            self.seconds = t if self.seconds is None else self.seconds + t

    def add_message(self, span: Span, msg: Any) -> None:
        m = mapping(msg)
        flags = DEMO if demo(m) else 0
        if m.get("role") == "assistant":
            flags |= ASSISTANT
            self._prompting = False
            thought, action = history_turn(m)
            shows_thought, shows_call = turn_steps(thought, action)
            flags |= (SHOWS_THOUGHT if shows_thought else 0) | (SHOWS_CALL if shows_call else 0)
            tool = tool_of(action.rstrip("\n")) if shows_call else None
            if tool and not flags & DEMO:
                self.history_tools.add(tool)
        elif self._prompting and not flags & DEMO and not self.title:
            text = text_parts(m.get("content"))
            if m.get("role") == "user" and text.strip():
                self.title = flat(task_text(text))
        self.history.append(span)
        self.history_flags.append(flags)

    def plan(self) -> None:
        """Work out the steps from the flags kept (as :func:`~.steps.build_steps` makes
        them from the whole file)."""
        flags = self.history_flags
        kept = [i for i in range(len(flags)) if not flags[i] & DEMO]
        first = 0
        for i in range(len(flags)):
            if flags[i] & ASSISTANT:
                break
            if not flags[i] & DEMO:
                self._step(MESSAGE, i)
                first += 1
        if self.has_trajectory:
            for j, f in enumerate(self.item_flags):
                if f & SHOWS_THOUGHT:
                    self._step(THOUGHT, j)
                if f & SHOWS_CALL:
                    self._step(CALL, j)
        else:
            rest = kept[first:]
            for k, i in enumerate(rest):
                if not flags[i] & ASSISTANT:
                    continue
                answer = -1
                if k + 1 < len(rest) and not flags[rest[k + 1]] & ASSISTANT:
                    answer = rest[k + 1]
                if flags[i] & SHOWS_THOUGHT:
                    self._step(THOUGHT, i, answer)
                if flags[i] & SHOWS_CALL:
                    self._step(CALL, i, answer)
        if has_result(self.info) and not self.partial:
            self._step(RESULT, -1)

    def _step(self, kind: int, at: int, answer: int = -1) -> None:
        self.step_kind.append(kind)
        self.step_from.append(at)
        self.step_answer.append(answer)

    @property
    def steps(self) -> int:
        return len(self.step_kind)

    @property
    def tool_calls(self) -> int:
        return sum(1 for k in self.step_kind if k == CALL)

    @property
    def tools(self) -> set[str]:
        return self.item_tools if self.has_trajectory else self.history_tools

    def duration_ms(self) -> float | None:
        """The command time: the items' ``execution_time`` summed, in ms."""
        return None if self.seconds is None else self.seconds * 1000


class Reading(ScanReading):
    """A trajectory file read in one pass, watched as it goes: iterating it reads the file,
    giving after each item the byte offset read up to; :meth:`partial` is the run of the
    items read so far, :meth:`finish` the whole one once the iteration ends.

    Raises (iterating):
        OSError: It cannot be opened or read.
    """

    def __init__(self, path: str) -> None:
        self.lean = Lean(path=path)
        self._attempts: list[Traj] = []

    def __iter__(self) -> Iterator[int]:
        lean, attempts = self.lean, self._attempts

        def visit(key: str, span: Span, item: Any) -> None:
            if key == TRAJECTORY:
                lean.add_item(span, item)
            elif key == HISTORY:
                lean.add_message(span, item)
            else:
                attempts.append(traj_of(mapping(item)))

        return self._scan_file(lean, _ARRAYS, visit)

    def partial(self) -> Lean | None:
        """The run of the items read so far (no result yet; None before they start); call
        it between two items of the iteration. It shares the per-item arrays, which only
        grow."""
        if self._scan is None or not self._scan.scanned.counts:
            return None
        value = self._scan.scanned.value
        so_far = replace(
            self.lean,
            partial=True,
            item_tools=set(self.lean.item_tools),
            history_tools=set(self.lean.history_tools),
            step_kind=array("b"),
            step_from=array("q"),
            step_answer=array("q"),
        )
        self._members(so_far, value if isinstance(value, dict) else {})
        so_far.plan()
        return so_far

    def _members(self, lean: Lean, value: dict[str, Any]) -> None:
        assert self._scan is not None
        scanned = self._scan.scanned
        lean.has_trajectory = TRAJECTORY in scanned.counts
        lean.info = mapping(value.get("info"))
        lean.replay_config = replay(value.get("replay_config"))
        lean.environment = string(value.get("environment"))
        lean.attempts = tuple(self._attempts) if ATTEMPTS in scanned.counts else ()
        lean.warning = "; ".join(scanned.warnings) or None

    def finish(self) -> Lean:
        """The whole trajectory, once read.

        Raises:
            Unreadable: It is not a trajectory.
        """
        if self._error is not None:
            raise Unreadable(*self._error)
        assert self._scan is not None
        scanned = self._scan.scanned
        value = scanned.value
        if not isinstance(value, dict) or not any(k in value for k in _ARRAYS):
            raise Unreadable(1, "not a SWE-agent trajectory (no trajectory, history or attempts)")
        lean = self.lean
        if TRAJECTORY not in scanned.counts:  # not an array: read as the whole file reads it
            lean.items, lean.item_flags = Spans(), array("b")
        if HISTORY not in scanned.counts:
            lean.history, lean.history_flags, lean.title = Spans(), array("b"), ""
        self._members(lean, value)
        lean.plan()
        return lean


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


_ITEM = msgspec.json.Decoder(Item)


def read_turn(f: Pread, span: Span) -> dict[str, Any]:
    """A trajectory item read again by its span, without its ``query`` (passed over by
    msgspec, never built; an item msgspec refuses is decoded leniently, then dropped)."""
    data = f.pread(span.end - span.start, span.start)
    if len(data) != span.end - span.start:
        raise JsonError("the file is shorter than when it was read (changed?)")
    try:
        item = _ITEM.decode(data)
    except (msgspec.DecodeError, RecursionError):
        return {k: v for k, v in mapping(read_item(f, span)).items() if k not in DROPPED}
    return {k: v for k in Item.__struct_fields__ if (v := getattr(item, k)) is not msgspec.UNSET}


class SweSteps(WindowedSteps):
    """A run's timeline built from its :class:`Lean` on demand, a window of steps at a
    time, each step's item or messages read again by their spans (the file checked to be
    the one scanned)."""

    WINDOW = 32
    WINDOWS_KEPT = 4

    def __init__(self, ref: str, lean: Lean) -> None:
        super().__init__(ref, lean.steps)
        self._lean = lean

    def _read(self, lo: int, hi: int) -> tuple[dict[tuple[int, int], Any], str | None]:
        lean = self._lean
        wanted: set[tuple[int, int]] = set()  # (0, item) or (1, message)
        for k in range(lo, hi):
            kind, at = lean.step_kind[k], lean.step_from[k]
            if kind == RESULT:
                continue
            wanted.add((1 if kind == MESSAGE or not lean.has_trajectory else 0, at))
            if lean.step_answer[k] >= 0:
                wanted.add((1, lean.step_answer[k]))
        try:
            with safeio.open_regular(lean.path) as f:
                if f.ident != lean.ident or f.size != lean.size:
                    return {}, "the file changed since it was read"
                got: dict[tuple[int, int], Any] = {}
                for which, i in sorted(wanted):
                    if which == 0:
                        got[(which, i)] = read_turn(f, lean.items[i])
                    else:
                        got[(which, i)] = mapping(read_item(f, lean.history[i]))
                return got, None
        except (OSError, JsonError) as err:
            return {}, f"cannot read it again: {getattr(err, 'strerror', None) or err}"

    def _build(self, lo: int, hi: int) -> list[Step]:
        lean, ref = self._lean, self._ref
        got, lost = self._read(lo, hi)
        built = []
        for k in range(lo, hi):
            n, kind, at = k + 1, lean.step_kind[k], lean.step_from[k]
            if kind == RESULT:
                built.append(result_step(ref, n, lean.info))
                continue
            if lost is not None:
                note = Field("step body", f"not shown: {lost} (open it again to read it)")
                built.append(
                    Step(
                        ref=f"{ref}/step-{n}",
                        number=n,
                        kind=Kind.OTHER,
                        title="(not read)",
                        fields=(note,),
                    )
                )
                continue
            if kind == MESSAGE:
                built.append(message_step(ref, n, got[(1, at)]))
                continue
            if lean.has_trajectory:
                item = got[(0, at)]
                thought, action = item_turn(item)
                output, secs, raw = item.get("observation"), seconds(item), item
            else:
                raw = got[(1, at)]
                thought, action = history_turn(raw)
                answer = lean.step_answer[k]
                output = text_parts(got[(1, answer)].get("content")) if answer >= 0 else None
                secs = None
            if kind == THOUGHT:
                built.append(thought_step(ref, n, thought, raw))
            else:
                built.append(call_step(ref, n, action, output, secs, raw))
        return built
