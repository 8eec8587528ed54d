"""A results file as a run: its run-list row (title, status, score, cost, duration), its
header fields, and its samples as steps.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from trajtui.core.io.text import flat, one_line
from trajtui.core.model import Field, Kind, Problem, Run, RunSummary, Severity, Step
from trajtui.core.refs import DuplicateNamer
from trajtui.core.values import fields, mapping, num
from trajtui.formats.eval_results.confusion import CONFUSION, confusion_of_counts
from trajtui.formats.eval_results.detail import EvalRun
from trajtui.formats.eval_results.samples import Sample, safe_name, samples_of, text_of
from trajtui.formats.eval_results.shapes import JSONL, QUERY, RESULTS, ResultsFile
from trajtui.formats.eval_results.tally import MAX_PAIRS, Tally, run_status, sample_status

RUN_ORDER = (
    "run_id",
    "task",
    "task_id",
    "policy_id",
    "gt_task_id",
    "domain",
    "method",
    "model",
    "k",
    "n",
    "timestamp",
    "accuracy",
    "correct",
    "total",
    "auprc",
)


def _first(*values: Any) -> Any:
    for value in values:
        if value is not None:
            return value
    return None


def run_title(file: ResultsFile, samples: Sequence[Sample]) -> str:
    """One line for a run: its id, method, model and k, as far as the file says."""
    h = file.header
    meta = mapping(h.get("metadata"))

    def get(key: str) -> Any:
        return _first(h.get(key), meta.get(key))

    if file.shape == QUERY:
        first = samples[0].name if samples else None
        parts = ["test query", get("model"), first]
    elif file.shape == JSONL:
        model = _first(*(mapping(s.raw).get("model") for s in samples)) if samples else None
        parts = [get("run_id"), model]
    else:
        parts = [_first(get("run_id"), get("task"), get("policy_id")), get("method"), get("model")]
        k = get("k")
        parts.append(None if k is None else f"k={text_of(k)}")
    return flat(" · ".join(str(p) for p in parts if p not in (None, "")))


METADATA_KEYS = (
    "task",
    "task_id",
    "policy_id",
    "gt_task_id",
    "domain",
    "method",
    "model",
    "mode",
    "k",
)
"""The run-level values a results file may have that group runs (``metadata`` of a
per-sample document, the document itself otherwise)."""


def run_metadata(file: ResultsFile, samples: Sequence[Sample]) -> tuple[tuple[str, str], ...]:
    """A run's facts for grouping (task, policy, domain, method, model, mode, k), where the
    file says them: its run-level values (and a per-sample document's ``metadata``); for
    legacy lines, which have none, the ``model`` of the first sample that names one."""
    h = file.header
    meta = mapping(h.get("metadata"))
    out: list[tuple[str, str]] = []
    for key in METADATA_KEYS:
        value = _first(h.get(key), meta.get(key))
        if file.shape == JSONL and key == "model" and value is None:
            value = _first(*(mapping(s.raw).get("model") for s in samples))
        if isinstance(value, (str, int, float)) and not isinstance(value, bool) and value != "":
            out.append((key, str(value)))
    return tuple(out)


def _score(file: ResultsFile) -> float | None:
    if file.shape == JSONL:
        return num(mapping(file.header.get("metrics")).get("accuracy"))
    return num(file.header.get("accuracy"))


def run_cost(file: ResultsFile, tally: Tally) -> tuple[float | None, Field | None]:
    """The run's cost and a field saying where it comes from."""
    if tally.costs:
        label = f"cost (sum of cost_usd over {tally.costs:,} of {tally.samples:,} samples)"
        return tally.cost, Field(label, tally.cost)
    usage = num(mapping(file.header.get("usage_summary")).get("total_cost_usd"))
    if usage is not None:
        return usage, Field("cost (usage_summary.total_cost_usd)", usage)
    return None, None


def run_duration(file: ResultsFile, tally: Tally) -> tuple[float | None, str | None]:
    """The run's duration and a label saying what it is: the file's own
    ``usage_summary.total_latency_ms``, else the sum of its samples' ``latency_ms`` (samples
    may have run side by side: the file has no wall-clock duration); None without any."""
    total = num(mapping(file.header.get("usage_summary")).get("total_latency_ms"))
    if total is not None:
        return total, "usage_summary.total_latency_ms"
    if not tally.latencies:
        return None, None
    n = tally.samples
    label = (
        f"sum of latency_ms over {n:,} sample{'s' if n != 1 else ''}"
        if tally.latencies == n
        else f"sum of latency_ms over {tally.latencies:,} of {n:,} samples"
    )
    return tally.latency_ms, label


def summarize(file: ResultsFile, samples: Sequence[Sample], ref: str) -> RunSummary:
    """The run-list row of a results file (its counts over all its samples)."""
    tally = Tally.of(samples, file.passed)
    status, outcome = run_status(tally, file.header.get("total"))
    score = _score(file)
    has_accuracy = score is not None
    if num(file.header.get("total")) == 0:
        score = None  # an accuracy over 0 graded samples is n/a, whatever number is written
    cost, _ = run_cost(file, tally)
    duration, duration_label = run_duration(file, tally)
    return RunSummary(
        ref=ref,
        index=0,
        format=RESULTS.id,
        status=status,
        outcome=outcome,
        steps=tally.samples,
        duration_ms=duration,
        duration_label=duration_label,
        score=score,
        score_label="accuracy" if has_accuracy else None,
        cost=cost,
        title=run_title(file, samples),
        metadata=run_metadata(file, samples),
        tokens_in=tally.tokens_in,
        tokens_out=tally.tokens_out,
    )


def _sample_title(sample: Sample) -> str:
    who = sample.name or sample.id or "(unnamed sample)"
    if sample.error is not None:
        what = "error: " + one_line(sample.error, 120)
    elif sample.verdict is None:
        what = "no verdict" + (" (parse error)" if sample.parse_error else "")
    else:
        what = text_of(sample.verdict) or ""
    gt = f" (gt: {text_of(sample.gt_verdict)})" if sample.gt_verdict is not None else ""
    return one_line(f"{who} · {what}{gt}")


def sample_step(run_ref: str, number: int, sample: Sample, namer: DuplicateNamer) -> Step:
    """The timeline step of a sample: ``RUN/ID`` (``RUN/step-N`` when it has no usable id)."""
    stored = namer.name(sample.id) if sample.id else None
    ref = f"{run_ref}/{stored}" if stored and "/" not in stored else f"{run_ref}/step-{number}"
    status, outcome = sample_status(sample)
    error = sample.error
    if error is None and sample.parse_error is not None:
        error = f"parse error: {sample.parse_error}"
    return Step(
        ref=ref,
        number=number,
        kind=Kind.SAMPLE,
        title=_sample_title(sample),
        status=status,
        outcome=outcome,
        duration_ms=sample.latency_ms,
        tokens_in=sample.tokens_in,
        tokens_out=sample.tokens_out,
        cost=sample.cost,
        text=sample.response,
        markdown=False,
        input=sample.prompt,
        error=error,
        stored_id=stored,
        detail=sample,
        fields=sample.fields,
        raw=sample.raw,
    )


@dataclass(frozen=True, slots=True)
class Companions:
    """Files next to a results file that belong to its run.

    Attributes:
        files: Run fields made of whole files (``config.json``...), by file name.
        debug: Debug captures by sample file stem.
        logs: Item logs by file stem.
        problems: Companions that could not be read.
    """

    files: tuple[tuple[str, Any], ...] = ()
    debug: Mapping[str, Any] = field(default_factory=dict)
    logs: Mapping[str, Any] = field(default_factory=dict)
    problems: tuple[Problem, ...] = ()


def _with_debug(sample: Sample, capture: Any) -> Sample:
    """A sample with the prompt (and, when it has none, the response) of its debug capture."""
    c = mapping(capture)
    if not c:
        return sample
    extra = {k: v for k, v in c.items() if k not in ("prompt", "response")}
    return replace(
        sample,
        prompt=text_of(c.get("prompt")) if sample.prompt is None else sample.prompt,
        response=sample.response if sample.response is not None else text_of(c.get("response")),
        fields=(*sample.fields, Field("debug", extra)),
    )


def run_fields(
    file: ResultsFile, samples: Sequence[Sample], companions: Companions
) -> tuple[Field, ...]:
    """The run's header: the file's run-level values, counts, cost, confusion table and
    companion files."""
    tally = Tally.of(samples, file.passed)
    out = list(fields(file.header, RUN_ORDER))
    out.append(Field("samples", tally.samples))
    if file.passed is not None:
        out.append(Field("samples kept as steps", f"the first {len(samples):,}"))
    if tally.errors:
        out.append(Field("errors", tally.errors))
    if tally.parse_errors:
        out.append(Field("parse errors", tally.parse_errors))
    _, cost = run_cost(file, tally)
    if cost is not None:
        out.append(cost)
    if tally.pairs_over:
        out.append(Field(CONFUSION, f"not shown: over {MAX_PAIRS:,} distinct pairs"))
    elif tally.pairs:
        out.append(Field(CONFUSION, confusion_of_counts(tally.pairs).rows()))
    out.extend(Field(name, value) for name, value in companions.files)
    return tuple(out)


def eval_run(file: ResultsFile, tally: Tally) -> EvalRun:
    """What the eval view reads of a run: its run-level values, its confusion table."""
    h = file.header
    counted = bool(tally.pairs) and not tally.pairs_over
    return EvalRun(
        correct=h.get("correct"),
        total=h.get("total"),
        method=h.get("method"),
        model=h.get("model"),
        k=h.get("k"),
        confusion=confusion_of_counts(tally.pairs) if counted else None,
    )


def build_run(
    summary: RunSummary,
    file: ResultsFile,
    companions: Companions,
    path: str,
) -> Run:
    """The whole run of a results file."""
    samples = samples_of(file, companions.logs)
    if companions.debug:
        samples = [
            _with_debug(s, companions.debug.get(safe_name(s.id))) if s.id else s for s in samples
        ]
    namer = DuplicateNamer()
    steps = tuple(sample_step(summary.ref, n, s, namer) for n, s in enumerate(samples, 1))
    tally = Tally.of(samples, file.passed)
    return Run(
        summary=summary,
        steps=steps,
        detail=eval_run(file, tally),
        metadata=run_metadata(file, samples),
        run_tokens_in=tally.tokens_in,
        run_tokens_out=tally.tokens_out,
        fields=run_fields(file, samples, companions),
        raw=file.raw,
        problems=tuple(with_ref(p, summary.ref) for p in (*file.problems, *companions.problems)),
        path=path,
    )


def with_ref(problem: Problem, ref: str, severity: Severity | None = None) -> Problem:
    return Problem(problem.path, problem.line, problem.message, severity or problem.severity, ref)
