"""ultraplan projects as they are before any execution log: ``.planning/`` and its PLAN.md
files, with or without ``.ultraplan/``, and folders of PLAN files (issue 22, item 2.1).
Each plan is a run: ``planned``, or ``summarized`` with its SUMMARY.md, with its tasks and
their checkboxes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.formats.ultraplan.builders import (
    log,
    markdown_plan,
    planning_project,
    plans_folder,
    project,
    result,
    summary_md,
    workflow_doc,
    write_result,
)
from tests.helpers import forked


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return forked.run(
        [sys.executable, "-m", "trajtui", *args], capture_output=True, text=True, timeout=60
    )


def listed(path: Path) -> list[dict[str, Any]]:
    out = cli("ls", "--json", str(path))
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr
    return [json.loads(line) for line in out.stdout.splitlines()]


def statuses(rows: list[dict[str, Any]]) -> dict[str, str]:
    return {row["ref"]: row["status"] for row in rows}


PLANS = {
    "01-01": "summarized",
    "01-02": "summarized",
    "01-03": "planned",
    "02-01": "summarized",
    "02-02": "planned",
    "02.5-01": "summarized",
    "03-01": "planned",
    # A plan outside .planning/phases is named after the folder it is kept in, whether or
    # not the current phases have a plan of its id.
    "quick/quick-3-01": "planned",
    "phases-v1-backup/01-01": "summarized",
    "phases-v1-backup/01-02": "planned",
    "phases-v1-backup/01-04": "planned",
    "v1.0-phases/02-03": "planned",
}


@pytest.mark.parametrize("with_ultraplan", [False, True])
def test_a_planning_project_lists_every_plan(tmp_path: Path, with_ultraplan: bool) -> None:
    root = planning_project(tmp_path / "proj")
    if with_ultraplan:
        project(root)
    rows = listed(root)
    assert statuses(rows) == PLANS
    assert {row["format"] for row in rows} == {"ultraplan"}


def test_a_plan_shows_its_tasks_checkboxes_and_summary(tmp_path: Path) -> None:
    root = planning_project(tmp_path / "proj")
    out = cli("show", str(root), "02-01")
    assert out.returncode == 0, out.stderr
    assert "summarized" in out.stdout
    assert "[x] Task 1: Build 02-01 — no result" in out.stdout
    assert "[ ] Task 2: Test it — no result" in out.stdout
    assert ".planning/phases/02-state/02-01-SUMMARY.md" in out.stdout
    backup = cli("show", str(root), "phases-v1-backup/01-01")
    assert backup.returncode == 0, backup.stderr
    assert ".planning/phases-v1-backup/01-foundation/01-01-PLAN.md" in backup.stdout
    assert "Task 1: Old way" in backup.stdout


def test_result_logs_go_with_a_plan_kept_only_outside_the_phases(tmp_path: Path) -> None:
    """Plan 01-04 has a PLAN.md only in the backup folder: its result log is a step of that
    run, listed once under the folder's name."""
    root = project(planning_project(tmp_path / "proj"))
    body = result(task_name="Task 1: Old way")
    write_result(root, "01-04-task-01-success.yaml", log(body, plan_id="01-04"))
    rows = listed(root)
    assert [row["ref"] for row in rows].count("phases-v1-backup/01-04") == 1
    assert not any(row["ref"] == "01-04" for row in rows)
    out = cli("show", str(root), "phases-v1-backup/01-04")
    assert out.returncode == 0, out.stderr
    assert "[1] - Task 1: Old way — success" in out.stdout, out.stdout


@pytest.mark.parametrize("opened", [".planning", ".planning/phases", ".planning/phases/02-state"])
def test_part_of_the_planning_tree_opened_lists_its_plans(tmp_path: Path, opened: str) -> None:
    root = planning_project(tmp_path / "proj")
    refs = set(statuses(listed(root / opened)))
    want = {"02-01", "02-02"}
    assert want <= refs
    if opened == ".planning":
        assert refs == set(PLANS)


def test_a_folder_of_plan_files_lists_its_plans(tmp_path: Path) -> None:
    folder = plans_folder(tmp_path / "plans")
    assert statuses(listed(folder)) == {
        "02.5-03": "planned",
        "03-05": "planned",
        "06-03": "planned",
    }
    out = cli("ls", "-v", str(folder))
    assert f"{folder / 'STATE.md'}: not recognised" in out.stderr


def test_a_plan_md_that_is_no_plan_is_said_so(tmp_path: Path) -> None:
    root = planning_project(tmp_path / "proj")
    notes = root / ".planning" / "v3-refactoring" / "PLAN.md"
    notes.parent.mkdir()
    notes.write_text("# Refactoring plan\n\n| dir | files |\n|---|---|\n")
    out = cli("ls", str(root))
    assert out.returncode == 0
    assert f"{notes}: warning: " in out.stderr and "not listed" in out.stderr


def test_a_planning_project_with_no_plans_yet_says_so(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    planning_project(root)
    for plan in root.glob(".planning/**/*-PLAN.md"):
        plan.unlink()
    out = cli("ls", str(root))
    assert out.returncode == 1
    assert "no PLAN.md" in out.stderr and "Traceback" not in out.stderr


def test_a_numbered_plan_in_plain_markdown_is_a_run_with_its_tasks(tmp_path: Path) -> None:
    root = planning_project(tmp_path / "proj")
    phase = root / ".planning" / "milestones" / "v3.0-phases" / "19-ingest"
    phase.mkdir(parents=True)
    (phase / "19-01-PLAN.md").write_text(markdown_plan("19-01", ["Add loaders", "Test it"]))
    (phase / "19-01-SUMMARY.md").write_text(summary_md("19-ingest", "01", "ingest"))
    rows = {row["ref"]: row for row in listed(root)}
    assert rows["v3.0-phases/19-01"]["status"] == "summarized"
    assert rows["v3.0-phases/19-01"]["title"] == "Plan 19-01: Tests for the ingest modules"
    out = cli("show", str(root), "v3.0-phases/19-01")
    assert "- Task 1: Add loaders — no result" in out.stdout
    assert "- Task 2: Test it — no result" in out.stdout
    assert "Task 9" not in out.stdout  # the fenced example is no task


def test_a_planners_own_workflow_documents_are_no_plans(tmp_path: Path) -> None:
    root = planning_project(tmp_path / "proj")
    workflows = root / ".github" / "get-shit-done" / "workflows"
    workflows.mkdir(parents=True)
    for name in ("execute-plan.md", "plan-phase.md", "planner-subagent-prompt.md"):
        (workflows / name).write_text(workflow_doc(name))
    refs = set(statuses(listed(root)))
    assert refs == set(PLANS)
    out = cli("ls", "-v", str(root))
    assert f"{workflows / 'execute-plan.md'}: not recognised" in out.stderr


def test_a_plan_split_in_two_lists_both_halves(tmp_path: Path) -> None:
    """``07-03a-PLAN.md`` and ``07-03b-PLAN.md`` (a plan split in two, written as plain
    Markdown) were said to be no plans and not listed."""
    root = planning_project(tmp_path / "proj")
    phase = root / ".planning" / "phases" / "07-extraction"
    phase.mkdir(parents=True)
    for half in ("a", "b"):
        text = markdown_plan(f"07-03{half}", ["Extend the schema", "Add the methods"])
        text = f"---\nphase: 07-extraction\nplan: 03{half}\n---\n\n{text}"
        (phase / f"07-03{half}-PLAN.md").write_text(text)
    out = cli("ls", str(root))
    assert out.returncode == 0 and "not a plan" not in out.stderr, out.stderr
    refs = set(statuses(listed(root)))
    assert {"07-03a", "07-03b"} <= refs
    shown = cli("show", str(root), "07-03b")
    assert "- Task 2: Add the methods — no result" in shown.stdout, shown.stdout
