"""Two runs (or trials) compared: their figures side by side and their timelines aligned.

What each side is called and counted comes from the file (the run's summary, or the
trial's own fields); a figure a side does not have is None, and its difference is None
too: nothing is made up for the comparison.
"""

from __future__ import annotations

from dataclasses import dataclass

from trajtui.core.align import Alignment, align
from trajtui.core.model import Kind, Outcome, Run, Step


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a comparison.

    Attributes:
        ref: The run's or trial's reference, as ``show`` takes it.
        steps: Its timeline.
        status: Its status word, as the file says.
        verdict: Its neutral verdict (pass, fail, error, timeout, unknown).
        score: Its score, as the file says.
        duration_ms: Its duration.
        cost: Its cost in USD (runs only).
        tokens_in: Input tokens: the run's own count, else the sum of its steps' counts.
        tokens_out: Output tokens, the same way.
        tool_calls: Tool calls its timeline makes (a call's two halves once).
        failed_tool_calls: Those that failed.
    """

    ref: str
    steps: tuple[Step, ...]
    status: str | None
    verdict: str
    score: float | None
    duration_ms: float | None
    cost: float | None
    tokens_in: int | None
    tokens_out: int | None
    tool_calls: int
    failed_tool_calls: int


def _tokens(own: int | None, steps: tuple[Step, ...], attr: str) -> int | None:
    if own is not None:
        return own
    counts = [getattr(s, attr) for s in steps if getattr(s, attr) is not None]
    return sum(counts) if counts else None


def _tool_counts(steps: tuple[Step, ...]) -> tuple[int, int]:
    """Tool calls (a step paired with an earlier half is that call's other half) and the
    failed ones."""
    calls = failed = 0
    for s in steps:
        if s.kind is not Kind.TOOL_CALL:
            continue
        if s.pair is not None and s.pair < s.number:
            failed += s.outcome is Outcome.ERROR and not _failed(steps, s.pair)
            continue
        calls += 1
        failed += s.outcome is Outcome.ERROR
    return calls, failed


def _failed(steps: tuple[Step, ...], number: int) -> bool:
    return any(s.number == number and s.outcome is Outcome.ERROR for s in steps)


def side(run: Run, ref: str, attempt: int | None = None) -> Side:
    """The side for ``run``, or for its trial ``attempt``."""
    s = run.summary
    steps = run.timeline(attempt)
    calls, failed = _tool_counts(steps)
    trial = run.attempt(attempt) if attempt is not None else None
    if trial is not None:
        return Side(
            ref=ref,
            steps=steps,
            status=trial.status,
            verdict=trial.outcome.verdict.value,
            score=trial.score,
            duration_ms=trial.duration_ms,
            cost=None,
            tokens_in=_tokens(None, steps, "tokens_in"),
            tokens_out=_tokens(None, steps, "tokens_out"),
            tool_calls=calls,
            failed_tool_calls=failed,
        )
    return Side(
        ref=ref,
        steps=steps,
        status=s.status,
        verdict=s.outcome.verdict.value,
        score=s.score,
        duration_ms=s.duration_ms,
        cost=s.cost,
        tokens_in=_tokens(run.run_tokens_in, steps, "tokens_in"),
        tokens_out=_tokens(run.run_tokens_out, steps, "tokens_out"),
        tool_calls=s.tool_calls if s.tool_calls is not None else calls,
        failed_tool_calls=s.failed_tool_calls if s.failed_tool_calls is not None else failed,
    )


@dataclass(frozen=True, slots=True)
class Comparison:
    """Two sides and their timelines aligned."""

    a: Side
    b: Side
    alignment: Alignment

    @property
    def same(self) -> bool:
        """The timelines are the same step for step."""
        return self.alignment.first_divergence is None


def compare(a: Side, b: Side) -> Comparison:
    """Align the two sides' timelines."""
    return Comparison(a, b, align(a.steps, b.steps))


def difference(x: float | None, y: float | None) -> float | None:
    """``y - x`` when both sides have the figure, else None."""
    return None if x is None or y is None else y - x
