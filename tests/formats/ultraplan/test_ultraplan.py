"""ultraplan logs: the safe YAML loader, PLAN.md parsing, the validation rules (one test per
rule), directory recognition, plans and steps, files shown with plans, and ``validate``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.formats.ultraplan.builders import (
    ALIAS_BOMB,
    DAY,
    PYTHON_TAG,
    camel_result,
    dump,
    log,
    logs_dir,
    plan_md,
    project,
    result,
    write_json,
    write_plan,
    write_result,
)
from tests.helpers.workspace import open_paths
from trajtui.core.io import yamlsafe
from trajtui.core.io.yamlsafe import YamlError
from trajtui.core.model import Kind, Outcome, Problem, Run, RunSummary, Severity
from trajtui.formats import ultraplan as up
from trajtui.formats.ultraplan import (
    Judgement,
    PlanDoc,
    PlanRecord,
    PlanTask,
    ResultFile,
    Rule,
    UltraplanSource,
    Verdict,
    judge,
    parse_plan,
    plan_status,
    read_result,
)

# -- the safe YAML loader --------------------------------------------------------------------


def test_yaml_uses_a_safe_loader_in_c_when_available() -> None:
    assert yamlsafe.SafeLoader in (getattr(yaml, "CSafeLoader", None), yaml.SafeLoader)
    assert issubclass(yamlsafe.SafeLoader, (yaml.SafeLoader, getattr(yaml, "CSafeLoader", ())))


def test_yaml_plain_data_with_timestamps_kept_as_text() -> None:
    doc = yamlsafe.load(
        b"\xef\xbb\xbf# comment\nat: 2026-01-26T10:30:45Z\nday: 2026-01-26\n"
        b"n: 3\nok: true\nnone: null\neq: =\nblock: |\n  two\n  lines\n"
        b"base: &b {x: 1}\nmerged:\n  <<: *b\n  y: 2\n",
        "f.yaml",
    )
    assert doc == {
        "at": "2026-01-26T10:30:45Z",
        "day": "2026-01-26",
        "n": 3,
        "ok": True,
        "none": None,
        "eq": "=",
        "block": "two\nlines\n",
        "base": {"x": 1},
        "merged": {"x": 1, "y": 2},
    }
    assert yamlsafe.load("", "f") is None


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("a: 1\nb: !!python/object:os.system x\n", 2, "refused tag !!python/object:os.system"),
        ("a: !!python/name:os.system\n", 1, "refused tag !!python/name:os.system"),
        ("x: !custom 3\n", 1, "refused tag !custom"),
        ("k: !!binary aGVsbG8=\n", 1, "refused tag !!binary"),
        ("s: !!set {a: null}\n", 1, "refused tag !!set"),
        ("&a [*a]\n", 1, "refers to a node that contains it"),
        ("a: 1\n  b: 2\n", 2, "invalid YAML: mapping values are not allowed"),
        ("a: [1, 2\n", 2, "invalid YAML: did not find expected ','"),
        ("a: 1\n---\nb: 2\n", 2, "expected a single document in the stream, but found another"),
        ("a: \x07\n", 1, "invalid YAML"),
        ("? [1, 2]\n: x\n", 1, "unhashable key"),
        ("[" * 150 + "]" * 150, 1, "nested deeper than 100 levels"),
    ],
)
def test_yaml_refusals_and_errors_are_one_line_with_a_line_number(
    text: str, line: int, fragment: str
) -> None:
    with pytest.raises(YamlError) as err:
        yamlsafe.load(text, "f.yaml")
    assert fragment in str(err.value)
    assert "\n" not in str(err.value)
    assert err.value.line == line


def test_yaml_invalid_utf8_and_size_limits() -> None:
    with pytest.raises(YamlError, match="invalid UTF-8 at byte 8") as err:
        yamlsafe.load(b"a: 1\nb: \xff\n", "f")
    assert err.value.line == 2
    with pytest.raises(YamlError, match="too large"):
        yamlsafe.load(b"a: " + b"x" * (yamlsafe.MAX_BYTES + 1), "f")


def test_yaml_alias_bomb_is_refused_quickly() -> None:
    started = time.monotonic()
    with pytest.raises(YamlError, match="alias bomb") as err:
        yamlsafe.load(ALIAS_BOMB, "bomb.yaml")
    assert time.monotonic() - started < 1.0
    assert err.value.line is not None and 2 <= err.value.line <= 9
    many = "a: &a x\nb: [" + ", ".join(["*a"] * (yamlsafe.MAX_ALIASES + 1)) + "]\n"
    with pytest.raises(YamlError, match="more than 1,000 aliases"):
        yamlsafe.load(many, "f")


def test_yaml_python_tag_never_runs(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    text = f'r: !!python/object/apply:os.system ["touch {marker}"]\n'
    with pytest.raises(YamlError, match="refused tag"):
        yamlsafe.load(text, "f")
    assert not marker.exists()
    assert "/tmp/trajtui-pwned" in PYTHON_TAG


# -- PLAN.md ---------------------------------------------------------------------------------

TASKS = [
    ("Task 1: Create executor agent", ["src/agent.md"]),
    ("Task 2: Add execution protocol", ["src/agent.md", "src/protocol.md"]),
    ("Task 3: Add result reporting", ["src/agent.md"]),
]
CRITERIA = [
    ("Task 1: Create executor agent (completed 2026-01-26)", True),
    ("Task 2: Add execution protocol", False),
    ("Reports are written", None),
]


def test_plan_md_skips_fenced_examples() -> None:
    doc = parse_plan(plan_md("03-sequential-execution", "01", TASKS, CRITERIA), "03-01-PLAN.md")
    assert doc.plan_id == "03-01"
    assert [t.name for t in doc.tasks] == [t for t, _ in TASKS]
    assert doc.tasks[1].files == ("src/agent.md", "src/protocol.md")
    assert doc.tasks[0].attr("type") == "auto"
    assert [(c.text, c.checked, c.completed) for c in doc.criteria] == [
        ("Task 1: Create executor agent", True, "2026-01-26"),
        ("Task 2: Add execution protocol", False, None),
        ("Reports are written", None, None),
    ]
    assert doc.criteria[0].shown() == ("[x] Task 1: Create executor agent (completed 2026-01-26)")
    assert doc.objective is not None and doc.objective.startswith("Build the executor agent.")


def test_plan_md_fences_tildes_unclosed_and_status_attributes() -> None:
    text = "\n".join(
        [
            '<task type="auto" status="completed" completed_at="2026-01-26T10:00:00Z">',
            "<name>Task 1: Real</name>",
            "</task>",
            "~~~",
            "<task><name>Task 2: In tildes</name></task>",
            "~~~",
            "<success_criteria>",
            "  * [X] upper-case box",
            "  1. [ ] numbered",
            "</success_criteria>",
            "````md",
            "```",
            "- [x] still inside the four-backtick fence",
            "````",
            "```",
            "<success_criteria>",
            "- [x] unclosed fence hides this",
        ]
    )
    doc = parse_plan(text)
    assert [t.name for t in doc.tasks] == ["Task 1: Real"]
    assert doc.tasks[0].attr("status") == "completed"
    assert [(c.text, c.checked) for c in doc.criteria] == [
        ("upper-case box", True),
        ("numbered", False),
    ]


@pytest.mark.parametrize(
    ("front", "plan_id"),
    [
        ("phase: 03-sequential-execution\nplan: 05", "03-05"),
        ("phase: 06-claude-tasks-sync\nplan: 3", "06-03"),
        ("phase: 02.5-tasks-api-spike\nplan: 03", "02.5-03"),
        ("phase: 3\nplan: 1", "03-01"),
        ("plan_id: 09-02", "09-02"),
        # quick tasks' phases are not numbered: the phase is kept whole
        ("phase: quick-3\nplan: 01", "quick-3-01"),
        ("phase: quick\nplan: 261006-h3r", "quick-261006-h3r"),
        # a plan split in two (LokulMem's 07-03a and 07-03b)
        ("phase: 07-extraction-contradiction\nplan: 03a", "07-03a"),
        # a quick task whose plan names its whole id
        ('phase: "20"\nplan: "20-01"', "20-01"),
        ("phase: unknown\nplan: [1]", None),
        ("title: no plan", None),
    ],
)
def test_plan_id_from_frontmatter(front: str, plan_id: str | None) -> None:
    assert parse_plan(f"---\n{front}\n---\n<objective>x</objective>\n").plan_id == plan_id


def test_plan_md_with_broken_frontmatter_says_so() -> None:
    doc = parse_plan("---\nphase: [oops\n---\n<task><name>Task 1: A</name></task>\n")
    assert doc.plan_id is None and doc.note is not None and doc.note_line == 3
    assert [t.name for t in doc.tasks] == ["Task 1: A"]


# -- reading results -------------------------------------------------------------------------


def test_read_result_snake_camel_bare_and_drift() -> None:
    snake = read_result(log(result(), task_index=2), "03-01-task-02-success.yaml")
    assert (snake.variant, snake.wrapped, snake.plan_id, snake.task) == ("snake", True, "03-01", 2)
    assert snake.time_ms == up.epoch_ms("2026-01-26T10:30:45Z")
    assert snake.session_id == "sess-1" and snake.duration_ms == 32000

    camel = read_result(camel_result("06-01-03"))
    assert (camel.variant, camel.wrapped, camel.plan_id, camel.task) == ("camel", False, "06-01", 3)
    assert camel.logged_at == "2026-01-26T11:00:00Z"

    camel_log = read_result(
        {"loggedAt": "2026-01-27T09:00:00", "planId": "03-02", "result": camel_result("03-02-01")}
    )
    assert camel_log.plan_id == "03-02" and camel_log.logged_at == "2026-01-27T09:00:00"

    bare = read_result(result(task_name="Task 4: Bare"), "07-02-task-04-success.yaml")
    assert (bare.wrapped, bare.plan_id, bare.task) == (False, "07-02", 4)

    no_header = read_result({"result": result("failure")}, "notes.yaml")
    assert no_header.plan_id is None and no_header.task == 1  # from "Task 1:"


@pytest.mark.parametrize("doc", [None, [1, 2], "text", 3, {"result": [1]}, {"result": "x"}])
def test_read_result_of_non_results_is_invalid_not_an_exception(doc: Any) -> None:
    judged = judge(read_result(doc), None)
    assert judged.verdict is Verdict.INVALID
    assert "not a" in judged.findings[0].message


# -- judging: one test per rule --------------------------------------------------------------


def plan_doc(*names: str, files: tuple[str, ...] = ("src/agent.md",)) -> PlanDoc:
    return PlanDoc(
        path="03-01-PLAN.md",
        plan_id="03-01",
        tasks=tuple(PlanTask(n, name, files) for n, name in enumerate(names, 1)),
    )


PLAN = plan_doc(*(t for t, _ in TASKS))


def verdict_of(
    doc: Any, plan: PlanDoc | None = PLAN, exists: Any = None, name: str | None = None
) -> Judgement:
    return judge(read_result(doc, name), plan, exists=exists)


def messages(j: Judgement) -> str:
    return " | ".join(j.reasons)


def test_a_complete_matching_result_is_valid() -> None:
    j = verdict_of(log(result()), exists=lambda p: True, name="03-01-task-01-success.yaml")
    assert j.verdict is Verdict.VALID and j.findings == ()
    assert j.text() == "VALID"


def test_missing_status_is_invalid() -> None:
    j = verdict_of(log(result(status=...)))
    assert j.verdict is Verdict.INVALID
    assert j.findings[0].message == "missing status" and j.findings[0].rule is Rule.SCHEMA


@pytest.mark.parametrize(
    ("status", "fragment"), [(True, "status is a boolean"), ("done", "unknown status 'done'")]
)
def test_status_that_is_not_a_status_word_is_invalid(status: Any, fragment: str) -> None:
    j = verdict_of(log(result(status=status)))
    assert j.verdict is Verdict.INVALID and fragment in messages(j)


def test_success_with_nonzero_exit_code_is_invalid() -> None:
    ver = {"command": "npm test", "exit_code": 2, "output_summary": "1 failing"}
    j = verdict_of(log(result(verification=ver)))
    assert j.verdict is Verdict.INVALID
    assert "success but verification.exit_code is 2" in messages(j)


def test_success_with_done_criteria_not_met_is_invalid() -> None:
    j = verdict_of(log(result(done_criteria_met=False)))
    assert j.verdict is Verdict.INVALID
    assert j.reasons[0] == "success but done_criteria_met is false"


def test_task_name_matching_no_plan_task_is_invalid_with_the_closest() -> None:
    j = verdict_of(log(result(task_name="Task 7: Create executor agnet")))
    assert j.verdict is Verdict.INVALID
    assert j.findings[0].rule is Rule.TASK
    assert (
        "matches no task in 03-01-PLAN.md; closest: 'Task 1: Create executor agent'"
        in (j.reasons[0])
    )
    missing_prefix = verdict_of(log(result(task_name="Create executor agent")))
    assert missing_prefix.verdict is Verdict.INVALID  # the protocol: no "Task N:" is no match


def test_task_name_prefix_matches_as_in_the_protocol_example() -> None:
    longer = log(result(task_name="Task 2: Add execution protocol section"), task_index=2)
    assert verdict_of(longer, exists=lambda p: True).verdict is Verdict.VALID
    shorter = log(result(task_name="Task 2: Add execution"), task_index=2)
    assert verdict_of(shorter, exists=lambda p: True).verdict is Verdict.VALID


def test_same_task_number_with_other_words_is_a_warning() -> None:
    j = verdict_of(log(result(task_name="Task 3: Write the report")), exists=lambda p: True)
    assert j.verdict is Verdict.VALID_WITH_WARNINGS
    assert "differs from 03-01-PLAN.md's 'Task 3: Add result reporting'" in messages(j)
    assert "task_index 1 but the name is task 3" in messages(j)


def test_task_name_matching_a_success_criterion_is_accepted() -> None:
    plan = PlanDoc(
        "p.md", "03-01", criteria=(up.Criterion("Task 1: Create executor agent", False),)
    )
    j = judge(read_result(log(result())), plan)
    assert j.verdict is Verdict.VALID


def test_plan_md_absent_is_a_warning_not_a_failure() -> None:
    j = judge(read_result(log(result())), None, plan_note="no PLAN.md for 03-01")
    assert j.verdict is Verdict.VALID_WITH_WARNINGS
    assert j.reasons == ("no PLAN.md for 03-01",)
    assert "PLAN.md not available" in messages(judge(read_result(log(result())), None))
    empty = judge(read_result(log(result())), PlanDoc("p.md", "03-01"))
    assert empty.verdict is Verdict.VALID_WITH_WARNINGS and "lists no <task> names" in messages(
        empty
    )


def test_missing_required_fields_are_warnings() -> None:
    j = verdict_of(log(result(evidence=..., files_modified=..., verification={"command": "true"})))
    assert j.verdict is Verdict.VALID_WITH_WARNINGS
    assert (
        "missing required fields: files_modified, evidence, verification.exit_code, "
        "verification.output_summary" in messages(j)
    )


def test_wrong_types_are_warnings() -> None:
    j = verdict_of(
        log(
            result(
                files_modified="src/agent.md",
                done_criteria_met="yes",
                metadata={"duration_ms": "32s", "attempt": 1, "executor_id": "x"},
            )
        )
    )
    assert j.verdict is Verdict.VALID_WITH_WARNINGS
    assert (
        "wrong types: files_modified should be a list of paths (found a string), "
        "done_criteria_met should be true or false (found a string), "
        "metadata.duration_ms should be a number (found a string)" in messages(j)
    )


def test_unknown_fields_are_warnings() -> None:
    doc = log(
        result(
            notes="extra",
            metadata={"duration_ms": 1, "attempt": 1, "executor_id": "e", "model": "x"},
        )
    )
    doc["host"] = "ci"
    j = verdict_of(doc, exists=lambda p: True)
    assert j.verdict is Verdict.VALID_WITH_WARNINGS
    assert j.reasons == ("unknown fields: notes, metadata.model, (log) host",)


def test_missing_optional_metadata_is_a_warning() -> None:
    partial = verdict_of(log(result(metadata={"duration_ms": 5})), exists=lambda p: True)
    assert partial.reasons == ("missing optional metadata: attempt, executor_id",)
    none = verdict_of(log(result(metadata=...)), exists=lambda p: True)
    assert none.reasons == ("no metadata (duration_ms, attempt, executor_id)",)


def test_failed_for_failure_is_a_warning() -> None:
    j = verdict_of(log(result("failed")), exists=lambda p: True)
    assert j.verdict is Verdict.VALID_WITH_WARNINGS
    assert j.reasons == ("status 'failed' read as failure",)
    assert verdict_of(log(result("failure")), exists=lambda p: True).verdict is Verdict.VALID


def test_status_consistency_warnings_for_failure_and_blocked() -> None:
    failure = verdict_of(log(result("failure", error=None, done_criteria_met=True)))
    assert "failure without an error" in messages(failure)
    assert "failure but done_criteria_met is true" in messages(failure)
    blocked = verdict_of(log(result("blocked", error=None)))
    assert blocked.verdict is Verdict.VALID_WITH_WARNINGS
    assert "blocked without an error" in messages(blocked)
    assert "blocked but files_modified is not empty" in messages(blocked)
    assert "blocked but verification.command is set" in messages(blocked)
    ok_blocked = result(
        "blocked",
        files_modified=[],
        verification={"command": None, "exit_code": None, "output_summary": None},
        error="needs 03-00 first",
    )
    assert verdict_of(log(ok_blocked)).verdict is Verdict.VALID
    assert "success but error is set" in messages(verdict_of(log(result(error="flaky"))))


def test_file_path_rules() -> None:
    files = ["/abs/agent.md", "../outside.md", "src/agent.md", "src/new.md", "src/gone.md"]
    j = verdict_of(log(result(files_modified=files)), exists=lambda p: p != "src/gone.md")
    text = messages(j)
    assert j.verdict is Verdict.VALID_WITH_WARNINGS
    assert "absolute paths (should be relative): /abs/agent.md" in text
    assert "paths outside the project: ../outside.md" in text
    assert "not found in the project: src/gone.md" in text
    assert "not in task 1's <files>: src/new.md, src/gone.md" in text
    unchecked = verdict_of(log(result(files_modified=["src/agent.md", "src/x.md"])), exists=None)
    assert "not found" not in messages(unchecked)


def test_log_header_and_file_name_checks() -> None:
    j = verdict_of(
        log(result("failure"), session_id=None, logged_at=None, task_index=1),
        exists=lambda p: True,
        name="03-01-task-01-success.yaml",
    )
    assert "log header lacks: logged_at, session_id" in messages(j)
    assert "file name says success but status is failure" in messages(j)
    other = verdict_of(log(result(), task_index=1), name="03-02-task-04-success.yaml")
    assert "file name says plan 03-02 but plan_id is 03-01" in messages(other)
    assert "file name says task 4 but task_index is 1" in messages(other)


def test_camel_case_results() -> None:
    plan = plan_doc("Task 1: JWT", "Task 2: Types", files=("src/auth/jwt.ts",))
    assert judge(read_result(camel_result("03-01-01")), plan).verdict is Verdict.VALID
    failing = judge(
        read_result(camel_result(testResults={"passed": 1, "failed": 2, "skipped": 0})), plan
    )
    assert failing.verdict is Verdict.INVALID
    assert "success but testResults.failed is 2" in messages(failing)
    beyond = judge(read_result(camel_result("03-01-05")), plan)
    assert beyond.verdict is Verdict.INVALID
    assert "03-01-PLAN.md has 2 tasks: no task 5" in messages(beyond)
    drift = judge(
        read_result(camel_result("3-1-1", "failure", commitHash="XYZ", error=None, extra=1)), plan
    )
    text = messages(drift)
    assert drift.verdict is Verdict.VALID_WITH_WARNINGS
    assert "status 'failure' read as failed" in text
    assert "taskId should be NN-NN-NN" in text and "commitHash should be hex" in text
    assert "failure without an error" in text and "unknown fields: extra" in text
    assert "missing required fields: timestamp" in messages(
        judge(read_result(camel_result("03-01-01", timestamp=...)), plan)
    )


def test_judgement_text_and_json_put_critical_reasons_first() -> None:
    j = verdict_of(log(result(notes=1, done_criteria_met=False)))
    assert j.text().startswith("INVALID: success but done_criteria_met is false; ")
    obj = j.to_json()
    assert obj["verdict"] == "INVALID"
    assert obj["findings"][0] == {
        "rule": "status",
        "severity": "critical",
        "message": "success but done_criteria_met is false",
    }
    assert {f["severity"] for f in obj["findings"][1:]} == {"warning"}


# -- plan status (pure) ----------------------------------------------------------------------


def files_of(*statuses: tuple[int, str]) -> list[ResultFile]:
    return [
        ResultFile(f"f{i}", f"f{i}", DAY, i, read_result(log(result(s), task_index=t)))
        for i, (t, s) in enumerate(statuses)
    ]


@pytest.mark.parametrize(
    ("statuses", "word", "outcome"),
    [
        ([(1, "success"), (2, "failure"), (2, "success")], "success", Outcome.PASS),
        ([(1, "success"), (2, "success"), (2, "failed")], "failure", Outcome.FAIL),
        ([(1, "blocked"), (2, "success")], "blocked", Outcome.SKIPPED),
        ([(1, "partial"), (2, "success")], "partial", Outcome.PARTIAL),
        ([(1, "weird"), (2, "success")], "partial", Outcome.PARTIAL),
        ([], None, Outcome.NONE),
    ],
)
def test_plan_status_from_each_tasks_latest_result(
    statuses: list[tuple[int, str]], word: str | None, outcome: Outcome
) -> None:
    assert plan_status(files_of(*statuses), None) == (word, outcome)


def test_plan_status_incomplete_when_plan_md_has_more_tasks() -> None:
    assert plan_status(files_of((1, "success")), PLAN) == ("incomplete", Outcome.PARTIAL)


def test_plan_status_invalid_when_a_latest_result_is_judged_invalid() -> None:
    files = files_of((1, "success"), (2, "success"), (2, "success"))
    ok, bad = Judgement(Verdict.VALID), Judgement(Verdict.INVALID)
    assert plan_status(files, None, (ok, ok, bad)) == ("invalid", Outcome.FAIL)
    # an INVALID result that a later retry replaced does not count
    assert plan_status(files, None, (ok, bad, ok)) == ("success", Outcome.PASS)


# -- directories -----------------------------------------------------------------------------


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


def summaries(source: UltraplanSource) -> list[RunSummary]:
    """The plans of a scanned source; every other row is a problem, listed after them (a
    result file that could not be read is a row of its own)."""
    entries = [source.entry(i) for i in range(len(source))]
    runs = [e for e in entries if isinstance(e, RunSummary)]
    assert all(isinstance(e, Problem) for e in entries[len(runs) :]), entries
    return runs


def opened(path: Path) -> tuple[UltraplanSource, Any]:
    ws = open_paths([str(path)])
    assert not ws.problems, ws.problems
    (source,) = ws.sources
    assert isinstance(source, UltraplanSource)
    for _ in source.scan():
        pass
    return source, ws


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


def tree_state(root: Path) -> list[tuple[str, int, int]]:
    return sorted(
        (str(p), p.stat().st_size, p.stat().st_mtime_ns) for p in root.rglob("*") if p.is_file()
    )


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


# -- the validate command --------------------------------------------------------------------


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "trajtui", *args], capture_output=True, text=True, timeout=60
    )


def test_validate_prints_one_line_per_result_file(tmp_path: Path) -> None:
    root = full_project(tmp_path)
    out = run_cli("validate", str(root))
    assert out.returncode == 1, out.stderr
    executions = root / ".ultraplan" / "logs" / "executions"
    lines = out.stdout.splitlines()
    assert [line.split(": ")[0] for line in lines] == [
        str(executions / DAY / f"03-01-task-0{n}") + s
        for n, s in [
            (1, "-success.yaml"),
            (2, "-failure.yaml"),
            (2, "-success.yaml"),
            (3, "-blocked.yaml"),
            (4, "-success.yaml"),
            (5, "-success.yaml"),
        ]
    ] + [
        str(executions / "2026-01-27" / "03-02-task-01-success.yaml"),
        str(executions / "2026-01-27" / "03-02-task-02-partial.yaml"),
    ]
    assert lines[0].endswith(": VALID")
    assert lines[1].endswith(": VALID_WITH_WARNINGS: status 'failed' read as failure")
    assert ": INVALID: not read: line 4: invalid YAML: " in lines[3]
    assert ": INVALID: not read: line 3: refused tag !!python/object/apply:os.system" in lines[4]
    assert "alias bomb" in lines[5]
    assert f"{executions / DAY / '03-01-task-03-blocked.yaml'}:4: invalid YAML" in out.stderr
    assert "Traceback" not in out.stderr


def test_validate_json_and_exit_0_without_invalid_results(tmp_path: Path) -> None:
    project(tmp_path)
    write_result(tmp_path, "03-01-task-01-success.yaml", log(result()))
    write_result(tmp_path, "03-01-task-02-failure.yaml", log(result("failed"), task_index=2))
    out = run_cli("validate", str(tmp_path), "--json")
    assert out.returncode == 0, out.stderr
    objs = [json.loads(line) for line in out.stdout.splitlines()]
    assert [o["verdict"] for o in objs] == ["VALID_WITH_WARNINGS", "VALID_WITH_WARNINGS"]
    assert objs[1]["ref"] == "03-01/step-2" and objs[1]["status"] == "failed"
    assert objs[1]["plan"] == "03-01" and objs[1]["variant"] == "snake"
    assert "status 'failed' read as failure" in objs[1]["reasons"]
    assert {"rule", "severity", "message"} == set(objs[1]["findings"][0])


def test_validate_usage_and_unreadable_inputs(tmp_path: Path) -> None:
    assert run_cli("validate").returncode == 2
    assert run_cli("validate", "--bogus", "x").returncode == 2
    missing = run_cli("validate", str(tmp_path / "nope"))
    assert missing.returncode == 1
    assert missing.stderr.strip() == f"{tmp_path / 'nope'}: no such file or directory"
    jsonl = tmp_path / "c.jsonl"
    jsonl.write_text(json.dumps({"id": "a", "trajectory": [], "timing": {}}) + "\n")
    other = run_cli("validate", str(jsonl))
    # a format that cannot be validated: one line that says so, exit 2 (not "all valid")
    assert other.returncode == 2 and other.stdout == ""
    assert other.stderr.splitlines() == [
        f"{jsonl}: acp-harness capture cannot be validated (validate reads: ultraplan logs)"
    ]
    empty = tmp_path / "empty"
    project(empty)
    nothing = run_cli("validate", str(empty))
    assert nothing.returncode == 0 and nothing.stdout == ""
    assert "warning: no execution logs" in nothing.stderr
    for out in (missing, other, nothing):
        assert "Traceback" not in out.stderr


def test_validate_shows_escape_sequences_as_symbols(tmp_path: Path) -> None:
    project(tmp_path)
    body = result(files_modified=["src/\x1b[31mred.md"])
    write_result(tmp_path, "03-01-task-01-success.yaml", log(body))
    out = run_cli("validate", str(tmp_path))
    assert "not found in the project: src/␛[31mred.md" in out.stdout
    assert "\x1b" not in out.stdout


def test_ls_and_show_on_a_project_without_writing_anything(tmp_path: Path) -> None:
    root = full_project(tmp_path)
    before = tree_state(root)
    listed = run_cli("ls", str(root))
    assert listed.returncode == 0
    rows = {line.split()[0]: line for line in listed.stdout.splitlines()[1:]}
    assert set(rows) == {"03-01", "03-02"}
    assert "◐ incomplete" in rows["03-01"] and "Build the executor agent." in rows["03-01"]
    shown = run_cli("show", str(root), "03-01/step-2")
    assert shown.returncode == 0, shown.stderr
    assert "VALID_WITH_WARNINGS: status 'failed' read as failure" in shown.stdout
    raw = json.loads(run_cli("show", str(root), "03-01/step-2", "--json").stdout)
    assert raw["ref"] == "03-01/step-2" and raw["result"]["status"] == "failed"
    run_cli("validate", str(root))
    assert tree_state(root) == before
    assert not os.path.exists("/tmp/trajtui-pwned")


# -- nothing from a file makes the reader raise ----------------------------------------------

_scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20)
_keys = st.sampled_from(
    [*up.SNAKE_KEYS, *up.CAMEL_KEYS, "result", "plan_id", "task_index", "logged_at", "x"]
) | st.text(max_size=4)
_values = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_keys, inner, max_size=6),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(doc=_values, name=st.sampled_from([None, "03-01-task-02-failure.yaml", "x.yaml"]))
def test_judging_any_document_never_raises(doc: Any, name: str | None) -> None:
    r = read_result(doc, name)
    for plan in (None, PLAN):
        j = judge(r, plan, exists=lambda p: False)
        assert j.verdict in Verdict
        assert all("\n" not in m and "\r" not in m for m in j.reasons)


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet="-[]x `~<>/\n taskname:_successcriteria", max_size=300))
def test_parsing_any_plan_text_never_raises(text: str) -> None:
    doc = parse_plan(text)
    assert all(c.checked in (True, False, None) for c in doc.criteria)


def test_unicode_digits_in_ids_are_not_numbers() -> None:
    from trajtui.formats.ultraplan.ids import as_int

    assert as_int("²") is None and as_int(" 12 ") == 12 and as_int("٣") is None


def test_keys_that_are_not_strings_are_shown_as_yaml_spells_them(tmp_path: Path) -> None:
    """YAML keys may be null, numbers or booleans (``? x``, ``1: a``): show prints them."""
    project(tmp_path)
    text = dump(result()) + "? \n2: two\ntrue: yes-key\n"
    write_result(tmp_path, "03-01-task-01-success.yaml", text)
    shown = run_cli("show", str(tmp_path), "03-01/step-1")
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert any(line.strip().startswith("null") for line in lines), shown.stdout
    assert any(line.strip().startswith("2") and "two" in line for line in lines), shown.stdout
    assert any(line.strip().startswith("true") and "yes-key" in line for line in lines)


@pytest.mark.parametrize(
    ("line", "named"),
    [
        ("10:41 retry 03-01 task 2", {"03-01"}),
        ("retry 03-02-05 attempt 2", {"03-02"}),  # a task id names its plan, not 02-05
        ("retry 3.1-2 now", {"3.1-2"}),  # decimal phases
        ("v1.03-01 is a version", set()),  # after a dot: not a token start
        ("x03-01 and 03-012", {"03-012"}),  # inside a word; a longer number
        ("03-01, 04-02; (05-03)", {"03-01", "04-02", "05-03"}),
        ("", set()),
    ],
)
def test_retry_log_lines_name_the_plans_they_mention(line: str, named: set[str]) -> None:
    from trajtui.formats.ultraplan.attach import plans_named

    assert plans_named(line) == named


def test_retry_log_of_many_plans_is_split_once_and_each_plan_gets_its_lines(
    tmp_path: Path,
) -> None:
    root = project(tmp_path)
    for n in range(1, 41):
        write_result(root, f"03-{n:02d}-task-1.yaml", result())
    lines = [f"{i}: retry 03-{i % 40 + 1:02d}-01 attempt {i}" for i in range(4000)]
    (logs_dir(root) / "retry.log").write_text("\n".join(lines) + "\n")
    source, _ = opened(root)
    label = "retry log (.ultraplan/logs/retry.log)"
    by_plan = {
        s.ref: {f.label: f.value for f in source.run(s.index).fields} for s in summaries(source)
    }
    assert by_plan["03-07"][label].splitlines()[:2] == [
        "6: retry 03-07-01 attempt 6",
        "46: retry 03-07-01 attempt 46",
    ]
    assert all(len(fields[label].splitlines()) == 100 for fields in by_plan.values())
