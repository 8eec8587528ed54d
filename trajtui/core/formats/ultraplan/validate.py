"""The result capture protocol's validation rules, as pure functions.

:func:`judge` applies the protocol's rules to one result: schema completeness (missing
fields, types, unknown fields, missing optional metadata), status consistency, task-name
matching against PLAN.md, file paths. The protocol's critical violations make a result
INVALID: no status (or a status word that is not one), success with a non-zero exit code
(camelCase: failed tests) or ``done_criteria_met: false``, a task name that matches no task
of an available PLAN.md (camelCase: a task number PLAN.md does not have). Everything else is
a warning (VALID_WITH_WARNINGS), including a PLAN.md that is not available, which is said
rather than failing every result.
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from trajtui.core.formats.common import boolean, integer, mapping, num, sequence
from trajtui.core.formats.ultraplan.ids import (
    RESULT_NAME,
    TASK_PREFIX,
    as_int,
    epoch_ms,
    type_name,
)
from trajtui.core.formats.ultraplan.plan import PlanDoc, PlanTask
from trajtui.core.formats.ultraplan.results import (
    CAMEL_KEYS,
    HEADER_ALL,
    HEADER_KEYS,
    METADATA_KEYS,
    SNAKE_KEYS,
    STATUS_WORDS,
    TEST_RESULT_KEYS,
    VERIFICATION_KEYS,
    ResultDoc,
    canonical_status,
)
from trajtui.core.text import one_line, visible

_STRICT_TASK_ID = re.compile(r"^\d{2}(?:\.\d+)?-\d{2}-\d{2}$")


class Verdict(StrEnum):
    """The protocol's validation outcomes."""

    VALID = "VALID"
    VALID_WITH_WARNINGS = "VALID_WITH_WARNINGS"
    INVALID = "INVALID"


class Rule(StrEnum):
    """Which validation rule a finding comes from."""

    READ = "read"
    SCHEMA = "schema"
    STATUS = "status"
    TASK = "task"
    FILES = "files"
    LOG = "log"


@dataclass(frozen=True, slots=True)
class Finding:
    """One reason for a verdict.

    Attributes:
        rule: The rule broken.
        message: One line saying what is wrong.
        critical: A critical violation (INVALID) rather than a warning.
    """

    rule: Rule
    message: str
    critical: bool = False


@dataclass(frozen=True, slots=True)
class Judgement:
    """The verdict on one result and its reasons (critical ones first)."""

    verdict: Verdict
    findings: tuple[Finding, ...] = ()

    @classmethod
    def of(cls, findings: Iterable[Finding]) -> Judgement:
        """The judgement that ``findings`` make."""
        found = sorted(
            (
                Finding(f.rule, visible(f.message, keep_newlines=False), f.critical)
                for f in findings
            ),
            key=lambda f: not f.critical,
        )
        if any(f.critical for f in found):
            verdict = Verdict.INVALID
        elif found:
            verdict = Verdict.VALID_WITH_WARNINGS
        else:
            verdict = Verdict.VALID
        return cls(verdict, tuple(found))

    @property
    def reasons(self) -> tuple[str, ...]:
        """The findings' messages."""
        return tuple(f.message for f in self.findings)

    def text(self) -> str:
        """``VERDICT`` or ``VERDICT: reason; reason``."""
        return f"{self.verdict}: {'; '.join(self.reasons)}" if self.findings else str(self.verdict)

    def to_json(self) -> dict[str, Any]:
        """The verdict and findings as JSON data."""
        return {
            "verdict": self.verdict.value,
            "reasons": list(self.reasons),
            "findings": [
                {
                    "rule": f.rule.value,
                    "severity": "critical" if f.critical else "warning",
                    "message": f.message,
                }
                for f in self.findings
            ],
        }


Exists = Callable[[str], "bool | None"]
"""Whether a project-relative path exists (None: cannot be checked)."""


def judge(
    result: ResultDoc,
    plan: PlanDoc | None,
    *,
    plan_note: str | None = None,
    exists: Exists | None = None,
) -> Judgement:
    """Apply the protocol's validation rules to one result (a pure function).

    Args:
        result: The result, from :func:`read_result`.
        plan: The plan's PLAN.md, when it was found.
        plan_note: Why there is no PLAN.md (said as a warning), when ``plan`` is None.
        exists: Tells whether a project-relative path exists (None when nothing can be
            checked on disk); only ever asked about paths inside the project.
    """
    if result.shape_error is not None:
        return Judgement.of([Finding(Rule.SCHEMA, result.shape_error, critical=True)])
    camel = result.variant == "camel"
    task, task_findings = _task_rule(result, plan, plan_note)
    return Judgement.of(
        [
            *(_camel_schema(result) if camel else _snake_schema(result)),
            *(_camel_status(result) if camel else _snake_status(result)),
            *task_findings,
            *_file_rule(result, task, exists),
            *_log_rule(result),
        ]
    )


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


def _snake_schema(result: ResultDoc) -> list[Finding]:
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


def _camel_schema(result: ResultDoc) -> list[Finding]:
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


def _word_finding(result: ResultDoc) -> tuple[str | None, list[Finding]]:
    """The canonical status and, when the word is not the variant's own, a finding."""
    word = result.status
    if word is None:
        return None, []
    canon = canonical_status(word)
    words = STATUS_WORDS[result.variant]
    if canon is None:
        return None, [
            Finding(
                Rule.STATUS,
                f"unknown status {_quote(word)} (expected {', '.join(words)})",
                critical=True,
            )
        ]
    if word in words:
        return canon, []
    native = next((w for w in words if canonical_status(w) == canon), None)
    if native is None:
        note = f"status {_quote(word)} is not one of {', '.join(words)} (read as {canon})"
    else:
        note = f"status {_quote(word)} read as {native}"
    return canon, [Finding(Rule.STATUS, note)]


def _snake_status(result: ResultDoc) -> list[Finding]:
    r = result.result
    status, out = _word_finding(result)
    ver = mapping(r.get("verification"))
    exit_code = as_int(ver.get("exit_code"))
    done = r.get("done_criteria_met")
    error = r.get("error")
    if status == "success":
        if exit_code is not None and exit_code != 0:
            out.append(
                Finding(
                    Rule.STATUS, f"success but verification.exit_code is {exit_code}", critical=True
                )
            )
        if done is False:
            out.append(
                Finding(Rule.STATUS, "success but done_criteria_met is false", critical=True)
            )
        if error not in (None, ""):
            out.append(Finding(Rule.STATUS, "success but error is set"))
    elif status == "failure":
        if error in (None, ""):
            out.append(Finding(Rule.STATUS, "failure without an error"))
        if done is True:
            out.append(Finding(Rule.STATUS, "failure but done_criteria_met is true"))
    elif status == "blocked":
        if error in (None, ""):
            out.append(Finding(Rule.STATUS, "blocked without an error"))
        if sequence(r.get("files_modified")):
            out.append(Finding(Rule.STATUS, "blocked but files_modified is not empty"))
        if ver.get("command") is not None:
            out.append(Finding(Rule.STATUS, "blocked but verification.command is set"))
    return out


def _camel_status(result: ResultDoc) -> list[Finding]:
    r = result.result
    status, out = _word_finding(result)
    failed_tests = as_int(mapping(r.get("testResults")).get("failed"))
    error = r.get("error")
    if status == "success":
        if failed_tests:
            out.append(
                Finding(
                    Rule.STATUS, f"success but testResults.failed is {failed_tests}", critical=True
                )
            )
        if error not in (None, ""):
            out.append(Finding(Rule.STATUS, "success but error is set"))
    elif status in ("failure", "blocked") and error in (None, ""):
        out.append(Finding(Rule.STATUS, f"{result.status} without an error"))
    return out


def match_task(name: str, plan: PlanDoc) -> tuple[PlanTask | None, str]:
    """Find a result's ``task_name`` among a PLAN.md's tasks, by the protocol's rules.

    Returns:
        ``(task, how)``: ``how`` is ``exact``, ``prefix`` (one name starts with the other),
        ``number`` (same ``Task N:`` prefix, different words), ``criterion`` (an item of
        ``<success_criteria>``) or ``none``.
    """
    wanted = " ".join(name.split())
    for task in plan.tasks:
        if task.name == wanted:
            return task, "exact"
    for task in plan.tasks:
        similar = task.name and (wanted.startswith(task.name) or task.name.startswith(wanted))
        if similar and TASK_PREFIX.match(wanted):
            return task, "prefix"
    number = TASK_PREFIX.match(wanted)
    if number is not None:
        for task in plan.tasks:
            theirs = TASK_PREFIX.match(task.name)
            if theirs is not None and theirs.group(1) == number.group(1):
                return task, "number"
    for text in (c.text.strip() for c in plan.criteria):
        if text == wanted or (TASK_PREFIX.match(wanted) and text.startswith(wanted)):
            return None, "criterion"
    return None, "none"


def _task_rule(
    result: ResultDoc, plan: PlanDoc | None, plan_note: str | None
) -> tuple[PlanTask | None, list[Finding]]:
    if plan is None:
        note = plan_note or "PLAN.md not available: task name not checked"
        return None, [Finding(Rule.TASK, note)]
    where = os.path.basename(plan.path) if plan.path else "PLAN.md"
    if result.variant == "camel":
        return _task_by_number(result, plan, where)
    name = result.task_name
    if not name:
        return None, []  # reported as a missing required field
    if not plan.tasks and not plan.criteria:
        return None, [Finding(Rule.TASK, f"{where} lists no <task> names: task name not checked")]
    task, how = match_task(name, plan)
    if how in ("exact", "prefix", "criterion"):
        return task, _index_check(result, task)
    if how == "number" and task is not None:
        msg = f"task name {_quote(name)} differs from {where}'s {_quote(task.name)} (same task number)"
        return task, [Finding(Rule.TASK, msg), *_index_check(result, task)]
    close = difflib.get_close_matches(name, [t.name for t in plan.tasks], n=1, cutoff=0.5)
    hint = f"; closest: {_quote(close[0])}" if close else ""
    msg = f"task name {_quote(name)} matches no task in {where}{hint}"
    return None, [Finding(Rule.TASK, msg, critical=True)]


def _index_check(result: ResultDoc, task: PlanTask | None) -> list[Finding]:
    index = as_int(result.header("task_index"))
    if task is None or index is None or index == task.number:
        return []
    return [Finding(Rule.TASK, f"task_index {index} but the name is task {task.number}")]


def _task_by_number(
    result: ResultDoc, plan: PlanDoc, where: str
) -> tuple[PlanTask | None, list[Finding]]:
    if result.task is None:
        return None, [Finding(Rule.TASK, "no task number to look up in PLAN.md")]
    if not plan.tasks:
        return None, [Finding(Rule.TASK, f"{where} lists no <task> elements")]
    if 1 <= result.task <= len(plan.tasks):
        return plan.tasks[result.task - 1], []
    msg = f"{where} has {len(plan.tasks)} tasks: no task {result.task}"
    return None, [Finding(Rule.TASK, msg, critical=True)]


def _path_escapes(path: str) -> bool:
    parts = Path(path.replace("\\", "/")).parts
    depth = 0
    for part in parts:
        depth += -1 if part == ".." else (0 if part in (".", "") else 1)
        if depth < 0:
            return True
    return False


def _file_rule(result: ResultDoc, task: PlanTask | None, exists: Exists | None) -> list[Finding]:
    paths = [p for p in result.files if isinstance(p, str) and p.strip()]
    absolute = [p for p in paths if os.path.isabs(p) or re.match(r"^[A-Za-z]:[\\/]", p)]
    escaping = [p for p in paths if p not in absolute and _path_escapes(p)]
    out: list[Finding] = []
    if absolute:
        out.append(Finding(Rule.FILES, f"absolute paths (should be relative): {_few(absolute)}"))
    if escaping:
        out.append(Finding(Rule.FILES, f"paths outside the project: {_few(escaping)}"))
    checkable = [p for p in paths if p not in absolute and p not in escaping]
    if exists is not None:
        gone = [p for p in checkable if exists(p) is False]
        if gone:
            out.append(Finding(Rule.FILES, f"not found in the project: {_few(gone)}"))
    if task is not None and task.files:
        planned = {os.path.normpath(f) for f in task.files}
        extra = [p for p in checkable if os.path.normpath(p) not in planned]
        if extra:
            out.append(Finding(Rule.FILES, f"not in task {task.number}'s <files>: {_few(extra)}"))
    return out


def _few(items: list[str], limit: int = 3) -> str:
    shown = ", ".join(one_line(i, 80) for i in items[:limit])
    return shown + (f" (+{len(items) - limit} more)" if len(items) > limit else "")


def _quote(text: str, limit: int = 80) -> str:
    return repr(one_line(text, limit))


def _log_rule(result: ResultDoc) -> list[Finding]:
    out: list[Finding] = []
    if result.wrapped:
        lacking = [k for k in HEADER_KEYS if result.header(k) is None]
        if lacking:
            out.append(Finding(Rule.LOG, f"log header lacks: {', '.join(lacking)}"))
    m = RESULT_NAME.match(result.name or "")
    if m is None:
        return out
    said = canonical_status(m["status"]) if m["status"] else None
    if said is not None and result.status is not None and said != canonical_status(result.status):
        out.append(Finding(Rule.LOG, f"file name says {m['status']} but status is {result.status}"))
    if result.plan_id is not None and m["plan"] != result.plan_id:
        out.append(
            Finding(Rule.LOG, f"file name says plan {m['plan']} but plan_id is {result.plan_id}")
        )
    index = as_int(result.header("task_index"))
    if index is not None and int(m["task"]) != index:
        out.append(
            Finding(Rule.LOG, f"file name says task {int(m['task'])} but task_index is {index}")
        )
    return out
