"""ultraplan result logs: plans, their task results, and the protocol's validation rules.

ultraplan's executors are LLM agents that write one YAML file per task result, following
shared/formats/ultraplan-result-capture-protocol.md; no program checks what they write, so
every key may be missing, renamed or extra (shared/formats/REAL-WORLD-NOTES.md, "ultraplan").

What is read
    A project directory holding ``.ultraplan/``, the ``.ultraplan`` directory itself, or its
    ``logs/`` directory, recognised by what is inside (result YAML in
    ``executions/YYYY-MM-DD/``, ``current-session.json``, ``summary/daily-*.json``, an
    ultraplan ``config.json``), never by a name alone. A single result YAML file opened
    directly is read too. Every YAML file goes through :mod:`trajtui.core.yamlsafe`; a file
    that cannot be parsed is a :class:`~trajtui.core.model.Problem` and the rest still shows.
    Nothing is written, and nothing outside the directory the user opened is read.

Runs and steps
    A run is a plan (ref: its ``plan_id``, e.g. ``03-01``). Its steps are its results in time
    order (``logged_at``, or the camelCase ``timestamp``; a result without one keeps its place
    in date-directory and file order), so a retry is one more step of the same task. Step N is
    ``PLAN/step-N``. Both result shapes are read: the protocol's snake_case one (``status,
    task_name, files_modified, verification, done_criteria_met, evidence, error, metadata``)
    and the later camelCase one (``taskId, status, timestamp, filesModified, testResults``...).

Status words and outcomes
    A step's status is the word in the file. ``success`` is PASS; ``failure``, ``failed`` and
    ``fail`` are FAIL; ``partial`` is PARTIAL; ``blocked`` is SKIPPED, because a blocked task
    never started (the protocol: "cannot start, missing dependency"): nothing ran that could
    have erred. A plan's status is derived from the latest result of each of its tasks, first
    rule that applies: some task ``failure`` (FAIL); some task ``blocked`` (SKIPPED); some
    task ``partial`` or with an unknown word (PARTIAL); every task ``success`` but PLAN.md
    lists tasks with no result yet, ``incomplete`` (PARTIAL); otherwise ``success`` (PASS).
    Its score is the share of its tasks (PLAN.md's, or those with results) whose latest
    result succeeded.

PLAN.md
    Looked for only inside the opened project: ``.planning/**/{plan}-PLAN.md`` (paths under a
    ``phases`` directory first), then any ``*PLAN.md`` in ``.planning/`` or the project's top
    level whose frontmatter names the plan (``phase: 03-...`` + ``plan: 5`` is ``03-05``).
    Fenced code blocks are skipped (they hold example checkboxes and example tags); the
    ``<task>`` names and ``<files>``, the ``<success_criteria>`` items with their checkbox state
    and the ``<objective>`` are read. When only ``.ultraplan``, ``logs`` or a result file was
    opened, the project lies outside what was opened: PLAN.md is not looked for (and file
    paths are not checked on disk), and every result says so in a warning.

Files shown with a plan
    ``current-session.json`` (and other ``*session*.json``), ``summary/daily-*.json``,
    ``retry.log``, ``retry.jsonl``, ``retry-state.json`` and architect verdict YAML
    (``verdict: APPROVED|REJECTED|NEEDS_REVISION``) become fields of every plan they concern.
    A file (or record, or ``retry.log`` line) that names plans (``plan_id``, ``by_plan``, a
    ``taskId`` such as ``03-01-02``, a file name starting with the plan id) concerns those; a
    session also concerns the plans whose results carry its ``session_id``, and a daily
    summary without ``by_plan`` the plans with results on its date; one that names no plan
    at all concerns every plan. A project with no execution logs lists no plans and reports
    a warning saying so.

Validation
    :func:`judge` applies the protocol's rules to one result, as a pure function: schema
    completeness (missing fields, types, unknown fields, missing optional metadata), status
    consistency, task-name matching against PLAN.md, file paths. The protocol's critical
    violations make a result INVALID: no status (or a status word that is not one), success
    with a non-zero exit code (camelCase: failed tests) or ``done_criteria_met: false``, a
    task name that matches no task of an available PLAN.md (camelCase: a task number PLAN.md
    does not have). Everything else is a warning (VALID_WITH_WARNINGS), including a PLAN.md
    that is not available, which is said rather than failing every result.
"""

from __future__ import annotations

import difflib
import os
import re
import stat
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from trajtui.core.discover import inside, walk
from trajtui.core.formats.common import boolean, fields, integer, mapping, num, sequence, string
from trajtui.core.index import ScanProgress
from trajtui.core.jsonutil import JsonError, loads
from trajtui.core.model import Field, Kind, Outcome, Problem, Run, RunSummary, Severity, Step
from trajtui.core.source import FormatInfo, StaticSource, Target
from trajtui.core.text import one_line, visible
from trajtui.core.yamlsafe import YamlError
from trajtui.core.yamlsafe import load as load_yaml

if TYPE_CHECKING:
    from trajtui.core.detect import Sniffed
    from trajtui.core.discover import Walked
    from trajtui.core.formats.registry import DirClaim

FORMAT = FormatInfo("ultraplan", "ultraplan logs")

MAX_FILE = 4 << 20
"""Result, session, summary and PLAN files bigger than this are not read."""
PROBE_LIMIT = 12
"""How many subdirectories and files are looked at when recognising a directory."""
NO_PLAN = "no-plan"
"""The run holding results whose plan cannot be told."""

_YAML = (".yaml", ".yml")
_PLAN_ID = r"\d+(?:\.\d+)*-\d+"
_TASK_ID = re.compile(rf"^(?P<plan>{_PLAN_ID})-(?P<task>\d+)$")
_STRICT_TASK_ID = re.compile(r"^\d{2}(?:\.\d+)?-\d{2}-\d{2}$")
_RESULT_NAME = re.compile(
    rf"^(?P<plan>{_PLAN_ID})-task-(?P<task>\d+)(?:-(?P<status>[a-z_]+))?[^.]*\.ya?ml$", re.I
)
_PLAN_NAME = re.compile(rf"^(?P<plan>{_PLAN_ID})-PLAN\.md$", re.I)
_NAME_PLAN = re.compile(rf"^(?P<plan>{_PLAN_ID})(?![\d.])")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_TASK_PREFIX = re.compile(r"^\s*Task\s+(\d+)\s*:", re.I)
_CONFIG_KEYS = frozenset(
    ("mode", "depth", "parallelization", "max_workers", "commit_docs", "model_profile")
)


# -- small helpers ---------------------------------------------------------------------------


def natural_key(text: str) -> tuple[Any, ...]:
    """Sort key that orders ``02.5-03`` before ``03-01`` and ``task-9`` before ``task-10``."""
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", text))


def epoch_ms(value: Any) -> float | None:
    """Milliseconds since the epoch of an ISO-8601 time (naive times are UTC), or None."""
    text = string(value)
    if text is None:
        number = num(value)
        if number is None:
            return None
        return float(number) if number > 1e11 else float(number) * 1000
    try:
        when = datetime.fromisoformat(text.strip())
    except ValueError:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.timestamp() * 1000


def split_task_id(value: Any) -> tuple[str | None, int | None]:
    """``("06-01", 1)`` for a task id ``06-01-01``; ``(None, None)`` when it is not one."""
    m = _TASK_ID.match(string(value) or "")
    if m is None:
        return None, None
    return m["plan"], int(m["task"])


def _as_int(value: Any) -> int | None:
    if integer(value) is not None:
        return integer(value)
    text = string(value)
    return int(text.strip()) if text is not None and text.strip().isdigit() else None


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    return {
        "str": "a string",
        "int": "an integer",
        "float": "a number",
        "bool": "a boolean",
        "list": "a list",
        "dict": "a mapping",
    }.get(type(value).__name__, type(value).__name__)


def _quote(text: str, limit: int = 80) -> str:
    return repr(one_line(text, limit))


# -- PLAN.md ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlanTask:
    """One ``<task>`` of a PLAN.md.

    Attributes:
        number: 1-based position among the plan's tasks.
        name: The ``<name>`` text, whitespace collapsed.
        files: The ``<files>`` entries (split on commas and lines).
        attrs: The task element's attributes (``type``, ``status``, ``completed_at``...).
        line: Line of the ``<task`` tag.
    """

    number: int
    name: str
    files: tuple[str, ...] = ()
    attrs: tuple[tuple[str, str], ...] = ()
    line: int = 0

    def attr(self, name: str) -> str | None:
        """An attribute's value, or None."""
        return next((v for k, v in self.attrs if k == name), None)


@dataclass(frozen=True, slots=True)
class Criterion:
    """One item of a PLAN.md's ``<success_criteria>`` list.

    Attributes:
        text: The item's text, without its checkbox and ``(completed DATE)`` note.
        checked: True for ``[x]``, False for ``[ ]``, None for a free-text item.
        completed: The ``(completed YYYY-MM-DD)`` date, when the item has one.
        line: Its line in the file.
    """

    text: str
    checked: bool | None
    completed: str | None = None
    line: int = 0

    def shown(self) -> str:
        """``[x] text (completed DATE)``, ``[ ] text`` or ``- text``."""
        box = {True: "[x] ", False: "[ ] ", None: "- "}[self.checked]
        done = f" (completed {self.completed})" if self.completed else ""
        return f"{box}{self.text}{done}"


@dataclass(frozen=True, slots=True)
class PlanDoc:
    """What trajtui reads from a PLAN.md.

    Attributes:
        path: The file (None for text parsed on its own).
        plan_id: The plan it is for (from its frontmatter), or None.
        frontmatter: The YAML frontmatter (empty when absent or unreadable).
        objective: The ``<objective>`` text, or None.
        tasks: The ``<task>`` elements, fenced examples skipped.
        criteria: The ``<success_criteria>`` items, fenced examples skipped.
        note: Why the frontmatter was not read, when it was not.
    """

    path: str | None
    plan_id: str | None
    frontmatter: dict[str, Any] = field(default_factory=dict)
    objective: str | None = None
    tasks: tuple[PlanTask, ...] = ()
    criteria: tuple[Criterion, ...] = ()
    note: str | None = None


_FENCE = re.compile(r"^\s*(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
_TASK_EL = re.compile(r"<task\b(?P<attrs>[^>]*)>(?P<body>.*?)(?=</task>|<task\b|</tasks>|\Z)", re.S)
_ATTR = re.compile(r"([\w:-]+)\s*=\s*(?:\"([^\"]*)\"|'([^']*)')")
_CRITERIA = re.compile(r"<success_criteria>(?P<body>.*?)(?:</success_criteria>|\Z)", re.S)
_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?:\[(?P<box>[ xX])\]\s*)?(?P<text>.*\S)\s*$")
_COMPLETED = re.compile(r"\s*\(completed\s+(\d{4}-\d{2}-\d{2})\)\s*$", re.I)


def _frontmatter(lines: list[str]) -> tuple[int, str | None]:
    """``(number of lines it spans, its YAML text)``; ``(0, None)`` when there is none."""
    if not lines or lines[0].strip() != "---":
        return 0, None
    for i in range(1, len(lines)):
        if lines[i].strip() in ("---", "..."):
            return i + 1, "\n".join(lines[1:i])
    return 0, None


def unfenced(text: str) -> str:
    """``text`` with fenced code blocks (and a leading YAML frontmatter) blanked out.

    Lines keep their numbers. A fence opens with three or more backticks or tildes (any
    indentation: plans nest them in XML elements) and closes with a line of at least as
    many of the same character; ``\\`\\`\\``` (escaped, as plans quote fences inside fences)
    is text.
    """
    lines = text.splitlines()
    skip, _ = _frontmatter(lines)
    out: list[str] = [""] * skip
    open_fence: str | None = None
    for line in lines[skip:]:
        m = _FENCE.match(line)
        if open_fence is None:
            if m and not (m["fence"][0] == "`" and "`" in m["info"]):
                open_fence = m["fence"]
                out.append("")
            else:
                out.append(line)
            continue
        stripped = line.strip()
        if stripped and set(stripped) == {open_fence[0]} and len(stripped) >= len(open_fence):
            open_fence = None
        out.append("")
    return "\n".join(out)


def plan_id_of(frontmatter: dict[str, Any]) -> str | None:
    """The plan id a PLAN.md's frontmatter names: ``plan_id``, or ``phase`` + ``plan``."""
    explicit = string(frontmatter.get("plan_id"))
    if explicit:
        return explicit.strip()
    phase = frontmatter.get("phase")
    phase_text = str(phase) if isinstance(phase, (str, int, float)) else ""
    m = re.match(r"^(\d+(?:\.\d+)*)", phase_text.strip())
    number = _as_int(frontmatter.get("plan"))
    if m is None or number is None:
        return None
    head = m.group(1)
    if "." not in head and head.isdigit():
        head = f"{int(head):02d}"
    return f"{head}-{number:02d}"


def _line_at(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _plan_tasks(body: str) -> tuple[PlanTask, ...]:
    tasks: list[PlanTask] = []
    for m in _TASK_EL.finditer(body):
        inner = m["body"]
        name_m = re.search(r"<name>(.*?)</name>", inner, re.S)
        files_m = re.search(r"<files>(.*?)</files>", inner, re.S)
        files = tuple(
            part.strip() for part in re.split(r"[,\n]", files_m.group(1) if files_m else "")
        )
        attrs = tuple((k, v1 or v2) for k, v1, v2 in _ATTR.findall(m["attrs"]))
        tasks.append(
            PlanTask(
                number=len(tasks) + 1,
                name=" ".join(name_m.group(1).split()) if name_m else "",
                files=tuple(f for f in files if f),
                attrs=attrs,
                line=_line_at(body, m.start()),
            )
        )
    return tuple(tasks)


def _plan_criteria(body: str) -> tuple[Criterion, ...]:
    found: list[Criterion] = []
    for section in _CRITERIA.finditer(body):
        first = _line_at(body, section.start("body"))
        for offset, line in enumerate(section["body"].split("\n")):
            m = _ITEM.match(line)
            if m is None:
                continue
            text = m["text"]
            done = _COMPLETED.search(text)
            box = m["box"]
            found.append(
                Criterion(
                    text=text[: done.start()] if done else text,
                    checked=None if box is None else box != " ",
                    completed=done.group(1) if done else None,
                    line=first + offset,
                )
            )
    return tuple(found)


def parse_plan(text: str, path: str | None = None) -> PlanDoc:
    """Read a PLAN.md: frontmatter, objective, tasks and success criteria (a pure function).

    Args:
        text: The file's text.
        path: The file, kept on the result.
    """
    lines = text.splitlines()
    _, front_text = _frontmatter(lines)
    front: dict[str, Any] = {}
    note = None
    if front_text is not None:
        try:
            front = mapping(load_yaml(front_text, path or "PLAN.md"))
        except YamlError as err:
            where = f" (line {err.line + 1})" if err.line is not None else ""
            note = f"frontmatter not read{where}: {err.message}"
    body = unfenced(text)
    objective = re.search(r"<objective>(.*?)</objective>", body, re.S)
    return PlanDoc(
        path=path,
        plan_id=plan_id_of(front),
        frontmatter=front,
        objective=objective.group(1).strip() if objective else None,
        tasks=_plan_tasks(body),
        criteria=_plan_criteria(body),
        note=note,
    )


# -- results ---------------------------------------------------------------------------------

SNAKE_KEYS = (
    "status",
    "task_name",
    "files_modified",
    "verification",
    "done_criteria_met",
    "evidence",
    "error",
    "metadata",
)
VERIFICATION_KEYS = ("command", "exit_code", "output_summary")
METADATA_KEYS = ("duration_ms", "attempt", "executor_id")
CAMEL_KEYS = (
    "taskId",
    "status",
    "timestamp",
    "filesModified",
    "linesChanged",
    "commitHash",
    "testResults",
    "error",
    "learnings",
    "deviation",
)
TEST_RESULT_KEYS = ("passed", "failed", "skipped")
HEADER_KEYS: dict[str, tuple[str, ...]] = {
    "logged_at": ("logged_at", "loggedAt"),
    "plan_id": ("plan_id", "planId"),
    "task_index": ("task_index", "taskIndex"),
    "session_id": ("session_id", "sessionId"),
}
_HEADER_ALL = frozenset(k for names in HEADER_KEYS.values() for k in names)
_SNAKE_MARKS = ("task_name", "files_modified", "done_criteria_met", "verification", "evidence")
_CAMEL_MARKS = ("taskId", "filesModified", "testResults", "commitHash", "linesChanged", "timestamp")

STATUS_WORDS = {
    "snake": ("success", "failure", "blocked"),
    "camel": ("success", "failed", "partial"),
}
_CANONICAL = {
    "success": "success",
    "succeeded": "success",
    "failure": "failure",
    "failed": "failure",
    "fail": "failure",
    "blocked": "blocked",
    "partial": "partial",
}
OUTCOMES = {
    "success": Outcome.PASS,
    "failure": Outcome.FAIL,
    "blocked": Outcome.SKIPPED,
    "partial": Outcome.PARTIAL,
}
"""Outcome of each canonical status word (see the module docstring for ``blocked``)."""


def canonical_status(word: Any) -> str | None:
    """``success``, ``failure``, ``blocked`` or ``partial`` for a status word, else None."""
    text = string(word)
    return None if text is None else _CANONICAL.get(text.strip().lower())


def outcome_of(word: Any) -> Outcome:
    """The outcome of a result's status word (NONE for words that are not statuses)."""
    return OUTCOMES.get(canonical_status(word) or "", Outcome.NONE)


@dataclass(frozen=True, slots=True)
class ResultDoc:
    """One result log, normalised: what the file says, and where each value came from.

    Attributes:
        doc: The document as parsed.
        result: The result mapping (``doc["result"]``, or the document itself when the file
            holds a bare result).
        wrapped: The file has the log header and a ``result`` mapping.
        variant: ``snake`` (the protocol's schema) or ``camel`` (``taskId``, ``filesModified``).
        plan_id: The plan: ``plan_id``, the ``taskId``'s plan part, or the file name's.
        task: The task number: ``task_index``, the ``taskId``'s, ``Task N:`` or the file name's.
        logged_at: ``logged_at`` (or the camelCase ``timestamp``), as written.
        time_ms: ``logged_at`` as ms since the epoch, when it is a time.
        session_id: The header's ``session_id``.
        status: The status word as in the file (None when absent or not a string).
        name: The file's name (for its ``{plan}-task-{N}-{status}`` parts), or None.
        shape_error: Why the document is not a result at all (a list, a number...), or None.
    """

    doc: Any
    result: dict[str, Any]
    wrapped: bool
    variant: str
    plan_id: str | None
    task: int | None
    logged_at: str | None
    time_ms: float | None
    session_id: str | None
    status: str | None
    name: str | None = None
    shape_error: str | None = None

    def header(self, key: str) -> Any:
        """A header value (``logged_at``...), by its snake or camelCase name."""
        source = self.doc if isinstance(self.doc, dict) else {}
        return next((source[k] for k in HEADER_KEYS[key] if k in source), None)

    @property
    def task_name(self) -> str | None:
        """The result's ``task_name``, when it is a string."""
        return string(self.result.get("task_name"))

    @property
    def files(self) -> list[Any]:
        """``files_modified`` (or ``filesModified``) as a list (empty when absent)."""
        key = "filesModified" if self.variant == "camel" else "files_modified"
        return sequence(self.result.get(key))

    @property
    def duration_ms(self) -> float | None:
        """``metadata.duration_ms`` (or a top-level ``duration_ms``/``durationMs``)."""
        for value in (
            mapping(self.result.get("metadata")).get("duration_ms"),
            self.result.get("duration_ms"),
            self.result.get("durationMs"),
        ):
            number = num(value)
            if number is not None:
                return float(number)
        return None


def looks_like_result(doc: Any) -> bool:
    """True for a document shaped like a result log or a bare executor result."""
    if not isinstance(doc, dict) or "verdict" in doc:
        return False
    if isinstance(doc.get("result"), dict) and (_HEADER_ALL & doc.keys() or "status" in doc):
        return True
    if len(_HEADER_ALL & doc.keys()) >= 2:
        return True
    return "status" in doc and any(k in doc for k in ("task_name", "taskId", "files_modified"))


def read_result(doc: Any, name: str | None = None) -> ResultDoc:
    """Normalise one parsed result log (a pure function; never raises).

    Args:
        doc: The parsed YAML document (anything).
        name: The file's name, whose ``{plan}-task-{N}-{status}`` parts fill gaps.
    """
    by_name = _RESULT_NAME.match(name or "")
    if not isinstance(doc, dict):
        return ResultDoc(
            doc=doc,
            result={},
            wrapped=False,
            variant="snake",
            plan_id=by_name["plan"] if by_name else None,
            task=int(by_name["task"]) if by_name else None,
            logged_at=None,
            time_ms=None,
            session_id=None,
            status=None,
            name=name,
            shape_error=f"the document is {_type_name(doc)}, not a result mapping",
        )
    wrapped = "result" in doc
    result = mapping(doc.get("result")) if wrapped else doc
    shape_error = None
    if wrapped and not isinstance(doc.get("result"), dict):
        shape_error = f"result is {_type_name(doc.get('result'))}, not a mapping"
    snake = sum(1 for k in _SNAKE_MARKS if k in result)
    camel = sum(1 for k in _CAMEL_MARKS if k in result)
    variant = "camel" if camel > snake else "snake"

    def head(key: str) -> Any:
        return next((doc[k] for k in HEADER_KEYS[key] if k in doc), None)

    id_plan, id_task = split_task_id(result.get("taskId"))
    name_task = _TASK_PREFIX.match(string(result.get("task_name")) or "")
    plan = string(head("plan_id")) or id_plan or (by_name["plan"] if by_name else None)
    task = (
        _as_int(head("task_index"))
        or id_task
        or (int(name_task.group(1)) if name_task else None)
        or (int(by_name["task"]) if by_name else None)
    )
    logged = head("logged_at")
    if logged is None and variant == "camel":
        logged = result.get("timestamp")
    return ResultDoc(
        doc=doc,
        result=result,
        wrapped=wrapped,
        variant=variant,
        plan_id=plan.strip() if plan else None,
        task=task,
        logged_at=string(logged) or (None if logged is None else str(logged)),
        time_ms=epoch_ms(logged),
        session_id=string(head("session_id")),
        status=string(result.get("status")),
        name=name,
        shape_error=shape_error,
    )


# -- judging ---------------------------------------------------------------------------------


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
        return [Finding(Rule.SCHEMA, f"status is {_type_name(raw)}, not a word", critical=True)]
    return []


def _type_problems(checks: Iterable[tuple[str, Any, Callable[[Any], bool], str]]) -> list[str]:
    return [
        f"{label} should be {want} (found {_type_name(value)})"
        for label, value, ok, want in checks
        if not ok(value)
    ]


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
    checks: list[tuple[str, Any, Callable[[Any], bool], str]] = []
    for key, ok, want in (
        ("task_name", _is_str, "a string"),
        ("files_modified", _is_str_list, "a list of paths"),
        ("verification", _is_map, "a mapping"),
        ("done_criteria_met", _is_bool, "true or false"),
        ("evidence", _is_str, "a string"),
        ("error", _is_str_or_null, "a string or null"),
        ("metadata", _is_map, "a mapping"),
    ):
        if key in r:
            checks.append((key, r[key], ok, want))
    for key, ok, want in (
        ("command", _is_str_or_null if blocked else _is_str, "a string"),
        ("exit_code", _is_int, "an integer"),
        ("output_summary", _is_str_or_null, "a string"),
    ):
        if key in ver and not (blocked and ver[key] is None):
            checks.append((f"verification.{key}", ver[key], ok, want))
    meta = mapping(r.get("metadata"))
    for key, ok, want in (
        ("duration_ms", lambda v: num(v) is not None, "a number"),
        ("attempt", _is_int, "an integer"),
        ("executor_id", _is_str, "a string"),
    ):
        if key in meta:
            checks.append((f"metadata.{key}", meta[key], ok, want))
    types = _type_problems(checks)
    if types:
        out.append(Finding(Rule.SCHEMA, "wrong types: " + ", ".join(types)))
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
    skip = () if result.wrapped else _HEADER_ALL
    unknown = _unknown(r, [*known, *skip])
    for key, keys in nested:
        unknown += _unknown(mapping(r.get(key)), keys, f"{key}.")
    if result.variant == "snake":
        unknown += _unknown(mapping(r.get("metadata")), METADATA_KEYS, "metadata.")
    if result.wrapped and isinstance(result.doc, dict):
        unknown += [f"(log) {k}" for k in _unknown(result.doc, [*_HEADER_ALL, "result"])]
    if not unknown:
        return []
    return [Finding(Rule.SCHEMA, f"unknown fields: {', '.join(unknown)}")]


def _camel_schema(result: ResultDoc) -> list[Finding]:
    r = result.result
    out = _status_findings(result)
    missing = _missing(r, ("taskId", "timestamp"))
    if missing:
        out.append(Finding(Rule.SCHEMA, f"missing required fields: {', '.join(missing)}"))
    checks: list[tuple[str, Any, Callable[[Any], bool], str]] = []
    for key, ok, want in (
        ("taskId", lambda v: isinstance(v, str) and bool(_STRICT_TASK_ID.match(v)), "NN-NN-NN"),
        ("timestamp", lambda v: epoch_ms(v) is not None, "an ISO-8601 time"),
        ("filesModified", _is_str_list, "a list of paths"),
        ("linesChanged", lambda v: _is_int(v) and bool(v >= 0), "a count"),
        (
            "commitHash",
            lambda v: isinstance(v, str) and bool(re.fullmatch(r"[0-9a-f]{7,40}", v)),
            "hex",
        ),
        ("testResults", _is_map, "a mapping"),
        ("error", _is_str_or_null, "a string"),
        ("learnings", _is_str_list, "a list of strings"),
        ("deviation", _is_map, "a mapping"),
    ):
        if key in r:
            checks.append((key, r[key], ok, want))
    tests = mapping(r.get("testResults"))
    for key in TEST_RESULT_KEYS:
        if key in tests:
            checks.append(
                (f"testResults.{key}", tests[key], lambda v: _is_int(v) and v >= 0, "a count")
            )
    types = _type_problems(checks)
    if types:
        out.append(Finding(Rule.SCHEMA, "wrong types: " + ", ".join(types)))
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
    exit_code = _as_int(ver.get("exit_code"))
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
    failed_tests = _as_int(mapping(r.get("testResults")).get("failed"))
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


def _criterion_names(plan: PlanDoc) -> list[str]:
    return [c.text.strip() for c in plan.criteria]


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
        if similar and _TASK_PREFIX.match(wanted):
            return task, "prefix"
    number = _TASK_PREFIX.match(wanted)
    if number is not None:
        for task in plan.tasks:
            theirs = _TASK_PREFIX.match(task.name)
            if theirs is not None and theirs.group(1) == number.group(1):
                return task, "number"
    for text in _criterion_names(plan):
        if text == wanted or (_TASK_PREFIX.match(wanted) and text.startswith(wanted)):
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
    index = _as_int(result.header("task_index"))
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


def _log_rule(result: ResultDoc) -> list[Finding]:
    out: list[Finding] = []
    if result.wrapped:
        lacking = [k for k in HEADER_KEYS if result.header(k) is None]
        if lacking:
            out.append(Finding(Rule.LOG, f"log header lacks: {', '.join(lacking)}"))
    m = _RESULT_NAME.match(result.name or "")
    if m is None:
        return out
    said = canonical_status(m["status"]) if m["status"] else None
    if said is not None and result.status is not None and said != canonical_status(result.status):
        out.append(Finding(Rule.LOG, f"file name says {m['status']} but status is {result.status}"))
    if result.plan_id is not None and m["plan"] != result.plan_id:
        out.append(
            Finding(Rule.LOG, f"file name says plan {m['plan']} but plan_id is {result.plan_id}")
        )
    index = _as_int(result.header("task_index"))
    if index is not None and int(m["task"]) != index:
        out.append(
            Finding(Rule.LOG, f"file name says task {int(m['task'])} but task_index is {index}")
        )
    return out


# -- reading files safely --------------------------------------------------------------------


class _Unreadable(Exception):
    """A file that was not read: ``problem`` says why."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem


def _read_bytes(path: str, root_real: str, limit: int = MAX_FILE) -> bytes:
    """The bytes of a regular file inside ``root_real`` (at most ``limit``).

    Raises:
        _Unreadable: It is outside, not a regular file, too big or unreadable.
    """
    if not inside(root_real, path):
        raise _Unreadable(Problem(path, None, "outside the opened directory (not read)"))
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode):
            raise _Unreadable(Problem(path, None, "not a regular file (not read)"))
        if st.st_size > limit:
            raise _Unreadable(Problem(path, None, f"too large ({st.st_size:,} bytes; not read)"))
        with open(path, "rb") as fh:
            return fh.read(limit + 1)[:limit]
    except OSError as err:
        raise _Unreadable(Problem(path, None, err.strerror or str(err))) from None


def _yaml_doc(path: str, root_real: str) -> Any:
    data = _read_bytes(path, root_real)
    try:
        return load_yaml(data, path)
    except YamlError as err:
        raise _Unreadable(Problem(path, err.line, err.message)) from None


def _json_doc(path: str, root_real: str) -> Any:
    data = _read_bytes(path, root_real)
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError as err:
        line = err.lineno
    try:
        return loads(data)[0]
    except JsonError as err:
        raise _Unreadable(Problem(path, line, str(err))) from None


def _quietly(reader: Callable[[str, str], Any], path: str, root_real: str) -> Any:
    try:
        return reader(path, root_real)
    except _Unreadable:
        return None


# -- recognising directories -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Layout:
    """Where the parts of one ultraplan project are.

    Attributes:
        root: What was claimed (a directory, or one result file), as reached.
        root_real: The resolved directory the user opened: nothing outside it is read.
        project: The project directory (holds ``.ultraplan`` and ``.planning``), when opened.
        ultraplan: The ``.ultraplan`` directory, when opened.
        logs: The ``logs`` directory, when there is one.
        single: The one result file opened directly, if that is what was opened.
        results: The directory holding result YAML, when that (``executions``, ``archive``
            or one date directory) is what was opened; otherwise results are read from
            ``logs/executions`` and ``logs/archive``.
    """

    root: str
    root_real: str
    project: str | None = None
    ultraplan: str | None = None
    logs: str | None = None
    single: str | None = None
    results: str | None = None

    def result_dirs(self) -> tuple[str, ...]:
        """The directories whose YAML files are results (or architect verdicts)."""
        if self.results is not None:
            return (self.results,)
        if self.logs is None:
            return ()
        return (os.path.join(self.logs, "executions"), os.path.join(self.logs, "archive"))


def _opened_root(place: Walked) -> str:
    path = os.path.normpath(place.path)
    if place.rel in (".", ""):
        return path
    for _ in Path(place.rel).parts:
        path = os.path.dirname(path) or "."
    return path


def _is_dir(path: str, root_real: str) -> bool:
    return os.path.isdir(path) and inside(root_real, path)


def _entries(path: str, root_real: str) -> tuple[list[str], list[str]]:
    """Sorted names of the subdirectories and files of ``path`` that stay inside."""
    dirs: list[str] = []
    files: list[str] = []
    try:
        with os.scandir(path) as it:
            for entry in sorted(it, key=lambda e: e.name):
                if entry.is_symlink() and not inside(root_real, entry.path):
                    continue
                if entry.is_dir():
                    dirs.append(entry.name)
                elif entry.is_file():
                    files.append(entry.name)
    except OSError:
        pass
    return dirs, files


def is_session(doc: Any) -> bool:
    """True for a ``current-session.json`` document."""
    return isinstance(doc, dict) and "session_id" in doc and ("tasks" in doc or "plan_id" in doc)


def is_daily(doc: Any) -> bool:
    """True for a ``summary/daily-*.json`` document."""
    keys = ("tasks_executed", "tasks_succeeded", "by_plan", "success_rate")
    return isinstance(doc, dict) and sum(1 for k in keys if k in doc) >= 2


def is_config(doc: Any) -> bool:
    """True for an ultraplan ``config.json`` document."""
    return isinstance(doc, dict) and len(_CONFIG_KEYS & doc.keys()) >= 2


def _has_results(executions: str, root_real: str) -> bool:
    dirs, files = _entries(executions, root_real)
    places = [(executions, files)] + [
        (os.path.join(executions, d), _entries(os.path.join(executions, d), root_real)[1])
        for d in dirs[-PROBE_LIMIT:]
    ]
    for where, names in places:
        dated = _DATE.match(os.path.basename(where)) is not None
        for name in [n for n in names if n.endswith(_YAML)][:PROBE_LIMIT]:
            if dated and _RESULT_NAME.match(name):
                return True  # the protocol's layout: executions/DATE/PLAN-task-N-STATUS.yaml
            if looks_like_result(_quietly(_yaml_doc, os.path.join(where, name), root_real)):
                return True
    return False


def is_logs_dir(path: str, root_real: str) -> bool:
    """True when ``path`` holds ultraplan logs (by content: results, session, summaries)."""
    dirs, files = _entries(path, root_real)
    if "executions" in dirs and _has_results(os.path.join(path, "executions"), root_real):
        return True
    if "current-session.json" in files and is_session(
        _quietly(_json_doc, os.path.join(path, "current-session.json"), root_real)
    ):
        return True
    if "summary" in dirs:
        summary = os.path.join(path, "summary")
        daily = [n for n in _entries(summary, root_real)[1] if re.match(r"daily-.*\.json$", n)]
        return any(
            is_daily(_quietly(_json_doc, os.path.join(summary, n), root_real))
            for n in daily[:PROBE_LIMIT]
        )
    return False


def is_ultraplan_dir(path: str, root_real: str) -> bool:
    """True for a ``.ultraplan`` directory: ultraplan logs in ``logs/``, or, in a directory
    called ``.ultraplan``, an ultraplan ``config.json``."""
    logs = os.path.join(path, "logs")
    if _is_dir(logs, root_real) and is_logs_dir(logs, root_real):
        return True
    if os.path.basename(os.path.normpath(path)) != ".ultraplan":
        return False
    return is_config(_quietly(_json_doc, os.path.join(path, "config.json"), root_real))


def layout_of(place: Walked) -> Layout | None:
    """What an ultraplan directory ``place`` is (a project, ``.ultraplan``, ``logs``, or a
    directory of result logs: ``executions``, ``archive`` or one date directory), or None."""
    root_real = os.path.realpath(_opened_root(place))
    path = place.path
    if ".ultraplan" in place.dirs:
        up = os.path.join(path, ".ultraplan")
        if is_ultraplan_dir(up, root_real):
            return _layout(path, root_real, project=path, ultraplan=up)
    hints = "logs" in place.dirs or "config.json" in place.files
    if hints and is_ultraplan_dir(path, root_real):
        return _layout(path, root_real, ultraplan=path)
    hints = bool({"executions", "summary"} & set(place.dirs)) or (
        "current-session.json" in place.files
    )
    if hints and is_logs_dir(path, root_real):
        return Layout(path, root_real, logs=path)
    name = os.path.basename(os.path.normpath(path))
    named = name in ("executions", "archive") or _DATE.match(name) is not None
    if named and _has_results(path, root_real):
        return Layout(path, root_real, results=path)
    return None


def _layout(root: str, root_real: str, *, ultraplan: str, project: str | None = None) -> Layout:
    logs = os.path.join(ultraplan, "logs")
    return Layout(
        root,
        root_real,
        project=project,
        ultraplan=ultraplan,
        logs=logs if _is_dir(logs, root_real) else None,
    )


def claim_dir(place: Walked) -> DirClaim | None:
    """The registry hook: claim a project, ``.ultraplan`` or ``logs`` directory."""
    layout = layout_of(place)
    if layout is None:
        return None
    from trajtui.core.formats.registry import DirClaim

    return DirClaim((UltraplanSource(layout),))


def open_file(path: str, sniffed: Sniffed, label: str | None) -> UltraplanSource | None:
    """The registry hook: open one result YAML file (by content) on its own."""
    if not path.endswith(_YAML) or sniffed.layout in ("empty", "binary"):
        return None
    root_real = os.path.realpath(path)
    if not looks_like_result(_quietly(_yaml_doc, path, root_real)):
        return None
    return UltraplanSource(Layout(path, root_real, single=path), label=label)


# -- the source ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ResultFile:
    """One result log file of a source.

    Attributes:
        path: The file, as reachable from where trajtui was started.
        rel: Its path below the opened directory (or its name).
        day: Its date directory (``2026-01-26``), when it is in one.
        seq: Its position in date-directory and file order.
        result: What it says; None when it could not be read.
        problem: Why it could not be read.
    """

    path: str
    rel: str
    day: str | None
    seq: int
    result: ResultDoc | None = None
    problem: Problem | None = None


@dataclass(frozen=True, slots=True)
class FileReport:
    """The validation of one result file (a line of ``trajtui validate``).

    Attributes:
        path: The result file.
        judgement: Its verdict and reasons.
        plan_id: The plan it belongs to, when known.
        ref: The step it is shown as (``03-01/step-2``), when it could be read.
        status: Its status word.
        variant: ``snake`` or ``camel``, when it could be read.
        line: The line a read error is on.
    """

    path: str
    judgement: Judgement
    plan_id: str | None = None
    ref: str | None = None
    status: str | None = None
    variant: str | None = None
    line: int | None = None

    def text(self) -> str:
        """``PATH: VERDICT: reason; reason``."""
        return f"{self.path}: {self.judgement.text()}"

    def to_json(self) -> dict[str, Any]:
        """One JSON object for ``validate --json``."""
        return {
            "path": self.path,
            **self.judgement.to_json(),
            "plan": self.plan_id,
            "ref": self.ref,
            "status": self.status,
            "variant": self.variant,
            "line": self.line,
        }


@dataclass(frozen=True, slots=True)
class _Side:
    """A file shown with the plans it concerns (session, daily summary, retries, verdict)."""

    kind: str
    path: str
    rel: str
    value: Any


@dataclass(frozen=True, slots=True)
class PlanRecord:
    """Everything read for one plan: its results in time order, its PLAN.md and verdicts.

    Attributes:
        plan_id: The plan.
        files: Its result files, in time order (the order of its steps).
        doc: Its PLAN.md, when found.
        note: Why there is no PLAN.md, when there is none.
        judgements: The validation of each of ``files``.
    """

    plan_id: str
    files: tuple[ResultFile, ...]
    doc: PlanDoc | None
    note: str | None
    judgements: tuple[Judgement, ...]


class UltraplanSource(StaticSource):
    """An ultraplan project, ``.ultraplan`` directory, ``logs`` directory or result file."""

    def __init__(self, layout: Layout, label: str | None = None) -> None:
        super().__init__(layout.root, FORMAT, label)
        self.layout = layout
        self._files: list[ResultFile] = []
        self._sides: list[_Side] = []
        self._plans: dict[str, PlanRecord] = {}
        self._plan_index: dict[str, str] | None = None
        self._load_lock = threading.Lock()

    # -- reading -------------------------------------------------------------------------

    def scan(self) -> Iterator[ScanProgress]:
        """Read the logs (once; a second caller waits for the first to finish)."""
        with self._load_lock:
            if not self.complete:
                for _ in super().scan():
                    pass
        yield ScanProgress(1, 1, len(self), finished=True)

    def resolve(self, ref: str) -> Target:
        """Find what ``ref`` names, reading the logs first if nobody has yet."""
        if not self.complete:
            for _ in self.scan():
                pass
        return super().resolve(ref)

    def _load(self) -> Iterator[ScanProgress]:
        self._files, self._sides, self._plans = [], [], {}
        self._plan_index = None
        layout = self.layout
        if layout.single is not None:
            parent = os.path.basename(os.path.dirname(os.path.abspath(layout.single)))
            day = parent if _DATE.match(parent) else None
            self._read_results([(layout.single, os.path.basename(layout.single), day)])
        else:
            self._read_tree()
        yield ScanProgress(0, 1, 0)
        self._group()
        for plan in sorted(self._plans.values(), key=lambda p: natural_key(p.plan_id)):
            self.add_run(self._summary(plan), self._loader(plan.plan_id))
        if not self._files and layout.single is None:
            where = (
                os.path.join(layout.logs, "executions")
                if layout.logs
                else os.path.join(layout.ultraplan or layout.root, "logs")
            )
            self.add_problem(
                Problem(
                    where,
                    None,
                    "no execution logs: an ultraplan project with no task results has no plans to show",
                    Severity.WARNING,
                )
            )

    def _rel(self, path: str) -> str:
        return os.path.relpath(path, self.layout.root) if self.layout.single is None else path

    def _read_tree(self) -> None:
        layout = self.layout
        base = layout.ultraplan or layout.logs or layout.root
        result_dirs = [os.path.normpath(d) for d in layout.result_dirs()]
        results: list[tuple[str, str, str | None]] = []
        for place in walk(base):
            self.watch(place.path)  # a new file changes its directory
            here = os.path.normpath(place.path)
            in_results = any(here == d or here.startswith(d + os.sep) for d in result_dirs)
            name = os.path.basename(here)
            day = name if _DATE.match(name) else None
            for name in place.files:
                path = os.path.join(place.path, name)
                self._classify(path, name, day, in_results, results)
        results.sort(key=lambda r: (r[2] or "", natural_key(r[1])))
        self._read_results(results)

    def _classify(
        self,
        path: str,
        name: str,
        day: str | None,
        in_results: bool,
        results: list[tuple[str, str, str | None]],
    ) -> None:
        lower = name.lower()
        if lower.endswith(_YAML):
            if in_results:
                results.append((path, name, day))
            elif "verdict" in lower or "architect" in lower:
                self._side_yaml(path)
        elif lower == "config.json" and os.path.dirname(path) == self.layout.ultraplan:
            self._side_json(path, "config", is_config)
        elif lower.endswith(".json") and "session" in lower:
            self._side_json(path, "session", is_session)
        elif re.match(r"daily-.*\.json$", lower):
            self._side_json(path, "daily", is_daily)
        elif lower == "retry-state.json":
            self._side_json(path, "retry-state", lambda doc: doc is not None)
        elif lower == "retry.jsonl":
            self._side_jsonl(path)
        elif lower == "retry.log":
            self._side_text(path)

    def _problem(self, problem: Problem, plan_id: str | None = None) -> None:
        self.add_problem(
            Problem(problem.path, problem.line, problem.message, problem.severity, plan_id)
        )

    def _read_results(self, found: list[tuple[str, str, str | None]]) -> None:
        for seq, (path, name, day) in enumerate(found):
            self.watch(path)
            rel = self._rel(path)
            try:
                doc = _yaml_doc(path, self.layout.root_real)
            except _Unreadable as err:
                by_name = _RESULT_NAME.match(name)
                plan = by_name["plan"] if by_name else None
                self._problem(err.problem, plan)
                self._files.append(ResultFile(path, rel, day, seq, problem=err.problem))
                continue
            if isinstance(doc, dict) and "verdict" in doc:
                self._sides.append(_Side("verdict", path, rel, doc))
                continue
            self._files.append(ResultFile(path, rel, day, seq, read_result(doc, name)))

    def _side_yaml(self, path: str) -> None:
        self.watch(path)
        try:
            doc = _yaml_doc(path, self.layout.root_real)
        except _Unreadable as err:
            self._problem(err.problem)
            return
        if isinstance(doc, dict) and "verdict" in doc:
            self._sides.append(_Side("verdict", path, self._rel(path), doc))

    def _side_json(self, path: str, kind: str, accept: Callable[[Any], bool]) -> None:
        self.watch(path)
        try:
            doc = _json_doc(path, self.layout.root_real)
        except _Unreadable as err:
            self._problem(err.problem)
            return
        if accept(doc):
            self._sides.append(_Side(kind, path, self._rel(path), doc))

    def _side_jsonl(self, path: str) -> None:
        self.watch(path)
        try:
            data = _read_bytes(path, self.layout.root_real)
        except _Unreadable as err:
            self._problem(err.problem)
            return
        records: list[Any] = []
        for n, line in enumerate(data.splitlines(), 1):
            if not line.strip():
                continue
            try:
                records.append(loads(line)[0])
            except JsonError as err:
                self._problem(Problem(path, n, str(err)))
        self._sides.append(_Side("retry-jsonl", path, self._rel(path), records))

    def _side_text(self, path: str) -> None:
        self.watch(path)
        try:
            data = _read_bytes(path, self.layout.root_real)
        except _Unreadable as err:
            self._problem(err.problem)
            return
        text = data.decode("utf-8", errors="replace")
        self._sides.append(_Side("retry-log", path, self._rel(path), text))

    # -- plans ---------------------------------------------------------------------------

    def _group(self) -> None:
        grouped: dict[str, list[ResultFile]] = {}
        for f in self._files:
            if f.result is not None:
                grouped.setdefault(f.result.plan_id or NO_PLAN, []).append(f)
        exists = self._exists()
        for pid, files in grouped.items():
            doc, note = self._plan_doc(pid)
            in_order = tuple(ordered(files))
            self._plans[pid] = PlanRecord(
                pid,
                in_order,
                doc,
                note,
                tuple(
                    judge(f.result, doc, plan_note=note, exists=exists)
                    for f in in_order
                    if f.result is not None
                ),
            )

    def _exists(self) -> Exists | None:
        project = self.layout.project
        if project is None:
            return None
        root_real = self.layout.root_real

        def exists(rel: str) -> bool | None:
            full = os.path.join(project, rel)
            if not inside(root_real, full):
                return None
            return os.path.lexists(full)

        return exists

    def plan_files(self) -> dict[str, str]:
        """Plan id to PLAN.md path, for the PLAN.md files found in the project."""
        if self._plan_index is None:
            self._plan_index = find_plans(self.layout.project, self.layout.root_real)
        return self._plan_index

    def _plan_doc(self, plan_id: str) -> tuple[PlanDoc | None, str | None]:
        if self.layout.project is None:
            what = "a single result file" if self.layout.single else "only the .ultraplan logs"
            return None, (
                f"PLAN.md not looked for ({what} opened, not the project): task name not checked"
            )
        path = self.plan_files().get(plan_id)
        if path is None:
            return None, (
                f"no PLAN.md for {plan_id} in the project (looked in .planning/ for "
                f"{plan_id}-PLAN.md and PLAN.md frontmatter): task name not checked"
            )
        self.watch(path)
        try:
            data = _read_bytes(path, self.layout.root_real)
        except _Unreadable as err:
            self._problem(err.problem, plan_id)
            return None, f"{self._rel(path)} not read: task name not checked"
        doc = parse_plan(data.decode("utf-8", errors="replace"), path)
        if doc.note:
            self._problem(Problem(path, None, doc.note, Severity.WARNING), plan_id)
        return doc, None

    def _summary(self, plan: PlanRecord) -> RunSummary:
        status, outcome = plan_status(plan.files, plan.doc)
        latest = latest_by_task(plan.files)
        known = max(len(latest), len(plan.doc.tasks) if plan.doc else 0)
        ok = sum(1 for f in latest.values() if canonical_status(_status(f)) == "success")
        durations = [d for f in plan.files if (d := _duration(f)) is not None]
        title = one_line(plan.doc.objective, 160) if plan.doc and plan.doc.objective else ""
        return RunSummary(
            ref=plan.plan_id,
            index=0,
            format=FORMAT.id,
            status=status,
            outcome=outcome,
            steps=len(plan.files),
            duration_ms=sum(durations) if durations else None,
            score=ok / known if known else None,
            score_label="tasks ok" if known else None,
            title=title,
        )

    def _loader(self, plan_id: str) -> Callable[[str], Run]:
        def load(ref: str) -> Run:
            return self._build(self._plans[plan_id], ref)

        return load

    def _build(self, plan: PlanRecord, ref: str) -> Run:
        index = self.find(ref)
        entry = self.entry(index) if index is not None else None
        summary = entry if isinstance(entry, RunSummary) else self._summary(plan)
        return Run(
            summary=summary,
            steps=build_steps(plan, ref),
            fields=self._run_fields(plan),
            raw={
                "plan_id": plan.plan_id,
                "plan_file": plan.doc.path if plan.doc else None,
                "results": [{"file": f.rel, "document": _doc(f)} for f in plan.files],
            },
            problems=tuple(p for p in self.problems() if p.ref == plan.plan_id),
            path=self.layout.logs or self.layout.root,
            extras={"plan": plan.doc, "judgements": tuple(plan.judgements)},
        )

    def _run_fields(self, plan: PlanRecord) -> tuple[Field, ...]:
        out: list[Field] = []
        doc = plan.doc
        out.append(Field("plan file", self._rel(doc.path) if doc and doc.path else plan.note))
        if doc is not None and doc.objective:
            out.append(Field("objective", doc.objective, markdown=True))
        out.append(Field("tasks", task_lines(plan.files, doc)))
        if doc is not None and doc.criteria:
            out.append(Field("success criteria", [c.shown() for c in doc.criteria]))
        counts = {v: sum(1 for j in plan.judgements if j.verdict is v) for v in Verdict}
        out.append(
            Field("validation", ", ".join(f"{n} {v}" for v, n in counts.items() if n) or "none")
        )
        out.extend(self._side_fields(plan))
        return tuple(out)

    def _side_fields(self, plan: PlanRecord) -> list[Field]:
        known = set(self._plans)
        out: list[Field] = []
        for side in self._sides:
            value = concerning(side, plan, known)
            if value is None:
                continue
            out.append(Field(_side_label(side), value))
        return out

    # -- validation ----------------------------------------------------------------------

    def reports(self) -> list[FileReport]:
        """The validation of every result file, in date-directory and file order (after
        :meth:`scan`)."""
        steps: dict[str, tuple[str, Judgement]] = {}
        for plan in self._plans.values():
            index = self.find(plan.plan_id)
            ref = plan.plan_id if index is None else self.entry(index).ref
            for n, (f, j) in enumerate(zip(plan.files, plan.judgements, strict=True), 1):
                steps[f.path] = (f"{ref}/step-{n}", j)
        out: list[FileReport] = []
        for f in self._files:
            if f.result is None:
                assert f.problem is not None
                where = f"line {f.problem.line}: " if f.problem.line else ""
                finding = Finding(Rule.READ, f"not read: {where}{f.problem.message}", True)
                out.append(FileReport(f.path, Judgement.of([finding]), line=f.problem.line))
                continue
            ref, judgement = steps[f.path]
            out.append(
                FileReport(
                    f.path,
                    judgement,
                    plan_id=f.result.plan_id,
                    ref=ref,
                    status=f.result.status,
                    variant=f.result.variant,
                )
            )
        return out


def _doc(f: ResultFile) -> Any:
    return f.result.doc if f.result is not None else None


def _status(f: ResultFile) -> str | None:
    return f.result.status if f.result is not None else None


def _duration(f: ResultFile) -> float | None:
    return f.result.duration_ms if f.result is not None else None


# -- plan-level derivations (pure) -----------------------------------------------------------


def _day_ms(day: str | None) -> float | None:
    return epoch_ms(day) if day else None


def ordered(files: Sequence[ResultFile]) -> list[ResultFile]:
    """Results in time order: by ``logged_at``; one without a time keeps its place after the
    result before it in date-directory and file order (or the start of its date directory)."""
    keyed: list[tuple[float, int, ResultFile]] = []
    last: float | None = None
    for f in sorted(files, key=lambda f: f.seq):
        own = f.result.time_ms if f.result is not None else None
        if own is not None:
            last = own
            keyed.append((own, f.seq, f))
            continue
        known = [t for t in (last, _day_ms(f.day)) if t is not None]
        keyed.append((max(known) if known else float("-inf"), f.seq, f))
    keyed.sort(key=lambda k: (k[0], k[1]))
    return [f for _, _, f in keyed]


def task_key(f: ResultFile) -> str:
    """What makes two results attempts of one task: its number, else its name."""
    r = f.result
    if r is None:
        return f"file:{f.rel}"
    if r.task is not None:
        return f"#{r.task}"
    return f"name:{r.task_name or r.name or f.rel}"


def latest_by_task(files: Sequence[ResultFile]) -> dict[str, ResultFile]:
    """The last result (in the given order) of each task."""
    latest: dict[str, ResultFile] = {}
    for f in files:
        latest[task_key(f)] = f
    return latest


def plan_status(files: Sequence[ResultFile], doc: PlanDoc | None) -> tuple[str | None, Outcome]:
    """A plan's status word and outcome from its results (rules in the module docstring)."""
    latest = latest_by_task(files)
    if not latest:
        return None, Outcome.NONE
    words = [canonical_status(_status(f)) for f in latest.values()]
    if "failure" in words:
        return "failure", Outcome.FAIL
    if "blocked" in words:
        return "blocked", Outcome.SKIPPED
    if any(w != "success" for w in words):
        return "partial", Outcome.PARTIAL
    if doc is not None and len(doc.tasks) > len(latest):
        return "incomplete", Outcome.PARTIAL
    return "success", Outcome.PASS


def task_lines(files: Sequence[ResultFile], doc: PlanDoc | None) -> list[str]:
    """One line per task: PLAN.md's tasks first (with their results), then tasks that only
    have results."""
    by_key: dict[str, list[ResultFile]] = {}
    for f in files:
        by_key.setdefault(task_key(f), []).append(f)
    lines: list[str] = []
    for task in doc.tasks if doc else ():
        runs = by_key.pop(f"#{task.number}", [])
        attr = task.attr("status")
        note = f" [PLAN.md: {attr}]" if attr else ""
        lines.append(f"{task.name or f'task {task.number}'}{note} — {_results_text(runs)}")
    for runs in by_key.values():
        first = runs[0].result
        name = (first.task_name if first else None) or _task_title(first)
        lines.append(f"{name} — {_results_text(runs)}")
    return lines


def _results_text(runs: list[ResultFile]) -> str:
    if not runs:
        return "no result"
    last = _status(runs[-1]) or "no status"
    more = f" after {len(runs)} results" if len(runs) > 1 else ""
    return f"{last}{more}"


def _task_title(result: ResultDoc | None) -> str:
    if result is None or result.task is None:
        return "task"
    return f"task {result.task}"


_STEP_SKIP = ("status", "evidence", "error")


def build_steps(plan: PlanRecord, ref: str) -> tuple[Step, ...]:
    """The plan's results as steps, in time order."""
    times = [f.result.time_ms for f in plan.files if f.result and f.result.time_ms is not None]
    start = min(times) if times else None
    steps: list[Step] = []
    for n, (f, judgement) in enumerate(zip(plan.files, plan.judgements, strict=True), 1):
        r = f.result
        assert r is not None
        name = r.task_name
        error = r.result.get("error")
        evidence = r.result.get("evidence")
        steps.append(
            Step(
                ref=f"{ref}/step-{n}",
                number=n,
                kind=Kind.TASK,
                title=one_line(name) if name and name.strip() else _task_title(r),
                status=r.status,
                outcome=outcome_of(r.status),
                offset_ms=None if r.time_ms is None or start is None else r.time_ms - start,
                duration_ms=r.duration_ms,
                text=evidence if isinstance(evidence, str) else None,
                markdown=True,
                error=None if error in (None, "") else str(error),
                fields=_step_fields(f, r, judgement),
                raw=r.doc,
            )
        )
    return tuple(steps)


def _step_fields(f: ResultFile, r: ResultDoc, judgement: Judgement) -> tuple[Field, ...]:
    head = [Field("validation", judgement.text()), Field("file", f.rel)]
    skip = _STEP_SKIP if r.wrapped else (*_STEP_SKIP, *_HEADER_ALL)
    body = fields(r.result, (), skip=skip)
    if r.status is None and "status" in r.result:
        body = (Field("status", r.result["status"]), *body)
    evidence = r.result.get("evidence")
    if "evidence" in r.result and not isinstance(evidence, str):
        body = (*body, Field("evidence", evidence))
    if r.wrapped:
        log = fields(r.doc, tuple(HEADER_KEYS), skip=("result",))
    else:
        log = tuple(Field(k, r.result[k]) for k in r.result if k in _HEADER_ALL)
    return (*head, *body, *log)


# -- files that concern plans (session, daily summaries, retries, verdicts) ------------------


def record_plan(obj: Any) -> str | None:
    """The plan a record names: ``plan_id``/``planId``/``plan``, else its task id's plan."""
    m = mapping(obj)
    for key in ("plan_id", "planId", "plan"):
        text = string(m.get(key))
        if text:
            return text.strip()
    for key in ("taskId", "task_id"):
        plan, _ = split_task_id(m.get(key))
        if plan:
            return plan
    return None


def _plan_token(plan_id: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w.]){re.escape(plan_id)}(?![\d.])")


def _side_label(side: _Side) -> str:
    if side.kind == "daily":
        date = string(mapping(side.value).get("date")) or os.path.basename(side.path)
        return f"daily summary {date}"
    labels = {
        "session": "session",
        "config": "ultraplan config",
        "retry-state": "retry state",
        "retry-jsonl": "retries",
        "retry-log": "retry log",
        "verdict": "architect verdict",
    }
    return f"{labels[side.kind]} ({side.rel})"


def concerning(side: _Side, plan: PlanRecord, known: set[str]) -> Any:
    """What of ``side`` concerns ``plan`` (None: nothing). ``known`` is every plan listed."""
    pid = plan.plan_id
    value = side.value
    if side.kind == "config":
        return None
    if side.kind == "session":
        return value if _session_concerns(value, plan) else None
    if side.kind == "daily":
        return _daily_part(value, plan)
    if side.kind == "retry-log":
        return _log_lines(value, pid, known)
    if side.kind == "verdict":
        named = record_plan(value) or _name_plan(side.path)
        return value if named in (None, pid) else None
    if side.kind == "retry-jsonl":
        kept = [r for r in sequence(value) if record_plan(r) in (None, pid)]
        return kept or None
    return _state_part(value, pid)


def _name_plan(path: str) -> str | None:
    m = _NAME_PLAN.match(os.path.basename(path))
    return m.group("plan") if m else None


def _session_concerns(session: Any, plan: PlanRecord) -> bool:
    """A session concerns the plans it names, those whose results carry its id, and, when it
    names no plan, every plan."""
    tasks = sequence(mapping(session).get("tasks"))
    named = {p for p in (record_plan(session), *(record_plan(t) for t in tasks)) if p}
    sid = string(mapping(session).get("session_id"))
    ours = {f.result.session_id for f in plan.files if f.result}
    return not named or plan.plan_id in named or (sid is not None and sid in ours)


def _daily_part(summary: Any, plan: PlanRecord) -> Any:
    """The plan's ``by_plan`` entry; a summary without ``by_plan`` concerns the plans with
    results on its date (every plan when it has no date)."""
    by_plan = mapping(mapping(summary).get("by_plan"))
    if by_plan:
        entry = by_plan.get(plan.plan_id)
        return None if entry is None else {"plan": plan.plan_id, **mapping(entry)}
    date = string(mapping(summary).get("date"))
    days = {f.day for f in plan.files} | {
        (f.result.logged_at or "")[:10] for f in plan.files if f.result
    }
    return summary if date is None or date in days else None


def _log_lines(text: Any, pid: str, known: set[str]) -> str | None:
    lines = str(text).splitlines()
    mine = [line for line in lines if _plan_token(pid).search(line)]
    if mine:
        return "\n".join(mine)
    if any(_plan_token(k).search(line) for k in known for line in lines):
        return None
    return str(text)


def _state_part(state: Any, pid: str) -> Any:
    named = record_plan(state)
    if named is not None:
        return state if named == pid else None
    if isinstance(state, dict):
        keyed = {
            k: v for k, v in state.items() if _TASK_ID.match(str(k)) or _NAME_PLAN.match(str(k))
        }
        if keyed:
            mine = {k: v for k, v in keyed.items() if _plan_token(pid).match(str(k))}
            return mine or None
    return state


# -- PLAN.md lookup --------------------------------------------------------------------------


def find_plans(project: str | None, root_real: str) -> dict[str, str]:
    """Plan id to PLAN.md path, for the PLAN.md files of ``project`` (none without one).

    Looks in ``.planning/`` (any depth) and at the project's top level; a file called
    ``{plan}-PLAN.md`` is that plan's, any other ``*PLAN.md`` is the plan its frontmatter
    names. When several files are for one plan, one under a ``phases`` directory wins.
    """
    if project is None:
        return {}
    found: list[tuple[str, str]] = []
    planning = os.path.join(project, ".planning")
    if _is_dir(planning, root_real):
        for place in walk(planning):
            found.extend(_plan_candidates(place.path, place.files, root_real))
    found.extend(_plan_candidates(project, _entries(project, root_real)[1], root_real))
    best: dict[str, str] = {}
    for plan_id, path in sorted(found, key=lambda c: _plan_rank(c[1])):
        best.setdefault(plan_id, path)
    return best


def _plan_rank(path: str) -> tuple[int, int, str]:
    parts = Path(path).parts
    return (0 if "phases" in parts else 1, len(parts), path)


def _plan_candidates(where: str, names: Iterable[str], root_real: str) -> Iterator[tuple[str, str]]:
    for name in names:
        if not name.upper().endswith("PLAN.MD"):
            continue
        path = os.path.join(where, name)
        m = _PLAN_NAME.match(name)
        if m is not None:
            yield m["plan"], path
            continue
        try:
            head = _read_bytes(path, root_real, MAX_FILE)[:16384]
        except _Unreadable:
            continue
        lines = head.decode("utf-8", errors="replace").splitlines()
        _, front = _frontmatter(lines)
        if front is None:
            continue
        try:
            plan_id = plan_id_of(mapping(load_yaml(front, path)))
        except YamlError:
            continue
        if plan_id:
            yield plan_id, path
