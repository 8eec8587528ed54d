"""What the TUI shows is what the file says, named for what it is (issue 8, "wrong or missing
data"): the run-list title, rows, column header and detail, in Pilot tests. The core and CLI
side of the same items is in test_data_truth.py."""

from __future__ import annotations

from pathlib import Path

from tests.formats.acp.builders import write_jsonl
from tests.formats.forecast import builders as fc
from tests.formats.ultraplan.builders import log, result, write_result
from tests.helpers.shapes import (
    empty_run_tree,
    planned_project,
    timed_out,
    tool_calls_capture,
    trials_file,
)
from tests.helpers.ui import reads, running, settle
from trajtui.core.model import Problem
from trajtui.ui.screens.main import MainScreen
from trajtui.ui.store import ENTRY
from trajtui.ui.widgets.run_list import ColumnHeader


def title(screen: MainScreen) -> str:
    return str(screen.query_one("#runs-pane").border_title)


def rows(screen: MainScreen) -> list[str]:
    width = screen.run_list.size.width
    return [screen.run_list.render_row(i, width).plain for i in range(screen.run_list.row_count)]


def row_of(screen: MainScreen, ref: str) -> str:
    """The row of run ``ref`` as drawn (a long ref may be cut with an ellipsis)."""
    width = screen.run_list.size.width
    (row,) = [
        screen.run_list.render_row(k, width).plain
        for k, (kind, s, i) in enumerate(screen.store.rows)
        if kind == ENTRY and getattr(screen.ws.sources[s].peek(i), "ref", None) == ref
    ]
    return row


async def test_trials_title_names_each_pass_share(tmp_path: Path) -> None:
    path = trials_file(tmp_path / "trials.jsonl")
    async with running([str(path)], size=(160, 40)) as (pilot, app, screen):
        # By hand: 6 of 12 trials pass; 3 of 4 prompts have a pass; 1 of 4 has three.
        assert title(screen) == "Runs · 4 runs · pass@1 50.0% · pass@3 75.0% · pass^3 25.0%"
        assert "% pass" not in title(screen)


async def test_trials_rows_and_detail_show_their_duration(tmp_path: Path) -> None:
    path = trials_file(tmp_path / "trials.jsonl")
    async with running([str(path)], size=(160, 40)) as (pilot, app, screen):
        assert "6.0s" in row_of(screen, "all-pass")  # 1 s + 2 s + 3 s
        assert "duration (sum of 3 trials) 6.0s" in screen.detail.text


async def test_a_timed_out_run_is_listed_as_a_timeout(tmp_path: Path) -> None:
    path = write_jsonl(
        tmp_path / "c.jsonl",
        [timed_out("killed", passed=False), timed_out("late", passed=True)],
    )
    async with running([str(path)], size=(160, 40)) as (pilot, app, screen):
        assert "◷ timeout" in row_of(screen, "killed") and "fail" not in row_of(screen, "killed")
        assert "◷ timeout" in row_of(screen, "late")
        # both timeouts are graded (issue 22): in the pass share, and counted as timeouts
        assert "50.0% pass (1 of 2 graded) · 2 timeout" in title(screen)
        assert "status ◷ timeout" in screen.detail.text


async def test_a_forecast_run_row_shows_its_duration(tmp_path: Path) -> None:
    ev = tmp_path / "eval"
    fc.write_json(ev / "summary.json", fc.summary([fc.entry("fed", brier=0.05)]))
    fc.run_dir(ev / "runs" / "fed", fc.fed_run())
    async with running([str(ev)], size=(160, 40)) as (pilot, app, screen):
        assert "3.5s" in row_of(screen, "fed")
        assert "duration (span of message timestamps) 3.5s" in screen.detail.text


async def test_runs_with_no_samples_are_rows(tmp_path: Path) -> None:
    tree = empty_run_tree(tmp_path)
    async with running([str(tree)], size=(160, 40)) as (pilot, app, screen):
        assert title(screen).startswith("Runs · 4 runs")
        for ref in (
            "20260118_110000_G1_allergy_V2",
            "20260118_120000_allergy_test",
            "20260118_130000_allergy_test",
        ):
            assert "· empty" in row_of(screen, ref)


async def test_tool_calls_and_tool_errors_columns(tmp_path: Path) -> None:
    path = tool_calls_capture(tmp_path / "c.jsonl")
    async with running([str(path)], size=(200, 40)) as (pilot, app, screen):
        header = screen.query_one(ColumnHeader).render().plain.split()
        at = header.index("calls")
        assert header[at + 1 : at + 3] == ["tool", "err"]
        assert "tools" not in header
        cells = row_of(screen, "calls-1").split()
        assert cells[3:6] == ["3", "2", "1"]  # steps, tool calls, tool errors
        # none failed and the file flags it: marked, never a bare 0 (issue 22), never "yes"
        assert row_of(screen, "flagged").split()[3:6] == ["1", "1", "flagged"]
        assert "tool calls 2  ·  tool errors 1" in screen.detail.text
        assert "1 with tool errors · 1 flagged toolErrors" in title(screen)


async def test_an_unreadable_result_log_is_a_problem_row(tmp_path: Path) -> None:
    root = planned_project(tmp_path / "proj")
    write_result(root, "03-01-task-01-success.yaml", log(result()))
    write_result(root, "03-01-task-02-success.yaml", "plan_id: 03-01\nresult: [unclosed\n")
    async with running([str(root)], size=(160, 40)) as (pilot, app, screen):
        problem_rows = [r for r in rows(screen) if "⚠" in r]
        assert len(problem_rows) == 1 and "invalid YAML" in problem_rows[0]
        assert title(screen).endswith("1 problem")
        # the plan says which result could not be read
        assert "03-01-task-02-success.yaml not read" in screen.detail.text
        await pilot.press("f", *"is:problem", "enter")
        await settle(pilot)
        (kind_source_index,) = screen.store.rows
        _, s, i = kind_source_index
        assert isinstance(screen.ws.sources[s].peek(i), Problem)
        await settle(pilot)
        assert reads(screen.detail.text, "03-01-task-02-success.yaml")
        assert "What it names could not be read" in screen.detail.text


async def test_plans_without_result_logs_are_listed_with_their_tasks(tmp_path: Path) -> None:
    root = planned_project(tmp_path / "proj")
    async with running([str(root)], size=(160, 40)) as (pilot, app, screen):
        assert "no plans to show" not in screen.detail.text
        assert "• summarized" in row_of(screen, "03-01")
        assert "· planned" in row_of(screen, "03-02")
        text = screen.detail.text
        assert "[x] Task 1: Create executor agent (completed 2026-01-26) — no result" in text
        assert "[ ] Task 2: Add execution protocol — no result" in text
        assert "The executor agent exists." in text  # its SUMMARY.md
        await pilot.press("j")
        await settle(pilot)
        assert "[ ] Task 1: Create executor agent — no result" in screen.detail.text


async def test_a_forecast_step_detail_lists_the_keys_the_model_saw(tmp_path: Path) -> None:
    ev = tmp_path / "eval"
    fc.write_json(ev / "summary.json", fc.summary([fc.entry("fed", brier=0.05)]))
    fc.run_dir(ev / "runs" / "fed", fc.fed_run())
    async with running([str(ev)], size=(120, 40)) as (pilot, app, screen):
        await pilot.press("enter", "j")
        await settle(pilot)
        lines = [line.rstrip() for line in screen.detail.text.splitlines()]
        seen = "saw 5 messages  S0 U0 S2 A0 T0"
        assert seen in lines and lines.index(seen) < 6  # at the top, with no scrolling
        assert "  added since step 1  S2 A0 T0" in lines
        assert "  dropped since step 1  S1" in lines
        assert lines.index(seen) < lines.index("A1 assistant")  # before what it produced
        assert "each message whole: the Messages tab" in lines
