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
from collections.abc import Callable
from pathlib import Path

from trajtui.core.io.text import one_line
from trajtui.core.values import mapping, sequence
from trajtui.formats.ultraplan.ids import RESULT_NAME, TASK_PREFIX, as_int
from trajtui.formats.ultraplan.plan import PlanDoc, PlanTask
from trajtui.formats.ultraplan.results import (
    HEADER_KEYS,
    STATUS_WORDS,
    ResultDoc,
    canonical_status,
)
from trajtui.formats.ultraplan.schema import camel_schema, snake_schema
from trajtui.formats.ultraplan.verdict import Finding, Judgement, Rule

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
            *(camel_schema(result) if camel else snake_schema(result)),
            *(_camel_status(result) if camel else _snake_status(result)),
            *task_findings,
            *_file_rule(result, task, exists),
            *_log_rule(result),
        ]
    )


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
