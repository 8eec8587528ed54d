"""Plan and task ids, the names of ultraplan's log files, times, and small value readers.

Shared by the other modules of the package. A plan id is ``PHASE-PLAN`` (``03-01``,
``02.5-03``, ``07-03a`` for a plan split in two), a task id ``PLAN-TASK`` (``03-01-02``); the protocol names a result file
``{plan}-task-{N}-{status}.yaml`` and keeps it in an ``executions/YYYY-MM-DD/`` directory.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from trajtui.core.values import integer, num, string

YAML_SUFFIXES = (".yaml", ".yml")
"""How the names of YAML files end."""
PLAN_ID = r"\d+(?:\.\d+)*-\d+[a-z]?"
"""A plan id, as a regular expression to build others from."""
TASK_ID = re.compile(rf"^(?P<plan>{PLAN_ID})-(?P<task>\d+)$")
"""A task id: its plan and its task number."""
RESULT_NAME = re.compile(
    rf"^(?P<plan>{PLAN_ID})-task-(?P<task>\d+)(?:-(?P<status>[a-z_]+))?[^.]*\.ya?ml$", re.I
)
"""A result file's name, ``{plan}-task-{N}[-{status}]...yaml``."""
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
"""A date directory's name."""
TASK_PREFIX = re.compile(r"^\s*Task\s+(\d+)\s*:", re.I)
"""The ``Task N:`` a task name starts with."""


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
    m = TASK_ID.match(string(value) or "")
    if m is None:
        return None, None
    return m["plan"], int(m["task"])


def as_int(value: Any) -> int | None:
    """An integer, or a string of digits as one; None for anything else."""
    number = integer(value)
    if number is not None:
        return number
    text = string(value)
    if text is None:
        return None
    digits = text.strip()
    # isdigit() is also true for "²" and other digits int() refuses: ASCII only.
    return int(digits) if digits.isascii() and digits.isdigit() else None


def type_name(value: Any) -> str:
    """What kind of YAML value ``value`` is, for messages (``a string``, ``null``...)."""
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
