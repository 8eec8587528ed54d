"""A whole ultraplan project of our own (two plans, a retry, drift, broken files, camelCase),
opened and scanned as the tests of directories, ``validate`` and odd inputs read it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.formats.ultraplan.builders import (
    ALIAS_BOMB,
    CRITERIA,
    PYTHON_TAG,
    TASKS,
    camel_result,
    dump,
    log,
    plan_md,
    project,
    result,
    write_plan,
    write_result,
)
from tests.helpers import forked
from tests.helpers.workspace import open_paths
from trajtui.core.model import Problem, RunSummary
from trajtui.formats.ultraplan import UltraplanSource


def full_project(root: Path) -> Path:
    """Two plans: 03-01 (snake_case, a retry, drift, broken files) and 03-02 (camelCase)."""
    project(root)
    write_result(root, "03-01-task-01-success.yaml", log(result()))
    write_result(
        root,
        "03-01-task-02-failure.yaml",
        "# first attempt\n"
        + dump(
            log(
                result("failed", "Task 2: Add execution protocol"),
                task_index=2,
                logged_at="2026-01-26T10:40:00Z",
            )
        ),
    )
    write_result(
        root,
        "03-01-task-02-success.yaml",
        log(
            result(
                task_name="Task 2: Add execution protocol",
                files_modified=["src/agent.md", "src/protocol.md"],
                metadata={"duration_ms": 28500, "attempt": 2, "executor_id": "exec-2"},
            ),
            task_index=2,
            logged_at="2026-01-26T10:50:00Z",
        ),
    )
    write_result(root, "03-01-task-03-blocked.yaml", "logged_at: x\nresult:\n  status: [oops\n")
    write_result(root, "03-01-task-04-success.yaml", PYTHON_TAG)
    write_result(root, "03-01-task-05-success.yaml", ALIAS_BOMB)
    write_result(
        root,
        "03-02-task-01-success.yaml",
        camel_result("03-02-01", timestamp="2026-01-27T11:00:00Z"),
        day="2026-01-27",
    )
    write_result(
        root,
        "03-02-task-02-partial.yaml",
        camel_result("03-02-02", "partial", timestamp="2026-01-27T09:00:00Z"),
        day="2026-01-27",
    )
    (root / "src").mkdir(exist_ok=True)
    (root / "src" / "agent.md").write_text("agent\n")
    (root / "src" / "protocol.md").write_text("protocol\n")
    write_plan(root, "03-01", plan_md("03-sequential-execution", "01", TASKS, CRITERIA))
    return root


def one_result_project(root: Path) -> Path:
    """A project with one result file (task 1 of plan 03-01, a success, as a bare result)."""
    project(root)
    write_result(root, "03-01-task-01-success.yaml", result())
    return root


def summaries(source: UltraplanSource) -> list[RunSummary]:
    """The plans of a scanned source; every other row is a problem, listed after them (a
    result file that could not be read is a row of its own)."""
    entries = [source.entry(i) for i in range(len(source))]
    runs = [e for e in entries if isinstance(e, RunSummary)]
    assert all(isinstance(e, Problem) for e in entries[len(runs) :]), entries
    return runs


def opened(path: Path) -> tuple[UltraplanSource, Any]:
    """The one source opened at ``path``, scanned whole, and its workspace."""
    ws = open_paths([str(path)])
    assert not ws.problems, ws.problems
    (source,) = ws.sources
    assert isinstance(source, UltraplanSource)
    for _ in source.scan():
        pass
    return source, ws


def tree_state(root: Path) -> list[tuple[str, int, int]]:
    """Every file below ``root`` with its size and mtime (to see nothing was written)."""
    return sorted(
        (str(p), p.stat().st_size, p.stat().st_mtime_ns) for p in root.rglob("*") if p.is_file()
    )


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """``trajtui ARGS`` run as a command."""
    return forked.run(
        [sys.executable, "-m", "trajtui", *args], capture_output=True, text=True, timeout=60
    )
