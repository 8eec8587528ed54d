"""Files shown with a plan: sessions, daily summaries, retry logs, architect verdicts.

``current-session.json`` (and other ``*session*.json``), ``summary/daily-*.json``,
``retry.log``, ``retry.jsonl``, ``retry-state.json`` and architect verdict YAML
(``verdict: APPROVED|REJECTED|NEEDS_REVISION``) become fields of every plan they concern.
A file (or record, or ``retry.log`` line) that names plans (``plan_id``, ``by_plan``, a
``taskId`` such as ``03-01-02``, a file name starting with the plan id) concerns those; a
session also concerns the plans whose results carry its ``session_id``, and a daily summary
without ``by_plan`` the plans with results on its date; one that names no plan at all
concerns every plan. An ultraplan ``config.json`` is read but concerns no plan.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from trajtui.core.model import Field
from trajtui.core.values import mapping, sequence, string
from trajtui.formats.ultraplan.ids import PLAN_ID, TASK_ID, split_task_id
from trajtui.formats.ultraplan.runs import PlanRecord

_NAME_PLAN = re.compile(rf"^(?P<plan>{PLAN_ID})(?![\d.])")
_TOKEN_START = re.compile(r"(?<![\w.])(?<!\d-)(?=\d)")
_PLAN_AT = re.compile(r"(?<![\d.])\d++(?:\.\d++)*+-\d++(?![\d.])")
"""A plan id (:data:`PLAN_ID`) as a whole number: possessive, and never started inside a
number, so that even a search is linear."""


@dataclass(frozen=True, slots=True)
class SideFile:
    """A file shown with the plans it concerns (session, daily summary, retries, verdict).

    Attributes:
        kind: ``session``, ``daily``, ``config``, ``retry-state``, ``retry-jsonl``,
            ``retry-log`` or ``verdict``.
        path: The file.
        rel: Its path below the opened directory.
        value: What it holds (a document, the ``retry.jsonl`` records, the ``retry.log`` text).
    """

    kind: str
    path: str
    rel: str
    value: Any


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


def _side_label(side: SideFile) -> str:
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


def side_fields(sides: Iterable[SideFile], plan: PlanRecord, known: set[str]) -> list[Field]:
    """One field for each of ``sides`` that concerns ``plan``, in order.

    Args:
        sides: The files read besides the results.
        plan: The plan.
        known: Every plan listed.
    """
    out: list[Field] = []
    for side in sides:
        value = concerning(side, plan, known)
        if value is not None:
            out.append(Field(_side_label(side), value))
    return out


def concerning(side: SideFile, plan: PlanRecord, known: set[str]) -> Any:
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


def plans_named(line: str) -> set[str]:
    """Every plan id a line names as a whole token (``03-01`` in the task id ``03-01-02``
    too, but not ``01-02`` there: a token does not start right after ``<digit>-``), for
    every plan at once, in time linear in the line (at most one plan id starts at each
    token start)."""
    found = set()
    for start in _TOKEN_START.finditer(line):
        m = _PLAN_AT.match(line, start.start())
        if m is not None:
            found.add(m.group())
    return found


@lru_cache(maxsize=8)
def _lines_by_plan(text: str) -> tuple[list[str], dict[str, list[int]]]:
    """The lines of a log and, for each plan id named in it, the numbers of its lines
    (computed once per log, whatever the number of plans)."""
    lines = text.splitlines()
    by_plan: dict[str, list[int]] = {}
    for n, line in enumerate(lines):
        for plan in plans_named(line):
            by_plan.setdefault(plan, []).append(n)
    return lines, by_plan


def _log_lines(text: Any, pid: str, known: set[str]) -> str | None:
    lines, by_plan = _lines_by_plan(str(text))
    mine = by_plan.get(pid)
    if mine:
        return "\n".join(lines[n] for n in mine)
    if any(plan in by_plan for plan in known):
        return None
    return str(text)


def _state_part(state: Any, pid: str) -> Any:
    named = record_plan(state)
    if named is not None:
        return state if named == pid else None
    if isinstance(state, dict):
        keyed = {
            k: v for k, v in state.items() if TASK_ID.match(str(k)) or _NAME_PLAN.match(str(k))
        }
        if keyed:
            mine = {k: v for k, v in keyed.items() if _plan_token(pid).match(str(k))}
            return mine or None
    return state
