"""Samples read the same way whatever the file's shape: :class:`Sample`, one reader per
shape (results documents and legacy lines, per-sample documents with their item logs, item
logs alone, test query dumps) and :func:`samples_of` for a whole file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from trajtui.core.io.jsonutil import dumps_line
from trajtui.core.model import Field
from trajtui.core.values import boolean, count, fields, mapping, num, string
from trajtui.formats.eval_results.shapes import JSONL, QUERY, RESULTS_DOC, ResultsFile

SAMPLE_ORDER = (
    "verdict",
    "gt_verdict",
    "correct",
    "risk_score",
    "prompt_tokens",
    "completion_tokens",
    "total_tokens",
    "cost_usd",
    "latency_ms",
    "llm_calls",
    "parsed",
)


_METRIC_KEYS = SAMPLE_ORDER[SAMPLE_ORDER.index("prompt_tokens") : SAMPLE_ORDER.index("parsed")]
"""Usage figures of a sample (tokens, cost, latency, calls)."""


@dataclass(frozen=True, slots=True)
class Sample:
    """One sample, read the same way whatever the file's shape.

    Attributes:
        id: ``business_id`` (legacy lines: ``sample_id``; per-sample: ``item_id``), or None.
        name: The restaurant's name.
        verdict: The predicted verdict, as in the file.
        gt_verdict: The ground-truth verdict, as in the file (None when null or absent).
        correct: The file's ``correct`` flag.
        error: The sample's ``error`` (it failed).
        parse_error: Why its response could not be parsed.
        response: The raw model response.
        prompt: The prompt, when a debug capture or query dump has it.
        cost: ``cost_usd``.
        latency_ms: ``latency_ms``.
        tokens_in: ``prompt_tokens``.
        tokens_out: ``completion_tokens``.
        fields: Every value of the sample, for its detail view.
        raw: The sample as in the file.
    """

    id: str | None
    name: str | None
    verdict: Any = None
    gt_verdict: Any = None
    correct: bool | None = None
    error: str | None = None
    parse_error: str | None = None
    response: str | None = None
    prompt: str | None = None
    cost: float | None = None
    latency_ms: float | None = None
    tokens_in: int | None = None
    tokens_out: int | None = None
    fields: tuple[Field, ...] = ()
    raw: Any = None


def id_of(value: Any) -> str | None:
    if isinstance(value, str):
        return value or None
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return None


def text_of(value: Any) -> str | None:
    """A string for a value the file gives as text (other values as compact JSON)."""
    if value is None:
        return None
    if isinstance(value, str):
        return value
    return dumps_line(value)


def _note(m: Mapping[str, Any]) -> tuple[Field, ...]:
    """A note when the file grades a sample that has no ground truth."""
    correct = m.get("correct")
    if isinstance(correct, bool) and "gt_verdict" in m and m["gt_verdict"] is None:
        word = "true" if correct else "false"
        return (Field("note", f"the file says correct={word} but gt_verdict is null"),)
    return ()


def _parse_error(m: Mapping[str, Any]) -> str | None:
    parsed = mapping(m.get("parsed"))
    if "parse_error" in parsed:
        return text_of(parsed["parse_error"]) or "parse error"
    if m.get("parse_success") is False:
        return "parse_success is false"
    return None


def _not_object(item: Any) -> Sample:
    return Sample(None, None, error=f"not an object: {type(item).__name__}", raw=item)


def result_sample(item: Any, id_key: str = "business_id", *, light: bool = False) -> Sample:
    """A sample of a results document (or, with ``id_key="sample_id"``, a legacy line);
    ``light``: only what a :class:`~.tally.Tally` counts (no fields, no response)."""
    if not isinstance(item, dict):
        return _not_object(item)
    if light:
        return Sample(
            id=None,
            name=None,
            verdict=item.get("verdict"),
            gt_verdict=item.get("gt_verdict"),
            correct=boolean(item.get("correct")),
            error=text_of(item.get("error")),
            parse_error=_parse_error(item),
            cost=num(item.get("cost_usd")),
            latency_ms=num(item.get("latency_ms")),
            tokens_in=count(item.get("prompt_tokens")),
            tokens_out=count(item.get("completion_tokens")),
        )
    return Sample(
        id=id_of(item.get(id_key)),
        name=string(item.get("name")),
        verdict=item.get("verdict"),
        gt_verdict=item.get("gt_verdict"),
        correct=boolean(item.get("correct")),
        error=text_of(item.get("error")),
        parse_error=_parse_error(item),
        response=text_of(item.get("response")),
        cost=num(item.get("cost_usd")),
        latency_ms=num(item.get("latency_ms")),
        tokens_in=count(item.get("prompt_tokens")),
        tokens_out=count(item.get("completion_tokens")),
        fields=(*fields(item, SAMPLE_ORDER, skip=("response", "error")), *_note(item)),
        raw=item,
    )


def _consistency(item: Mapping[str, Any]) -> bool | None:
    value = num(mapping(item.get("scores")).get("verdict_consistency"))
    return None if value is None else value == 1


def per_sample(item: Any, log: Any, *, light: bool = False) -> Sample:
    """A sample of a per-sample document, with its item log (or None); ``light``: only
    what a :class:`~.tally.Tally` counts."""
    if not isinstance(item, dict):
        return _not_object(item)
    if light and log is None:
        parsed = mapping(item.get("parsed"))
        return Sample(None, None, verdict=parsed.get("verdict"), correct=_consistency(item))
    parsed = mapping(item.get("parsed"))
    entry = mapping(log)
    metrics = mapping(entry.get("metrics"))
    derived: dict[str, Any] = {}
    if "verdict" in parsed:
        derived["verdict"] = parsed["verdict"]
    if entry:
        derived["gt_verdict"] = entry.get("ground_truth")
    correct = boolean(entry.get("correct")) if "correct" in entry else _consistency(item)
    if "correct" in entry or correct is not None:
        derived["correct"] = entry.get("correct", correct)
    if "score" in parsed:
        derived["risk_score"] = parsed["score"]
    derived.update((k, metrics[k]) for k in _METRIC_KEYS if k in metrics)
    notes: tuple[Field, ...] = ()
    if "correct" not in entry and correct is not None:
        notes = (Field("note", "correct is read from scores.verdict_consistency (no item log)"),)
    log_field = (
        (Field("item_log", {k: v for k, v in entry.items() if k != "output"}),) if entry else ()
    )
    return Sample(
        id=id_of(item.get("item_id")),
        name=None,
        verdict=derived.get("verdict"),
        gt_verdict=derived.get("gt_verdict"),
        correct=correct,
        error=text_of(entry.get("error")),
        parse_error=_parse_error(entry),
        response=text_of(entry.get("output")),
        cost=num(metrics.get("cost_usd")),
        latency_ms=num(metrics.get("latency_ms")),
        tokens_in=count(metrics.get("prompt_tokens")),
        tokens_out=count(metrics.get("completion_tokens")),
        fields=(
            *fields(derived, ()),
            *fields(item, ("scores", "parsed", "output"), skip=("item_id",)),
            *notes,
            *log_field,
        ),
        raw=item,
    )


def log_sample(stem: str, log: Any) -> Sample:
    """A sample known only from its item log (a failed sample of a per-sample document)."""
    if not isinstance(log, dict):
        return _not_object(log)
    metrics = mapping(log.get("metrics"))
    derived = {
        "verdict": log.get("verdict"),
        "gt_verdict": log.get("ground_truth"),
        "correct": log.get("correct"),
        **{k: metrics[k] for k in _METRIC_KEYS if k in metrics},
    }
    rest = {k: v for k, v in log.items() if k != "output"}
    return Sample(
        id=id_of(log.get("sample_id")) or stem,
        name=None,
        verdict=derived["verdict"],
        gt_verdict=derived["gt_verdict"],
        correct=boolean(log.get("correct")),
        error=text_of(log.get("error")),
        parse_error=_parse_error(log),
        response=text_of(log.get("output")),
        cost=num(metrics.get("cost_usd")),
        latency_ms=num(metrics.get("latency_ms")),
        tokens_in=count(metrics.get("prompt_tokens")),
        tokens_out=count(metrics.get("completion_tokens")),
        fields=(*fields(derived, ()), Field("item_log", rest)),
        raw=log,
    )


def query_sample(obj: Mapping[str, Any]) -> Sample:
    """The one sample of a test query dump."""
    restaurant = mapping(obj.get("restaurant"))
    usage = mapping(obj.get("usage"))
    return Sample(
        id=id_of(restaurant.get("business_id")),
        name=string(restaurant.get("name")),
        response=text_of(obj.get("response")),
        prompt=text_of(obj.get("prompt")),
        cost=num(usage.get("cost_usd")),
        latency_ms=num(usage.get("latency_ms")),
        tokens_in=count(usage.get("prompt_tokens")),
        tokens_out=count(usage.get("completion_tokens")),
        fields=(*fields(usage, ()), *fields(dict(obj), (), skip=("prompt", "response", "usage"))),
        raw=dict(obj),
    )


def safe_name(sample_id: str) -> str:
    """A sample id as ADDM names its item log and debug files (and never a path)."""
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in sample_id)


def samples_of(file: ResultsFile, logs: Mapping[str, Any] | None = None) -> list[Sample]:
    """The samples of a results file, in file order.

    Args:
        file: The decoded file.
        logs: Item logs by file stem (per-sample documents): matched to samples by id; the
            logs no sample names are listed after them, in name order.
    """
    logs = logs or {}
    if file.shape == QUERY:
        return [query_sample(file.raw)]
    if file.shape == JSONL:
        return [result_sample(item, "sample_id") for item in file.samples]
    if file.shape == RESULTS_DOC:
        return [result_sample(item) for item in file.samples]
    samples: list[Sample] = []
    matched: set[str] = set()
    for item in file.samples:
        sid = id_of(mapping(item).get("item_id"))
        stem = safe_name(sid) if sid else None
        if stem is not None:
            matched.add(stem)
        samples.append(per_sample(item, logs.get(stem) if stem else None))
    if file.passed is None:  # else a log may be a sample that was not kept
        samples.extend(log_sample(stem, logs[stem]) for stem in sorted(logs) if stem not in matched)
    return samples
