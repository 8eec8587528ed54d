"""Conformance: the real ultraplan samples (PLAN.md files, schemas, config.json) are read right.

The samples live outside the repository (``../shared/samples``, or ``$TRAJTUI_SAMPLES``); no
execution logs exist among them, so logs are written here, in temporary directories, around
copies of the sample files made at test time.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.formats.ultraplan.builders import dump, log, logs_dir, result, write_result
from tests.helpers import forked
from tests.helpers.workspace import open_paths
from tests.samples.locate import require
from trajtui.core.io import yamlsafe
from trajtui.core.model import Outcome, RunSummary, Severity
from trajtui.formats.ultraplan import UltraplanSource, Verdict, parse_plan

UP = require("ultraplan")


PLAN_03_05 = UP / "PLAN_03-05_result-capture.md"
PLAN_02_5_03 = UP / "PLAN_02.5-03_all-checked.md"
PLAN_06_03 = UP / "PLAN_06-03_status-attr.md"


def boxes_in_raw_file(path: Path) -> int:
    """Checkbox lines anywhere in the file, fenced examples included."""
    return len(re.findall(r"^\s*- \[[ xX]\]", path.read_text(encoding="utf-8"), re.M))


def test_all_checked_plan() -> None:
    doc = parse_plan(PLAN_02_5_03.read_text(encoding="utf-8"), str(PLAN_02_5_03))
    assert doc.plan_id == "02.5-03"
    assert [c.checked for c in doc.criteria] == [True] * 5
    assert all(c.completed is None for c in doc.criteria)  # no "(completed DATE)" suffix
    assert [t.name.split(":")[0] for t in doc.tasks] == ["Task 1", "Task 2", "Task 3"]


def test_fenced_example_checkboxes_are_skipped() -> None:
    doc = parse_plan(PLAN_03_05.read_text(encoding="utf-8"), str(PLAN_03_05))
    assert doc.plan_id == "03-05"
    assert len(doc.criteria) == 9 < boxes_in_raw_file(PLAN_03_05)
    assert [c.checked for c in doc.criteria] == [False] * 9
    assert doc.criteria[0].text == "Result YAML schema documented with all fields and types"
    assert not any("Create config file" in c.text for c in doc.criteria)
    assert [t.name for t in doc.tasks] == [
        "Task 1: Document Result YAML Schema",
        "Task 2: Add Result Validation Rules",
        "Task 3: Define STATE.md Update Protocol",
        "Task 4: Define PLAN.md Status Sync Protocol",
        "Task 5: Add Result Persistence to Logs",
        "Task 6: Add Metrics Tracking",
        "Task 7: Add Complete Flow Example",
    ]
    assert doc.tasks[2].files == (".claude/skills/ultraplan/references/state-protocol.md",)
    assert all(t.attr("status") is None for t in doc.tasks)


def test_free_text_criteria_and_verification_boxes_are_not_criteria() -> None:
    doc = parse_plan(PLAN_06_03.read_text(encoding="utf-8"), str(PLAN_06_03))
    assert doc.plan_id == "06-03"  # "plan: 3" in the frontmatter
    assert [c.checked for c in doc.criteria] == [None] * 5
    assert doc.criteria[0].text.startswith("getTaskStates reads task_states")
    assert boxes_in_raw_file(PLAN_06_03) == 5  # those are in <verification>, not criteria
    assert len(doc.tasks) == 3


def test_schema_files_load_through_the_safe_loader() -> None:
    for name in ("executor-result.schema.yaml", "architect-verdict.schema.yaml"):
        doc = yamlsafe.load((UP / name).read_bytes(), name)
        assert isinstance(doc, dict) and doc["examples"]


def opened(path: Path) -> UltraplanSource:
    ws = open_paths([str(path)])
    assert not ws.problems, ws.problems
    (source,) = ws.sources
    assert isinstance(source, UltraplanSource)
    for _ in source.scan():
        pass
    return source


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return forked.run(
        [sys.executable, "-m", "trajtui", *args], capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize("open_at", ["project", ".ultraplan"])
def test_config_json_alone_is_an_ultraplan_project_with_no_runs(
    tmp_path: Path, open_at: str
) -> None:
    up = tmp_path / "proj" / ".ultraplan"
    up.mkdir(parents=True)
    shutil.copy(UP / "ultraplan-config.json", up / "config.json")
    source = opened(up.parent if open_at == "project" else up)
    assert source.format.id == "ultraplan"
    assert source.run_refs() == []
    (problem,) = source.problems()
    assert problem.severity is Severity.WARNING and "no execution logs" in problem.message
    assert len(source) == 1 and source.entry(0) == problem  # a row: it belongs to no run
    # ls has no runs to list (exit 1, said on stderr); validate has nothing invalid (exit 0)
    ls = run_cli("ls", str(up.parent))
    assert ls.returncode == 1 and "no runs could be read" in ls.stderr
    validate = run_cli("validate", str(up.parent))
    assert validate.returncode == 0 and validate.stdout == ""
    assert "warning: no execution logs" in validate.stderr


def test_config_json_outside_a_dot_ultraplan_directory_is_not_claimed(tmp_path: Path) -> None:
    other = tmp_path / "settings"
    other.mkdir()
    shutil.copy(UP / "ultraplan-config.json", other / "config.json")
    ws = open_paths([str(tmp_path)])
    assert not any(isinstance(s, UltraplanSource) for s in ws.sources)


def test_results_are_matched_against_a_real_plan_md(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    (root / ".ultraplan").mkdir(parents=True)
    shutil.copy(UP / "ultraplan-config.json", root / ".ultraplan" / "config.json")
    phase = root / ".planning" / "phases" / "03-sequential-execution"
    phase.mkdir(parents=True)
    shutil.copy(PLAN_03_05, phase / "03-05-PLAN.md")
    plan = parse_plan(PLAN_03_05.read_text(encoding="utf-8"))
    for task in plan.tasks:
        for f in task.files:
            (root / f).parent.mkdir(parents=True, exist_ok=True)
            (root / f).write_text("done\n")
        body = result(task_name=task.name, files_modified=list(task.files))
        stamp = f"2026-01-26T10:{task.number:02d}:00Z"
        write_result(
            root,
            f"03-05-task-{task.number:02d}-success.yaml",
            log(body, "03-05", task.number, logged_at=stamp),
        )
    write_result(
        root,
        "03-05-task-08-success.yaml",
        log(result(task_name="Task 1: Create config file"), "03-05", 1, "2026-01-26T11:00:00Z"),
    )
    write_result(
        root,
        "03-05-task-09-success.yaml",
        log(result(task_name="Create config file"), "03-05", 9, "2026-01-26T11:01:00Z"),
    )
    source = opened(root)
    reports = source.reports()
    assert [r.judgement.verdict for r in reports] == [Verdict.VALID] * 7 + [
        Verdict.VALID_WITH_WARNINGS,
        Verdict.INVALID,
    ]
    assert "differs from 03-05-PLAN.md's 'Task 1: Document Result YAML Schema'" in (
        reports[7].judgement.text()
    )
    assert "task name 'Create config file' matches no task in 03-05-PLAN.md" in (
        reports[8].judgement.text()
    )
    run = source.run(0)
    fields = {f.label: f.value for f in run.fields}
    assert len(fields["success criteria"]) == 9
    assert all(line.startswith("[ ] ") for line in fields["success criteria"])
    assert fields["plan file"] == ".planning/phases/03-sequential-execution/03-05-PLAN.md"
    assert run.summary.title.startswith("Define the complete protocol for capturing")


def test_plan_md_named_only_in_its_frontmatter_is_found(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    phase = root / ".planning" / "phases" / "06-claude-tasks-sync"
    phase.mkdir(parents=True)
    shutil.copy(PLAN_06_03, phase / "PLAN.md")
    write_result(
        root,
        "06-03-task-01-success.yaml",
        log(result(task_name="Task 1: Implement status sync utilities"), "06-03"),
    )
    source = opened(root)
    assert source.plan_files() == {"06-03": str(phase / "PLAN.md")}
    (report,) = source.reports()
    assert not any(f.rule == "task" for f in report.judgement.findings)  # the name matched


def test_schema_examples_as_logs(tmp_path: Path) -> None:
    executor = yamlsafe.load((UP / "executor-result.schema.yaml").read_bytes())
    verdicts = yamlsafe.load((UP / "architect-verdict.schema.yaml").read_bytes())
    root = tmp_path / "proj"
    example = executor["examples"][0]
    write_result(root, "06-01-task-01-success.yaml", example, day="2026-01-31")
    architect = logs_dir(root) / "architect"
    architect.mkdir()
    for n, verdict in enumerate(verdicts["examples"], 1):
        (architect / f"verdict-{n}.yaml").write_text(dump(verdict))
    source = opened(root)
    (summary,) = [source.entry(i) for i in range(len(source))]
    assert isinstance(summary, RunSummary)
    assert (summary.ref, summary.status, summary.outcome) == ("06-01", "success", Outcome.PASS)
    run = source.run(0)
    (step,) = run.steps
    assert step.title == "task 1" and step.outcome is Outcome.PASS
    assert {f.label: f.value for f in step.fields}["commitHash"] == example["commitHash"]
    (report,) = source.reports()
    assert report.variant == "camel" and report.judgement.verdict is not Verdict.INVALID
    shown = [f.value["verdict"] for f in run.fields if f.label.startswith("architect verdict")]
    assert shown == ["APPROVED", "REJECTED"]  # taskIds 06-01-01 and 06-01-02
