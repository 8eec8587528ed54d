"""One result log read into a normalised form (pure functions).

Both result shapes are read: the protocol's snake_case one (``status, task_name,
files_modified, verification, done_criteria_met, evidence, error, metadata``) and the later
camelCase one (``taskId, status, timestamp, filesModified, testResults``...), each either
bare or wrapped in a log header (``logged_at, plan_id, task_index, session_id`` and a
``result`` mapping). Every key may be missing, renamed or extra: nothing here raises.

Status words
    A step's status is the word in the file. ``success`` is PASS; ``failure``, ``failed`` and
    ``fail`` are FAIL; ``partial`` is PARTIAL; ``blocked`` is SKIPPED, because a blocked task
    never started (the protocol: "cannot start, missing dependency"): nothing ran that could
    have erred.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from trajtui.core.model import Outcome
from trajtui.core.values import mapping, num, sequence, string
from trajtui.formats.ultraplan.ids import (
    RESULT_NAME,
    TASK_PREFIX,
    as_int,
    epoch_ms,
    split_task_id,
    type_name,
)

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
"""The protocol's result fields."""
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
"""The camelCase variant's result fields."""
TEST_RESULT_KEYS = ("passed", "failed", "skipped")
HEADER_KEYS: dict[str, tuple[str, ...]] = {
    "logged_at": ("logged_at", "loggedAt"),
    "plan_id": ("plan_id", "planId"),
    "task_index": ("task_index", "taskIndex"),
    "session_id": ("session_id", "sessionId"),
}
"""The log header's fields, each with its snake and camelCase spelling."""
HEADER_ALL = frozenset(k for names in HEADER_KEYS.values() for k in names)
"""Every spelling of every log header field."""
_SNAKE_MARKS = ("task_name", "files_modified", "done_criteria_met", "verification", "evidence")
_CAMEL_MARKS = ("taskId", "filesModified", "testResults", "commitHash", "linesChanged", "timestamp")
STATUS_WORDS = {
    "snake": ("success", "failure", "blocked"),
    "camel": ("success", "failed", "partial"),
}
"""Each variant's own status words."""
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


def header_value(doc: Any, key: str) -> Any:
    """A log header value (``logged_at``...) of a parsed document, by its snake or camelCase
    name; None when it has none (or is not a mapping)."""
    source = mapping(doc)
    return next((source[k] for k in HEADER_KEYS[key] if k in source), None)


def is_verdict(doc: Any) -> bool:
    """True for an architect verdict (a mapping with ``verdict``), never a result."""
    return isinstance(doc, dict) and "verdict" in doc


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
        return header_value(self.doc, key)

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
    if not isinstance(doc, dict) or is_verdict(doc):
        return False
    if isinstance(doc.get("result"), dict) and (HEADER_ALL & doc.keys() or "status" in doc):
        return True
    if len(HEADER_ALL & doc.keys()) >= 2:
        return True
    return "status" in doc and any(k in doc for k in ("task_name", "taskId", "files_modified"))


def read_result(doc: Any, name: str | None = None) -> ResultDoc:
    """Normalise one parsed result log (a pure function; never raises).

    Args:
        doc: The parsed YAML document (anything).
        name: The file's name, whose ``{plan}-task-{N}-{status}`` parts fill gaps.
    """
    by_name = RESULT_NAME.match(name or "")
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
            shape_error=f"the document is {type_name(doc)}, not a result mapping",
        )
    wrapped = "result" in doc
    result = mapping(doc.get("result")) if wrapped else doc
    shape_error = None
    if wrapped and not isinstance(doc.get("result"), dict):
        shape_error = f"result is {type_name(doc.get('result'))}, not a mapping"
    snake = sum(1 for k in _SNAKE_MARKS if k in result)
    camel = sum(1 for k in _CAMEL_MARKS if k in result)
    variant = "camel" if camel > snake else "snake"

    id_plan, id_task = split_task_id(result.get("taskId"))
    name_task = TASK_PREFIX.match(string(result.get("task_name")) or "")
    plan = string(header_value(doc, "plan_id")) or id_plan or (by_name["plan"] if by_name else None)
    task = (
        as_int(header_value(doc, "task_index"))
        or id_task
        or (int(name_task.group(1)) if name_task else None)
        or (int(by_name["task"]) if by_name else None)
    )
    logged = header_value(doc, "logged_at")
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
        session_id=string(header_value(doc, "session_id")),
        status=string(result.get("status")),
        name=name,
        shape_error=shape_error,
    )
