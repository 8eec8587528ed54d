"""ultraplan logs: directories recognised, plans and their steps, the files shown with their
plans, references, and nothing written."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.formats.ultraplan.builders import (
    CRITERIA,
    DAY,
    TASKS,
    dump,
    log,
    logs_dir,
    plan_md,
    project,
    result,
    write_json,
    write_result,
)
from tests.formats.ultraplan.projects import full_project, opened, summaries, tree_state
from tests.helpers.workspace import open_paths
from trajtui.core.model import Kind, Outcome, Run, RunSummary, Severity
from trajtui.formats import ultraplan as up
from trajtui.formats.ultraplan import (
    PlanDoc,
    PlanRecord,
    UltraplanSource,
    Verdict,
)

# -- directories -----------------------------------------------------------------------------


@pytest.mark.parametrize("below", ["", ".ultraplan", ".ultraplan/logs"])
def test_project_ultraplan_and_logs_directories_are_all_recognised(
    tmp_path: Path, below: str
) -> None:
    root = full_project(tmp_path / "proj")
    source, _ = opened(root / below if below else root)
    assert source.format.id == "ultraplan" and source.format.name == "ultraplan logs"
    assert [s.ref for s in summaries(source)] == ["03-01", "03-02"]
    assert [s.steps for s in summaries(source)] == [3, 2]


@pytest.mark.parametrize("below", ["executions", f"executions/{DAY}"])
def test_result_directories_opened_directly(tmp_path: Path, below: str) -> None:
    root = full_project(tmp_path / "proj")
    source, _ = opened(root / ".ultraplan" / "logs" / below)
    refs = [s.ref for s in summaries(source)]
    assert refs == (["03-01", "03-02"] if below == "executions" else ["03-01"])
    assert len(source.run(0).steps) == 3
    assert "PLAN.md not looked for" in source.reports()[0].judgement.text()


def test_results_without_a_plan_are_grouped_and_flagged(tmp_path: Path) -> None:
    project(tmp_path)
    write_result(tmp_path, "notes.yaml", log(result(), plan_id=None, task_index=None))
    source, _ = opened(tmp_path)
    assert source.run_refs() == [up.NO_PLAN]
    (report,) = source.reports()
    assert "log header lacks: plan_id, task_index" in report.judgement.text()


def test_changes_on_disk_are_noticed(tmp_path: Path) -> None:
    root = full_project(tmp_path)
    source, _ = opened(root)
    assert source.changed() is None
    time.sleep(0.01)
    write_result(root, "03-01-task-03-success.yaml", log(result(), task_index=3))
    assert source.changed() == "changed"


def test_a_project_is_found_from_a_parent_directory(tmp_path: Path) -> None:
    full_project(tmp_path / "work" / "proj")
    (tmp_path / "work" / "notes.txt").write_text("hello")
    source, _ = opened(tmp_path / "work")
    assert source.layout.project is not None and source.layout.project.endswith("proj")
    assert [s.ref for s in summaries(source)] == ["03-01", "03-02"]


@pytest.mark.parametrize(
    "make",
    [
        lambda d: write_json(d / ".ultraplan" / "config.json", {"name": "not ultraplan"}),
        lambda d: write_json(d / "x" / "logs" / "current-session.json", {"user": "me"}),
        lambda d: (
            (d / "executions" / DAY).mkdir(parents=True)
            or (d / "executions" / DAY / "notes.yaml").write_text("title: not a result\n")
        ),
        lambda d: write_json(d / "summary" / "daily-2026-01-26.json", {"date": "x"}),
    ],
    ids=["foreign-config", "foreign-session", "foreign-yaml", "foreign-daily"],
)
def test_look_alike_directories_are_not_claimed(tmp_path: Path, make: Any) -> None:
    make(tmp_path)
    ws = open_paths([str(tmp_path)])
    assert not any(isinstance(s, UltraplanSource) for s in ws.sources)


def test_config_only_project_has_no_runs_and_says_why(tmp_path: Path) -> None:
    project(tmp_path)
    source, _ = opened(tmp_path)
    assert source.run_refs() == []
    (problem,) = source.problems()
    assert problem.severity is Severity.WARNING
    assert "no execution logs" in problem.message
    assert len(source) == 1 and source.entry(0) == problem  # listed: it belongs to no run
    assert source.reports() == []


def test_steps_in_time_order_with_retries_as_steps(tmp_path: Path) -> None:
    source, _ = opened(full_project(tmp_path))
    run = source.run(source.find("03-01") or 0)
    assert [s.ref for s in run.steps] == ["03-01/step-1", "03-01/step-2", "03-01/step-3"]
    assert [s.kind for s in run.steps] == [Kind.TASK] * 3
    assert [s.title for s in run.steps] == [
        "Task 1: Create executor agent",
        "Task 2: Add execution protocol",
        "Task 2: Add execution protocol",
    ]
    assert [s.status for s in run.steps] == ["success", "failed", "success"]
    assert [s.outcome for s in run.steps] == [Outcome.PASS, Outcome.FAIL, Outcome.PASS]
    assert [s.offset_ms for s in run.steps] == [0, 555_000, 1_155_000]
    assert [s.duration_ms for s in run.steps] == [32000, 32000, 28500]
    step = run.steps[1]
    assert step.text == "Created the agent.\nIt has the execution protocol."
    assert step.error == "verification failed: pattern not found"
    labels = [f.label for f in step.fields]
    assert labels[:2] == ["validation", "file"]
    assert {"task_name", "files_modified", "verification", "done_criteria_met", "metadata"} <= set(
        labels
    )
    assert {"logged_at", "plan_id", "task_index", "session_id"} <= set(labels)
    assert step.fields[0].value == "VALID_WITH_WARNINGS: status 'failed' read as failure"
    assert step.raw["result"]["status"] == "failed"
    summary = run.summary
    assert (summary.status, summary.outcome, summary.steps) == ("incomplete", Outcome.PARTIAL, 3)
    assert summary.duration_ms == 32000 + 32000 + 28500
    assert summary.score == pytest.approx(2 / 3) and summary.score_label == "tasks ok"
    assert summary.title == "Build the executor agent."


def test_results_without_logged_at_keep_date_and_file_order(tmp_path: Path) -> None:
    project(tmp_path)
    for day, name, task in [
        ("2026-01-27", "05-01-task-03-success.yaml", 3),
        ("2026-01-26", "05-01-task-01-success.yaml", 1),
        ("2026-01-26", "05-01-task-02-success.yaml", 2),
    ]:
        body = result(task_name=f"Task {task}: T{task}")
        write_result(tmp_path, name, log(body, "05-01", task, logged_at=None), day=day)
    write_result(
        tmp_path,
        "05-01-task-04-success.yaml",
        log(result(task_name="Task 4: T4"), "05-01", 4, logged_at="2026-01-26T12:00:00Z"),
        day="2026-01-26",
    )
    source, _ = opened(tmp_path)
    run = source.run(0)
    assert [s.title for s in run.steps] == ["Task 1: T1", "Task 2: T2", "Task 4: T4", "Task 3: T3"]
    assert [s.offset_ms for s in run.steps] == [None, None, 0, None]


def test_camel_case_plan(tmp_path: Path) -> None:
    source, _ = opened(full_project(tmp_path))
    run = source.run(source.find("03-02") or 0)
    assert [s.title for s in run.steps] == ["task 2", "task 1"]  # 09:00 before 11:00
    assert [s.outcome for s in run.steps] == [Outcome.PARTIAL, Outcome.PASS]
    assert run.steps[0].error == "tests failed"
    labels = [f.label for f in run.steps[1].fields]
    assert {"taskId", "filesModified", "testResults", "commitHash", "learnings"} <= set(labels)
    assert run.summary.status == "partial" and run.summary.score == 0.5


def test_blocked_is_skipped(tmp_path: Path) -> None:
    project(tmp_path)
    body = result("blocked", files_modified=[], verification=None, error="needs 03-00")
    write_result(tmp_path, "04-01-task-01-blocked.yaml", log(body, "04-01"))
    source, _ = opened(tmp_path)
    run = source.run(0)
    assert run.steps[0].outcome is Outcome.SKIPPED
    assert (run.summary.status, run.summary.outcome) == ("blocked", Outcome.SKIPPED)


def test_unreadable_yaml_is_a_problem_and_the_rest_still_shows(tmp_path: Path) -> None:
    root = full_project(tmp_path)
    source, _ = opened(root)
    executions = root / ".ultraplan" / "logs" / "executions" / DAY
    problems = {Path(p.path).name: p for p in source.problems()}
    broken = problems["03-01-task-03-blocked.yaml"]
    assert (broken.line, broken.severity, broken.ref) == (4, Severity.ERROR, "03-01")
    assert broken.message.startswith("invalid YAML: ")
    assert str(broken) == f"{executions / '03-01-task-03-blocked.yaml'}:4: {broken.message}"
    assert (
        "refused tag !!python/object/apply:os.system"
        in problems["03-01-task-04-success.yaml"].message
    )
    assert "alias bomb" in problems["03-01-task-05-success.yaml"].message
    assert not Path("/tmp/trajtui-pwned").exists()
    assert [s.ref for s in summaries(source)] == ["03-01", "03-02"]
    assert len(source.run(0).problems) == 3


def test_plan_md_fields_and_validation_counts(tmp_path: Path) -> None:
    source, _ = opened(full_project(tmp_path))
    run = source.run(0)
    fields = {f.label: f.value for f in run.fields}
    assert fields["plan file"] == ".planning/phases/03-exec/03-01-PLAN.md"
    assert fields["success criteria"] == [
        "[x] Task 1: Create executor agent (completed 2026-01-26)",
        "[ ] Task 2: Add execution protocol",
        "- Reports are written",
    ]
    # Each task with its checkbox in <success_criteria> ("-": none is for it), its results,
    # and the result files that could not be read.
    tasks = fields["tasks"]
    assert tasks[:2] == [
        "[x] Task 1: Create executor agent (completed 2026-01-26) — success",
        "[ ] Task 2: Add execution protocol — success after 2 results",
    ]
    assert tasks[2].startswith("- Task 3: Add result reporting — result file ")
    assert "03-01-task-03-blocked.yaml not read line 4: invalid YAML" in tasks[2]
    assert tasks[3].startswith("task 4 — result file ") and "refused tag" in tasks[3]
    assert tasks[4].startswith("task 5 — result file ") and "alias bomb" in tasks[4]
    assert len(tasks) == 5
    assert fields["validation"] == "2 VALID, 1 VALID_WITH_WARNINGS"
    assert isinstance(run.detail, PlanRecord) and isinstance(run.detail.doc, PlanDoc)
    assert [j.verdict for j in run.detail.judgements] == [
        Verdict.VALID,
        Verdict.VALID_WITH_WARNINGS,
        Verdict.VALID,
    ]
    other = {f.label: f.value for f in source.run(1).fields}
    assert "no PLAN.md for 03-02 in the project" in other["plan file"]


def test_plan_md_found_by_its_frontmatter(tmp_path: Path) -> None:
    project(tmp_path)
    write_result(tmp_path, "03-01-task-01-success.yaml", log(result()))
    (tmp_path / ".planning" / "any").mkdir(parents=True)
    (tmp_path / ".planning" / "any" / "PLAN.md").write_text(
        plan_md("03-sequential", 1, TASKS, CRITERIA)
    )
    (tmp_path / ".planning" / "other-PLAN.md").write_text("---\nphase: 04-x\nplan: 1\n---\n")
    source, _ = opened(tmp_path)
    assert source.plan_files() == {
        "03-01": str(tmp_path / ".planning" / "any" / "PLAN.md"),
        "04-01": str(tmp_path / ".planning" / "other-PLAN.md"),
    }
    run = source.run(0)
    assert run.steps[0].fields[0].value.startswith("VALID")


def test_session_daily_retry_and_verdict_files_are_shown_with_their_plans(tmp_path: Path) -> None:
    root = full_project(tmp_path)
    logs = logs_dir(root)
    write_json(
        logs / "current-session.json",
        {"session_id": "sess-1", "plan_id": "03-01", "tasks": [{"task_name": "Task 1"}]},
    )
    write_json(logs / "sessions" / "old-session.json", {"session_id": "sess-0", "tasks": []})
    write_json(
        logs / "summary" / "daily-2026-01-26.json",
        {"date": DAY, "tasks_executed": 3, "by_plan": {"03-01": {"tasks": 3, "succeeded": 2}}},
    )
    write_json(
        logs / "summary" / "daily-2026-01-27.json",
        {"date": "2026-01-27", "tasks_executed": 2, "tasks_succeeded": 1},
    )
    (logs / "retry.log").write_text(
        "10:41 retry 03-01 task 2 attempt 2\n09:01 retry 03-02-02 attempt 2\n"
    )
    (logs / "retry.jsonl").write_text(
        '{"plan_id": "03-01", "task_index": 2, "attempt": 2}\n{"taskId": "03-02-02"}\n'
        '{"note": "global"}\n{broken\n'
    )
    write_json(logs / "retry-state.json", {"03-01-02": {"attempts": 2}, "03-02-02": {"n": 1}})
    (logs / "architect").mkdir()
    (logs / "architect" / "verdict-1.yaml").write_text(
        dump({"verdict": "REJECTED", "taskId": "03-02-01", "checklist": {"testsPass": False}})
    )
    write_result(
        root,
        "03-01-architect.yaml",
        {"verdict": "APPROVED", "verification_checks": [{"name": "tests", "passed": True}]},
    )
    source, _ = opened(root)
    first = {f.label: f.value for f in source.run(0).fields}
    second = {f.label: f.value for f in source.run(1).fields}

    assert first["session (.ultraplan/logs/current-session.json)"]["session_id"] == "sess-1"
    assert "session (.ultraplan/logs/current-session.json)" not in second
    assert "session (.ultraplan/logs/sessions/old-session.json)" in first  # names no plan
    assert "session (.ultraplan/logs/sessions/old-session.json)" in second
    assert first["daily summary 2026-01-26"] == {"plan": "03-01", "tasks": 3, "succeeded": 2}
    assert "daily summary 2026-01-26" not in second
    assert second["daily summary 2026-01-27"]["tasks_executed"] == 2  # by date
    assert "daily summary 2026-01-27" not in first
    assert first["retry log (.ultraplan/logs/retry.log)"] == "10:41 retry 03-01 task 2 attempt 2"
    assert second["retry log (.ultraplan/logs/retry.log)"] == "09:01 retry 03-02-02 attempt 2"
    assert first["retries (.ultraplan/logs/retry.jsonl)"] == [
        {"plan_id": "03-01", "task_index": 2, "attempt": 2},
        {"note": "global"},
    ]
    assert first["retry state (.ultraplan/logs/retry-state.json)"] == {"03-01-02": {"attempts": 2}}
    assert second["retry state (.ultraplan/logs/retry-state.json)"] == {"03-02-02": {"n": 1}}
    key = "architect verdict (.ultraplan/logs/executions/2026-01-26/03-01-architect.yaml)"
    assert first[key]["verdict"] == "APPROVED" and key not in second
    assert second["architect verdict (.ultraplan/logs/architect/verdict-1.yaml)"]["verdict"] == (
        "REJECTED"
    )
    # the verdict file is not a result: no step, no validation line
    assert [s.steps for s in summaries(source)] == [3, 2]
    assert not any("architect" in r.path for r in source.reports())
    (bad,) = [p for p in source.problems() if p.path.endswith("retry.jsonl")]
    assert bad.line == 4


def test_references_resolve(tmp_path: Path) -> None:
    ws = open_paths([str(full_project(tmp_path))])
    target = ws.resolve("03-01/step-2")
    assert (target.ref, target.step, target.kind) == ("03-01/step-2", 2, "step")
    assert ws.resolve("03-02").kind == "run"
    run = target.source.run(target.index)
    assert isinstance(run, Run) and run.steps[1].status == "failed"
    with pytest.raises(LookupError, match="has no step 9"):
        ws.resolve("03-01/step-9")


def test_symlinks_out_of_the_opened_directory_are_ignored(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    secret = outside / "03-01-task-09-success.yaml"
    secret.write_text(dump(log(result(task_name="Task 9: Secret"), task_index=9)))
    (outside / "PLAN.md").write_text(
        "---\nplan_id: 03-01\n---\n<task><name>Task 9: Secret</name></task>"
    )
    (outside / "executions").mkdir()
    root = full_project(tmp_path / "proj")
    day = root / ".ultraplan" / "logs" / "executions" / DAY
    (day / "03-01-task-09-success.yaml").symlink_to(secret)
    (day.parent / "2026-02-01").symlink_to(outside, target_is_directory=True)
    (root / ".planning" / "03-01-PLAN.md").symlink_to(outside / "PLAN.md")
    source, _ = opened(root)
    run = source.run(0)
    assert "Task 9: Secret" not in [s.title for s in run.steps]
    assert source.plan_files()["03-01"].endswith("phases/03-exec/03-01-PLAN.md")
    # opened at the logs directory, the project's PLAN.md is outside: not looked for
    logs_only, _ = opened(root / ".ultraplan" / "logs")
    assert logs_only.plan_files() == {}
    assert "PLAN.md not looked for" in logs_only.run(0).steps[0].fields[0].value


def test_nothing_is_written(tmp_path: Path) -> None:
    root = full_project(tmp_path)
    before = tree_state(root)
    source, _ = opened(root)
    for i in range(len(source)):
        if isinstance(source.entry(i), RunSummary):
            source.run(i)
    source.reports()
    assert tree_state(root) == before


def test_a_single_result_file_opens_on_its_own(tmp_path: Path) -> None:
    path = write_result(tmp_path, "03-01-task-01-success.yaml", log(result()))
    source, _ = opened(path)
    assert [s.ref for s in summaries(source)] == ["03-01"]
    (report,) = source.reports()
    assert report.judgement.verdict is Verdict.VALID_WITH_WARNINGS
    assert "a single result file opened" in report.judgement.reasons[0]
    other = tmp_path / "notes.yaml"
    other.write_text("title: not a result\nitems: [1, 2]\n")
    ws = open_paths([str(other)])
    assert not ws.sources and ws.problems


def test_a_plan_with_bytes_that_are_not_utf8_is_read_and_said(tmp_path: Path) -> None:
    """A PLAN.md whose frontmatter holds a byte that is not UTF-8 is read (the byte shown
    as U+FFFD), and the list says so at its line, as for a JSON file."""
    from tests.formats.ultraplan.builders import CRITERIA, TASKS, plan_md, write_plan
    from tests.formats.ultraplan.projects import one_result_project, run_cli

    root = one_result_project(tmp_path / "proj")
    text = plan_md("03-sequential-execution", "01", TASKS, CRITERIA)
    path = write_plan(root, "03-01", text)
    data = path.read_bytes()
    at = data.index(b"\n", data.index(b"\n") + 1) + 1  # the frontmatter's second line
    path.write_bytes(data[:at] + b"owner: caf\xe9\n" + data[at:])
    done = run_cli("ls", str(root))
    assert done.returncode == 0, done.stderr
    assert "03-01" in done.stdout
    line = data[:at].count(b"\n") + 1
    assert f"{path}:{line}: warning: invalid UTF-8 at byte {at + 10}" in done.stderr, done.stderr
