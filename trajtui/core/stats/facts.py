"""What the statistics read of one run (:class:`RunFacts`): small, kept for every run
counted, built from the whole run (:func:`facts_of_run`) or only its row
(:func:`facts_of_summary`) when per-step figures are not needed or cannot be read.

Everything is read from the neutral model; no format is imported:

* tool calls: a step's own calls (``Step.calls``: a model's turn calling several tools,
  each with its state) when the format gives them, else the steps that call a tool
  (``Kind.TOOL_CALL``, and model calls and tasks, an agent tool's call, that name their
  tools), a call's pending and completed halves once (``Step.pair``), its state and
  duration those of its completed half: the calls the run's row counts;
* what a format counts of its own kind of data (eval samples, a plan's results): its
  :class:`~trajtui.core.stats.parts.FormatFigures` reads the run, and its facts are kept
  under its key (:meth:`RunFacts.part`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from trajtui.core.model import Kind, Run, RunSummary, Step, StepState, Verdict
from trajtui.core.stats.parts import Parts
from trajtui.core.stats.tasks import TaskAttempt


@dataclass(frozen=True, slots=True)
class ToolCall:
    """One tool call.

    Attributes:
        tool: The tool's name (None when the file does not name it).
        state: ok, failed, pending or unknown.
        duration_ms: The call's duration, when the file says (or its halves' timestamps).
    """

    tool: str | None
    state: StepState
    duration_ms: float | None


@dataclass(frozen=True, slots=True)
class RunFacts:
    """What the statistics count of one run.

    Attributes:
        ref: The run's reference as the workspace names it (``SOURCE::REF`` when several
            sources are open).
        source: Index of its source in the workspace.
        index: Its entry index in the source.
        path: The source's path.
        format: The format id.
        summary: The run's row.
        metadata: The run's grouping facts (agent, model, category...), as the file names
            them.
        tokens_in: Input tokens of the run (None when nothing says).
        tokens_out: Output tokens.
        calls: Its tool calls (empty when the run was not loaded whole: see ``loaded``).
        parts: What each format's figures counted of it (:meth:`part`), by their key.
        loaded: The run was read whole (per-step figures counted).
        attempt: The run as one attempt of a task run several times (a Harbor trial),
            when its format says so (``Run.detail.attempt``).
    """

    ref: str
    source: int
    index: int
    path: str
    format: str
    summary: RunSummary
    metadata: tuple[tuple[str, str], ...] = ()
    tokens_in: int | None = None
    tokens_out: int | None = None
    calls: tuple[ToolCall, ...] = ()
    parts: tuple[tuple[str, Any], ...] = ()
    loaded: bool = False
    attempt: TaskAttempt | None = None

    @property
    def verdict(self) -> Verdict:
        """pass, fail, error, timeout or unknown."""
        return self.summary.outcome.verdict

    def part(self, key: str) -> Any:
        """What the format figures ``key`` counted of the run (None: nothing)."""
        for k, facts in self.parts:
            if k == key:
                return facts
        return None

    @property
    def pick(self) -> tuple[int, int]:
        """``(source, entry index)``: where the run is, for the run list."""
        return (self.source, self.index)

    def field(self, name: str) -> str | None:
        """The run's value for a grouping field: ``format``, ``source``/``file``,
        ``status``, ``outcome``, or a metadata key (``agent``, ``metadata.agent``)."""
        if name == "format":
            return self.format
        if name in ("source", "file"):
            return self.path
        if name == "status":
            return self.summary.status
        if name == "outcome":
            return self.verdict.value
        key = name.removeprefix("metadata.")
        for k, v in self.metadata:
            if k == key:
                return v
        return None


@dataclass(frozen=True, slots=True)
class StepFacts:
    """What the statistics count of a run's steps, made by its format from only the fields
    they need (its ``lite_facts``: no step is built), on every core in the same pass that
    makes the run's row, and kept in the index cache: :func:`facts_of_steps` makes of it
    and the row the same :class:`RunFacts` as :func:`facts_of_run` of the whole run.

    Attributes:
        calls: The run's tool calls, as :func:`step_calls` gives them of its steps.
        tokens_in: Input tokens of the run (None when nothing says).
        tokens_out: Output tokens.
    """

    calls: tuple[ToolCall, ...] = ()
    tokens_in: int | None = None
    tokens_out: int | None = None


def facts_of_steps(
    summary: RunSummary, steps: StepFacts, *, ref: str, source: int, index: int, path: str
) -> RunFacts:
    """The facts of a run from its row and its :class:`StepFacts` (a format giving these
    keeps its run's metadata in its row, and has none of the data a format's figures
    count)."""
    return RunFacts(
        ref=ref,
        source=source,
        index=index,
        path=path,
        format=summary.format,
        summary=summary,
        metadata=summary.metadata,
        tokens_in=steps.tokens_in,
        tokens_out=steps.tokens_out,
        calls=steps.calls,
        loaded=True,
    )


def facts_of_summary(
    summary: RunSummary, *, ref: str, source: int, index: int, path: str
) -> RunFacts:
    """The facts of a run from its row alone (no per-step figures)."""
    return RunFacts(ref, source, index, path, summary.format, summary)


def facts_of_run(
    run: Run, *, ref: str, source: int, index: int, path: str, parts: Parts = ()
) -> RunFacts:
    """The facts of a whole run (``parts``: the figures of every format, each counting
    what it reads of the run)."""
    return RunFacts(
        ref=ref,
        source=source,
        index=index,
        path=path,
        format=run.summary.format,
        summary=run.summary,
        metadata=run.metadata,
        tokens_in=run.tokens_in,
        tokens_out=run.tokens_out,
        calls=tuple(_calls(run)),
        parts=tuple((p.key, f) for p in parts if (f := p.facts(run)) is not None),
        loaded=True,
        attempt=_attempt(run),
    )


def _attempt(run: Run) -> TaskAttempt | None:
    attempt = getattr(run.detail, "attempt", None)
    return attempt if isinstance(attempt, TaskAttempt) else None


def _timelines(run: Run) -> Iterator[Sequence[Step]]:
    if run.steps:
        yield run.steps
    for attempt in run.attempts:
        yield attempt.steps


def _calls(run: Run) -> Iterator[ToolCall]:
    for steps in _timelines(run):
        for _, _, call in step_calls(steps):
            yield call


def step_calls(steps: Sequence[Step]) -> Iterator[tuple[int, Step, ToolCall]]:
    """The tool calls of one timeline, each with the step that makes it (a call's opening
    half) and that step's 1-based position: the calls the run's row counts, as the
    statistics and the tables count them."""
    for position, step in enumerate(steps, 1):
        if step.calls is not None:  # the step's own calls, one each, as its row counts
            alone = len(step.calls) == 1 and step.kind is Kind.TOOL_CALL
            for c in step.calls:
                yield (
                    position,
                    step,
                    ToolCall(c.tool, c.state, _duration(step, step) if alone else None),
                )
            continue
        if step.kind not in (Kind.TOOL_CALL, Kind.MODEL_CALL, Kind.TASK):
            continue
        if step.kind is not Kind.TOOL_CALL and not step.tools:
            continue  # a model call or task that names no tool makes no call
        if step.pair is not None and step.pair < step.number:
            continue  # the completing half of a call counted at its opening
        end = step
        if step.pair is not None and 0 < step.pair <= len(steps):
            end = steps[step.pair - 1]
        duration = None
        if step.kind is not Kind.MODEL_CALL:  # a tool's (an agent tool's) own time
            duration = _duration(step, end)
        names: tuple[str | None, ...] = step.tools or (None,)
        for name in names:
            yield position, step, ToolCall(name, end.state, duration)


def _duration(start: Step, end: Step) -> float | None:
    """A call's duration: what its completing (or only) half says, else the time between
    its halves' timestamps."""
    if end.duration_ms is not None:
        return end.duration_ms
    if start.duration_ms is not None:
        return start.duration_ms
    if end is not start and start.offset_ms is not None and end.offset_ms is not None:
        return end.offset_ms - start.offset_ms
    return None
