"""The TUI on a mini-swe-agent batch of our own: the run list names each instance with
its exit status and counts, a run's header its version, model, API calls and cost, its
timeline each action with its return code."""

from __future__ import annotations

from pathlib import Path

from tests.formats.mini_swe_agent import builders as b
from tests.helpers.ui import running, screen_lines, settle


async def test_a_batch_lists_its_instances_and_a_run_shows_its_actions(tmp_path: Path) -> None:
    root = b.batch(tmp_path / "out")
    async with running([str(root)], size=(200, 45)) as (pilot, app, _screen):
        await settle(pilot)
        text = "\n".join(screen_lines(app))
        assert "Submitted" in text and "LimitsExcee" in text
        row = next(x for x in text.splitlines() if x.startswith("│ • ") and "pallets__csv-7" in x)
        assert row.split("│")[1].split()[3:6] == ["11", "4", "2"]  # steps, calls, tool err
        assert "mini-swe-agent 2.4.6 · anthropic/claude-sonnet-4-5 · 3 API calls" in text
        await pilot.press("enter")
        await settle(pilot)
        text = "\n".join(screen_lines(app))
        assert "⚙ tool    bash  pytest -q" in text


async def test_a_huge_submission_is_folded(tmp_path: Path) -> None:
    patch = "diff --git a/x b/x\n" + "".join(f"+line {i} {'y' * 60}\n" for i in range(5000))
    path = b.write(tmp_path / "big.traj.json", b.toolcall_run(submission=patch))
    async with running([str(path)], size=(120, 90), goto="big/step-11") as (pilot, app, _s):
        await settle(pilot)
        text = "\n".join(screen_lines(app))
        assert "+line 0 yyy" in text and "+line 4999" not in text
        assert "folded: o shows it all" in text
