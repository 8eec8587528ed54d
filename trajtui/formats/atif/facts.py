"""What a trajectory's steps add up to: calls paired with results, counts, totals, span.

Pure functions over :class:`~.trajectory.Trajectory` objects (nothing read, nothing shown):

* :func:`pair_results`: each observation result with the tool call it answers, by
  ``source_call_id`` within its step first (what every Harbor writer does), then by id
  across steps (writers that put results in steps of their own, sometimes before the call),
  and a result without an id with the only call of its step (Harbor's viewer does the
  same); the rest are results of no call (terminal output after several keystrokes);
* :func:`tool_call_counts`: calls made and calls whose result says it failed;
* :func:`totals`: tokens and cost from ``final_metrics``, or summed over the steps'
  ``metrics`` (said so: old claude-code repeats one API message's usage on several steps,
  so a sum can count twice what ``final_metrics`` counts once);
* :func:`span_ms`: the time the steps' own timestamps cover.

Steps copied from an earlier segment (``is_copied_context``) are replays: they are left out
of counts, sums and spans.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from trajtui.core.values import num
from trajtui.formats.atif.trajectory import AtifStep, ToolResult, Trajectory


@dataclass(frozen=True, slots=True)
class Answer:
    """A result paired with a call.

    Attributes:
        step: Position of the step holding the result.
        index: Index of the result among that step's results.
        result: The result.
    """

    step: int
    index: int
    result: ToolResult


class Pairing:
    """Calls and results paired, kept compactly: a run of hundreds of thousands of calls
    holds a few arrays of integers (calls and results numbered across the run), not an
    object per call; :class:`Answer` objects are made when asked for.

    Args:
        steps: The steps paired (lightened or whole), in order.
        target: For each result, numbered across the run, the call it answers, numbered
            across the run (-1: none).
    """

    __slots__ = (
        "_answers",
        "_call_base",
        "_call_step",
        "_from",
        "_result_base",
        "_steps",
        "_target",
    )

    def __init__(self, steps: Sequence[AtifStep], target: array[int]) -> None:
        self._steps = steps
        self._call_base = array("q")  # by step index: its first call's number
        self._result_base = array("q")
        self._call_step = array("q")  # by call number: the index of its step
        calls = results = 0
        for i, step in enumerate(steps):
            self._call_base.append(calls)
            self._result_base.append(results)
            self._call_step.extend([i] * len(step.calls))
            calls += len(step.calls)
            results += len(step.results)
        self._call_base.append(calls)
        self._result_base.append(results)
        # results answering each call, by call number: _answers[_from[c]:_from[c + 1]]
        counts = array("q", bytes(8 * (calls + 1)))
        for c in target:
            if c >= 0:
                counts[c + 1] += 1
        for c in range(calls):
            counts[c + 1] += counts[c]
        self._from = counts
        filled = array("q", counts)
        self._answers = array("q", bytes(8 * counts[calls]))
        for r, c in enumerate(target):
            if c >= 0:
                self._answers[filled[c]] = r
                filled[c] += 1
        self._target = target

    def _step_index(self, position: int) -> int:
        """The index among :attr:`_steps` of the step at ``position`` (-1: none)."""
        i = position - 1
        if 0 <= i < len(self._steps) and self._steps[i].position == position:
            return i
        return next((k for k, s in enumerate(self._steps) if s.position == position), -1)

    def _result_at(self, r: int) -> Answer:
        i = bisect_right(self._result_base, r) - 1  # the last step starting at or before r
        step = self._steps[i]
        index = r - self._result_base[i]
        return Answer(step.position, index, step.results[index])

    def results_of(self, step: int, call: int) -> list[Answer]:
        """The results answering call ``call`` of the step at ``step``."""
        i = self._step_index(step)
        if i < 0 or not 0 <= call < len(self._steps[i].calls):
            return []
        c = self._call_base[i] + call
        return [self._result_at(r) for r in self._answers[self._from[c] : self._from[c + 1]]]

    def call_of(self, step: int, result: int) -> tuple[int, int] | None:
        """The call result ``result`` of the step at ``step`` answers, if any."""
        i = self._step_index(step)
        if i < 0 or not 0 <= result < len(self._steps[i].results):
            return None
        c = self._target[self._result_base[i] + result]
        if c < 0:
            return None
        k = self._call_step[c]
        return self._steps[k].position, c - self._call_base[k]


def pair_results(steps: Sequence[AtifStep]) -> Pairing:
    """Pair every result with the call it answers (linear in calls and results)."""
    first: dict[str, int] = {}  # a call id to the first call of that id, numbered
    number = 0
    for step in steps:
        for call in step.calls:
            if call.call_id is not None and call.call_id not in first:
                first[call.call_id] = number
            number += 1
    target = array("q")
    number = 0  # the number of the step's first call
    for step in steps:
        if step.results:
            local: dict[str, int] = {}
            for ci, call in enumerate(step.calls):
                if call.call_id is not None:
                    local.setdefault(call.call_id, number + ci)
            for result in step.results:
                if result.call_id is not None:
                    got = local.get(result.call_id)
                    target.append(got if got is not None else first.get(result.call_id, -1))
                elif len(step.calls) == 1:
                    target.append(number)
                else:
                    target.append(-1)
        number += len(step.calls)
    first.clear()
    return Pairing(steps, target)


def call_failed(answers: Sequence[Answer]) -> bool | None:
    """Whether a call failed, by what its results say (None: they do not say)."""
    flags = [a.result.failed for a in answers if a.result.failed is not None]
    return any(flags) if flags else None


def tool_call_counts(steps: Sequence[AtifStep], pairing: Pairing) -> tuple[int, int | None]:
    """``(calls, failed)``: tool calls made, and how many of them a result says failed
    (None when no result of the run says whether its tool failed)."""
    made = failed = 0
    told = False
    for step in steps:
        if step.copied:
            continue
        for ci in range(len(step.calls)):
            made += 1
            verdict = call_failed(pairing.results_of(step.position, ci))
            told = told or verdict is not None
            failed += verdict is True
    return made, failed if told or made == 0 else None


@dataclass(frozen=True, slots=True)
class Total:
    """A run total and where it comes from (``final_metrics``, or a sum over N steps)."""

    value: float
    source: str


@dataclass(frozen=True, slots=True)
class Totals:
    """Tokens and cost of a trajectory, each None when neither ``final_metrics`` nor any
    step's ``metrics`` has it."""

    prompt_tokens: Total | None = None
    completion_tokens: Total | None = None
    cached_tokens: Total | None = None
    cost_usd: Total | None = None


_FINAL = {
    "prompt_tokens": "total_prompt_tokens",
    "completion_tokens": "total_completion_tokens",
    "cached_tokens": "total_cached_tokens",
    "cost_usd": "total_cost_usd",
}


def totals(trajectory: Trajectory) -> Totals:
    """Each total from ``final_metrics`` when it has it, else summed over the steps'
    ``metrics`` (copied steps left out)."""
    final = trajectory.final_metrics or {}
    found: dict[str, Total | None] = {}
    for name, key in _FINAL.items():
        value = num(final.get(key))
        if value is not None:
            found[name] = Total(value, f"final_metrics.{key}")
            continue
        values = [
            v
            for s in trajectory.steps
            if not s.copied and s.metrics is not None
            if (v := getattr(s.metrics, name)) is not None
        ]
        n = len(values)
        found[name] = (
            Total(sum(values), f"sum over {n} step{'s' if n != 1 else ''}") if values else None
        )
    return Totals(**found)


def span_ms(steps: Sequence[AtifStep]) -> float | None:
    """Milliseconds from the first to the last step timestamp (copied steps left out);
    None with fewer than two timestamps."""
    times = [s.time for s in steps if s.time is not None and not s.copied]
    if len(times) < 2:
        return None
    return (max(times) - min(times)) * 1000


def start_time(steps: Sequence[AtifStep]) -> float | None:
    """The earliest timestamp of the steps (copied steps left out)."""
    times = [s.time for s in steps if s.time is not None and not s.copied]
    return min(times) if times else None
