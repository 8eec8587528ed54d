"""Reading a results file in bounded memory: a document member by member, JSON Lines line
by line; only the first :data:`MAX_SAMPLES` samples are kept, the rest counted in a
:class:`~.tally.Tally`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from itertools import islice
from typing import Any

import orjson

from trajtui.core.io import safeio
from trajtui.core.io.jsondoc import Span, scan_document
from trajtui.core.io.jsonutil import BOM, JsonError, loads
from trajtui.core.io.safeio import SafeFile
from trajtui.core.model import Problem, Severity
from trajtui.formats.eval_results.samples import per_sample, result_sample
from trajtui.formats.eval_results.shapes import (
    JSONL,
    PER_SAMPLE,
    QUERY,
    RECORD,
    ResultsFile,
    object_shape,
)
from trajtui.formats.eval_results.tally import Tally

MAX_SAMPLES = 50_000
"""Samples read from one results file. A file with more (an eval of 10 million samples)
lists and shows its first ones, with a warning saying how many it holds: memory stays
bounded (every sample becomes a step when the run is opened)."""
MAX_VALUE = 64 << 20
"""The longest line of a JSON Lines results file read, in bytes (a longer one is one
problem line)."""
SAMPLE_ARRAYS = frozenset({"results", "per_sample_results"})
"""Keys of the sample arrays of a results document, read item by item."""


def error_line(data: bytes, message: str) -> int:
    """Line of a JSON syntax error (``jsonutil.loads`` reports the column only)."""
    if "ends early" in message:
        return data.rstrip(b"\n").count(b"\n") + 1
    try:
        orjson.loads(data)
    except orjson.JSONDecodeError as err:
        return max(1, err.lineno)
    return 1


def file_lines(
    f: SafeFile, path: str, problems: list[Problem] | None, max_bytes: int | None = None
) -> Iterator[tuple[int, bytes]]:
    """Non-blank lines of an open file with their 1-based numbers (BOM and CR removed), one
    at a time (from the first ``max_bytes`` bytes, when given); a line over
    :data:`MAX_VALUE` bytes is passed over (and added to
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
    for _number, line in islice(file_lines(f, path, None, max_bytes=MAX_VALUE), probe):
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
    for number, line in file_lines(f, path, problems):
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
    (:mod:`trajtui.core.io.jsondoc`) and JSON Lines line by line, and only the first
    ``keep`` samples are kept (a warning says how many the file has).

    Raises:
        OSError: The file cannot be read (:class:`~trajtui.core.io.safeio.Refused`: it is not a
            regular file).
    """
    jsonl = path.endswith((".jsonl", ".ndjson"))
    with safeio.open_regular(path) as f:
        blank_head = jsonl and not f.pread(4096, 0).strip()
        if blank_head and not any(True for _ in file_lines(f, path, None)):
            return ResultsFile(JSONL, {}, (), [], ())
        passed = Tally()

        def count_passed(key: str, item: Any) -> None:
            if key == "per_sample_results":
                passed.add(per_sample(item, None, light=True))
            else:
                passed.add(result_sample(item, light=True))

        kept: dict[str, list[Any]] = {key: [] for key in SAMPLE_ARRAYS}

        def visit(key: str, span: Span, item: Any) -> None:
            if len(kept[key]) < keep:
                kept[key].append(item)
            else:
                count_passed(key, item)

        scanned = scan_document(f, arrays=SAMPLE_ARRAYS, visit=visit, spans=False)
        if scanned.error is not None:
            records = _jsonl_records(f, path, keep)
            return records if records is not None else Problem(path, *scanned.error)
        value = scanned.value
        if isinstance(value, dict):
            for key in scanned.counts:
                value[key] = kept[key]
        shape = object_shape(value)
        if shape == RECORD or (jsonl and _is_metrics(value)):
            return _jsonl_records(f, path, keep)
    if shape is None:
        return None
    file = _document(value, shape, path, "; ".join(scanned.warnings) or None)
    count = scanned.counts.get("per_sample_results" if shape == PER_SAMPLE else "results", 0)
    if count > keep:
        file = replace(file, problems=(*file.problems, _too_many(path, count, keep)), passed=passed)
    return file
