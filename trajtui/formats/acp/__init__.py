"""acp-harness / agent-eval-harness JSONL: capture, trials, summary and compare files.

Detection is by the keys of a record (never the file name): ``trajectory`` + ``timing`` is a
capture record, ``trials`` + ``k`` a trials record, ``toolCalls`` + ``duration`` a summary
record, ``rankings`` of ``{run, rank, score}`` a compare record (:mod:`.compare`). Every version listed in shared/formats/REAL-WORLD-NOTES.md is read:

* ``toolErrors`` (0.3+) or the legacy ``status: passed|failed|error|timeout`` (<=0.2);
* ``expected`` or ``hint`` (0.4 renamed it); ``input`` as a string or a list of turns;
* ``stepId`` stored or (normally) absent: step N of record ``ID`` is ``ID-step-N``;
* step ``timestamp`` in ms relative to ``timing.start`` (an epoch value is made relative);
* a tool call's pending and completed halves are paired; streamed chunks are kept as the
  separate steps they are (views merge them, see :func:`trajtui.core.steps.merge_chunks`).

Status words come from named fields, in this order: the legacy ``status``;
``metadata.timedOut: true`` or an ``errors`` message saying it timed out (``timeout``: a run
that timed out is a timeout whatever its score; the score is still shown); the grader's
``score.pass`` (``pass``/``fail``); other ``errors`` (``error``); otherwise ``done`` (the
harness writes a record when the run has ended).

Counts: tool calls are the ``tool_call`` steps, a call's pending and completed halves
counted once; tool errors are the tool calls whose status is ``failed`` (the record's own
``toolErrors`` flag is kept and shown under its name). Durations: a capture record's is
``timing.total`` (else ``timing.end - timing.start``), a summary record's its ``duration``,
and a trials record's the sum of its trials' ``duration`` (labelled so: the trials may have
run one after another or side by side, the file does not say).
"""

from __future__ import annotations

from typing import Any

from trajtui.core.format_api import Certainty, Claim, Format, Opened
from trajtui.core.io.detect import Sniffed
from trajtui.core.io.text import flat, one_line
from trajtui.core.jsonl.source import JsonlSource
from trajtui.core.model import Attempt, Field, Kind, Outcome, Run, RunSummary, Step
from trajtui.core.source import FormatInfo
from trajtui.core.stats.facts import StepFacts, ToolCall
from trajtui.core.values import (
    boolean,
    fields,
    flat_metadata,
    integer,
    mapping,
    num,
    sequence,
    string,
    text_of,
)
from trajtui.formats.acp.compare import COMPARE, CompareFormat, is_compare
from trajtui.formats.acp.lite import CaptureLite, StepLite, SummaryLite, TrialsLite
from trajtui.formats.acp.steps import build_steps, lite_calls, tool_figures, tool_stats

CAPTURE = FormatInfo("acp-capture", "acp-harness capture")
TRIALS = FormatInfo("acp-trials", "acp-harness trials")
SUMMARY = FormatInfo("acp-summary", "acp-harness summary")

_LEGACY_STATUS = {
    "passed": ("pass", Outcome.PASS),
    "failed": ("fail", Outcome.FAIL),
    "error": ("error", Outcome.ERROR),
    "timeout": ("timeout", Outcome.TIMEOUT),
}


def classify(obj: Any) -> FormatInfo | None:
    """Which acp-harness record ``obj`` is, by its keys; None when it is none of them."""
    if not isinstance(obj, dict):
        return None
    if "trajectory" in obj and ("timing" in obj or "toolErrors" in obj or "status" in obj):
        return CAPTURE
    if "trials" in obj and "k" in obj:
        return TRIALS
    if "toolCalls" in obj and "duration" in obj:
        return SUMMARY
    if "id" in obj and is_compare(obj):
        return COMPARE
    return None


def _capture_status(obj: dict[str, Any]) -> tuple[str, Outcome]:
    legacy = string(obj.get("status"))
    if legacy is not None:
        return _LEGACY_STATUS.get(legacy, (legacy, Outcome.NONE))
    errors = [e for e in sequence(obj.get("errors")) if e]
    timed_out = mapping(obj.get("metadata")).get("timedOut") is True
    if timed_out or any("timed out" in str(e).lower() for e in errors):
        return "timeout", Outcome.TIMEOUT
    passed = boolean(mapping(obj.get("score")).get("pass"))
    if passed is not None:
        return ("pass", Outcome.PASS) if passed else ("fail", Outcome.FAIL)
    if errors:
        return "error", Outcome.ERROR
    return "done", Outcome.DONE


def _duration(timing: dict[str, Any]) -> float | None:
    total = num(timing.get("total"))
    if total is not None:
        return total
    start, end = num(timing.get("start")), num(timing.get("end"))
    if start is not None and end is not None:
        return end - start
    return None


class _Base:
    key = "id"
    lite: Any = None

    def check(self, obj: dict[str, Any]) -> str | None:
        return None

    def input_text(self, obj: dict[str, Any]) -> str:
        """The record's whole ``input`` as text: a string as it is, each turn of a
        multi-turn input (a list) on its own line."""
        value = obj.get("input")
        if isinstance(value, list):
            return "\n".join(text_of(item) for item in value)
        return text_of(value)


class CaptureFormat(_Base):
    """acp-harness ``capture`` output: one record per prompt with its full trajectory."""

    info = CAPTURE
    lite = CaptureLite
    lite_kept = (StepLite,)  # tool_stats reads these as they are

    def check(self, obj: dict[str, Any]) -> str | None:
        if "trajectory" not in obj:
            return f'no "trajectory": not a capture record (keys: {", ".join(list(obj)[:6])})'
        if not isinstance(obj["trajectory"], list):
            return '"trajectory" is not an array'
        return None

    def _steps(self, obj: dict[str, Any], ref: str) -> tuple[Step, ...]:
        start = num(mapping(obj.get("timing")).get("start"))
        return build_steps(obj.get("trajectory"), lambda n: f"{ref}-step-{n}", start)

    def lite_facts(self, obj: dict[str, Any]) -> StepFacts:
        """What the statistics count of the run's steps, from its ``lite`` fields."""
        start = num(mapping(obj.get("timing")).get("start"))
        return StepFacts(lite_calls(obj.get("trajectory"), start))

    def summarize(self, obj: dict[str, Any], ref: str, index: int, line: int) -> RunSummary:
        return self._summary(obj, ref, index, line, tool_stats(obj.get("trajectory")))

    def summarize_facts(
        self, obj: dict[str, Any], ref: str, index: int, line: int
    ) -> tuple[RunSummary, StepFacts]:
        """:meth:`summarize` and :meth:`lite_facts` together, from one pairing of the calls."""
        start = num(mapping(obj.get("timing")).get("start"))
        calls, failed, tools, made = tool_figures(obj.get("trajectory"), start)
        return self._summary(obj, ref, index, line, (calls, failed, tools)), StepFacts(made)

    def _summary(
        self,
        obj: dict[str, Any],
        ref: str,
        index: int,
        line: int,
        counts: tuple[int | None, int | None, set[str]],
    ) -> RunSummary:
        status, outcome = _capture_status(obj)
        score = mapping(obj.get("score"))
        trajectory = sequence(obj.get("trajectory"))
        calls, failed, tools = counts
        return RunSummary(
            ref=ref,
            index=index,
            format=CAPTURE.id,
            status=status,
            outcome=outcome,
            steps=len(trajectory) if isinstance(obj.get("trajectory"), list) else None,
            tool_errors=boolean(obj.get("toolErrors")),
            failed_tool_calls=failed,
            tool_calls=calls,
            duration_ms=_duration(mapping(obj.get("timing"))),
            score=num(score.get("score")),
            score_label="score" if num(score.get("score")) is not None else None,
            passed=boolean(score.get("pass")),
            title=flat(text_of(obj.get("input"))),
            line=line,
            metadata=flat_metadata(obj.get("metadata")),
            tools=tuple(sorted(tools)),
        )

    def build(self, obj: dict[str, Any], ref: str, index: int, line: int) -> Run:
        return Run(
            summary=self.summarize(obj, ref, index, line),
            steps=self._steps(obj, ref),
            fields=_run_fields(obj),
            raw=obj,
            metadata=flat_metadata(obj.get("metadata")),
        )


def _run_fields(obj: dict[str, Any]) -> tuple[Field, ...]:
    return fields(
        obj,
        (
            "input",
            "expected",
            "hint",
            "output",
            "errors",
            "score",
            "status",
            "toolErrors",
            "timing",
            "metadata",
        ),
        skip=("id", "trajectory", "trials"),
        markdown=("output",),
    )


class SummaryFormat(_Base):
    """acp-harness ``summarize`` output: id, input, output, tool names and duration."""

    info = SUMMARY
    lite = SummaryLite

    def _steps(self, obj: dict[str, Any], ref: str) -> tuple[Step, ...]:
        return tuple(
            Step(
                ref=f"{ref}-step-{n}",
                number=n,
                kind=Kind.TOOL_CALL,
                title=one_line(name if isinstance(name, str) else str(name)),
                tools=(name,) if isinstance(name, str) and name else (),
                raw=name,
            )
            for n, name in enumerate(sequence(obj.get("toolCalls")), 1)
        )

    def lite_facts(self, obj: dict[str, Any]) -> StepFacts:
        """Each named tool a call of unknown state and duration, as its steps are."""
        unknown = Outcome.NONE.state
        return StepFacts(
            tuple(
                ToolCall(n if isinstance(n, str) and n else None, unknown, None)
                for n in sequence(obj.get("toolCalls"))
            )
        )

    def summarize(self, obj: dict[str, Any], ref: str, index: int, line: int) -> RunSummary:
        calls = obj.get("toolCalls")
        return RunSummary(
            ref=ref,
            index=index,
            format=SUMMARY.id,
            status=None,
            outcome=Outcome.NONE,
            steps=len(calls) if isinstance(calls, list) else None,
            tool_calls=len(calls) if isinstance(calls, list) else None,
            duration_ms=num(obj.get("duration")),
            title=flat(text_of(obj.get("input"))),
            line=line,
            tools=tuple(sorted({n for n in sequence(calls) if isinstance(n, str) and n})),
        )

    def build(self, obj: dict[str, Any], ref: str, index: int, line: int) -> Run:
        return Run(
            summary=self.summarize(obj, ref, index, line),
            steps=self._steps(obj, ref),
            fields=fields(
                obj,
                ("input", "output", "toolCalls", "duration"),
                skip=("id",),
                markdown=("output",),
            ),
            raw=obj,
        )


def _trial_status(t: dict[str, Any]) -> tuple[str | None, Outcome]:
    passed = boolean(t.get("pass"))
    reasoning = string(t.get("reasoning")) or ""
    errored = (
        reasoning.startswith("Error") and not t.get("output") and not sequence(t.get("trajectory"))
    )
    if errored:
        # As for a capture record: a trial that timed out is a timeout, not a failure.
        if "timed out" in reasoning.lower():
            return "timeout", Outcome.TIMEOUT
        return "error", Outcome.ERROR
    if passed is True:
        return "pass", Outcome.PASS
    if passed is False:
        return "fail", Outcome.FAIL
    return "done", Outcome.DONE


def _trials_duration_label(timed: int, trials: int) -> str | None:
    """What a trials record's duration is: the sum of its trials' ``duration``."""
    if not timed:
        return None
    if timed == trials:
        return f"sum of {trials} trial{'s' if trials != 1 else ''}"
    return f"sum of {timed} of {trials} trials"


class TrialsFormat(_Base):
    """acp-harness ``trials`` output: k trials of one prompt, each with its trajectory."""

    info = TRIALS
    lite = TrialsLite
    lite_kept = (StepLite,)  # tool_stats reads these as they are

    def check(self, obj: dict[str, Any]) -> str | None:
        if not isinstance(obj.get("trials"), list):
            return '"trials" is missing or not an array'
        return None

    def _numbers(self, trials: list[Any]) -> list[int]:
        nums = [integer(mapping(t).get("trialNum")) for t in trials]
        valid = [n for n in nums if n is not None]
        if len(valid) == len(trials) and len(set(valid)) == len(valid):
            return [n for n in nums if n is not None]
        return list(range(1, len(trials) + 1))

    def attempts(self, obj: dict[str, Any], ref: str) -> tuple[Attempt, ...]:
        """The trials of a record."""
        trials = sequence(obj.get("trials"))
        out: list[Attempt] = []
        for number, t in zip(self._numbers(trials), trials, strict=True):
            m = mapping(t)
            aref = f"{ref}/trial-{number}"
            status, outcome = _trial_status(m)
            steps = build_steps(m.get("trajectory"), lambda n, a=aref: f"{a}/step-{n}", None)
            out.append(
                Attempt(
                    ref=aref,
                    number=number,
                    status=status,
                    outcome=outcome,
                    passed=boolean(m.get("pass")),
                    score=num(m.get("score")),
                    duration_ms=num(m.get("duration")),
                    steps=steps,
                    fields=fields(
                        m,
                        ("output", "pass", "score", "reasoning", "duration", "outcome"),
                        skip=("trajectory",),
                        markdown=("output",),
                    ),
                    raw=t,
                )
            )
        return tuple(out)

    def lite_facts(self, obj: dict[str, Any]) -> StepFacts:
        """The calls of each trial in turn, from its ``lite`` fields."""
        return StepFacts(
            tuple(
                call
                for t in sequence(obj.get("trials"))
                for call in lite_calls(mapping(t).get("trajectory"), None)
            )
        )

    def summarize(self, obj: dict[str, Any], ref: str, index: int, line: int) -> RunSummary:
        trials = sequence(obj.get("trials"))
        graded = [boolean(mapping(t).get("pass")) for t in trials]
        passes = sum(1 for g in graded if g is True)
        n_graded = sum(1 for g in graded if g is not None)
        rate = num(obj.get("passRate"))
        if rate is None and n_graded:
            rate_known: float | None = passes / n_graded
        else:
            rate_known = rate
        if rate_known is None:
            status, outcome = "done", Outcome.DONE
        elif rate_known >= 1:
            status, outcome = "pass", Outcome.PASS
        elif rate_known <= 0:
            status, outcome = "fail", Outcome.FAIL
        else:
            status, outcome = "mixed", Outcome.PARTIAL
        steps = 0
        failed = 0
        calls = 0
        durations: list[float] = []
        tools: set[str] = set()
        for t in trials:
            m = mapping(t)
            traj = sequence(m.get("trajectory"))
            steps += len(traj)
            n_calls, n_failed, names = tool_stats(traj)
            calls += n_calls or 0
            failed += n_failed or 0
            tools |= names
            d = num(m.get("duration"))
            if d is not None:
                durations.append(d)
        return RunSummary(
            ref=ref,
            index=index,
            format=TRIALS.id,
            status=status,
            outcome=outcome,
            steps=steps,
            failed_tool_calls=failed,
            tool_calls=calls,
            duration_ms=sum(durations) if durations else None,
            duration_label=_trials_duration_label(len(durations), len(trials)),
            score=rate_known,
            score_label="pass rate" if rate_known is not None else None,
            attempts=len(trials),
            graded=n_graded,
            passes=passes if n_graded else None,
            file_metrics=tuple(
                (key, value)
                for key in ("passRate", "passAtK", "passExpK")
                if (value := num(obj.get(key))) is not None
            ),
            title=flat(text_of(obj.get("input"))),
            line=line,
            metadata=flat_metadata(obj.get("metadata")),
            tools=tuple(sorted(tools)),
        )

    def build(self, obj: dict[str, Any], ref: str, index: int, line: int) -> Run:
        return Run(
            summary=self.summarize(obj, ref, index, line),
            attempts=self.attempts(obj, ref),
            fields=fields(
                obj,
                ("input", "expected", "hint", "k", "passRate", "passAtK", "passExpK", "metadata"),
                skip=("id", "trials"),
            ),
            raw=obj,
            metadata=flat_metadata(obj.get("metadata")),
        )


RECORDS: dict[str, CaptureFormat | TrialsFormat | SummaryFormat | CompareFormat] = {
    CAPTURE.id: CaptureFormat(),
    TRIALS.id: TrialsFormat(),
    SUMMARY.id: SummaryFormat(),
    COMPARE.id: CompareFormat(),
}


class AcpFormat(Format):
    """acp-harness JSONL files, recognised by the keys of their first record."""

    infos = (CAPTURE, TRIALS, SUMMARY, COMPARE)

    def claim_file(self, path: str, sniffed: Sniffed, label: str | None) -> Claim | None:
        if sniffed.layout != "jsonl":
            return None
        info = classify(sniffed.first)
        if info is None:
            return None
        fmt = RECORDS[info.id]
        return Claim(Certainty.SHAPE, lambda: Opened((JsonlSource(path, fmt, label=label),)))


ACP = AcpFormat()
"""The registered acp-harness format."""
