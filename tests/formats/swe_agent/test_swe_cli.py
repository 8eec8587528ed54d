"""SWE-agent trajectories through the CLI, as a user runs it: what ``ls --json``, ``show``
and a query print for 1.1, 0.x, cost-limited, history-only and RetryAgent files of our
own, a run directory (``.pred`` beside) and a batch directory (``preds.json``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.formats.swe_agent import builders as b
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


def test_a_1_1_run_lists_its_steps_model_stats_and_exit_status(tmp_path: Path) -> None:
    path = b.write(tmp_path / "f80e54.traj", b.v11_run())
    (row,) = rows(path)
    assert (row["format"], row["ref"]) == ("swe-agent", "f80e54")
    assert (row["status"], row["outcome"]) == ("submitted", "done")
    # the file flags no failed command: tool errors are unknown, never 0
    assert (row["steps"], row["tool_calls"], row["tool_errors"]) == (11, 4, None)
    assert (row["cost"], row["tokens_in"], row["tokens_out"]) == (0.0421, 5200, 180)
    assert row["metadata"]["api_calls"] == "4"
    assert row["metadata"]["model"] == "anthropic/claude-sonnet-4-5"
    assert row["metadata"]["swe_agent_version"] == "1.1.0"
    assert row["tools"] == ["echo", "ls", "str_replace_editor", "submit"]
    assert (row["duration_ms"], row["duration_label"]) == (2500.0, "sum of command times")
    assert row["title"] == b.TASK


def test_show_gives_thought_action_observation_and_the_submission(tmp_path: Path) -> None:
    path = b.write(tmp_path / "f80e54.traj", b.v11_run())
    out = run("show", str(path), "f80e54/step-6")
    assert out.returncode == 0, out.stderr
    assert "ls /definitely/missing" in out.stdout and "No such file or directory" in out.stdout
    out = run("show", str(path), "f80e54/step-5")
    assert "THOUGHT: list." in out.stdout
    out = run("show", str(path), "f80e54/step-11")
    assert "submitted" in out.stdout and "+print(1)" in out.stdout
    # the query repeated on every step is not part of the step shown
    raw = run("show", "--json", str(path), "f80e54/step-4")
    assert raw.returncode == 0, raw.stderr
    assert '"query"' not in raw.stdout


def test_a_cost_limited_run_is_a_timeout_with_no_cost_known(tmp_path: Path) -> None:
    path = b.write(tmp_path / "limited-1.traj", b.limited_run())
    (row,) = rows(path)
    assert (row["status"], row["outcome"], row["steps"], row["tool_calls"]) == (
        "exit_cost",
        "timeout",
        8,
        2,
    )
    assert row["cost"] is None and row["metadata"]["api_calls"] == "3"
    out = run("show", str(path), "limited-1/step-7")
    assert "Exit due to cost limit" in out.stdout


def test_a_0x_run_reads_string_state_and_text_actions(tmp_path: Path) -> None:
    path = b.write(tmp_path / "swe-agent__test-repo-i1.traj", b.v0_run())
    (row,) = rows(path)
    assert (row["status"], row["steps"], row["tool_calls"], row["cost"]) == (
        "submitted",
        9,
        3,
        0.53,
    )
    assert row["tools"] == ["edit", "open", "submit"]
    assert row["title"] == "Division by zero in ratio()"
    assert row["duration_ms"] is None
    assert row["metadata"]["environment"] == "swe_main"


def test_a_history_only_file_is_read_from_its_messages(tmp_path: Path) -> None:
    path = b.write(tmp_path / "function_calling_simple.traj", b.history_only())
    (row,) = rows(path)
    assert (row["format"], row["status"], row["steps"], row["tool_calls"]) == (
        "swe-agent",
        None,
        6,
        2,
    )
    out = run("show", str(path), "function_calling_simple/step-4")
    assert "echo hello" in out.stdout and "hello" in out.stdout


def test_a_retry_agent_file_is_one_run_with_an_attempt_each(tmp_path: Path) -> None:
    path = b.write(tmp_path / "r1.traj", b.retry_run())
    (row,) = rows(path)
    assert (row["status"], row["attempts"], row["steps"], row["tool_calls"], row["cost"]) == (
        "submitted",
        2,
        22,
        8,
        0.03,
    )
    out = run("show", str(path), "r1/trial-1")
    assert out.returncode == 0, out.stderr
    assert "exit_format" in out.stdout


def test_a_run_directory_reads_the_pred_beside_the_trajectory(tmp_path: Path) -> None:
    d = b.run_dir(tmp_path / "out")
    (row,) = rows(d)
    assert row["metadata"]["model_name_or_path"] == "swe-out"
    out = run("show", str(d), "f80e54")
    assert "f80e54.pred" in out.stdout


def test_a_batch_directory_is_one_list_and_queries_find_its_runs(tmp_path: Path) -> None:
    out = b.batch(tmp_path / "out")
    listed = {r["ref"]: r for r in rows(out)}
    assert sorted(listed) == ["django__django-1", "django__django-2"]
    assert [r["ref"] for r in rows(out, "--where", "status:exit_cost")] == ["django__django-2"]
    assert [r["ref"] for r in rows(out, "--where", "tool:submit")] == ["django__django-1"]
    assert len(rows(out, "--where", "model:claude")) == 1


def test_other_json_with_a_trajectory_key_is_not_swe_agent(tmp_path: Path) -> None:
    path = tmp_path / "other.json"
    path.write_text(json.dumps({"trajectory": [{"step": 1, "text": "hi"}]}, indent=2))
    out = run("ls", "--json", str(path))
    assert "swe-agent" not in out.stdout


def test_stats_and_diff_read_the_output_directory(tmp_path: Path) -> None:
    out = b.batch(tmp_path / "out")
    stats = run("stats", str(out))
    assert stats.returncode == 0, stats.stderr
    assert "total tokens in       6,233" in stats.stdout
    assert "submit                      1  calls · failures not told by the file" in stats.stdout
    diff = run("diff", str(out / "django__django-1"), str(out / "django__django-2"))
    assert "django__django-2  —            ◷ exit_cost" in diff.stdout, diff.stderr


def test_help_names_both_formats() -> None:
    out = run("--help")
    # the help wraps where it likes (at a hyphen too): read it without its line breaks
    assert "mini-swe-agentandSWE-agenttrajectories" in "".join(out.stdout.split())


def test_a_run_directory_says_the_pred_is_read_and_the_rest_not(tmp_path: Path) -> None:
    d = b.run_dir(tmp_path / "out")
    out = run("ls", "--verbose", str(d))
    said = out.stdout + out.stderr
    assert "f80e54.pred: not recognised" not in said
    assert "f80e54.info.log: not recognised" in said


def test_a_file_only_a_lenient_parser_reads_is_read_and_said_so(tmp_path: Path) -> None:
    """Python's json writes NaN; the strict decoder refuses it and the lenient one reads it."""
    text = json.dumps(b.v11_run(), indent=2).replace(
        '"instance_cost": 0.0421', '"instance_cost": NaN'
    )
    path = tmp_path / "f1.traj"
    path.write_text(text)
    out = run("ls", "--json", str(path))
    (row,) = [json.loads(line) for line in out.stdout.splitlines()]
    assert (row["steps"], row["tool_calls"], row["tokens_in"]) == (11, 4, 5200)
    assert "NaN or Infinity" in out.stderr
    # a cost that is no number is no cost, on every surface
    assert row["cost"] is None
    assert "$nan" not in run("ls", str(path)).stdout


def test_a_file_whose_steps_start_with_their_query_is_swe_agent(tmp_path: Path) -> None:
    doc = b.v11_run()
    doc["trajectory"] = [{"query": i.pop("query"), **i} for i in doc["trajectory"]]
    (row,) = rows(b.write(tmp_path / "q.traj", doc))
    assert (row["format"], row["steps"]) == ("swe-agent", 11)


def test_a_long_run_lists_and_opens_any_step_by_its_reference(tmp_path: Path) -> None:
    """200 steps, each repeating the conversation so far (as 1.1 writes them): the row
    counts every step, and a late step opened by its reference is its own item (built a
    window at a time, its query never part of it)."""
    run_ = b.v11_run()
    run_["trajectory"] = [
        b.item(f"cat f{n}.py", f"out-{n}", f"THOUGHT: step {n}.", 0.5, query=n) for n in range(200)
    ]
    path = b.write(tmp_path / "long.traj", run_)
    (row,) = rows(path)
    prompts = 2  # the system prompt and the problem statement
    assert (row["steps"], row["tool_calls"]) == (prompts + 2 * 200 + 1, 200)
    assert (row["duration_ms"], row["tools"]) == (100_000.0, ["cat"])
    # item n is a thought (step prompts + 2n + 1) and its action (prompts + 2n + 2)
    out = run("show", "--json", str(path), f"long/step-{prompts + 2 * 173 + 2}")
    assert out.returncode == 0, out.stderr
    assert "cat f173.py" in out.stdout and "out-173" in out.stdout and '"query"' not in out.stdout
    out = run("show", str(path), f"long/step-{prompts + 2 * 173 + 1}")
    assert out.returncode == 0 and "THOUGHT: step 173." in out.stdout


def test_a_trajectory_over_128_mb_lists_and_opens_as_a_small_one(tmp_path: Path) -> None:
    """A document of 129 MB (blanks between two items, as cheap to write as to read) is
    read in one pass like any other: its row and its steps are the small file's (it was
    refused, too large to read whole)."""
    small = b.write(tmp_path / "small" / "run.traj", b.v11_run())
    text = small.read_text()
    cut = text.index('{\n      "action"', text.index('"action"') + 10)  # the second item
    big = tmp_path / "big" / "run.traj"
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
    for step in ("run/step-6", "run/step-11"):
        out = run("show", str(big), step)
        assert out.returncode == 0, out.stderr
        assert out.stdout == run("show", str(small), step).stdout
