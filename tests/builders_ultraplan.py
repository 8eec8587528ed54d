"""Small ultraplan fixtures of our own: result logs, sessions, summaries and PLAN.md files in
the shapes the protocol doc and the real-world notes describe (never copies of the samples)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

DAY = "2026-01-26"


def result(
    status: Any = "success",
    task_name: Any = "Task 1: Create executor agent",
    **overrides: Any,
) -> dict[str, Any]:
    """A complete snake_case executor result (the protocol's schema); ``overrides`` replace or
    add keys, a value of ``...`` (for any key, ``status`` and ``task_name`` included) removes
    the key."""
    ok = status == "success"
    body: dict[str, Any] = {
        "status": status,
        "task_name": task_name,
        "files_modified": ["src/agent.md"],
        "verification": {
            "command": "grep 'model: sonnet' src/agent.md",
            "exit_code": 0 if ok else 1,
            "output_summary": "Pattern found" if ok else "No match",
        },
        "done_criteria_met": ok,
        "evidence": "Created the agent.\nIt has the execution protocol.",
        "error": None if ok else "verification failed: pattern not found",
        "metadata": {"duration_ms": 32000, "attempt": 1, "executor_id": "exec-1"},
    }
    for key, value in {"status": status, "task_name": task_name, **overrides}.items():
        if value is ...:
            body.pop(key, None)
        else:
            body[key] = value
    return body


def camel_result(
    task_id: str = "03-02-01", status: str = "success", **overrides: Any
) -> dict[str, Any]:
    """A camelCase executor result (the later implementation's schema)."""
    body: dict[str, Any] = {
        "taskId": task_id,
        "status": status,
        "timestamp": "2026-01-26T11:00:00Z",
        "filesModified": ["src/auth/jwt.ts"],
        "linesChanged": 45,
        "commitHash": "abc1234",
        "testResults": {"passed": 12, "failed": 0, "skipped": 1},
        "learnings": ["JWT needs an explicit algorithm"],
    }
    if status != "success":
        body["error"] = "tests failed"
    for key, value in overrides.items():
        if value is ...:
            body.pop(key, None)
        else:
            body[key] = value
    return body


def log(
    body: dict[str, Any],
    plan_id: str | None = "03-01",
    task_index: int | None = 1,
    logged_at: str | None = "2026-01-26T10:30:45Z",
    session_id: str | None = "sess-1",
) -> dict[str, Any]:
    """A result log: the header, then the result under ``result``."""
    doc: dict[str, Any] = {}
    for key, value in (
        ("logged_at", logged_at),
        ("plan_id", plan_id),
        ("task_index", task_index),
        ("session_id", session_id),
    ):
        if value is not None:
            doc[key] = value
    doc["result"] = body
    return doc


def dump(doc: Any) -> str:
    """YAML text of ``doc`` (keys in insertion order)."""
    return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True)


def project(root: Path, *, config: bool = True) -> Path:
    """An empty ultraplan project: ``root/.ultraplan/`` (with a config.json)."""
    up = root / ".ultraplan"
    up.mkdir(parents=True, exist_ok=True)
    if config:
        (up / "config.json").write_text(
            json.dumps({"version": "0.1.0", "mode": "interactive", "depth": "standard"}),
            encoding="utf-8",
        )
    return root


def logs_dir(root: Path) -> Path:
    """The project's ``.ultraplan/logs``."""
    path = root / ".ultraplan" / "logs"
    path.mkdir(parents=True, exist_ok=True)
    return path


def write_result(root: Path, name: str, doc: Any, *, day: str = DAY) -> Path:
    """Write ``doc`` (an object, or YAML text as is) to ``executions/DAY/NAME``."""
    path = logs_dir(root) / "executions" / day / name
    path.parent.mkdir(parents=True, exist_ok=True)
    text = doc if isinstance(doc, str) else dump(doc)
    path.write_text(text, encoding="utf-8")
    return path


def write_json(path: Path, obj: Any) -> Path:
    """Write ``obj`` as indented JSON, making the directories."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(obj, indent=2), encoding="utf-8")
    return path


def plan_md(
    phase: str,
    plan: int | str,
    tasks: list[tuple[str, list[str]]],
    criteria: list[tuple[str, bool | None]],
    *,
    example: bool = True,
) -> str:
    """A PLAN.md: frontmatter, objective, ``<task>`` elements and ``<success_criteria>``.

    With ``example``, the first task's action quotes the protocol's checkbox example inside
    a code fence (checked boxes and a ``<success_criteria>`` block that must be skipped).
    """
    out = [
        "---",
        f"phase: {phase}",
        f"plan: {plan}",
        "type: execute",
        "files_modified:",
        "  - src/agent.md",
        "---",
        "",
        "<objective>",
        "Build the executor agent.",
        "",
        "Purpose: run tasks.",
        "</objective>",
        "",
        "<tasks>",
        "",
    ]
    for n, (name, files) in enumerate(tasks, 1):
        out += [
            '<task type="auto">',
            f"  <name>{name}</name>",
            f"  <files>{', '.join(files)}</files>",
        ]
        out += ["  <action>", f"Do task {n}."]
        if example and n == 1:
            out += [
                "```markdown",
                "<success_criteria>",
                "- [x] Task 1: Create config file (completed 2026-01-26)",
                "- [ ] Task 2: Add validation",
                "</success_criteria>",
                "\\`\\`\\`yaml",
                "status: success",
                "\\`\\`\\`",
                '<task type="auto"><name>Task 9: Example only</name></task>',
                "```",
            ]
        out += ["  </action>", "  <verify>true</verify>", "  <done>done</done>", "</task>", ""]
    out += ["</tasks>", "", "<success_criteria>"]
    for text, checked in criteria:
        box = {True: "[x] ", False: "[ ] ", None: ""}[checked]
        out.append(f"- {box}{text}")
    out += ["</success_criteria>", ""]
    return "\n".join(out)


def write_plan(root: Path, plan_id: str, text: str, *, folder: str = "03-exec") -> Path:
    """Write a PLAN.md to ``.planning/phases/FOLDER/{plan_id}-PLAN.md``."""
    path = root / ".planning" / "phases" / folder / f"{plan_id}-PLAN.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


ALIAS_BOMB = "\n".join(
    ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    + [
        f"{chr(ord('a') + i)}: &{chr(ord('a') + i)} [{', '.join(['*' + chr(ord('a') + i - 1)] * 9)}]"
        for i in range(1, 9)
    ]
)
"""The "billion laughs" document: 9 levels of 9 aliases (9**9 values once expanded)."""

PYTHON_TAG = """logged_at: "2026-01-26T10:40:00Z"
plan_id: "03-01"
result: !!python/object/apply:os.system ["echo pwned > /tmp/trajtui-pwned"]
"""
"""A log whose result would run a command if loaded with an unsafe loader."""
