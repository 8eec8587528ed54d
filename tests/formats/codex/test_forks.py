"""Forked and resumed rollouts, in the shapes the real CLI writes them (0.171 forking a
legacy session copies the parent's lines after a second session_meta; forking a paginated
one copies none and starts from the parent's token total; 0.60 resuming a session appends
to its file and restarts its token count): the fork's own turns, calls and tokens only,
the parent's history folded as inherited, and the fork linked to its parent when both are
in the folder opened. The counts are also checked against jq (:mod:`.jqcheck`)."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.formats.codex import builders as b
from tests.formats.codex import jqcheck
from tests.helpers import forked
from tests.helpers.ui import running, screen_lines, settle

DAY = "2026-11-21"


def ls(*paths: Path) -> dict[str, dict[str, Any]]:
    out = forked.run(
        [sys.executable, "-m", "trajtui", "ls", "--json", "--no-cache", *map(str, paths)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    return {r["ref"].split("::")[-1]: r for r in rows}


@pytest.fixture
def sessions(tmp_path: Path) -> Path:
    """A sessions tree: the 0.60 session (resumed), the 0.171 one, a fork of each."""
    root = tmp_path / "sessions"
    b.resumed_v060().write(b.rollout_path(root, b.DAY, b.THREAD_060))
    b.session_v0171().write(b.rollout_path(root, b.DAY, b.THREAD_0171, "09-30-00"))
    b.fork_legacy().write(b.rollout_path(root, DAY, b.THREAD_FORK))
    b.fork_paginated().write(b.rollout_path(root, DAY, b.THREAD_PAGED, "10-00-00"))
    return root


def figures(row: dict[str, Any]) -> tuple[Any, ...]:
    return (
        row["metadata"]["turns"],
        row["tool_calls"],
        row["tool_errors"],
        row["tokens_in"],
        row["tokens_out"],
    )


def test_a_fork_counts_its_own_turns_calls_and_tokens_not_its_parents(sessions: Path) -> None:
    rows = ls(sessions)
    legacy, paged = rows[b.THREAD_FORK], rows[b.THREAD_PAGED]
    # the parent's copied turn (3 shell calls, one failing, and a patch) is not the fork's
    assert figures(legacy) == ("1", 1, 0, 1000, 50)
    meta = legacy["metadata"]
    assert (meta["inherited.turns"], meta["inherited.tool_calls"]) == ("1", "4")
    assert meta["forked_from"] == b.THREAD_060
    assert meta["inherited.tokens"] == "9000 in, 400 out"
    assert legacy["title"].endswith("Now also add bye.txt")
    assert legacy["status"] == "completed"
    # a paginated fork copies nothing, but its token count starts from the parent's total
    assert figures(paged) == ("1", 1, 0, 1000, 50)
    assert paged["metadata"]["inherited.tokens"] == "7000 in, 300 out"
    assert paged["metadata"]["forked_at_ordinal"] == "21"


def test_a_resumed_session_whose_token_count_restarted_adds_its_counts(sessions: Path) -> None:
    row = ls(sessions)[b.THREAD_060]
    # 9,000 / 400 before the resume, 2,000 / 80 after it (the count restarted from 0)
    assert figures(row) == ("2", 4, 1, 11000, 480)
    assert row["metadata"]["tokens.count_restarts"] == "1"


def test_the_counts_match_what_jq_says_of_the_files(sessions: Path, tmp_path: Path) -> None:
    if shutil.which("jq") is None:
        pytest.skip("jq is not installed")
    b.sessions_tree(tmp_path / "more" / "sessions")
    trajtui = os.path.join(os.path.dirname(sys.executable), "trajtui")
    lines = jqcheck.check([str(sessions), str(tmp_path / "more")], trajtui)
    assert len(lines) == 7, lines
    assert all(line.startswith("ok ") for line in lines), "\n".join(lines)


async def test_the_fork_shows_its_parents_history_folded_as_inherited(sessions: Path) -> None:
    async with running([str(sessions)], size=(200, 50)) as (pilot, app, screen):
        await settle(pilot)
        lines = screen_lines(app)
        top = next(n for n, line in enumerate(lines) if "· /home/dev/" in line)
        # the legacy fork's row (both forks' prompts are alike; rows are newest first)
        fork = next(n for n, line in enumerate(lines) if b.THREAD_FORK[-9:] in line)
        await pilot.press(*["j"] * (fork - top))
        await settle(pilot)
        text = "\n".join(screen_lines(app))
        # the parent's history is one step, marked; the parent's prompt is no turn of the
        # fork's: its own prompt is turn 1, and nothing of the parent's turn is listed
        assert "inherited history of 0199a1b2" in text
        assert "turn 1 · Now also add bye.txt" in text
        assert "Fix the failing test in parser.py" not in text
        assert "cat missing.txt" not in text
        await pilot.press("tab", "j", "enter")  # the inherited step, opened
        await settle(pilot)
        text = "\n".join(screen_lines(app))
        assert "copied when this session was forked" in text
        assert "inherited lines" in text


def test_show_links_the_fork_to_its_parent_in_the_folder(sessions: Path) -> None:
    out = forked.run(
        [sys.executable, "-m", "trajtui", "show", str(sessions), b.THREAD_FORK],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "COLUMNS": "250"},
    )
    assert out.returncode == 0, out.stderr
    label = os.path.relpath(b.rollout_path(sessions, b.DAY, b.THREAD_060), sessions)
    assert f"fork of {b.THREAD_060}, {label} in this folder, 1 inherited turn" in out.stdout
    assert f"forked from (in this folder)\n  {b.THREAD_060} ({label})" in out.stdout
    # opened alone, the fork still names its parent, not a file
    alone = forked.run(
        [
            sys.executable,
            "-m",
            "trajtui",
            "show",
            str(b.rollout_path(sessions, DAY, b.THREAD_FORK)),
            b.THREAD_FORK,
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "COLUMNS": "250"},
    )
    assert f"fork of {b.THREAD_060}, 1 inherited turn" in alone.stdout
    assert "in this folder" not in alone.stdout
