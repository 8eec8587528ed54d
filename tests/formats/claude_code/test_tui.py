"""The TUI on a ~/.claude/projects folder: what the run list shows."""

from __future__ import annotations

from pathlib import Path

from tests.formats.claude_code import builders as b
from tests.helpers.ui import running, screen_lines


async def test_a_projects_folder_lists_each_session_with_its_counts(tmp_path: Path) -> None:
    root = b.projects(tmp_path)
    async with running([str(root)], size=(200, 40)) as (_pilot, app, screen):
        refs = [str(screen.ws.sources[s].table.ref(i)) for s, i in screen.store.listed_runs()]
        assert sorted(refs) == sorted([b.S, b.OS, f"{b.S}/agent-a5f00d1"])
        drawn = "\n".join(screen_lines(app))
        assert "3 runs" in drawn and "1 with tool errors" in drawn
        row = next(line for line in drawn.splitlines() if "Fix the failing build" in line)
        # status, steps 14, calls 3, tool errors 1, duration 8.2s
        assert "done" in row and " 14 " in row and " 3 " in row and " 1 " in row and "8.2s" in row
        assert "Fix the failing build" in drawn and "Write the notes" in drawn
