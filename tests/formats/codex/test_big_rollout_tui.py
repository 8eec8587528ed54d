"""A big rollout's first screen: its row is listed at once, partial (``reading``), while
the file is still being read, and revised to the whole run's figures when it is read whole."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.formats.codex import builders as b
from tests.helpers.ui import Held, screen_lines, settle
from trajtui.core.jsonl.session import SessionSource
from trajtui.ui.app import make_app

SIZE = 40 << 20


def big_rollout(path: Path) -> None:
    """Turns of a 0.60 session, each answered (so the file read so far always ends in a
    completed turn), with a 60 KB command output in each, up to :data:`SIZE` bytes."""
    r = b.Rollout().meta("019c0000-0000-7000-8000-0000000b1600", "/home/dev/big", "0.60.1")
    r.context()
    path.parent.mkdir(parents=True)
    with path.open("w") as f:
        f.write(r.text())
        n = 0
        while f.tell() < SIZE:
            t = b.Rollout()
            t.item(b.message("user", f"Turn {n}: build the big thing"))
            t.item(b.call(f"c{n}", "shell_command", command=f"make part{n}"))
            t.item(b.output(f"c{n}", b.shell_out(0, "x" * 60_000)))
            t.item(b.message("assistant", f"Part {n} built."))
            f.write(t.text())
            n += 1


def row_of(app: Any) -> str:
    return next((line for line in screen_lines(app) if "/home/dev/big" in line), "")


async def test_a_big_rollout_is_listed_reading_before_it_is_read_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "sessions" / "rollout-2026-11-20T09-00-00-big.jsonl"
    big_rollout(path)
    held = Held(monkeypatch, SessionSource, "_finish")  # the fold's end waits for the test
    app = make_app([str(path)])
    async with app.run_test(size=(200, 40)) as pilot:
        try:
            await held.until(pilot, lambda: row_of(app))  # (and the last revision drawn)
            row = row_of(app)
            # what was read so far ends in a completed turn: the row still says it is partial
            assert "reading" in row, screen_lines(app)
            assert "completed" not in row
            source = app.screen.ws.sources[0]  # type: ignore[attr-defined]
            assert not source.complete
        finally:
            held.release()
        await settle(pilot)
        row = row_of(app)
        assert "completed" in row and "reading" not in row
        whole = source.entry(0)
        assert f" {whole.steps:,} " in row and f" {whole.tool_calls:,} " in row, row
