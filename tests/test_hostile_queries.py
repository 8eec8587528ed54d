"""Queries and search patterns an attacker (or a slipped key) writes (issue 23, items 17 to
20): deep nesting is one line in the CLI and an underlined message in the TUI's filter box,
never a crash; a pattern that is not valid UTF-8 is one line; the grep prefilter never skips a
record RE2 finds a match in; a case-insensitive search finds what the file writes escaped."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from textual.widgets import Input

from tests.builders import capture, write_jsonl
from tests.ui_helpers import listed, running, screen_lines, settle


def run(*args: str | bytes) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "trajtui", *args, "--no-cache"],
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.fixture
def runs(tmp_path: Path) -> Path:
    return write_jsonl(
        tmp_path / "runs.jsonl",
        [capture("alpha", input="find x"), capture("beta", input="find y")],
    )


DEEP = [
    "(" * 260 + "x" + ")" * 260,
    "(" * 1000,
    "-" * 1000 + "x",
    "-" * 1000,
    "NOT " * 1000 + "x",
    "(NOT -" * 400 + "x",
    "-(" * 500 + "x",
]
"""Queries nested deeper than any person writes: parentheses, negations and both."""


@pytest.mark.parametrize("query", DEEP, ids=lambda q: f"{q[:8]}..{len(q)}")
def test_a_query_nested_too_deep_is_one_line_and_exit_2(runs: Path, query: str) -> None:
    out = run("ls", str(runs), "--where", query)
    assert out.returncode == 2, out.stderr
    (line,) = out.stderr.splitlines()
    assert line.startswith("trajtui: --where: col ")
    assert "nested too deep" in line
    assert out.stdout == ""


def test_nesting_a_person_writes_still_parses(runs: Path) -> None:
    query = "(" * 30 + "alpha" + ")" * 30 + " " + "NOT " * 11 + "beta"
    out = run("ls", str(runs), "--where", query)
    assert out.returncode == 0, out.stderr
    assert [ln.split()[0] for ln in out.stdout.splitlines()[1:]] == ["alpha"]


@pytest.mark.parametrize("query", ["(" * 300 + "x", "-" * 1000 + "x"], ids=["parens", "minus"])
async def test_a_query_nested_too_deep_is_underlined_in_the_filter_box(
    runs: Path, query: str
) -> None:
    async with running([str(runs)]) as (pilot, app, screen):
        await pilot.press("f")
        screen.query_one("#filter", Input).insert_text_at_cursor(query)  # pasted
        await settle(pilot)
        lines = screen_lines(app)
        message = next((ln for ln in lines if "nested too deep" in ln), None)
        assert message is not None, "\n".join(lines)
        assert "^" in lines[lines.index(message) - 1]
        assert listed(screen) == ["alpha", "beta"]  # left as it was
        await pilot.press("ctrl+u", *"alpha")
        await settle(pilot)
        assert listed(screen) == ["alpha"]  # the box still works


async def test_a_step_filter_nested_too_deep_is_underlined(runs: Path) -> None:
    async with running([str(runs)]) as (pilot, app, screen):
        await pilot.press("enter", "f")
        await settle(pilot)
        box = screen.focused
        assert isinstance(box, Input)
        box.insert_text_at_cursor("(" * 300 + "x")
        await settle(pilot)
        assert any("nested too deep" in ln for ln in screen_lines(app))
