"""Eval results (the ADDM Yelp allergy eval): ``results/`` trees, single results files and the
legacy ``results.jsonl``.

The real files differ from shared/formats/eval-results-json-schema.md, and the files win (see
REAL-WORLD-NOTES.md). Shapes read, all recognised by content (a name only says which files
are worth reading):

* **results document** ``{run_id, task_id, policy_id, gt_task_id, domain, method, model, k,
  n, timestamp, accuracy, correct, total, auprc, results: [...]}``, one object per sample
  (``business_id``, ``name``, ``response``, ``parsed``, ``verdict``, ``risk_score``, tokens,
  ``cost_usd``, ``latency_ms``, ``gt_verdict``, ``correct``...). Variants: the oldest
  baseline (``task`` instead of ``run_id``/``method``, no grading fields; ``k`` sometimes the
  string ``"ordinal_auprc"``), method ``rag`` (retrieval fields, no ``parsed``), ``parsed:
  {parse_error}``, a failed sample that is just ``{business_id, name, error}``.
* **per-sample document** (later): ``{metadata, method_meta, aggregate_scores, usage_summary,
  per_sample_results: [{item_id, scores, parsed: {verdict, score}, output}], accuracy,
  correct, total, auprc, ...}``. Failed samples are left out of ``per_sample_results``; the
  raw response, ground truth, cost and errors are in ``item_logs/<id>.json``, read when the
  run is opened (logs with no entry are the failed samples: they are listed after the others).
* **legacy JSON Lines**: one sample per line (``sample_id``, ``verdict``...), sometimes
  ending with a ``{"type": "metrics", ...}`` line (the run's metrics, not a sample).

A run that processed nothing is a run with 0 samples (status ``empty``), never dropped:
``"results": []`` with a run key (``run_id``, ``task``, ``policy_id``...), an empty
``per_sample_results``, a JSON Lines file with only its metrics line or with no line at all.
A run directory's results file that is JSON of another kind is a warning row.
* **test query dump** ``{timestamp, model, restaurant: {name, business_id}, num_reviews,
  prompt, response, usage}`` (``results/test_queries/*.json``): a run of one sample.

Files next to a results file belong to its run and are read when the run is opened:
``config.json``, ``summary.json`` and ``run_manifest.json`` become run fields (this
``summary.json`` is ADDM's, not the forecast agent's: it is never used to detect anything),
``results.jsonl`` beside a ``results.json`` is that run's per-sample log (a field of the run,
not a second run), ``debug/<sample_id>.json`` gives a sample its prompt (Step.input) and,
when the sample has none, its raw response. A run directory with a ``config.json`` and no
results file is reported as a warning.

Grouping: a results tree is ONE source. :func:`claim_dir` claims a directory that is a run
directory (it holds a results file), or a tree root: run directories two levels down
(``results/`` above ``{mode}/{run}/`` and ``baseline/{task}/run_*.json``) or ``run_N``
directories four levels down (the later ``results/{dataset}/{method}/{policy}_K{k}/run_N/``),
or, when it is the directory the user opened, run directories one level down
(``results/dev``). Everything below a claimed directory is read by this format (another
format's output inside a results tree is not looked at). A results file opened directly is a
source with one run.

References: a run is named by its directory (``20260118_001429_G1_allergy_V2``) or, for a
results file not called ``results.json(l)``, its stem (``run_20260115_183358``), because
``run_id`` repeats across runs. When that name is not unique in the tree, parent directories
are prepended until it is (``rlm/G1_K50/run_1``). A sample is ``RUN/BUSINESS_ID`` (legacy
lines: ``RUN/SAMPLE_ID``; a repeated id gets ``#2``; a sample with no id ``RUN/step-N``).

Status words (derived from named fields):

* a run: ``empty`` (no samples, NONE); ``error`` (every sample has ``error``, ERROR);
  ``partial`` (some do, PARTIAL); otherwise ``graded`` when the file has ground truth (its
  ``total`` > 0 or a sample's ``gt_verdict`` is not null) or ``ungraded`` (both DONE).
  Parse errors do not change it (the file still grades those samples). The score is the
  file's ``accuracy`` (labelled ``accuracy``); the cost is the sum of the samples'
  ``cost_usd`` (a run field says so), for per-sample documents the file's own
  ``usage_summary.total_cost_usd`` (per-sample costs are in item logs), else None. The
  duration is the file's ``usage_summary.total_latency_ms``, else the sum of the samples'
  ``latency_ms`` (labelled so), when they have one.
* a sample: ``error`` (it has ``error``, ERROR); else the file's ``correct``: ``correct``
  (PASS) or ``wrong`` (FAIL), shown as the file says even when both verdicts are null (a
  ``note`` field points that out); ``ungraded`` (NONE) when it has no ``correct``. A parse
  error is the step's error whatever its status.

Broken inputs: a results file that is not JSON (or half-written) is a problem row
(``path:line: message``) and the other runs still show; a broken line of a JSON Lines file
is a problem and the run shows its other lines. Links out of the opened directory are not
followed and nothing is ever written.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import islice
from typing import TYPE_CHECKING, Any

import orjson

from trajtui.core import safeio
from trajtui.core.discover import SKIP_DIRS, inside, walk
from trajtui.core.formats.common import boolean, fields, mapping, num, string
from trajtui.core.index import ScanProgress
from trajtui.core.jsonstream import MAX_VALUE, StreamError, load_object
from trajtui.core.jsonutil import BOM, JsonError, dumps_line, loads
from trajtui.core.model import Field, Kind, Outcome, Problem, Run, RunSummary, Severity, Step
from trajtui.core.refs import DuplicateNamer
from trajtui.core.safeio import SafeFile
from trajtui.core.source import FormatInfo, LoadError, RunLoader, StaticSource, Target
from trajtui.core.text import flat, one_line

if TYPE_CHECKING:
    from trajtui.core.detect import Sniffed
    from trajtui.core.discover import Walked
    from trajtui.core.formats.registry import DirClaim

RESULTS = FormatInfo("eval-results", "eval results")

RESULTS_DOC, PER_SAMPLE, JSONL, QUERY = "results", "per-sample", "jsonl", "query"
"""Shapes of a results file."""
RECORD = "record"
"""One line of a legacy JSON Lines file."""

RUN_FILES = ("results.json", "results.jsonl")
"""Names of a run directory's results file, in order of preference."""
COMPANION_FILES = frozenset({"config.json", "summary.json", "run_manifest.json"})
COMPANION_DIRS = frozenset({"debug", "item_logs"})
"""Per-sample companions of a run directory: never walked for runs."""
_NOT_RUNS = COMPANION_DIRS | SKIP_DIRS
_RUN_STEM = re.compile(r"^run_.*\.json$")
_RUN_DIR = re.compile(r"^run_\d+$")
_JSON_SUFFIXES = (".json", ".jsonl", ".ndjson")

HEAD_BYTES = 1 << 20
"""Bytes read to recognise a file without decoding all of it."""
MAX_SAMPLES = 50_000
"""Samples read from one results file. A file with more (an eval of 10 million samples)
lists and shows its first ones, with a warning saying how many it holds: memory stays
bounded (every sample becomes a step when the run is opened)."""
SAMPLE_ARRAYS = frozenset({"results", "per_sample_results"})
"""Keys of the sample arrays of a results document, read item by item."""
MAX_CLAIM_DIRS = 256
"""Directories looked into when deciding whether a directory is a results tree."""
MAX_CLAIM_FILES = 4
"""Files sniffed per directory when deciding it."""

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
_METRIC_KEYS = SAMPLE_ORDER[SAMPLE_ORDER.index("prompt_tokens") : SAMPLE_ORDER.index("parsed")]
"""Usage figures of a sample (tokens, cost, latency, calls)."""
VERDICT_ORDER = ("Low Risk", "Low", "High Risk", "High", "Critical Risk", "Critical")
"""Known verdicts, least to most severe: the order of a confusion table's labels."""


# -- recognising files -------------------------------------------------------------------------


EMPTY_RUN_KEYS = ("run_id", "task", "task_id", "policy_id", "gt_task_id")
"""Keys that make ``{"results": [], ...}`` a results document of a run with no samples."""


def object_shape(obj: Any) -> str | None:
    """Which shape a decoded JSON value has: a results file (``results``, ``per-sample``,
    ``query``), one legacy line (``record``), or None when it is none of them."""
    if not isinstance(obj, dict):
        return None
    if isinstance(obj.get("per_sample_results"), list):
        return PER_SAMPLE
    if "results" in obj:
        items = obj["results"]
        if isinstance(items, list) and any(
            isinstance(r, dict) and "business_id" in r for r in items
        ):
            return RESULTS_DOC
        if "k" in obj and any(key in obj for key in ("run_id", "task", "policy_id")):
            return RESULTS_DOC
        if items == [] and any(key in obj for key in EMPTY_RUN_KEYS):
            return RESULTS_DOC  # a run that processed nothing: a run with 0 samples
        return None
    restaurant = obj.get("restaurant")
    if (
        isinstance(restaurant, dict)
        and "business_id" in restaurant
        and "prompt" in obj
        and "response" in obj
    ):
        return QUERY
    if (
        "sample_id" in obj
        and ("business_id" in obj or "verdict" in obj)
        and "prompt" not in obj  # a debug capture
        and "output" not in obj  # an item log
    ):
        return RECORD
    return None


def _key(name: bytes, after: bytes = b"") -> re.Pattern[bytes]:
    return re.compile(b'"' + name + rb'"\s*:' + after)


_HEAD_RESULTS = _key(b"results", rb"\s*\[")
_HEAD_EMPTY_RESULTS = _key(b"results", rb"\s*\[\s*\]")
_HEAD_PER_SAMPLE = _key(b"per_sample_results", rb"\s*\[")
_HEAD_METADATA = _key(b"metadata", rb"\s*\{")
_HEAD_AGGREGATE = _key(b"aggregate_scores")
_HEAD_BUSINESS = _key(b"business_id")
_HEAD_EMPTY_RUN_KEY = _key(b"(?:run_id|task|task_id|policy_id|gt_task_id)")
_HEAD_RESTAURANT = _key(b"restaurant", rb"\s*\{")
_HEAD_PROMPT = _key(b"prompt")
_HEAD_RESPONSE = _key(b"response")


def head_shape(head: bytes) -> str | None:
    """The shape of a JSON document from its first bytes (keys found at the start), for
    recognising big or half-written documents without decoding them."""
    body = head[len(BOM) :] if head.startswith(BOM) else head
    if not body.lstrip().startswith(b"{"):
        return None
    if _HEAD_PER_SAMPLE.search(body) or (
        _HEAD_METADATA.search(body) and _HEAD_AGGREGATE.search(body)
    ):
        return PER_SAMPLE
    found = _HEAD_RESULTS.search(body)
    if found is not None and (
        _HEAD_BUSINESS.search(body, found.end())
        or (_HEAD_EMPTY_RESULTS.search(body) and _HEAD_EMPTY_RUN_KEY.search(body))
    ):
        return RESULTS_DOC
    if (
        _HEAD_RESTAURANT.search(body)
        and _HEAD_BUSINESS.search(body)
        and _HEAD_PROMPT.search(body)
        and _HEAD_RESPONSE.search(body)
    ):
        return QUERY
    return None


def _read_head(path: str) -> bytes:
    return safeio.read_head(path, HEAD_BYTES)


def sniff_shape(path: str) -> str | None:
    """The shape of the results file at ``path`` (``jsonl`` for legacy lines), from its first
    bytes; None when it is not one.

    Raises:
        OSError: The file cannot be read.
    """
    head = _read_head(path)
    body = head[len(BOM) :] if head.startswith(BOM) else head
    first, newline, _ = body.partition(b"\n")
    complete = bool(newline) or len(head) < HEAD_BYTES
    if complete and first.startswith(b"{"):
        try:
            value, _warning = loads(first.rstrip(b"\r"))
        except JsonError:
            value = None
        shape = object_shape(value)
        if shape is not None:
            return JSONL if shape == RECORD else shape
    return head_shape(body)


# -- parsed files --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ResultsFile:
    """One results file, decoded.

    Attributes:
        shape: ``results``, ``per-sample``, ``jsonl`` or ``query``.
        header: The run-level values: the document without its samples (JSON Lines: the
            metrics line, or empty).
        samples: The sample objects as in the file.
        raw: The whole file's value (JSON Lines: the list of its records).
        problems: Lines that could not be read, values that were fixed up.
        passed: What the samples beyond the first :data:`MAX_SAMPLES` say (counted as the
            file was read, not kept), or None when every sample was kept.
    """

    shape: str
    header: dict[str, Any]
    samples: tuple[Any, ...]
    raw: Any
    problems: tuple[Problem, ...] = ()
    passed: Tally | None = None


def _error_line(data: bytes, message: str) -> int:
    """Line of a JSON syntax error (``jsonutil.loads`` reports the column only)."""
    if "ends early" in message:
        return data.rstrip(b"\n").count(b"\n") + 1
    try:
        orjson.loads(data)
    except orjson.JSONDecodeError as err:
        return max(1, err.lineno)
    return 1


def _lines(
    f: SafeFile, path: str, problems: list[Problem] | None, max_bytes: int | None = None
) -> Iterator[tuple[int, bytes]]:
    """Non-blank lines of an open file with their 1-based numbers (BOM and CR removed), one
    at a time (from the first ``max_bytes`` bytes, when given); a line over
    :data:`~trajtui.core.jsonstream.MAX_VALUE` bytes is passed over (and added to
    ``problems`` when given)."""
    for number, line in safeio.iter_lines(f, limit=MAX_VALUE, max_bytes=max_bytes):
        if line is None:
            if problems is not None:
                problems.append(Problem(path, number, f"line over {MAX_VALUE:,} bytes (not read)"))
            continue
        if number == 1 and line.startswith(BOM):
            line = line[len(BOM) :]
        if line.strip():
            yield number, line


def _is_metrics(value: Any) -> bool:
    """A legacy file's ``{"type": "metrics", "metrics": {...}}`` line."""
    return isinstance(value, dict) and value.get("type") == "metrics" and "metrics" in value


def _starts_with_record(f: SafeFile, path: str, probe: int = 5) -> bool:
    """The first decodable line among the first ``probe`` lines is a legacy sample record
    (or the metrics line of a run that has no samples)."""
    for _number, line in islice(_lines(f, path, None, max_bytes=MAX_VALUE), probe):
        if not line.startswith(b"{"):
            return False
        try:
            value, _warning = loads(line)
        except JsonError:
            continue
        return object_shape(value) == RECORD or _is_metrics(value)
    return False


def _jsonl_records(f: SafeFile, path: str, keep: int) -> ResultsFile | None:
    """A legacy JSON Lines file, when its first decodable line is a sample record (at most
    ``keep`` samples are kept; a warning says how many more the file has)."""
    if not _starts_with_record(f, path):
        return None
    records: list[Any] = []
    problems: list[Problem] = []
    header: dict[str, Any] = {}
    samples: list[Any] = []
    passed = Tally()
    count = 0
    for number, line in _lines(f, path, problems):
        try:
            value, warning = loads(line)
        except JsonError as err:
            problems.append(Problem(path, number, str(err)))
            continue
        if warning:
            problems.append(Problem(path, number, warning, Severity.WARNING))
        if _is_metrics(value):
            header = value
            records.append(value)
        elif isinstance(value, dict):
            count += 1
            if count <= keep:
                samples.append(value)
                records.append(value)
            else:
                passed.add(result_sample(value, "sample_id", light=True))
        else:
            records.append(value)
            problems.append(Problem(path, number, "expected a JSON object (line skipped)"))
    if not records:
        return None
    if count > keep:
        problems.append(_too_many(path, count, keep))
    return ResultsFile(
        JSONL, header, tuple(samples), records, tuple(problems), passed if count > keep else None
    )


def _too_many(path: str, count: int, keep: int) -> Problem:
    return Problem(
        path,
        None,
        f"{count:,} samples: the run's counts cover all of them; only the first {keep:,} are "
        "kept as steps (to open one by one)",
        Severity.WARNING,
    )


def _document(obj: dict[str, Any], shape: str, path: str, warning: str | None) -> ResultsFile:
    problems = [Problem(path, None, warning, Severity.WARNING)] if warning else []
    if shape == QUERY:
        header = {k: v for k, v in obj.items() if k not in ("prompt", "response")}
        return ResultsFile(QUERY, header, (obj,), obj, tuple(problems))
    key = "per_sample_results" if shape == PER_SAMPLE else "results"
    items = obj.get(key)
    if not isinstance(items, list):
        found = "null" if items is None else type(items).__name__
        problems.append(Problem(path, None, f'"{key}" is not an array ({found})', Severity.WARNING))
        items = []
    header = {k: v for k, v in obj.items() if k != key}
    return ResultsFile(shape, header, tuple(items), obj, tuple(problems))


def read_file(path: str, keep: int = MAX_SAMPLES) -> ResultsFile | Problem | None:
    """Read a results file: the file, a problem (not JSON, with its line), or None when it
    is valid JSON of some other kind. An empty JSON Lines file is a run with no samples.

    Memory stays bounded whatever the file's size: a document is decoded member by member
    (:mod:`trajtui.core.jsonstream`) and JSON Lines line by line, and only the first
    ``keep`` samples are kept (a warning says how many the file has).

    Raises:
        OSError: The file cannot be read (:class:`~trajtui.core.safeio.Refused`: it is not a
            regular file).
    """
    jsonl = path.endswith((".jsonl", ".ndjson"))
    with safeio.open_regular(path) as f:
        blank_head = jsonl and not f.pread(4096, 0).strip()
        if blank_head and not any(True for _ in _lines(f, path, None)):
            return ResultsFile(JSONL, {}, (), [], ())
        passed = Tally()

        def count_passed(key: str, item: Any) -> None:
            if key == "per_sample_results":
                passed.add(per_sample(item, None, light=True))
            else:
                passed.add(result_sample(item, light=True))

        try:
            streamed = load_object(f, arrays=SAMPLE_ARRAYS, keep=keep, passed=count_passed)
        except StreamError as err:
            records = _jsonl_records(f, path, keep)
            return records if records is not None else Problem(path, err.line, err.message)
        shape = object_shape(streamed.value)
        if shape == RECORD or (jsonl and _is_metrics(streamed.value)):
            return _jsonl_records(f, path, keep)
    if shape is None:
        return None
    file = _document(streamed.value, shape, path, "; ".join(streamed.warnings) or None)
    count = streamed.counts.get("per_sample_results" if shape == PER_SAMPLE else "results", 0)
    if count > keep:
        file = replace(file, problems=(*file.problems, _too_many(path, count, keep)), passed=passed)
    return file


# -- samples -------------------------------------------------------------------------------------


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
    fields: tuple[Field, ...] = ()
    raw: Any = None


def _id(value: Any) -> str | None:
    if isinstance(value, str):
        return value or None
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return None


def _text(value: Any) -> str | None:
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
        return _text(parsed["parse_error"]) or "parse error"
    if m.get("parse_success") is False:
        return "parse_success is false"
    return None


def _not_object(item: Any) -> Sample:
    return Sample(None, None, error=f"not an object: {type(item).__name__}", raw=item)


def result_sample(item: Any, id_key: str = "business_id", *, light: bool = False) -> Sample:
    """A sample of a results document (or, with ``id_key="sample_id"``, a legacy line);
    ``light``: only what a :class:`Tally` counts (no fields, no response)."""
    if not isinstance(item, dict):
        return _not_object(item)
    if light:
        return Sample(
            id=None,
            name=None,
            verdict=item.get("verdict"),
            gt_verdict=item.get("gt_verdict"),
            correct=boolean(item.get("correct")),
            error=_text(item.get("error")),
            parse_error=_parse_error(item),
            cost=num(item.get("cost_usd")),
            latency_ms=num(item.get("latency_ms")),
        )
    return Sample(
        id=_id(item.get(id_key)),
        name=string(item.get("name")),
        verdict=item.get("verdict"),
        gt_verdict=item.get("gt_verdict"),
        correct=boolean(item.get("correct")),
        error=_text(item.get("error")),
        parse_error=_parse_error(item),
        response=_text(item.get("response")),
        cost=num(item.get("cost_usd")),
        latency_ms=num(item.get("latency_ms")),
        fields=(*fields(item, SAMPLE_ORDER, skip=("response", "error")), *_note(item)),
        raw=item,
    )


def _consistency(item: Mapping[str, Any]) -> bool | None:
    value = num(mapping(item.get("scores")).get("verdict_consistency"))
    return None if value is None else value == 1


def per_sample(item: Any, log: Any, *, light: bool = False) -> Sample:
    """A sample of a per-sample document, with its item log (or None); ``light``: only
    what a :class:`Tally` counts."""
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
        id=_id(item.get("item_id")),
        name=None,
        verdict=derived.get("verdict"),
        gt_verdict=derived.get("gt_verdict"),
        correct=correct,
        error=_text(entry.get("error")),
        parse_error=_parse_error(entry),
        response=_text(entry.get("output")),
        cost=num(metrics.get("cost_usd")),
        latency_ms=num(metrics.get("latency_ms")),
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
        id=_id(log.get("sample_id")) or stem,
        name=None,
        verdict=derived["verdict"],
        gt_verdict=derived["gt_verdict"],
        correct=boolean(log.get("correct")),
        error=_text(log.get("error")),
        parse_error=_parse_error(log),
        response=_text(log.get("output")),
        cost=num(metrics.get("cost_usd")),
        latency_ms=num(metrics.get("latency_ms")),
        fields=(*fields(derived, ()), Field("item_log", rest)),
        raw=log,
    )


def query_sample(obj: Mapping[str, Any]) -> Sample:
    """The one sample of a test query dump."""
    restaurant = mapping(obj.get("restaurant"))
    usage = mapping(obj.get("usage"))
    return Sample(
        id=_id(restaurant.get("business_id")),
        name=string(restaurant.get("name")),
        response=_text(obj.get("response")),
        prompt=_text(obj.get("prompt")),
        cost=num(usage.get("cost_usd")),
        latency_ms=num(usage.get("latency_ms")),
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
        sid = _id(mapping(item).get("item_id"))
        stem = safe_name(sid) if sid else None
        if stem is not None:
            matched.add(stem)
        samples.append(per_sample(item, logs.get(stem) if stem else None))
    if file.passed is None:  # else a log may be a sample that was not kept
        samples.extend(log_sample(stem, logs[stem]) for stem in sorted(logs) if stem not in matched)
    return samples


MAX_PAIRS = 1_000
"""Distinct (gt_verdict, verdict) pairs counted for a confusion table."""


@dataclass(slots=True)
class Tally:
    """What a run's samples say, counted: every number of a run's row and header comes
    from one (so a file of 10 million samples is counted whole while only its first
    :data:`MAX_SAMPLES` are kept).

    Attributes:
        samples: Samples counted.
        errors: Samples with an ``error``.
        parse_errors: Samples whose response could not be parsed.
        with_gt: Samples with a ground truth (``gt_verdict`` not null).
        costs: Samples with a cost; ``cost`` is their sum.
        latencies: Samples with a latency; ``latency_ms`` is their sum.
        pairs: Samples by (gt_verdict, verdict) label; ``pairs_over`` when there were more
            than :data:`MAX_PAIRS` distinct pairs (the table is then not shown).
    """

    samples: int = 0
    errors: int = 0
    parse_errors: int = 0
    with_gt: int = 0
    costs: int = 0
    cost: float = 0.0
    latencies: int = 0
    latency_ms: float = 0.0
    pairs: Counter[tuple[str | None, str | None]] = field(default_factory=Counter)
    pairs_over: bool = False

    def add(self, sample: Sample) -> None:
        """Count one sample."""
        self.samples += 1
        self.errors += sample.error is not None
        self.parse_errors += sample.parse_error is not None
        self.with_gt += sample.gt_verdict is not None
        if sample.cost is not None:
            self.costs += 1
            self.cost += sample.cost
        if sample.latency_ms is not None:
            self.latencies += 1
            self.latency_ms += sample.latency_ms
        pair = (_label(sample.gt_verdict), _label(sample.verdict))
        if pair in self.pairs or len(self.pairs) < MAX_PAIRS:
            self.pairs[pair] += 1
        else:
            self.pairs_over = True

    @classmethod
    def of(cls, samples: Iterable[Sample], passed: Tally | None = None) -> Tally:
        """The tally of ``samples``, and of the samples ``passed`` counted."""
        out = cls()
        for sample in samples:
            out.add(sample)
        if passed is not None:
            out.samples += passed.samples
            out.errors += passed.errors
            out.parse_errors += passed.parse_errors
            out.with_gt += passed.with_gt
            out.costs += passed.costs
            out.cost += passed.cost
            out.latencies += passed.latencies
            out.latency_ms += passed.latency_ms
            for pair, n in passed.pairs.items():
                if pair in out.pairs or len(out.pairs) < MAX_PAIRS:
                    out.pairs[pair] += n
                else:
                    out.pairs_over = True
            out.pairs_over |= passed.pairs_over
        return out


def sample_status(sample: Sample) -> tuple[str, Outcome]:
    """The status word of a sample: ``error``, ``correct``, ``wrong`` or ``ungraded``."""
    if sample.error is not None:
        return "error", Outcome.ERROR
    if sample.correct is True:
        return "correct", Outcome.PASS
    if sample.correct is False:
        return "wrong", Outcome.FAIL
    return "ungraded", Outcome.NONE


def run_status(tally: Tally, total: Any) -> tuple[str, Outcome]:
    """The status word of a run: ``empty``, ``error``, ``partial``, ``graded``, ``ungraded``."""
    if not tally.samples:
        return "empty", Outcome.NONE
    if tally.errors == tally.samples:
        return "error", Outcome.ERROR
    if tally.errors:
        return "partial", Outcome.PARTIAL
    graded = (num(total) or 0) > 0 or tally.with_gt > 0
    return ("graded", Outcome.DONE) if graded else ("ungraded", Outcome.DONE)


# -- confusion table -------------------------------------------------------------------------------


def _label(value: Any) -> str | None:
    if value is None or isinstance(value, str):
        return value
    return dumps_line(value)


def _label_key(label: str | None) -> tuple[int, int, str]:
    if label is None:
        return (2, 0, "")
    if label in VERDICT_ORDER:
        return (0, VERDICT_ORDER.index(label), label)
    return (1, 0, label)


@dataclass(frozen=True, slots=True)
class Confusion:
    """Counts of samples by (ground truth, verdict); null is a category of its own.

    Attributes:
        counts: ``((gt_verdict, verdict), count)`` pairs, in label order.
        gt_labels: Ground-truth labels seen (known verdicts by severity, then others
            alphabetically, then None).
        verdict_labels: Verdicts seen, in the same order.
    """

    counts: tuple[tuple[tuple[str | None, str | None], int], ...]
    gt_labels: tuple[str | None, ...]
    verdict_labels: tuple[str | None, ...]

    def count(self, gt_verdict: str | None, verdict: str | None) -> int:
        """Samples whose ground truth is ``gt_verdict`` and verdict ``verdict``."""
        for key, n in self.counts:
            if key == (gt_verdict, verdict):
                return n
        return 0

    @property
    def total(self) -> int:
        """Samples counted."""
        return sum(n for _, n in self.counts)

    def rows(self) -> list[dict[str, Any]]:
        """The table as JSON-able rows ``{gt_verdict, verdict, count}``."""
        return [{"gt_verdict": g, "verdict": v, "count": n} for (g, v), n in self.counts]


def confusion_of(pairs: Iterable[tuple[Any, Any]]) -> Confusion:
    """The confusion table of ``(gt_verdict, verdict)`` pairs (values as in the file;
    non-text values are counted by their JSON text)."""
    return _confusion(Counter((_label(g), _label(v)) for g, v in pairs))


def _confusion(tally: Mapping[tuple[str | None, str | None], int]) -> Confusion:
    gts = tuple(sorted({g for g, _ in tally}, key=_label_key))
    verdicts = tuple(sorted({v for _, v in tally}, key=_label_key))
    ordered = sorted(tally.items(), key=lambda kv: (_label_key(kv[0][0]), _label_key(kv[0][1])))
    return Confusion(tuple(ordered), gts, verdicts)


def _field_value(step: Step, label: str) -> Any:
    return _field_value_of(step.fields, label)


def _field_value_of(found: Sequence[Field], label: str) -> Any:
    for f in found:
        if f.label == label:
            return f.value
    return None


CONFUSION = "confusion (gt_verdict, verdict, count)"
"""Label of a run's confusion table field."""


def confusion(run: Run) -> Confusion:
    """The confusion table of a run's samples: their ``gt_verdict`` against their
    ``verdict`` fields (absent counts as null, so failed samples count as (gt, null)).
    The run's own table field, counted over all its samples, when it has one."""
    rows = _field_value_of(run.fields, CONFUSION)
    if isinstance(rows, list):
        return _confusion({(r["gt_verdict"], r["verdict"]): r["count"] for r in rows})
    return confusion_of(
        (_field_value(s, "gt_verdict"), _field_value(s, "verdict"))
        for s in run.steps
        if s.kind is Kind.SAMPLE
    )


# -- runs ------------------------------------------------------------------------------------------


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
        parts.append(None if k is None else f"k={_text(k)}")
    return flat(" · ".join(str(p) for p in parts if p not in (None, "")))


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
    )


def _sample_title(sample: Sample) -> str:
    who = sample.name or sample.id or "(unnamed sample)"
    if sample.error is not None:
        what = "error: " + one_line(sample.error, 120)
    elif sample.verdict is None:
        what = "no verdict" + (" (parse error)" if sample.parse_error else "")
    else:
        what = _text(sample.verdict) or ""
    gt = f" (gt: {_text(sample.gt_verdict)})" if sample.gt_verdict is not None else ""
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
        text=sample.response,
        markdown=False,
        input=sample.prompt,
        error=error,
        stored_id=stored,
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
        prompt=_text(c.get("prompt")) if sample.prompt is None else sample.prompt,
        response=sample.response if sample.response is not None else _text(c.get("response")),
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
        out.append(Field(CONFUSION, _confusion(tally.pairs).rows()))
    out.extend(Field(name, value) for name, value in companions.files)
    return tuple(out)


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
    return Run(
        summary=summary,
        steps=steps,
        fields=run_fields(file, samples, companions),
        raw=file.raw,
        problems=tuple(_with_ref(p, summary.ref) for p in (*file.problems, *companions.problems)),
        path=path,
    )


# -- the source ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Candidate:
    """A file that may be a run.

    Attributes:
        path: The file.
        parts: Path components naming the run (the last one is its own name).
        kind: ``run`` (a run directory's results file), ``file`` (any other JSON file) or
            ``config`` (a run configuration in a directory with no results file).
        run_dir: The directory whose companions belong to the run, or None.
    """

    path: str
    parts: tuple[str, ...]
    kind: str
    run_dir: str | None = None

    @property
    def reported(self) -> bool:
        """A broken file is reported (its name says it is meant to be a results file)."""
        name = os.path.basename(self.path)
        return self.kind == "run" or bool(_RUN_STEM.match(name))


def unique_tails(paths: Sequence[tuple[str, ...]]) -> list[str]:
    """The shortest trailing part of each path that no other path ends with, ``/``-joined
    (identical paths keep their whole path)."""
    names: list[str | None] = [None] * len(paths)
    pending = list(range(len(paths)))
    k = 1
    while pending:
        counts = Counter(p[-k:] for p in paths)
        rest = []
        for i in pending:
            tail = paths[i][-k:]
            if counts[tail] == 1 or k >= len(paths[i]):
                names[i] = "/".join(tail)
            else:
                rest.append(i)
        pending = rest
        k += 1
    return [n or "" for n in names]


def _candidates(place: Walked, base: tuple[str, ...]) -> list[_Candidate]:
    files = set(place.files)
    out: list[_Candidate] = []
    run_file = next((n for n in RUN_FILES if n in files), None)
    if run_file is not None:
        out.append(_Candidate(os.path.join(place.path, run_file), base, "run", place.path))
    for name in place.files:
        if name in RUN_FILES or not name.endswith(_JSON_SUFFIXES):
            continue
        if run_file is not None and name in COMPANION_FILES:
            continue
        stem = name.rsplit(".", 1)[0]
        kind = "config" if run_file is None and name == "config.json" else "file"
        out.append(_Candidate(os.path.join(place.path, name), (*base, stem), kind))
    return out


def _run_name(path: str) -> str:
    """A single file's run name: its directory for ``results.json(l)``, else its stem."""
    full = os.path.abspath(path)
    name = os.path.basename(full)
    if name in RUN_FILES:
        return os.path.basename(os.path.dirname(full)) or name
    return name.rsplit(".", 1)[0]


def _looks_like_run_config(value: Any) -> bool:
    return isinstance(value, dict) and "model" in value and "k" in value


class ResultsSource(StaticSource):
    """A results tree, a run directory, or one results file: one run per results file."""

    def __init__(self, path: str, label: str | None = None, *, single_file: bool = False) -> None:
        """Remember ``path`` (nothing is read until the scan runs).

        Args:
            path: The directory (tree root or run directory) or the results file.
            label: Short name for qualified references.
            single_file: ``path`` is one results file (its neighbours are not read).
        """
        super().__init__(path, RESULTS, label)
        self.single_file = single_file
        root = (os.path.dirname(path) or ".") if single_file else path
        self._root_real = os.path.realpath(root)

    # -- listing ---------------------------------------------------------------------------------

    def _load(self) -> Iterator[ScanProgress]:
        plan = self._plan()
        names = unique_tails([c.parts for c in plan])
        for done, (cand, name) in enumerate(zip(plan, names, strict=True), 1):
            self._read(cand, name)
            yield ScanProgress(done, len(plan), len(self))

    def _plan(self) -> list[_Candidate]:
        if self.single_file:
            return [_Candidate(self.path, (_run_name(self.path),), "run")]
        root_name = os.path.basename(os.path.abspath(self.path)) or "."
        out: list[_Candidate] = []
        for place in walk(self.path):
            self.watch(place.path)
            base = (root_name,) if place.rel == "." else (root_name, *place.rel.split(os.sep))
            out.extend(_candidates(place, base))
            place.dirs[:] = [d for d in place.dirs if d not in COMPANION_DIRS]
        return out

    def _read(self, cand: _Candidate, name: str) -> None:
        try:
            if not cand.reported and sniff_shape(cand.path) is None:
                if cand.kind == "config":
                    self._config_only(cand)
                return
            parsed = read_file(cand.path)
        except OSError as err:
            if cand.reported:
                self.add_problem(Problem(cand.path, None, err.strerror or str(err)), row=True)
            return
        self.watch(cand.path)
        if isinstance(parsed, Problem):
            self.add_problem(parsed, row=True)
            return
        if parsed is None:
            if cand.reported:
                # Named as a run's results file: never dropped without a word.
                self.add_problem(
                    Problem(
                        cand.path,
                        None,
                        "JSON, but not an eval results file (no samples array with run keys)",
                        Severity.WARNING,
                    ),
                    row=True,
                )
            return
        companions = self._companions(cand, parsed, full=False, ref=name)
        summary = summarize(parsed, samples_of(parsed, companions.logs), name)
        listed = self.add_run(summary, self._loader(cand))
        for problem in (*parsed.problems, *companions.problems):
            self.add_problem(_with_ref(problem, listed.ref))

    def _config_only(self, cand: _Candidate) -> None:
        value, problem = _read_json(cand.path)
        if problem is None and _looks_like_run_config(value):
            folder = os.path.dirname(cand.path)
            self.add_problem(
                Problem(
                    folder,
                    None,
                    "run directory with config.json and no results file (the run wrote no results)",
                    Severity.WARNING,
                )
            )

    # -- companions ------------------------------------------------------------------------------

    def _json_inside(self, path: str, problems: list[Problem], ref: str) -> Any:
        """A companion file's value (None when absent, outside the opened directory or
        broken; the last two are reported)."""
        if not safeio.regular_file(path):
            return None
        if not inside(self._root_real, path):
            problems.append(
                Problem(
                    path, None, "link out of the opened directory (not read)", Severity.WARNING, ref
                )
            )
            return None
        value, problem = _read_json(path)
        if problem is not None:
            problems.append(_with_ref(problem, ref, Severity.WARNING))
            return None
        self.watch(path)
        return value

    def _companions(
        self, cand: _Candidate, file: ResultsFile, *, full: bool, ref: str
    ) -> Companions:
        """Read the files next to ``cand`` that belong to its run. When listing (not
        ``full``) only the item logs of failed samples are read (they are samples)."""
        if cand.run_dir is None:
            return Companions()
        problems: list[Problem] = []
        logs = self._item_logs(cand.run_dir, file, full=full, problems=problems, ref=ref)
        if not full:
            return Companions(logs=logs, problems=tuple(problems))
        files: list[tuple[str, Any]] = []
        for name in sorted(COMPANION_FILES):
            value = self._json_inside(os.path.join(cand.run_dir, name), problems, ref)
            if value is not None:
                files.append((name, value))
        if os.path.basename(cand.path) == "results.json":
            lines = self._side_lines(os.path.join(cand.run_dir, "results.jsonl"), problems, ref)
            if lines is not None:
                files.append(("results.jsonl", lines))
        debug = self._debug(cand.run_dir, file, problems, ref)
        return Companions(tuple(files), debug, logs, tuple(problems))

    def _side_lines(self, path: str, problems: list[Problem], ref: str) -> list[Any] | None:
        if not safeio.regular_file(path) or not inside(self._root_real, path):
            return None
        values: list[Any] = []
        found: list[Problem] = []
        try:
            with safeio.open_regular(path) as f:
                for number, line in _lines(f, path, found):
                    if len(values) == MAX_SAMPLES:
                        found.append(
                            Problem(path, number, f"only the first {MAX_SAMPLES:,} lines are read")
                        )
                        break
                    try:
                        values.append(loads(line)[0])
                    except JsonError as err:
                        found.append(Problem(path, number, str(err)))
        except OSError as err:
            problems.append(Problem(path, None, err.strerror or str(err), Severity.WARNING, ref))
            return None
        problems.extend(_with_ref(p, ref, Severity.WARNING) for p in found)
        return values

    def _item_logs(
        self, run_dir: str, file: ResultsFile, *, full: bool, problems: list[Problem], ref: str
    ) -> dict[str, Any]:
        if file.shape != PER_SAMPLE:
            return {}
        folder = os.path.join(run_dir, "item_logs")
        if not inside(self._root_real, folder):
            return {}
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            return {}
        listed = {
            safe_name(sid) for item in file.samples if (sid := _id(mapping(item).get("item_id")))
        }
        logs: dict[str, Any] = {}
        for name in names:
            stem = name[: -len(".json")]
            if not name.endswith(".json") or name.startswith("_") or (stem in listed and not full):
                continue
            value = self._json_inside(os.path.join(folder, name), problems, ref)
            if value is not None:
                logs[stem] = value
        return logs

    def _debug(
        self, run_dir: str, file: ResultsFile, problems: list[Problem], ref: str
    ) -> dict[str, Any]:
        folder = os.path.join(run_dir, "debug")
        if not os.path.isdir(folder) or not inside(self._root_real, folder):
            return {}
        out: dict[str, Any] = {}
        for sample in samples_of(file):
            if sample.id is None:
                continue
            stem = safe_name(sample.id)
            value = self._json_inside(os.path.join(folder, stem + ".json"), problems, ref)
            if value is not None:
                out[stem] = value
        return out

    # -- loading runs ----------------------------------------------------------------------------

    def _loader(self, cand: _Candidate) -> RunLoader:
        def load(ref: str) -> Run:
            parsed = read_file(cand.path)
            if isinstance(parsed, Problem):
                raise LoadError(parsed)
            if parsed is None:
                raise LoadError(Problem(cand.path, None, "no longer an eval results file"))
            index = self.find(ref)
            entry = self.entry(index) if index is not None else None
            if not isinstance(entry, RunSummary):
                raise LoadError(Problem(cand.path, None, f"{ref} is no longer listed"))
            companions = self._companions(cand, parsed, full=True, ref=ref)
            return build_run(entry, parsed, companions, cand.path)

        return load

    def find_stored_step(self, ref: str) -> Target | None:
        """A sample named by its bare id, when the source holds a single run."""
        runs = [i for i in range(len(self)) if isinstance(self.entry(i), RunSummary)]
        if len(runs) != 1:
            return None
        try:
            run = self.run(runs[0])
        except LoadError:
            return None
        for step in run.steps:
            if step.stored_id == ref:
                return Target(self, runs[0], step.ref, step=step.number)
        return None


def _read_json(path: str) -> tuple[Any, Problem | None]:
    """A small JSON file's value, or the problem reading it."""
    try:
        data = safeio.read_bytes(path)
    except OSError as err:
        return None, Problem(path, None, err.strerror or str(err))
    try:
        return loads(data)[0], None
    except JsonError as err:
        return None, Problem(path, _error_line(data, str(err)), str(err))


def _with_ref(problem: Problem, ref: str, severity: Severity | None = None) -> Problem:
    return Problem(problem.path, problem.line, problem.message, severity or problem.severity, ref)


# -- hooks ---------------------------------------------------------------------------------------


def _dir_holds_results(path: str, root_real: str) -> bool:
    """``path`` directly holds a results file (``results.json(l)`` or ``run_*.json`` whose
    content is one)."""
    try:
        with os.scandir(path) as it:
            names = sorted(e.name for e in it if e.is_file())
    except OSError:
        return False
    wanted = [n for n in names if n in RUN_FILES or _RUN_STEM.match(n)]
    for name in wanted[:MAX_CLAIM_FILES]:
        full = os.path.join(path, name)
        if not inside(root_real, full):
            continue
        try:
            if sniff_shape(full) is not None:
                return True
        except OSError:
            continue
    return False


def _subdirs(path: str, root_real: str) -> list[str]:
    try:
        with os.scandir(path) as it:
            names = sorted(e.name for e in it if e.is_dir() and e.name not in _NOT_RUNS)
    except OSError:
        return []
    found = [os.path.join(path, n) for n in names]
    return [d for d in found if inside(root_real, d)]


def _levels(place: Walked, root_real: str, deepest: int = 4) -> Iterator[tuple[str, int]]:
    """Directories below ``place``, breadth first, with their depth (1 = a subdirectory).
    Each directory is listed only once it has been yielded, so a caller that stops early
    lists little."""
    frontier = [os.path.join(place.path, d) for d in place.dirs if d not in COMPANION_DIRS]
    level = 1
    while frontier and level <= deepest:
        deeper: list[str] = []
        for path in frontier:
            yield path, level
            if level < deepest:
                deeper.extend(_subdirs(path, root_real))
        frontier = deeper
        level += 1


def is_results_place(place: Walked) -> bool:
    """``place`` is a run directory, or a results tree root, or (when it is the opened
    directory) a directory of run directories.

    A tree root has run directories two levels down (``results/{mode}/{run}/`` and
    ``results/baseline/{task}/run_*.json``) or ``run_N`` directories four levels down (the
    later ``results/{dataset}/{method}/{policy}_K{k}/run_N/``). At most
    :data:`MAX_CLAIM_DIRS` directories are looked into.
    """
    root_real = os.path.realpath(place.path)
    if _dir_holds_results(place.path, root_real):
        return True
    for path, level in islice(_levels(place, root_real), MAX_CLAIM_DIRS):
        if level == 3 or (level == 1 and place.rel != "."):
            continue
        if level == 4 and not _RUN_DIR.match(os.path.basename(path)):
            continue
        if _dir_holds_results(path, root_real):
            return True
    return False


def open_file(path: str, sniffed: Sniffed, label: str | None) -> ResultsSource | None:
    """Open a results file (a results or per-sample document, a test query dump or legacy
    JSON Lines) as a source with one run; None for anything else.

    Raises:
        OSError: The file cannot be read.
    """
    if sniffed.layout == "jsonl":
        shape = object_shape(sniffed.first)
    elif sniffed.layout == "json":
        shape = head_shape(_read_head(path))
    else:
        return None
    if shape is None:
        return None
    return ResultsSource(path, label, single_file=True)


def claim_dir(place: Walked) -> DirClaim | None:
    """Claim a results tree or a run directory, recognised by the content of its files."""
    from trajtui.core.formats.registry import DirClaim

    if not is_results_place(place):
        return None
    return DirClaim((ResultsSource(place.path, place.path),))
