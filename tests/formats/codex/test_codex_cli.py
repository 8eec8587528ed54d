"""The CLI on a ``~/.codex/sessions`` tree of our own (0.20, 0.60 and 0.171 shapes), in a
subprocess as a user runs it: what ``ls --json``, ``show``, ``grep``, a query and
``stats`` print, and the numbers the same on each."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.formats.codex import builders as b
from tests.helpers import forked


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return forked.run(
        [sys.executable, "-m", "trajtui", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "COLUMNS": "200"},
    )


@pytest.fixture
def sessions(tmp_path: Path) -> Path:
    return b.sessions_tree(tmp_path / ".codex" / "sessions")


def rows(path: Path, *extra: str) -> list[dict[str, Any]]:
    out = run("ls", "--json", str(path), *extra)
    assert out.returncode == 0, out.stderr
    return [json.loads(line) for line in out.stdout.splitlines()]


def test_ls_lists_every_rollout_newest_first_with_the_files_counts(sessions: Path) -> None:
    listed = rows(sessions)
    assert [r["ref"].split("::")[-1] for r in listed] == [b.THREAD_0171, b.THREAD_060, b.THREAD_020]
    assert {r["format"] for r in listed} == {"codex"}
    by = {r["ref"].split("::")[-1]: r for r in listed}
    new, mid, old = by[b.THREAD_0171], by[b.THREAD_060], by[b.THREAD_020]
    assert (mid["tool_calls"], mid["tool_errors"], mid["tokens_in"], mid["tokens_out"]) == (
        4,
        1,
        9000,
        400,
    )
    assert mid["metadata"]["turns"] == "1" and mid["metadata"]["cwd"] == "/home/dev/proj"
    assert mid["title"] == "2026-11-19 09:00Z · /home/dev/proj · Fix the failing test in parser.py"
    assert (new["tool_calls"], new["tool_errors"], new["duration_ms"]) == (2, 1, 2500)
    assert new["duration_label"] == "sum of 1 turn duration_ms"
    assert new["metadata"]["cli_version"] == "0.171.0" and new["metadata"]["date"] == "2026-11-20"
    # 0.20 writes no token counts and no times: unknown, never 0
    assert (old["tokens_in"], old["tokens_out"], old["duration_ms"]) == (None, None, None)
    assert (old["tool_calls"], old["tool_errors"], old["status"]) == (2, 1, "completed")


def test_text_ls_shows_the_date_cwd_and_prompt(sessions: Path) -> None:
    out = run("ls", str(sessions))
    assert out.returncode == 0, out.stderr
    refs = (b.THREAD_0171, b.THREAD_060, b.THREAD_020)
    lines = [line for line in out.stdout.splitlines() if line.startswith(refs)]
    assert "2026-11-20 09:00Z · /home/dev/api · Add a health endpoint" in lines[0]
    assert "2026-11-18 08:00Z · List the files and count them" in lines[2]


def test_show_a_failed_call_with_its_output(sessions: Path) -> None:
    out = run("show", str(sessions), f"{b.THREAD_060}/step-7")
    assert out.returncode == 0, out.stderr
    assert "shell_command cat missing.txt" in out.stdout
    assert "failed" in out.stdout and "cat: missing.txt: No such file" in out.stdout
    head = run("show", str(sessions), b.THREAD_060)
    assert "1 turn · tokens 9,000 in (4,500 cached) · 400 out (100 reasoning)" in head.stdout
    assert "its own, from the token_count totals" in head.stdout


def test_grep_finds_text_recorded_twice_once(sessions: Path) -> None:
    out = run("grep", str(sessions), "Running the tests first")
    assert out.returncode == 0, out.stderr
    hits = out.stdout.splitlines()
    assert len(hits) == 1 and f"{b.THREAD_060}/step-5" in hits[0]
    out = run("grep", str(sessions), "No such file")
    assert sorted(h.split("  ")[0].rsplit("/", 1)[-1] for h in out.stdout.splitlines()) == [
        "step-5",
        "step-7",
    ]


def test_a_query_on_tools_errors_and_cwd(sessions: Path) -> None:
    found = rows(sessions, "--where", "tool:exec_command tool_errors>0")
    assert [r["ref"].split("::")[-1] for r in found] == [b.THREAD_0171]
    found = rows(sessions, "--where", "cwd:/home/dev/proj")
    assert [r["ref"].split("::")[-1] for r in found] == [b.THREAD_060]
    assert run("ls", str(sessions), "--where", "model:gpt-9").returncode == 1


def test_stats_tokens_and_tool_failures_match_the_rows(sessions: Path) -> None:
    out = run("stats", str(sessions), "--json")
    assert out.returncode == 0, out.stderr
    first = json.loads(out.stdout.splitlines()[0])
    assert first["measures"]["tokens_in"]["total"] == 9000 + 7000
    assert first["measures"]["tokens_in"]["n"] == 2  # the 0.20 session says none
    tools = first["tools"]["all"]
    assert (tools["calls"], tools["failures"]["num"]) == (8, 3)
    days = run("stats", str(sessions), "--by", "date", "--json")
    groups = {g["group"]: g for g in map(json.loads, days.stdout.splitlines())}
    assert groups["2026-11-19"]["measures"]["tokens_in"]["total"] == 9000


def test_a_broken_line_and_a_half_written_last_line(tmp_path: Path) -> None:
    lines = b.session_v060().text().splitlines(keepends=True)
    lines.insert(5, '{"timestamp": "2026-11-20T09:00:01.000Z", "type": "event_m\n')
    half = '{"timestamp":"2026-11-20T09:10:00.000Z","type":"response_item","payload":{"ty'
    path = tmp_path / "rollout-2026-11-20T09-00-00-x.jsonl"
    path.write_text("".join(lines) + half)
    out = run("ls", "--json", str(path))
    assert out.returncode == 0
    row = json.loads(out.stdout)
    assert (row["tool_calls"], row["tool_errors"], row["tokens_in"]) == (4, 1, 9000)
    problems = out.stderr.splitlines()
    assert problems[0].startswith(f"{path}:6: ")
    assert problems[1].startswith(f"{path}:{len(lines) + 1}: ")
    assert "Traceback" not in out.stderr


def test_a_second_open_from_the_index_cache_shows_and_compares(sessions: Path) -> None:
    """The first ls keeps each rollout's row and steps in the index cache; show and diff on
    the unchanged files then read nothing again (they hung: the engine's reset after a
    restore took its own lock twice)."""
    assert run("ls", str(sessions)).returncode == 0
    out = run("show", str(sessions), f"{b.THREAD_060}/step-7")
    assert out.returncode == 0 and "cat missing.txt" in out.stdout
    out = run("diff", str(sessions), b.THREAD_060, b.THREAD_0171)
    assert out.returncode in (0, 1), out.stderr
    assert "Fix the failing test" in out.stdout and "Add a health endpoint" in out.stdout


def test_cwd_query_takes_a_path_from_home(sessions: Path) -> None:
    """``cwd:~/proj`` is the working directory under your home (a shell's ``~``)."""
    out = forked.run(
        [sys.executable, "-m", "trajtui", "ls", "--json", str(sessions), "--where", "cwd:~/proj"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "HOME": "/home/dev"},
    )
    assert out.returncode == 0, out.stderr
    assert [json.loads(x)["ref"].split("::")[-1] for x in out.stdout.splitlines()] == [b.THREAD_060]


def test_rollouts_of_several_folders_are_one_list_newest_first_by_their_ids(
    tmp_path: Path,
) -> None:
    """Two boxes' session folders opened together (the walk meets the older one first): one
    table, newest first across both, each rollout named by its thread id alone."""
    b.sessions_tree(tmp_path / "a-box" / "sessions")  # 2026-11-18 to 2026-11-20
    newer = "019c0d0f-0000-7000-8000-0000000000ff"
    b.session_v0171(thread=newer, day="2026-11-22").write(
        b.rollout_path(tmp_path / "b-box" / "sessions", "2026-11-22", newer)
    )
    listed = rows(tmp_path)
    assert [r["ref"] for r in listed] == [newer, b.THREAD_0171, b.THREAD_060, b.THREAD_020]
    text = run("ls", str(tmp_path)).stdout.splitlines()
    assert sum(line.startswith("REF") for line in text) == 1, text
    assert not [line for line in text if line.startswith("# ")], text
