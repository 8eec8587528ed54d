"""A Harbor job as an eval engineer reads it: each trial's verifier tests (why its reward is
0), searchable; the job's own ``result.json`` figures beside trajtui's pass@k over each
task's attempts; trials told apart by their task when the first message is redacted; the
same numbers on every surface."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.formats.atif import builders as b
from tests.formats.atif import tbench
from tests.helpers import forked
from tests.helpers.ui import running, settle
from trajtui.ui.screens.grep import GrepScreen
from trajtui.ui.screens.main import MainScreen

XSS, FETCH, FORM = tbench.TB_TASKS
FAILED_XSS = f"{XSS[:32]}__Ab3dE9k"
PASSED_XSS = f"{XSS[:32]}__Qw7rT2m"
FAILED_FORM = f"{FORM[:32]}__Mn5bV1c"
ERRORED_FORM = f"{FORM[:32]}__Po0iU7y"


def run(*args: str, columns: int = 160) -> subprocess.CompletedProcess[str]:
    return forked.run(
        [sys.executable, "-m", "trajtui", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "COLUMNS": str(columns)},
    )


@pytest.fixture
def tb(tmp_path: Path) -> Path:
    return tbench.tb_job(tmp_path / "tb-job")


def lines_with(text: str, word: str) -> list[str]:
    return [line for line in text.splitlines() if word in line]


# -- the verifier's tests ----------------------------------------------------------------------


def test_show_a_trial_lists_its_verifier_tests_and_why_the_failing_one_failed(tb: Path) -> None:
    out = run("show", str(tb), FAILED_XSS)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert lines_with(text, "verifier/ctrf.json") and "2 tests · 1 passed · 1 failed" in text
    failed = lines_with(text, "test_outputs.py::test_filter_blocks_xss")
    assert failed and "✗ failed" in failed[0]
    assert "✓ passed  test_outputs.py::test_page_loads" in text
    assert "The test failed in the call phase due to an assertion error" in text
    assert "AssertionError: <script> tag survived the filter" in text
    # the same test passed in the other attempt
    other = run("show", str(tb), PASSED_XSS).stdout
    assert "✓ passed  test_outputs.py::test_filter_blocks_xss" in other
    # an attempt the verifier never ran says so, not "0 tests"
    errored = run("show", str(tb), ERRORED_FORM).stdout
    assert "verifier  none: no verifier/ directory (the verifier did not run)" in errored


def test_grep_finds_the_trials_by_a_verifier_test_name(tb: Path) -> None:
    out = run("grep", str(tb), "test_filter_blocks_xss", "--json")
    assert out.returncode == 0, out.stderr
    hits = [json.loads(line) for line in out.stdout.splitlines()]
    assert {h["ref"] for h in hits} == {FAILED_XSS, PASSED_XSS}
    assert {h["ref"] for h in hits if h["field"] == "verifier test"} == {FAILED_XSS, PASSED_XSS}
    # the failure's own words are found too, under the run that failed
    why = run("grep", str(tb), "survived the filter", "--json")
    assert [json.loads(line)["ref"] for line in why.stdout.splitlines()] == [FAILED_XSS]


async def test_tui_search_finds_a_verifier_test_and_marks_it_in_the_trial(tb: Path) -> None:
    async with running([str(tb)]) as (pilot, app, screen):
        await pilot.press("ctrl+g", *"test_filter_blocks_xss")
        await settle(pilot, 0.5)
        grep = app.screen
        assert isinstance(grep, GrepScreen)
        assert {h.ref for h in grep.result.hits} == {FAILED_XSS, PASSED_XSS}
        await pilot.press("enter")  # to the hits
        first = grep.result.hits[0].ref
        await pilot.press("enter")
        await settle(pilot, 0.4)
        assert isinstance(app.screen, MainScreen)
        assert screen.run is not None and screen.run.ref == first
        assert screen.detail.matches, "the test's name is not marked in the trial's detail"
        assert "test_outputs.py::test_filter_blocks_xss" in screen.detail.text


# -- the job's figures and trajtui's pass@k ----------------------------------------------------


def test_show_gives_the_jobs_own_figures_beside_trajtuis_pass_at_k(tb: Path) -> None:
    text = run("show", str(tb), FAILED_XSS).stdout
    # this task's attempts
    task = [line for line in text.splitlines() if line.startswith(f"task {XSS}:")]
    assert task and "2 attempts · 2 graded · 1 passed" in task[0]
    assert "pass@1 0.500" in task[0] and "pass@2 1.000" in task[0]
    assert lines_with(text, PASSED_XSS)
    # the job's result.json, under its own names
    assert lines_with(text, "result.json, as the file says")
    file_line = lines_with(text, "pass_at_k")
    assert file_line and "2: 0.6667" in file_line[0]
    assert lines_with(text, "n_errored_trials 1") and lines_with(text, "cost_usd 0.054")
    # trajtui's, over the same tasks, saying what it leaves out and how the file differs
    ours = lines_with(text, "trajtui, over the same tasks")
    estimates = text.splitlines()[text.splitlines().index(ours[0]) + 1]
    assert "pass@1 0.500" in estimates and "pass@2 1.000 (2 of 3 tasks)" in estimates
    # the file's mean (an attempt without a reward as 0) beside trajtui's (over the graded)
    assert "mean 0.5" in file_line[0] and "mean reward 0.600 (5 graded)" in ours[0]
    assert "1 with an exception" in ours[0]  # the file's n_errors 1
    assert "1 attempt without a reward left out" in text
    assert "Harbor counts it as failed" in text


def stats_json(path: Path) -> dict[str, Any]:
    out = run("stats", str(path), "-f", "json")
    assert out.returncode == 0, out.stderr
    first: dict[str, Any] = json.loads(out.stdout.splitlines()[0])
    return first


def test_stats_counts_pass_at_k_over_each_tasks_attempts_beside_the_files(tb: Path) -> None:
    text = run("stats", str(tb)).stdout
    assert "attempts" in text
    at2 = lines_with(text, "pass@2")
    assert at2 and "1.000" in at2[0] and "mean over 2 tasks" in at2[0]
    assert "1 with fewer than 2 graded attempts left out" in at2[0]
    assert "0.500" in lines_with(text, "pass@1")[0]
    own = lines_with(text, "file pass_at_k 2")
    assert own and "0.667" in own[0] and "terminus-2__model-x__terminal-bench" in own[0]
    data = stats_json(tb)["attempts"]
    assert (data["tasks"], data["attempts"], data["graded"], data["passed"]) == (3, 6, 5, 3)
    assert {e["name"]: round(e["value"], 6) for e in data["estimates"]} == {
        "pass@1": 0.5,
        "pass@2": 1.0,
        "pass^2": 0.5,
    }
    assert data["file"][0]["figures"]["pass_at_k 2"] == pytest.approx(2 / 3)


# -- telling trials apart ----------------------------------------------------------------------


def test_a_redacted_first_message_gives_way_to_the_task(tb: Path) -> None:
    out = run("ls", str(tb), "--json")
    rows = {r["ref"]: r for r in map(json.loads, out.stdout.splitlines())}
    assert rows[FAILED_XSS]["title"] == XSS and rows[FAILED_FORM]["title"] == FORM
    table = run("ls", str(tb), columns=120).stdout.splitlines()[1:]
    assert len(table) == 6 and len(set(table)) == 6
    assert not any("evallab-redacted" in line for line in table)
    # the redacted message itself is still the step's text
    assert "<<evallab-redacted: 2135 bytes" in run("show", str(tb), f"{FAILED_XSS}/step-1").stdout


def ref_cells(screen: MainScreen) -> list[str]:
    runs = screen.run_list
    cols = runs.current_columns()
    start = 1 + cols["status"] + 1
    width = runs.size.width
    out = []
    for i in range(runs.row_count):
        plain = runs.render_row(i, width).plain
        out.append(plain[start : start + cols["ref"]].rstrip())
    return out


@pytest.mark.parametrize("columns", [120, 200])
async def test_run_list_refs_keep_the_part_that_differs(tb: Path, columns: int) -> None:
    async with running([str(tb)], size=(columns, 40)) as (pilot, app, screen):
        cells = ref_cells(screen)
        assert len(cells) == 6 and len(set(cells)) == 6, cells
        for suffix in ("Ab3dE9k", "Qw7rT2m", "Zx9cV4b", "Lk2jH8g", "Mn5bV1c", "Po0iU7y"):
            assert sum(suffix in c for c in cells) == 1, (suffix, cells)
        for cell in cells:
            assert cell.startswith("…"), cells  # the shared start is elided, said by "…"
        assert any("filter-xs" in c for c in cells) and any("fetch-ret" in c for c in cells)
        # the titles (the tasks) tell the tasks apart, and what is elided is said once
        titles = [row.rsplit(" ", 1)[-1] for row in rows_of(screen)]
        assert len(set(titles)) == 3, titles
        said = str(screen.query_one("#runs-pane").border_subtitle)
        assert "refs: … = terminal-bench-html-js-" in said


def rows_of(screen: MainScreen) -> list[str]:
    width = screen.run_list.size.width
    return [screen.run_list.render_row(i, width).plain for i in range(screen.run_list.row_count)]


# -- one number on every surface ---------------------------------------------------------------


def test_tokens_and_cost_are_the_trials_own_and_add_up_to_the_jobs(tb: Path) -> None:
    """A trial's tokens and cost are its result.json's ``agent_result`` (the whole trial, its
    subagents too: what the job's result.json sums), not its main trajectory's alone."""
    rows = [json.loads(line) for line in run("ls", str(tb), "--json").stdout.splitlines()]
    job = json.loads((tb / "result.json").read_text())["stats"]
    for row in rows:
        own = json.loads((tb / row["ref"] / "result.json").read_text())["agent_result"]
        assert (row["tokens_in"], row["tokens_out"], row["cost"]) == (
            own["n_input_tokens"],
            own["n_output_tokens"],
            own["cost_usd"],
        )
    assert sum(r["tokens_in"] for r in rows) == job["n_input_tokens"]
    measures = stats_json(tb)["measures"]
    assert measures["tokens_in"]["total"] == job["n_input_tokens"]
    assert measures["cost"]["total"] == pytest.approx(job["cost_usd"])
    detail = run("show", str(tb), FAILED_XSS).stdout
    assert "tokens 4,100 in · 140 out (agent_result)" in detail


def test_an_early_harbor_trial_with_a_single_reward_is_graded(tmp_path: Path) -> None:
    """Harbor's first releases wrote ``verifier_result: {"reward": 0.0}`` (one number), not
    ``rewards``: the trial is graded all the same."""
    passed = b.trial_result("nl2bash-0__A1b2C3d", "nl2bash-0")
    passed["verifier_result"] = {"reward": 1.0}
    failed = b.trial_result("nl2bash-0__E4f5G6h", "nl2bash-0")
    failed["verifier_result"] = {"reward": 0.0}
    for doc in (passed, failed):
        b.write_trial(tmp_path / "job" / doc["trial_name"], b.fix_bug(), doc)
    b.write_json(tmp_path / "job" / "result.json", {"n_total_trials": 2, "stats": {}})
    rows = {
        r["ref"]: r
        for r in map(json.loads, run("ls", str(tmp_path / "job"), "--json").stdout.splitlines())
    }
    assert (rows["nl2bash-0__A1b2C3d"]["outcome"], rows["nl2bash-0__A1b2C3d"]["score"]) == (
        "pass",
        1.0,
    )
    assert (rows["nl2bash-0__E4f5G6h"]["outcome"], rows["nl2bash-0__E4f5G6h"]["score"]) == (
        "fail",
        0.0,
    )
    assert rows["nl2bash-0__A1b2C3d"]["score_label"] == "reward"


def test_a_verifier_without_a_test_report_shows_the_end_of_its_output(tmp_path: Path) -> None:
    """Tasks whose tests write no CTRF report still say why in ``verifier/test-stdout.txt``:
    its last lines are shown, and searched."""
    job = tmp_path / "job"
    trial = tbench.tb_trial(job, "fix-git", "Zz9yX8w", 0.0, None)
    noise = "".join(f"collecting line {i}\n" for i in range(5000))
    (trial / "verifier").mkdir()
    (trial / "verifier" / "reward.txt").write_text("0\n")
    (trial / "verifier" / "test-stdout.txt").write_text(
        noise + "FAILED test_outputs.py::test_branch_merged - assert 'main' == 'fix'\n"
    )
    out = run("show", str(job), "fix-git__Zz9yX8w")
    assert "verifier  no test report in verifier/" in out.stdout
    assert "FAILED test_outputs.py::test_branch_merged - assert 'main' == 'fix'" in out.stdout
    assert "collecting line 10\n" not in out.stdout  # the end, not the whole output
    found = run("grep", str(job), "test_branch_merged")
    assert found.returncode == 0 and "fix-git__Zz9yX8w" in found.stdout
