"""The TUI on SWE-agent files of our own: the run's header names its version, model, API
calls and cost; the timeline titles the prompt by its problem statement, each action by
its command; a RetryAgent file shows each attempt as a trial with its exit status."""

from __future__ import annotations

from pathlib import Path

from tests.formats.swe_agent import builders as b
from tests.helpers.ui import running, screen_lines, settle


async def test_a_run_shows_its_header_and_its_steps(tmp_path: Path) -> None:
    path = b.write(tmp_path / "f80e54.traj", b.v11_run())
    async with running([str(path)], size=(160, 40)) as (pilot, app, _screen):
        await settle(pilot)
        text = "\n".join(screen_lines(app))
        assert "SWE-agent 1.1.0 · anthropic/claude-sonnet-4-5 · 4 API calls" in text
        assert "user: Say hello and create hello.py" in text
        assert "⚙ tool    ls  ls /definitely/missing" in text


async def test_a_retry_file_shows_each_attempt_as_a_trial(tmp_path: Path) -> None:
    path = b.write(tmp_path / "r1.traj", b.retry_run())
    async with running([str(path)], size=(160, 40)) as (pilot, app, _screen):
        await settle(pilot)
        text = "\n".join(screen_lines(app))
        assert "trial 1 ! exit_format  11 steps" in text
        assert "trial 2 • submitted  11 steps" in text
