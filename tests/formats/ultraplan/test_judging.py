"""ultraplan logs: a result file read, judged by the validation rules (one test per rule), and a
plan's status from its latest results."""

from __future__ import annotations

from typing import Any

import pytest

from tests.formats.ultraplan.builders import (
    DAY,
    PLAN,
    camel_result,
    log,
    plan_doc,
    result,
)
from trajtui.core.model import Outcome
from trajtui.formats import ultraplan as up
from trajtui.formats.ultraplan import (
    Judgement,
    PlanDoc,
    ResultFile,
    Rule,
    Verdict,
    judge,
    plan_status,
    read_result,
)

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
