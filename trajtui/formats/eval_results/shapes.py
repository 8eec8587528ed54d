"""What an eval results file is: its shapes, recognised from decoded values
(:func:`object_shape`) or from a file's first bytes (:func:`head_shape`,
:func:`sniff_shape`), and :class:`ResultsFile`, one file decoded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from trajtui.core.io import safeio
from trajtui.core.io.jsonutil import BOM, JsonError, loads
from trajtui.core.model import Problem
from trajtui.core.source import FormatInfo

if TYPE_CHECKING:
    from trajtui.formats.eval_results.tally import Tally


RESULTS = FormatInfo("eval-results", "eval results")

RESULTS_DOC, PER_SAMPLE, JSONL, QUERY = "results", "per-sample", "jsonl", "query"
"""Shapes of a results file."""
RECORD = "record"
"""One line of a legacy JSON Lines file."""


HEAD_BYTES = 1 << 20
"""Bytes read to recognise a file without decoding all of it."""


# -- recognising files --------------------------------------------------------------------------


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


def read_head(path: str) -> bytes:
    return safeio.read_head(path, HEAD_BYTES)


def sniff_shape(path: str) -> str | None:
    """The shape of the results file at ``path`` (``jsonl`` for legacy lines), from its first
    bytes; None when it is not one.

    Raises:
        OSError: The file cannot be read.
    """
    head = read_head(path)
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


# -- parsed files -------------------------------------------------------------------------------


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
        passed: What the samples beyond the first :data:`~.reading.MAX_SAMPLES` say (counted as the
            file was read, not kept), or None when every sample was kept.
    """

    shape: str
    header: dict[str, Any]
    samples: tuple[Any, ...]
    raw: Any
    problems: tuple[Problem, ...] = ()
    passed: Tally | None = None
