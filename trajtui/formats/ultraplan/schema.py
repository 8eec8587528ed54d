"""The protocol's schema rule: required fields, value types, unknown fields and missing
optional metadata, for each of the two result variants (snake_case and camelCase).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from trajtui.core.values import boolean, integer, mapping, num
from trajtui.formats.ultraplan.ids import epoch_ms, type_name
from trajtui.formats.ultraplan.results import (
    CAMEL_KEYS,
    HEADER_ALL,
    METADATA_KEYS,
    SNAKE_KEYS,
    TEST_RESULT_KEYS,
    VERIFICATION_KEYS,
    ResultDoc,
    canonical_status,
)
from trajtui.formats.ultraplan.verdict import Finding, Rule

_STRICT_TASK_ID = re.compile(r"^\d{2}(?:\.\d+)?-\d{2}-\d{2}$")


def _missing(obj: dict[str, Any], keys: Iterable[str], prefix: str = "") -> list[str]:
    return [prefix + k for k in keys if k not in obj]


def _unknown(obj: dict[str, Any], known: Iterable[str], prefix: str = "") -> list[str]:
    allowed = set(known)
    return [prefix + str(k) for k in obj if k not in allowed]


def _status_findings(result: ResultDoc) -> list[Finding]:
    raw = result.result.get("status")
    if "status" not in result.result:
        return [Finding(Rule.SCHEMA, "missing status", critical=True)]
    if not isinstance(raw, str):
        return [Finding(Rule.SCHEMA, f"status is {type_name(raw)}, not a word", critical=True)]
    return []


_Spec = tuple[str, Callable[[Any], bool], str]
"""A field's type rule: ``(key, test, what it should be)``."""
_Check = tuple[str, Any, Callable[[Any], bool], str]
"""A value to test: ``(label, value, test, what it should be)``."""


def _checks(obj: dict[str, Any], specs: Iterable[_Spec], prefix: str = "") -> list[_Check]:
    """The type checks of the keys of ``specs`` that ``obj`` has, in ``specs`` order."""
    return [(prefix + key, obj[key], ok, want) for key, ok, want in specs if key in obj]


def _wrong_types(checks: Iterable[_Check]) -> list[Finding]:
    """One finding listing every value of ``checks`` of the wrong type (none when all fit)."""
    types = [
        f"{label} should be {want} (found {type_name(value)})"
        for label, value, ok, want in checks
        if not ok(value)
    ]
    return [Finding(Rule.SCHEMA, "wrong types: " + ", ".join(types))] if types else []


def _is_str(value: Any) -> bool:
    return isinstance(value, str)


def _is_str_or_null(value: Any) -> bool:
    return value is None or isinstance(value, str)


def _is_str_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _is_int(value: Any) -> bool:
    return integer(value) is not None


def _is_bool(value: Any) -> bool:
    return boolean(value) is not None


def _is_map(value: Any) -> bool:
    return isinstance(value, dict)


def _is_count(value: Any) -> bool:
    return _is_int(value) and bool(value >= 0)


def snake_schema(result: ResultDoc) -> list[Finding]:
    r = result.result
    out = _status_findings(result)
    blocked = canonical_status(r.get("status")) == "blocked"
    ver = mapping(r.get("verification"))
    required = [k for k in SNAKE_KEYS if k not in ("status", "metadata", "verification")]
    missing = _missing(r, required)
    if not blocked:
        missing += (
            ["verification"]
            if "verification" not in r
            else _missing(ver, VERIFICATION_KEYS, "verification.")
        )
    if missing:
        out.append(Finding(Rule.SCHEMA, f"missing required fields: {', '.join(missing)}"))
    meta = mapping(r.get("metadata"))
    checked_ver = {k: v for k, v in ver.items() if not (blocked and v is None)}
    checks = [
        *_checks(
            r,
            (
                ("task_name", _is_str, "a string"),
                ("files_modified", _is_str_list, "a list of paths"),
                ("verification", _is_map, "a mapping"),
                ("done_criteria_met", _is_bool, "true or false"),
                ("evidence", _is_str, "a string"),
                ("error", _is_str_or_null, "a string or null"),
                ("metadata", _is_map, "a mapping"),
            ),
        ),
        *_checks(
            checked_ver,
            (
                ("command", _is_str_or_null if blocked else _is_str, "a string"),
                ("exit_code", _is_int, "an integer"),
                ("output_summary", _is_str_or_null, "a string"),
            ),
            "verification.",
        ),
        *_checks(
            meta,
            (
                ("duration_ms", lambda v: num(v) is not None, "a number"),
                ("attempt", _is_int, "an integer"),
                ("executor_id", _is_str, "a string"),
            ),
            "metadata.",
        ),
    ]
    out.extend(_wrong_types(checks))
    out.extend(_unknown_finding(result, SNAKE_KEYS, (("verification", VERIFICATION_KEYS),)))
    no_meta = _missing(meta, METADATA_KEYS)
    if "metadata" not in r:
        out.append(Finding(Rule.SCHEMA, "no metadata (duration_ms, attempt, executor_id)"))
    elif no_meta:
        out.append(Finding(Rule.SCHEMA, f"missing optional metadata: {', '.join(no_meta)}"))
    return out


def _unknown_finding(
    result: ResultDoc, known: Iterable[str], nested: Iterable[tuple[str, Iterable[str]]]
) -> list[Finding]:
    r = result.result
    skip = () if result.wrapped else HEADER_ALL
    unknown = _unknown(r, [*known, *skip])
    for key, keys in nested:
        unknown += _unknown(mapping(r.get(key)), keys, f"{key}.")
    if result.variant == "snake":
        unknown += _unknown(mapping(r.get("metadata")), METADATA_KEYS, "metadata.")
    if result.wrapped and isinstance(result.doc, dict):
        unknown += [f"(log) {k}" for k in _unknown(result.doc, [*HEADER_ALL, "result"])]
    if not unknown:
        return []
    return [Finding(Rule.SCHEMA, f"unknown fields: {', '.join(unknown)}")]


def camel_schema(result: ResultDoc) -> list[Finding]:
    r = result.result
    out = _status_findings(result)
    missing = _missing(r, ("taskId", "timestamp"))
    if missing:
        out.append(Finding(Rule.SCHEMA, f"missing required fields: {', '.join(missing)}"))
    tests = mapping(r.get("testResults"))
    checks = [
        *_checks(
            r,
            (
                (
                    "taskId",
                    lambda v: isinstance(v, str) and bool(_STRICT_TASK_ID.match(v)),
                    "NN-NN-NN",
                ),
                ("timestamp", lambda v: epoch_ms(v) is not None, "an ISO-8601 time"),
                ("filesModified", _is_str_list, "a list of paths"),
                ("linesChanged", _is_count, "a count"),
                (
                    "commitHash",
                    lambda v: isinstance(v, str) and bool(re.fullmatch(r"[0-9a-f]{7,40}", v)),
                    "hex",
                ),
                ("testResults", _is_map, "a mapping"),
                ("error", _is_str_or_null, "a string"),
                ("learnings", _is_str_list, "a list of strings"),
                ("deviation", _is_map, "a mapping"),
            ),
        ),
        *_checks(tests, ((key, _is_count, "a count") for key in TEST_RESULT_KEYS), "testResults."),
    ]
    out.extend(_wrong_types(checks))
    out.extend(_unknown_finding(result, CAMEL_KEYS, (("testResults", TEST_RESULT_KEYS),)))
    return out
