"""The TUI on a ``~/.codex/sessions`` tree of our own: the run list shows every rollout,
newest first, with the counts the files hold, and a rollout's timeline its turns."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

from tests.formats.codex import builders as b
from tests.helpers.ui import running, screen_lines, settle
from trajtui.core.model import RunSummary
from trajtui.ui.screens.main import MainScreen


async def test_a_sessions_folder_lists_each_rollout_with_its_counts(tmp_path: Path) -> None:
    root = b.sessions_tree(tmp_path / "sessions")
    async with running([str(root)], size=(200, 40)) as (pilot, app, screen):
        assert runs(screen) == [b.THREAD_0171, b.THREAD_060, b.THREAD_020]
        text = "\n".join(screen_lines(app))
        assert "3 runs · 3 with tool errors" in text
        lines = [x.split("│")[1] for x in text.splitlines() if x.startswith("│ • ")]
        row = {t: next(x for x in lines if t in x) for t in ("019c0d0e", "0199a1b2")}
        # steps, calls, tool errors and time as the files hold them
        assert row["019c0d0e"].split()[3:7] == ["8", "2", "1", "2.5s"]
        assert "2026-11-20 09:00Z · /home/dev/api · A" in row["019c0d0e"]
        assert row["0199a1b2"].split()[3:7] == ["10", "4", "1", "3.1s"]
        await pilot.press("j", "enter")  # the 0.60 session's timeline (one list: no headers)
        await settle(pilot)
        text = "\n".join(screen_lines(app))
        assert "turn 1 · Fix the failing test in parser.py" in text
        assert "shell_command cat missing.txt" in text
        assert text.count("Running the tests first.") == 1  # recorded twice, shown once


def runs(screen: MainScreen) -> list[str]:
    """The refs of the run list's run rows, top to bottom (a row per source header aside)."""
    out = []
    for _, source, i in screen.store.rows:
        entry = screen.ws.sources[source].peek(i) if source >= 0 else None
        if isinstance(entry, RunSummary):
            out.append(entry.ref)
    return out


async def test_a_long_session_is_shown_without_holding_every_step(tmp_path: Path) -> None:
    """The timeline of a session reads its steps on demand: showing it never holds them all
    at once (a 2 GB rollout's steps were all built into one list: 2.2 GB of private memory)."""
    r = b.Rollout().meta("t-long", "/w", "0.60.1").context()
    r.item(b.message("user", "run them all"))
    for n in range(2000):
        r.item(b.call(f"c{n}", "shell_command", command=f"job {n}"))
        r.item(b.output(f"c{n}", b.shell_out(0, f"{n} " + "x" * 30_000)))
    path = r.write(tmp_path / "rollout-long.jsonl")  # 60 MB
    tracemalloc.start()  # the run is shown as it opens
    async with running([str(path)], size=(160, 40)) as (pilot, app, screen):
        await pilot.press("enter", "G")
        await settle(pilot)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        assert "shell_command job 1999" in "\n".join(screen_lines(app))
        assert peak < 40 * 2**20, f"{peak / 2**20:.0f} MB"
