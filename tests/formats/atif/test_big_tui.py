"""A big ATIF trajectory's first screen: its row is listed at once, partial (``reading``),
its run shown with the steps read so far, while the document is still being read; both are
revised to the whole run when it is read to its end."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from tests.formats.atif import builders as b
from tests.helpers.ui import screen_lines, settle
from trajtui.core.io.jsondoc import Scanned
from trajtui.formats.atif import source as atif_source
from trajtui.formats.atif.lazy import TrajectoryRead
from trajtui.ui.app import make_app

STEPS = 600


def row_of(app: Any) -> str:
    return next((line for line in screen_lines(app) if "Make the suite pass" in line), "")


async def test_a_big_trajectory_is_listed_reading_and_shown_before_it_is_read_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "trajectory.json"
    b.write_long(path, STEPS, "x" * 20_000)
    gate = threading.Event()  # the end of the document waits for the test
    reached = threading.Event()
    finish = TrajectoryRead._finish

    def held(self: TrajectoryRead, scanned: Scanned) -> None:
        reached.set()
        gate.wait(60)
        finish(self, scanned)

    monkeypatch.setattr(TrajectoryRead, "_finish", held)
    monkeypatch.setattr(atif_source, "PARTIAL_AFTER", 0.0)  # however fast it is read
    app = make_app([str(path)])
    async with app.run_test(size=(200, 40)) as pilot:
        try:
            for _ in range(600):
                await pilot.pause(0.05)
                if row_of(app) and reached.is_set() and app.screen.run is not None:  # type: ignore[attr-defined]
                    break
            assert reached.is_set()
            await pilot.pause(0.3)  # (the last revision drawn)
            row = row_of(app)
            assert "reading" in row, screen_lines(app)
            source = app.screen.ws.sources[0]  # type: ignore[attr-defined]
            assert not source.complete
            run = app.screen.run  # type: ignore[attr-defined]
            assert run is not None and 0 < len(run.steps) <= STEPS + 1
            assert run.steps[0].title and "Make the suite pass" in run.steps[0].title
        finally:
            gate.set()
        await settle(pilot)
        row = row_of(app)
        assert "reading" not in row, row
        whole = source.entry(0)
        assert whole.steps == STEPS + 1 and whole.tool_calls == STEPS
        assert f" {whole.steps:,} " in row, row
        assert len(app.screen.run.steps) == STEPS + 1  # type: ignore[attr-defined]


def test_a_trajectory_read_in_less_than_a_revision_is_listed_once(tmp_path: Path) -> None:
    """A job's small trajectories are never listed partial: each row is drawn and counted
    once, not once partial and once whole."""
    path = b.write_json(tmp_path / "trajectory.json", b.fix_bug())
    source = atif_source.AtifSource(str(path), "file")
    source.partial_rows = True
    for _ in source.scan():
        pass
    assert len(source.run_refs()) == 1 and source.revision == 0
