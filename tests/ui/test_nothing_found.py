"""A directory of files trajtui does not read, opened beside one it does: the TUI's problem
row says how many files were looked at and how to see why, and its detail lists each file
with why it was not read (issue 22, item 20)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.ui import capture_fixture, running, screen_lines, settle


def logs_dir(root: Path) -> Path:
    root.mkdir()
    (root / "server.log").write_text("GET / 200\n")
    (root / "metrics.csv").write_text("a,b\n1,2\n")
    (root / "config.json").write_text('{"port": 8080}')
    return root


async def test_the_nothing_found_row_counts_the_files_and_its_detail_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # paths as a person types them: short enough to read whole
    capture_fixture(tmp_path)
    logs_dir(tmp_path / "logs")
    async with running(["results.jsonl", "logs"], size=(200, 50)) as (pilot, app, screen):
        text = "\n".join(screen_lines(app))
        assert "logs: no trajectories or eval results found in this directory (3 files" in text
        # the row is above the first run: select it, and the detail lists each file with why
        await pilot.press("g", "k")
        await settle(pilot)
        detail = "\n".join(screen_lines(app))
        assert "(3 files looked at: trajtui ls --verbose logs says why for each)" in detail
        assert "server.log: not recognised: not JSON (text)" in detail
        assert "metrics.csv: not recognised: not JSON (text)" in detail
        assert "config.json: not recognised: JSON, but not a format trajtui reads" in detail
