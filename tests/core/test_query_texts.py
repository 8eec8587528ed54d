"""``output:`` and ``reasoning:`` find runs by words only their output or their grader's
reasoning holds, in ``ls --where`` and the TUI's filter; a query that keeps no run says where
else to look.

``ls --where '"rate limit"'`` found nothing (words look in the reference, title and input)
while ``grep`` found the runs whose outputs say it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.formats.acp.builders import capture, trials, write_jsonl
from tests.helpers import forked
from tests.helpers.ui import running, screen_lines, settle
from trajtui.core.model import RunSummary
from trajtui.ui.screens.main import MainScreen
from trajtui.ui.store import ENTRY


def _file(tmp_path: Path) -> Path:
    recs = [
        capture("r-out", output="Stopped: hit the rate limit twice", score={"pass": False}),
        capture(
            "r-why",
            output="Dario Amodei",
            score={"pass": True, "score": 1, "reasoning": "Cites the company's own page."},
        ),
        capture("r-none", output="nothing here"),
    ]
    (tmp_path / "runs").mkdir()
    write_jsonl(tmp_path / "runs" / "capture.jsonl", recs)
    rec = trials("t-1", [True, False])
    rec["trials"][1]["output"] = "trial output mentions a Rate Limit"
    write_jsonl(tmp_path / "runs" / "trials.jsonl", [rec])
    return tmp_path / "runs"


def listed(screen: MainScreen) -> list[str]:
    """The runs listed (the rows of the two sources, without their group headers)."""
    out = []
    for kind, s, i in screen.store.rows:
        entry = screen.ws.sources[s].peek(i)
        if kind == ENTRY and isinstance(entry, RunSummary):
            out.append(entry.ref)
    return out


def _ls(path: Path, where: str) -> subprocess.CompletedProcess[str]:
    return forked.run(
        [sys.executable, "-m", "trajtui", "ls", str(path), "--where", where, "--json"],
        capture_output=True,
        text=True,
        check=False,
    )


def _refs(done: subprocess.CompletedProcess[str]) -> list[str]:
    import json

    return [str(json.loads(line)["ref"]) for line in done.stdout.splitlines()]


def test_output_and_reasoning_are_run_fields_of_ls_where(tmp_path: Path) -> None:
    path = _file(tmp_path)
    done = _ls(path, 'output:"rate limit"')
    assert done.returncode == 0, done.stderr
    assert _refs(done) == ["capture.jsonl::r-out", "trials.jsonl::t-1"]
    assert _refs(_ls(path, "output:hit*limit")) == ["capture.jsonl::r-out"]
    assert _refs(_ls(path, "reasoning:company")) == ["capture.jsonl::r-why"]
    assert _refs(_ls(path, "-output:rate")) == ["capture.jsonl::r-why", "capture.jsonl::r-none"]


def test_no_runs_match_says_where_else_to_look(tmp_path: Path) -> None:
    path = _file(tmp_path)
    done = _ls(path, '"rate limit"')  # only in outputs: words do not look there
    assert done.returncode == 1 and not done.stdout
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith('no runs match: "rate limit" ('), line
    assert "output:" in line and "trajtui grep" in line, line


async def test_the_tui_filter_takes_output_and_says_where_else_to_look(tmp_path: Path) -> None:
    path = _file(tmp_path)
    async with running([str(path)]) as (pilot, app, screen):
        await pilot.press("f", *'output:"rate limit"')
        await settle(pilot, 0.3)
        assert listed(screen) == ["r-out", "t-1"]
        await pilot.press("ctrl+u", *"reasoning:company")
        await settle(pilot, 0.3)
        assert listed(screen) == ["r-why"]
        await pilot.press("ctrl+u", *'"hit the rate"')
        await settle(pilot, 0.3)
        assert listed(screen) == []
        text = "\n".join(screen_lines(app))
        assert "no runs match" in text and "output:" in text and "/ searches" in text, text
