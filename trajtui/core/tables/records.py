"""One run's rows of each table, as plain Python values (the writer types them).

Every number is one the file says or one computed from it as every other surface computes
it: the run's row (:class:`~trajtui.core.model.RunSummary`) for the run list's figures, the
statistics' tool calls (:func:`~trajtui.core.stats.facts.step_calls`) for the tool-call
table. Unknown is None (a null), never 0. Text from the file is kept as it is (Parquet
stores it as a string; nothing reads it as markup); values that are not text (a tool's
input, a field's value) are their JSON, as :func:`~trajtui.core.io.jsonutil.dumps_line`
writes it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from trajtui.core.io.jsonutil import dumps_line
from trajtui.core.model import Attempt, Field, Run, RunSummary, Step, StepState, grade
from trajtui.core.stats.facts import step_calls
from trajtui.core.stats.tally import graded_pass
from trajtui.core.stats.tasks import TaskAttempt

Row = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Place:
    """Where a run is: what every row of it carries.

    Attributes:
        ref: The run's reference as the CLI and TUI show it for the paths opened
            (``SOURCE::REF`` when it needs its source): ``trajtui show PATH... REF``.
        prefix: What the workspace puts before a reference of this source (``''`` or
            ``SOURCE::``): a step's reference is ``prefix + step.ref``.
        source: The source's path, as opened.
        format: The format's id.
        index: The run's position in its source.
    """

    ref: str
    prefix: str
    source: str
    format: str
    index: int


def _seconds(ms: float | None) -> float | None:
    return None if ms is None else ms / 1000.0


def _json(value: Any) -> str | None:
    """A value that is not text as its JSON; text as it is; None as None."""
    if value is None:
        return None
    if isinstance(value, str):
        return value
    return dumps_line(value)


def _field_map(fields: Sequence[Field]) -> list[tuple[str, str]]:
    """Labelled values as map entries, each value's JSON (a label seen twice: ``label#2``)."""
    out: list[tuple[str, str]] = []
    seen: dict[str, int] = {}
    for f in fields:
        n = seen.get(f.label, 0) + 1
        seen[f.label] = n
        out.append((f.label if n == 1 else f"{f.label}#{n}", dumps_line(f.value)))
    return out


def _unique(pairs: Sequence[tuple[str, Any]]) -> list[tuple[str, Any]]:
    """Map entries with each key once (the first)."""
    seen: set[str] = set()
    out = []
    for k, v in pairs:
        if k not in seen:
            seen.add(k)
            out.append((k, v))
    return out


def _started(metadata: Sequence[tuple[str, str]]) -> datetime | None:
    """When the run started, where its metadata says so as a time (``started``, ISO 8601
    with its offset, as the file wrote it), in UTC; None otherwise (never a time made up
    from a file name or a sort order)."""
    for key, value in metadata:
        if key == "started":
            try:
                when = datetime.fromisoformat(value.replace("Z", "+00:00"))
            except ValueError:
                return None
            return when.astimezone(UTC) if when.tzinfo is not None else None
    return None


def run_row(
    place: Place,
    summary: RunSummary,
    run: Run | None,
    *,
    path: str | None = None,
) -> Row:
    """The ``runs`` row of a run: the figures of the run read whole (``run``, as ``stats``
    counts them; a format that lists runs before reading them, an Inspect log, knows its
    steps and calls only then), with what only the whole run says (its fields, tokens,
    task); else those of its row (``summary``, as ``ls --json``)."""
    s = summary if run is None else run.summary  # read whole: its counts (as stats reads)
    tokens_in, tokens_out = s.tokens_in, s.tokens_out
    metadata: Sequence[tuple[str, str]] = s.metadata
    fields: list[tuple[str, str]] = []
    task: TaskAttempt | None = None
    if run is not None:
        if run.tokens_in is not None:
            tokens_in = run.tokens_in
        if run.tokens_out is not None:
            tokens_out = run.tokens_out
        metadata = run.metadata or s.metadata
        fields = _field_map(run.fields)
        attempt = getattr(run.detail, "attempt", None)
        task = attempt if isinstance(attempt, TaskAttempt) else None
    return {
        "ref": place.ref,
        "run_ref": s.ref,
        "source": place.source,
        "file": path,
        "format": place.format,
        "index": place.index,
        "line": s.line,
        "status": s.status,
        "outcome": s.outcome.value,
        "verdict": s.outcome.verdict.value,
        "passed": s.passed,
        "grade": graded_pass(s),
        "steps": s.steps,
        "tool_calls": s.tool_calls,
        "tool_errors": s.failed_tool_calls,
        "tool_errors_flag": s.tool_errors,
        "duration_s": _seconds(s.duration_ms),
        "duration_label": s.duration_label,
        "score": s.score,
        "score_label": s.score_label,
        "attempts": s.attempts,
        "graded": s.graded,
        "passes": s.passes,
        "cost": s.cost,
        "tokens_in": tokens_in,
        "tokens_out": tokens_out,
        "title": s.title,
        "tools": list(s.tools),
        "started": _started(metadata),
        "task": None if task is None else task.task,
        "task_group": None if task is None else task.group,
        "loaded": run is not None,
        "metadata": _unique(metadata),
        "file_metrics": _unique(s.file_metrics),
        "fields": fields,
    }


def _where(place: Place, ref: str, trial: int | None) -> Row:
    """What a row of a run's step, call or trial starts with: its reference (``ref`` within
    the source), its run's, where the run is, and its trial (None outside trials)."""
    return {
        "ref": place.prefix + ref,
        "run_ref": place.ref,
        "source": place.source,
        "format": place.format,
        "run_index": place.index,
        "trial": trial,
    }


def _timelines(run: Run) -> Iterator[tuple[int | None, Sequence[Step]]]:
    if run.steps:
        yield None, run.steps
    for attempt in run.attempts:
        yield attempt.number, attempt.steps


def step_rows(place: Place, run: Run) -> Iterator[Row]:
    """The ``steps`` rows of a run (every trial's timeline too), read one at a time."""
    for trial, steps in _timelines(run):
        for position, step in enumerate(steps, 1):
            yield {
                **_where(place, step.ref, trial),
                "position": position,
                "number": step.number,
                "kind": step.kind.value,
                "title": step.title,
                "status": step.status,
                "outcome": step.outcome.value,
                "state": step.state.value,
                "offset_s": _seconds(step.offset_ms),
                "duration_s": _seconds(step.duration_ms),
                "text": step.text,
                "markdown": step.markdown,
                "input": _json(step.input),
                "output": _json(step.output),
                "error": step.error,
                "pair": step.pair,
                "stored_id": step.stored_id,
                "tools": list(step.tools),
                "calls": None if step.calls is None else len(step.calls),
                "tokens_in": step.tokens_in,
                "tokens_out": step.tokens_out,
                "cost": step.cost,
                "fields": _field_map(step.fields),
            }


def tool_call_rows(place: Place, run: Run) -> Iterator[Row]:
    """The ``tool_calls`` rows of a run: the calls its row counts (a call's two halves
    once), each with the step that makes it. ``failed`` is null when the run's format does
    not tell failures (``tool_errors`` null), as the statistics leave them out."""
    tells = run.summary.failed_tool_calls is not None
    for trial, steps in _timelines(run):
        last = 0
        call = 0
        for position, step, tc in step_calls(steps):
            call = call + 1 if position == last else 1
            last = position
            yield {
                **_where(place, step.ref, trial),
                "step": position,
                "call": call,
                "tool": tc.tool,
                "state": tc.state.value,
                "failed": (tc.state is StepState.FAILED) if tells else None,
                "duration_s": _seconds(tc.duration_ms),
            }


def trial_row(place: Place, attempt: Attempt) -> Row:
    """The ``trials`` row of one trial of a run."""
    return {
        **_where(place, attempt.ref, attempt.number),
        "status": attempt.status,
        "outcome": attempt.outcome.value,
        "passed": attempt.passed,
        "grade": grade(attempt.passed, attempt.outcome),
        "score": attempt.score,
        "duration_s": _seconds(attempt.duration_ms),
        "steps": len(attempt.steps),
        "fields": _field_map(attempt.fields),
    }
