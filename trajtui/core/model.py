"""The model every format is read into: runs, attempts, steps and problems.

All model objects are frozen dataclasses a format's reader builds from one record or file.
They keep the object as it is in the file (``raw``) beside the fields trajtui understands:
every number shown can be traced back to the file, and a field the file does not have is
``None``, shown as absent, never as a default.

Vocabulary:

* A **Source** (:mod:`trajtui.core.source`) is one opened thing, of one format.
* A **Run** is one record/task/plan/results file: the unit listed by ``trajtui ls``.
* An **Attempt** is one trial of a run (acp-harness ``trials`` files have k of them).
* A **Step** is one item of a timeline: a message, a thought, a tool call, a model call...
* A **Problem** is something in the input that could not be read, or was read with a fix-up.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from trajtui.core.io.remote import shown


class Kind(StrEnum):
    """What a step is. The UI picks a glyph per kind."""

    THOUGHT = "thought"
    MESSAGE = "message"
    TOOL_CALL = "tool_call"
    PLAN = "plan"
    MODEL_CALL = "model_call"
    TASK = "task"
    SAMPLE = "sample"
    RESULT = "result"
    OTHER = "other"


class Verdict(StrEnum):
    """The neutral outcome of a run, the same in every format (for counts and comparisons
    across runs and formats); the format's own word stays beside it (``RunSummary.status``)."""

    PASS = "pass"
    FAIL = "fail"
    ERROR = "error"
    TIMEOUT = "timeout"
    UNKNOWN = "unknown"


class StepState(StrEnum):
    """The neutral state of a step (a tool call's, mostly)."""

    OK = "ok"
    FAILED = "failed"
    PENDING = "pending"
    UNKNOWN = "unknown"


class Outcome(StrEnum):
    """The category of a status word, for glyphs, colours, filters and counts.

    The word itself (``Run.status``) is what the file says (or is derived from named file
    fields); the outcome only groups words: ``LimitsExceeded`` and ``timeout`` are different
    words, ``ERROR`` and ``TIMEOUT`` outcomes.
    """

    PASS = "pass"
    FAIL = "fail"
    PARTIAL = "partial"
    ERROR = "error"
    TIMEOUT = "timeout"
    RUNNING = "running"
    SKIPPED = "skipped"
    DONE = "done"
    NONE = "none"
    """The file has no status for this object."""

    @property
    def verdict(self) -> Verdict:
        """The neutral outcome: a partial pass is not a pass; done, running and skipped say
        nothing about passing."""
        return _VERDICTS.get(self, Verdict.UNKNOWN)

    @property
    def state(self) -> StepState:
        """The neutral step state of this category."""
        return _STATES.get(self, StepState.UNKNOWN)


_VERDICTS = {
    Outcome.PASS: Verdict.PASS,
    Outcome.FAIL: Verdict.FAIL,
    Outcome.PARTIAL: Verdict.FAIL,
    Outcome.ERROR: Verdict.ERROR,
    Outcome.TIMEOUT: Verdict.TIMEOUT,
}
_STATES = {
    Outcome.PASS: StepState.OK,
    Outcome.DONE: StepState.OK,
    Outcome.FAIL: StepState.FAILED,
    Outcome.ERROR: StepState.FAILED,
    Outcome.TIMEOUT: StepState.FAILED,
    Outcome.RUNNING: StepState.PENDING,
}


def grade(passed: bool | None, outcome: Outcome) -> bool | None:
    """The file's pass/fail grade of a run: its own verdict (``passed``, a grader's
    ``pass``) when it has one, whatever else the run is (a run that timed out and was graded
    is graded); else what its status says when that is a pass or a fail (a legacy
    ``passed``/``failed``, an eval run's correct/wrong); None when the file does not grade
    the run. Pass shares are of the graded runs: every surface counts them with this."""
    if passed is not None:
        return passed
    verdict = outcome.verdict
    if verdict is Verdict.PASS:
        return True
    if verdict is Verdict.FAIL:
        return False
    return None


class Severity(StrEnum):
    """How bad a problem is."""

    ERROR = "error"
    """The object could not be read; it is missing from the data shown."""
    WARNING = "warning"
    """The object was read, with a fix-up the user should know about."""


@dataclass(frozen=True, slots=True)
class Problem:
    """Something wrong in an input file, reported as ``PATH:LINE: message``.

    Attributes:
        path: The file, as the user named it (or relative to the directory they opened).
        line: 1-based line number, or None when the problem is about the whole file.
        message: One line saying what is wrong.
        severity: Whether data was lost (error) or fixed up (warning).
        ref: The reference of the run the problem belongs to, when it has one.
    """

    path: str
    line: int | None
    message: str
    severity: Severity = Severity.ERROR
    ref: str | None = None

    def __str__(self) -> str:  # (a remote object's mirror: said by its URL)
        where = shown(self.path) + (f":{self.line}" if self.line is not None else "")
        return f"{where}: {self.message}"


@dataclass(frozen=True, slots=True)
class Field:
    """One labelled value of a run, attempt or step, shown in headers and details.

    Attributes:
        label: What the value is (``input``, ``hint``, ``score``...).
        value: The value as in the file (text, number, list or object).
        markdown: The value is prose in Markdown (agent output), not plain text.
    """

    label: str
    value: Any
    markdown: bool = False


@dataclass(frozen=True, slots=True)
class Call:
    """One tool call a step makes, when the step makes its calls itself (a model's turn
    that calls several tools): see :attr:`Step.calls`.

    Attributes:
        tool: The tool's name (None when the file does not name it).
        state: ok or failed when a result of the call says so; unknown otherwise.
    """

    tool: str | None
    state: StepState = StepState.UNKNOWN


@dataclass(frozen=True, slots=True)
class Step:
    """One item of a run's timeline.

    Attributes:
        ref: The step's reference (``RUN-step-3``, ``RUN/trial-2/step-3``, ``RUN/step-3``).
        number: The step's number, named by ``step-N`` references: its 1-based position in
            its timeline, or the number its file gives it (an ATIF ``step_id``) when the
            format numbers steps as the file does (unique within the timeline).
        kind: What the step is.
        title: One line for the timeline (tool name, first line of text).
        status: The status word from the file (``completed``, ``pending``), or None.
        outcome: The category of ``status``.
        offset_ms: Time since the start of the run, in ms, or None when unknown.
        duration_ms: Duration from the file, in ms, or None.
        text: The message or thought text, when the step has one.
        markdown: ``text`` is Markdown.
        input: Tool input (or the step's input messages), as in the file; None when absent.
        output: Tool output, as in the file; None when absent.
        error: An error message from the file, or None.
        pair: The 1-based position of the step this one is paired with (a tool call's pending and
            completed halves), or None.
        stored_id: The ``stepId`` stored in the file, when there is one.
        tools: The names of the tools the step calls (or whose calls it answers), each once,
            in call order: one for a tool call (or its result), several for a model's turn
            calling several tools; empty when the file names none (:attr:`tool` joins them
            for display).
        tokens_in: Input (prompt) tokens of a model call, as the file says.
        tokens_out: Output (completion) tokens of a model call, as the file says.
        cost: Cost of the step in USD, as the file says.
        calls: The tool calls the step makes, one each (two calls of one tool are two), as
            the run's row counts them, given by formats whose steps make several calls (a
            model call, an agent turn): ``()`` for a step that makes none the row counts (a
            message, a copy of earlier context, a step of results); None when the format
            does not give them (a ``tool_call`` step is then one call, its halves paired).
        detail: A typed object the format keeps for its view (never shown as data by
            itself, never recovered from display strings).
        fields: Extra labelled values (tokens, cost, verdict...).
        raw: The step as it is in the file.
    """

    ref: str
    number: int
    kind: Kind
    title: str
    status: str | None = None
    outcome: Outcome = Outcome.NONE
    offset_ms: float | None = None
    duration_ms: float | None = None
    text: str | None = None
    markdown: bool = False
    input: Any = None
    output: Any = None
    error: str | None = None
    pair: int | None = None
    stored_id: str | None = None
    tools: tuple[str, ...] = ()
    tokens_in: int | None = None
    tokens_out: int | None = None
    cost: float | None = None
    calls: tuple[Call, ...] | None = None
    detail: Any = None
    fields: tuple[Field, ...] = ()
    raw: Any = None

    @property
    def tool(self) -> str | None:
        """The tools the step calls, for display (``Read, Bash``), or None: never split
        again (read :attr:`tools`)."""
        return ", ".join(self.tools) or None

    @property
    def state(self) -> StepState:
        """ok, failed, pending or unknown, from the step's status word."""
        return self.outcome.state


@dataclass(frozen=True, slots=True)
class Attempt:
    """One trial of a run (acp-harness trials files).

    Attributes:
        ref: ``RUN/trial-T``.
        number: T, the trial number (``trialNum`` in the file, else its position).
        status: ``pass``/``fail``/``error`` derived from the trial's ``pass`` and
            ``reasoning`` fields, or None when the trial was not graded.
        outcome: The category of ``status``.
        passed: The trial's ``pass`` field.
        score: The trial's ``score`` field.
        duration_ms: The trial's ``duration`` field.
        steps: The trial's timeline.
        fields: Output, reasoning and other values.
        raw: The trial as in the file.
    """

    ref: str
    number: int
    status: str | None
    outcome: Outcome
    passed: bool | None
    score: float | None
    duration_ms: float | None
    steps: tuple[Step, ...]
    fields: tuple[Field, ...] = ()
    raw: Any = None

    @property
    def failed_tool_calls(self) -> int:
        """Tool-call steps whose status is ``failed``."""
        return sum(1 for s in self.steps if s.kind is Kind.TOOL_CALL and s.outcome is Outcome.ERROR)


@dataclass(frozen=True, slots=True)
class RunSummary:
    """What the run list shows for one run: cheap to keep for every run of a big file.

    Every attribute is read from the file or derived from named fields of it; None means
    the file does not say.

    Attributes:
        ref: The run's reference (``websearch-17``, ``websearch-17#2``...).
        index: Position of the run in its source.
        format: Format id of the source (``acp-capture``...).
        status: Status word.
        outcome: Category of the status word.
        steps: Number of steps (for trials: over all trials).
        tool_errors: The file's own tool-error flag (``toolErrors``), when it has one. It is
            shown under the file's name (``toolErrors``); "tool errors" on screen and in
            ``ls`` is ``failed_tool_calls``.
        failed_tool_calls: Tool errors: tool calls that failed (steps with status
            ``failed``, forecast tool results that are errors); None when the format cannot
            tell.
        tool_calls: Tool calls made (a call's pending and completed halves count once);
            None when the format does not record tool calls.
        duration_ms: Run duration: what the file says, or what its own timestamps span, or
            a sum the file's values give (``duration_label`` then says which).
        duration_label: What ``duration_ms`` is when it is not the run's own duration
            (``sum of 5 trials``, ``span of message timestamps``...), else None.
        score: Score (grader score, pass rate, accuracy, Brier score...).
        score_label: What ``score`` is (``score``, ``pass rate``, ``accuracy``, ``brier``).
        passed: Pass/fail verdict from the file.
        attempts: Number of trials/attempts.
        graded: Number of trials with a pass/fail verdict.
        passes: Number of passing trials.
        file_metrics: Numbers the file computed for the run, under the file's own names
            (``passRate``, ``passAtK``, ``passExpK`` of a trials record), as the file has them.
        cost: Cost in USD.
        title: One line describing the run (first line of the input, the question...).
        line: Line number in the file (JSONL sources).
        metadata: Flat key/value pairs for grouping and querying runs (agent, model,
            category...), as the file names them (see :attr:`Run.metadata`).
        tools: Names of the tools the run called, sorted, each once; empty when it called
            none or the format does not name them.
        tokens_in: Input tokens of the run, as the file counts them (see
            :attr:`Run.tokens_in`), or None.
        tokens_out: Output tokens of the run, as ``tokens_in``.
    """

    ref: str
    index: int
    format: str
    status: str | None
    outcome: Outcome
    steps: int | None = None
    tool_errors: bool | None = None
    failed_tool_calls: int | None = None
    tool_calls: int | None = None
    duration_ms: float | None = None
    duration_label: str | None = None
    score: float | None = None
    score_label: str | None = None
    passed: bool | None = None
    attempts: int | None = None
    graded: int | None = None
    passes: int | None = None
    file_metrics: tuple[tuple[str, float], ...] = ()
    cost: float | None = None
    title: str = ""
    line: int | None = None
    metadata: tuple[tuple[str, str], ...] = ()
    tools: tuple[str, ...] = ()
    tokens_in: int | None = None
    tokens_out: int | None = None

    @property
    def grade(self) -> bool | None:
        """The file's pass/fail grade of the run (:func:`grade`)."""
        return grade(self.passed, self.outcome)

    def to_json(self) -> dict[str, Any]:
        """The summary as a JSON object (``trajtui ls --json``).

        Keys in snake_case are trajtui's (null when the file does not say); keys in the
        file's own camelCase (``toolErrors``, ``passRate``, ``passAtK``, ``passExpK``) are the
        file's values, present only when the file has them.
        """
        out: dict[str, Any] = {
            "ref": self.ref,
            "format": self.format,
            "status": self.status,
            "outcome": self.outcome.value,
            "steps": self.steps,
            "tool_calls": self.tool_calls,
            "tool_errors": self.failed_tool_calls,
            "duration_ms": self.duration_ms,
            "duration_label": self.duration_label,
            "score": self.score,
            "score_label": self.score_label,
            "pass": self.passed,
            "attempts": self.attempts,
            "graded": self.graded,
            "passes": self.passes,
            "cost": self.cost,
            "title": self.title,
            "line": self.line,
            "tokens_in": self.tokens_in,
            "tokens_out": self.tokens_out,
            "tools": list(self.tools),
            "metadata": dict(self.metadata),
        }
        if self.tool_errors is not None:
            out["toolErrors"] = self.tool_errors
        out.update(self.file_metrics)
        return out


@dataclass(frozen=True, slots=True)
class Run:
    """A whole run: its summary, timeline, trials and everything else the file holds.

    Attributes:
        summary: The run-list row.
        steps: The timeline (empty for trials files: see ``attempts``): a tuple, or for a
            file that is one run (a session log) a lazy sequence that reads its steps from
            the file on demand (:class:`~trajtui.core.jsonl.session.LazySteps`): index it,
            slice it or iterate it; never hold it whole.
        attempts: Trials, for formats that have them.
        fields: Labelled values shown in the run's header and detail.
        raw: The run's object as it is in the file.
        detail: A typed object the format keeps for its view (the forecast message pool and
            source board, an ultraplan plan and its validation, for example); never shown as
            data by itself, never recovered from display strings.
        problems: Problems found while reading this run.
        path: The file the run was read from.
        metadata: Flat key/value pairs for grouping runs (agent, model, category, method...),
            as the file names them; empty when the file has none.
        run_tokens_in: Input tokens of the whole run as the file counts them (its own usage
            totals, or a count over every record of the run where only some are kept as
            steps), or None; :attr:`tokens_in` is the figure to use.
        run_tokens_out: Output tokens of the whole run, as ``run_tokens_in``.
    """

    summary: RunSummary
    steps: Sequence[Step] = ()
    attempts: tuple[Attempt, ...] = ()
    fields: tuple[Field, ...] = ()
    raw: Any = None
    detail: Any = None
    problems: tuple[Problem, ...] = ()
    path: str | None = None
    metadata: tuple[tuple[str, str], ...] = ()
    run_tokens_in: int | None = None
    run_tokens_out: int | None = None

    @property
    def ref(self) -> str:
        """The run's reference."""
        return self.summary.ref

    @property
    def tokens_in(self) -> int | None:
        """Input tokens of the run: the file's own figure for the run when it has one, else
        the sum over the steps (of every trial) that say theirs; None when nothing says."""
        if self.run_tokens_in is not None:
            return self.run_tokens_in
        return _sum(s.tokens_in for s in self._all_steps())

    @property
    def tokens_out(self) -> int | None:
        """Output tokens of the run, as :attr:`tokens_in`."""
        if self.run_tokens_out is not None:
            return self.run_tokens_out
        return _sum(s.tokens_out for s in self._all_steps())

    def _all_steps(self) -> Iterator[Step]:
        yield from self.steps
        for attempt in self.attempts:
            yield from attempt.steps

    def timeline(self, attempt: int | None = None) -> Sequence[Step]:
        """Steps of the run, or of trial ``attempt`` (1-based number) for trials files."""
        if attempt is None:
            if self.steps or not self.attempts:
                return self.steps
            return self.attempts[0].steps
        for a in self.attempts:
            if a.number == attempt:
                return a.steps
        return ()

    def attempt(self, number: int) -> Attempt | None:
        """The trial with this number, if there is one."""
        for a in self.attempts:
            if a.number == number:
                return a
        return None


def _sum(values: Iterable[int | None]) -> int | None:
    """The sum of the values that are not None; None when all are (nothing says)."""
    total: int | None = None
    for v in values:
        if v is not None:
            total = v if total is None else total + v
    return total
