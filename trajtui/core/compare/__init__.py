"""Two runs (or trials) compared: their figures side by side and their timelines aligned.

What each side is called and counted comes from the file (the run's summary, or the
trial's own fields); a figure a side does not have is None, and its difference is None
too: nothing is made up for the comparison.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from trajtui.core.compare.align import Alignment, align
from trajtui.core.model import Kind, Outcome, Run, RunSummary, Step
from trajtui.core.search.texts import graders_reasoning
from trajtui.core.stats.estimators import Interval, bounded_mean_interval, mean_interval


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a comparison.

    Attributes:
        ref: The run's or trial's reference, as ``show`` takes it.
        steps: Its timeline: a run's, a trial's, or every trial of a trials record one
            after the other.
        status: Its status word, as the file says.
        verdict: Its neutral verdict (pass, fail, error, timeout, unknown).
        score: Its score, as the file says.
        duration_ms: Its duration.
        cost: Its cost in USD (runs only).
        tokens_in: Input tokens: the run's own count, else the sum of its steps' counts.
        tokens_out: Output tokens, the same way.
        tool_calls: Tool calls it made, as the run list counts them (a call's two halves
            once); None when the format does not record tool calls.
        failed_tool_calls: Those that failed; None when the file does not tell.
        reasoning: Its grader's reasoning, as the file says it, with the reference of what
            it judged: the run's or the trial's own, or each trial's of a trials record
            (empty without one).
        trials: The side is a whole trials record: its steps are every trial's.
        score_label: What its score is, as the file names it (``reward``, ``pass rate``).
    """

    ref: str
    steps: Sequence[Step]
    status: str | None
    verdict: str
    score: float | None
    duration_ms: float | None
    cost: float | None
    tokens_in: int | None
    tokens_out: int | None
    tool_calls: int | None
    failed_tool_calls: int | None
    reasoning: tuple[tuple[str, str], ...] = ()
    trials: bool = False
    score_label: str | None = None

    def step_name(self, index: int) -> str:
        """``step-N`` for step ``index`` of the timeline; ``trial-T/step-N`` when the side
        is a whole trials record (each trial numbers its steps from 1)."""
        step = self.steps[index]
        if self.trials and "/trial-" in step.ref:
            trial = step.ref.rsplit("/trial-", 1)[1].split("/", 1)[0]
            return f"trial-{trial}/step-{step.number}"
        return f"step-{step.number}"


def _tokens(own: int | None, steps: Sequence[Step], attr: str) -> int | None:
    if own is not None:
        return own
    counts = [getattr(s, attr) for s in steps if getattr(s, attr) is not None]
    return sum(counts) if counts else None


def _tool_counts(steps: Sequence[Step]) -> tuple[int, int]:
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


def _failed(steps: Sequence[Step], number: int) -> bool:
    return any(s.number == number and s.outcome is Outcome.ERROR for s in steps)


def _judged(ref: str, run: Run, attempt: int | None) -> tuple[tuple[str, str], ...]:
    """Each grader's reasoning of the side, named as the side is (``LABEL::RUN/trial-2``
    when the side's reference names its source)."""
    out = []
    base = ref.split("/trial-")[0] if attempt is not None else ref
    for judged, why in graders_reasoning(run, attempt):
        rest = judged[len(run.summary.ref) :]
        out.append((base + rest, why))
    return tuple(out)


def side(run: Run, ref: str, attempt: int | None = None) -> Side:
    """The side for ``run``, or for its trial ``attempt``. A trials record as a whole is
    every trial's timeline, one after the other (not its first trial's)."""
    s = run.summary
    steps = run.timeline(attempt)
    whole_trials = attempt is None and not run.steps and len(run.attempts) > 1
    if whole_trials:
        steps = tuple(step for trial in run.attempts for step in trial.steps)
    trial = run.attempt(attempt) if attempt is not None else None
    reasoning = _judged(ref, run, attempt)
    if trial is not None:
        calls, failed = _tool_counts(steps)
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
            reasoning=reasoning,
            score_label="score" if trial.score is not None else None,
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
        tool_calls=s.tool_calls,  # the row's count, unknown where the row's is
        failed_tool_calls=s.failed_tool_calls,
        reasoning=reasoning,
        trials=whole_trials,
        score_label=s.score_label,
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
    return Comparison(a, b, align(a.steps, b.steps, (a.step_name, b.step_name)))


def difference(x: float | None, y: float | None) -> float | None:
    """``y - x`` when both sides have the figure, else None."""
    return None if x is None or y is None else y - x


# -- two sources: the same prompts, two agents (or before and after a change) -----------------


@dataclass(frozen=True, slots=True)
class Row:
    """One prompt in a source comparison: its run on each side (None: not on that side)."""

    ref: str
    a: RunSummary | None
    b: RunSummary | None

    @property
    def flip(self) -> str | None:
        """``pass→fail`` or ``fail→pass`` when the file's grade of the prompt's run flipped
        (:attr:`RunSummary.grade`: a graded timeout is graded); None otherwise, or when a
        side is not graded."""
        if self.a is None or self.b is None:
            return None
        ga, gb = self.a.grade, self.b.grade
        if ga is None or gb is None or ga == gb:
            return None
        return "pass→fail" if ga else "fail→pass"

    @property
    def score_change(self) -> float | None:
        """B's score minus A's, when both runs have a score."""
        if self.a is None or self.b is None:
            return None
        return difference(self.a.score, self.b.score)


@dataclass(frozen=True, slots=True)
class Rate:
    """A share with the counts behind it."""

    count: int
    of: int

    @property
    def value(self) -> float | None:
        """``count / of``, None when ``of`` is 0."""
        return self.count / self.of if self.of else None


@dataclass(frozen=True, slots=True)
class SourceComparison:
    """Runs of two sources paired by reference.

    Attributes:
        rows: Flips first (pass to fail, then fail to pass), then the other prompts in both
            by how much the score changed (most first), then those only in A, only in B.
        pass_a: Of the prompts in both whose two runs the files grade pass or fail (as the
            run list's pass share counts them), those A passed.
        pass_b: The same for B.
        mean_a: A's mean score over the prompts in both where both runs have a score.
        mean_b: B's, over the same prompts.
        paired: The mean of B - A over those prompts with its 95% interval (none under 2
            prompts): for scores within [0, 1] (differences within [-1, 1]) the Wilson one
            of :func:`~trajtui.core.stats.estimators.bounded_mean_interval`, which never
            leaves [-1, 1]; else the t interval.
    """

    rows: tuple[Row, ...]
    pass_a: Rate
    pass_b: Rate
    mean_a: float | None
    mean_b: float | None
    paired: Interval | None

    @property
    def both(self) -> int:
        """Prompts present in both."""
        return sum(r.a is not None and r.b is not None for r in self.rows)

    def flips(self, which: str) -> int:
        """How many prompts flipped ``which`` way (``pass→fail`` or ``fail→pass``)."""
        return sum(r.flip == which for r in self.rows)

    @property
    def same(self) -> bool:
        """Every prompt is in both, with the same verdict and score."""
        return all(
            r.a is not None
            and r.b is not None
            and r.a.outcome.verdict is r.b.outcome.verdict
            and r.a.score == r.b.score
            for r in self.rows
        )


def _order(row: Row) -> tuple[int, float]:
    """Flips pass to fail (0), fail to pass (1), the rest of the prompts in both by how
    much the score changed (2), only in A (3), only in B (4)."""
    if row.a is None or row.b is None:
        return (4 if row.a is None else 3, 0.0)
    flip = row.flip
    if flip is not None:
        return (0 if flip == "pass→fail" else 1, 0.0)
    change = row.score_change
    return (2, -abs(change) if change is not None else 0.0)


def compare_sources(a: list[RunSummary], b: list[RunSummary]) -> SourceComparison:
    """Pair the runs of two sources by reference (a prompt's id is its reference in both
    when the same prompts were run) and count what changed."""
    in_b = {s.ref: s for s in b}
    seen: set[str] = set()
    rows: list[Row] = []
    for s in a:
        rows.append(Row(s.ref, s, in_b.get(s.ref)))
        seen.add(s.ref)
    rows.extend(Row(s.ref, None, s) for s in b if s.ref not in seen)
    rows.sort(key=_order)
    both = [r for r in rows if r.a is not None and r.b is not None]
    judged = [
        r
        for r in both
        if r.a is not None and r.b is not None and None not in (r.a.grade, r.b.grade)
    ]
    pass_a = Rate(sum(r.a is not None and r.a.grade is True for r in judged), len(judged))
    pass_b = Rate(sum(r.b is not None and r.b.grade is True for r in judged), len(judged))
    scored = [
        (r.a.score, r.b.score)
        for r in both
        if r.a is not None and r.b is not None and r.a.score is not None and r.b.score is not None
    ]
    mean_a = sum(x for x, _ in scored) / len(scored) if scored else None
    mean_b = sum(y for _, y in scored) / len(scored) if scored else None
    paired: Interval | None = None
    if scored:
        diffs = [y - x for x, y in scored]
        if all(0 <= v <= 1 for pair in scored for v in pair):
            paired = bounded_mean_interval(diffs, -1.0, 1.0)
        else:
            paired = mean_interval(diffs)
    return SourceComparison(tuple(rows), pass_a, pass_b, mean_a, mean_b, paired)
