"""mini-swe-agent trajectories through the CLI, as a user runs it: what ``ls --json``,
``show`` and a query print for 1.1 (tool calls), 1.x (fenced actions), the bare list and
a SWE-bench batch directory of our own."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.formats.mini_swe_agent import builders as b
from tests.helpers import forked


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return forked.run(
        [sys.executable, "-m", "trajtui", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "COLUMNS": "200"},
    )


def rows(path: Path, *extra: str) -> list[dict[str, Any]]:
    out = run("ls", "--json", str(path), *extra)
    assert out.returncode == 0, out.stderr
    return [json.loads(line) for line in out.stdout.splitlines()]


def test_a_tool_call_run_lists_its_counts_cost_and_exit_status(tmp_path: Path) -> None:
    path = b.write(tmp_path / "last_mini_run.traj.json", b.toolcall_run())
    (row,) = rows(path)
    assert row["format"] == "mini-swe-agent"
    assert row["ref"] == "last_mini_run"
    assert (row["status"], row["outcome"]) == ("Submitted", "done")
    assert (row["steps"], row["tool_calls"], row["tool_errors"]) == (11, 4, 2)
    assert (row["cost"], row["tokens_in"], row["tokens_out"]) == (0.0123, 3600, 120)
    assert row["metadata"]["api_calls"] == "3"
    assert row["metadata"]["model"] == "anthropic/claude-sonnet-4-5"
    assert row["tools"] == ["bash"]
    assert (row["duration_ms"], row["duration_label"]) == (3500.0, "span of message timestamps")
    assert (
        row["title"]
        == "The parser drops the last row of a CSV file. ⏎ You can execute bash commands."
    )


def test_show_gives_each_action_with_its_observation_and_the_submission(tmp_path: Path) -> None:
    path = b.write(tmp_path / "run.traj.json", b.toolcall_run())
    out = run("show", str(path), "run/step-6")
    assert out.returncode == 0, out.stderr
    assert "pytest -q" in out.stdout and "1 failed" in out.stdout and "returncode 1" in out.stdout
    out = run("show", str(path), "run/step-10")
    assert "action was not executed" in out.stdout and "failed" not in out.stdout
    out = run("show", str(path), "run/step-11")
    assert out.returncode == 0, out.stderr
    assert "Submitted" in out.stdout and "+rows" in out.stdout
    out = run("show", str(path), "run/step-8")
    assert "FormatError" in out.stdout and "EXACTLY ONE action" in out.stdout


def test_a_v1_run_reads_fenced_actions_and_their_return_codes(tmp_path: Path) -> None:
    path = b.write(tmp_path / "v1.traj.json", b.v1_run())
    (row,) = rows(path)
    assert (row["status"], row["steps"], row["tool_calls"], row["tool_errors"]) == (
        "Submitted",
        9,
        3,
        1,
    )
    # cost tracking off and 0.0 with 3 API calls: the price was not known, never "free"
    assert row["cost"] is None and row["metadata"]["api_calls"] == "3"
    assert row["tokens_in"] is None
    assert row["title"] == "Make greet() say hello."
    assert row["duration_ms"] == 7000.0
    out = run("show", str(path), "v1/step-6")
    assert "ls /nope" in out.stdout and "returncode 2" in out.stdout


def test_the_bare_list_of_the_oldest_files_is_a_run_without_a_status(tmp_path: Path) -> None:
    path = b.write(tmp_path / "local.traj.json", b.bare_list())
    (row,) = rows(path)
    assert row["format"] == "mini-swe-agent"
    assert (row["status"], row["outcome"], row["steps"], row["tool_calls"], row["tool_errors"]) == (
        None,
        "none",
        6,
        2,
        0,
    )
    assert row["cost"] is None


def test_a_compact_file_is_mini_swe_agent_not_a_forecast_run(tmp_path: Path) -> None:
    path = tmp_path / "one.traj.json"
    path.write_text(json.dumps(b.toolcall_run()))
    (row,) = rows(path)
    assert row["format"] == "mini-swe-agent" and row["steps"] == 11


def test_a_batch_directory_is_one_list_with_preds_json_joined(tmp_path: Path) -> None:
    root = b.batch(tmp_path / "out")
    listed = {r["ref"]: r for r in rows(root)}
    assert sorted(listed) == ["pallets__csv-3", "pallets__csv-7", "pallets__csv-9"]
    assert (listed["pallets__csv-9"]["status"], listed["pallets__csv-9"]["outcome"]) == (
        "LimitsExceeded",
        "timeout",
    )
    only = listed["pallets__csv-3"]
    assert only["steps"] is None and only["metadata"]["model"] == "anthropic/claude-sonnet-4-5"
    out = run("show", str(root), "pallets__csv-3")
    assert "no trajectory" in out.stdout and "+rows" in out.stdout
    verbose = run("ls", "--verbose", str(root))
    assert "minisweagent.log" in verbose.stdout + verbose.stderr


def test_queries_find_runs_by_model_status_and_tool(tmp_path: Path) -> None:
    root = b.batch(tmp_path / "out")
    assert [r["ref"] for r in rows(root, "--where", "status:LimitsExceeded")] == ["pallets__csv-9"]
    assert len(rows(root, "--where", "model:claude tool:bash")) == 2
    assert [r["ref"] for r in rows(root, "--where", "is:timeout")] == ["pallets__csv-9"]
    assert len(rows(root, "--where", "metadata.api_calls>2")) == 2


def test_a_file_cut_short_is_a_problem_with_its_line_and_the_others_still_list(
    tmp_path: Path,
) -> None:
    root = b.batch(tmp_path / "out")
    cut = root / "pallets__csv-9" / "pallets__csv-9.traj.json"
    text = cut.read_text()
    cut.write_text(text[: len(text) // 2])
    lines = text[: len(text) // 2].count("\n") + 1
    out = run("ls", str(root))
    assert f"pallets__csv-9.traj.json:{lines}: invalid JSON: ends early" in out.stdout + out.stderr
    assert "pallets__csv-7" in out.stdout


def test_a_run_killed_mid_way_has_no_status_and_its_steps_so_far(tmp_path: Path) -> None:
    run_ = b.toolcall_run()
    run_["messages"] = run_["messages"][:-1]  # 2.x writes after every step: no exit yet
    run_["info"]["exit_status"] = ""
    (row,) = rows(b.write(tmp_path / "live.traj.json", run_))
    assert (row["status"], row["outcome"], row["steps"]) == (None, "none", 10)


def test_a_swe_bench_prompt_titles_the_run_by_its_issue(tmp_path: Path) -> None:
    run_ = b.toolcall_run()
    run_["messages"][1]["content"] = (
        "<pr_description>\nConsider the following PR description:\nCSV rows vanish\n</pr_description>"
    )
    (row,) = rows(b.write(tmp_path / "t.traj.json", run_))
    assert row["title"] == "CSV rows vanish"


def test_stats_count_the_batch_as_ls_does(tmp_path: Path) -> None:
    root = b.batch(tmp_path / "out")
    out = run("stats", str(root))
    assert out.returncode == 0, out.stderr
    assert "total cost          $0.5123" in out.stdout
    assert "bash          8  calls · 4 failed" in out.stdout


def test_a_timestamp_past_any_float_is_left_out_of_the_span(tmp_path: Path) -> None:
    run_ = b.v1_run()
    run_["messages"][-1]["timestamp"] = 12345.5
    text = json.dumps(run_, indent=2).replace("12345.5", "1e999")
    path = tmp_path / "v1.traj.json"
    path.write_text(text)
    (row,) = rows(path)
    assert row["duration_ms"] == 6000.0  # T0 .. T0+6: the 1e999 one is no time


def test_a_traj_json_with_keys_after_its_format_is_still_read(tmp_path: Path) -> None:
    """A fork may add keys after trajectory_format (the tail then does not name it)."""
    run_ = b.toolcall_run()
    run_["fork_notes"] = {"trace": ["x" * 100] * 100}
    (row,) = rows(b.write(tmp_path / "f.traj.json", run_))
    assert (row["format"], row["steps"]) == ("mini-swe-agent", 11)


def test_a_long_run_answered_out_of_order_lists_and_opens_any_step_by_its_reference(
    tmp_path: Path,
) -> None:
    """150 model calls whose results all come at the end, last first: each is still the
    answer to its own call (by id), however far apart, in the row's counts and in the step
    opened by its reference (its steps are built a window at a time, when shown)."""
    run_ = b.toolcall_run()
    calls = [
        b.call(n, f"THOUGHT: step {n}.", [f"cat f{n}.py"], n, (10, 1), 0.001) for n in range(150)
    ]
    results = [
        b.result(f"call_{n}_0", f"out-{n}\n", 1 if n % 3 == 0 else 0, 200 + n) for n in range(150)
    ]
    run_["messages"] = run_["messages"][:2] + calls + results[::-1] + run_["messages"][-1:]
    (row,) = rows(b.write(tmp_path / "long.traj.json", run_))
    assert (row["steps"], row["tool_calls"], row["tool_errors"]) == (2 + 150 + 150 + 1, 150, 50)
    assert (row["tokens_in"], row["tokens_out"]) == (1500, 150)
    assert row["title"].startswith("The parser drops the last row")
    # after the 2 prompts, call n is a thought (step 3 + 2n) and its tool call (4 + 2n)
    out = run("show", str(tmp_path / "long.traj.json"), "long/step-278")
    assert out.returncode == 0, out.stderr
    assert "cat f137.py" in out.stdout and "out-137" in out.stdout
    assert "returncode 0" in out.stdout
    out = run("show", str(tmp_path / "long.traj.json"), "long/step-277")
    assert out.returncode == 0 and "step 137." in out.stdout


def test_a_bare_list_of_messages_is_streamed_as_a_document_is(tmp_path: Path) -> None:
    """The oldest shape, a bare array of messages, read by the same one pass."""
    (row,) = rows(b.write(tmp_path / "old.traj.json", b.bare_list()))
    assert (row["steps"], row["tool_calls"], row["tool_errors"]) == (6, 2, 0)
    assert row["title"] == "print the date"
    out = run("show", str(tmp_path / "old.traj.json"), "old/step-4")
    assert out.returncode == 0, out.stderr
    assert "date" in out.stdout and "Thu Nov 26" in out.stdout


def test_a_trajectory_over_128_mb_lists_and_opens_as_a_small_one(tmp_path: Path) -> None:
    """A document of 129 MB (blanks between two messages, as cheap to write as to read) is
    read in one pass like any other: its row and its steps are the small file's (it was
    refused, too large to read whole)."""
    small = b.write(tmp_path / "small" / "run.traj.json", b.toolcall_run())
    text = small.read_text()
    cut = text.index('{\n      "role": "user"')
    big = tmp_path / "big" / "run.traj.json"
    big.parent.mkdir()
    with open(big, "w") as f:
        f.write(text[:cut])
        for _ in range(129):
            f.write(" " * (1 << 20))
        f.write(text[cut:])
    assert big.stat().st_size > 128 << 20
    (want,) = rows(small)
    (got,) = rows(big)
    assert {k: v for k, v in got.items() if k != "source"} == {
        k: v for k, v in want.items() if k != "source"
    }
    out = run("show", str(big), "run/step-6")
    assert out.returncode == 0, out.stderr
    assert out.stdout == run("show", str(small), "run/step-6").stdout
