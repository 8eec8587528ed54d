"""A key held down in the run list: the cursor follows every press at once, and the run
under it is read and drawn once the presses pause (runs passed over are not read)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.formats.acp.builders import capture, step_message, write_jsonl
from tests.helpers.ui import running, settle


@pytest.fixture
def six_runs(tmp_path: Path) -> Path:
    return write_jsonl(
        tmp_path / "runs.jsonl",
        [capture(f"run-{k}", [step_message(f"run-{k} answers", 100)]) for k in range(6)],
    )


async def test_runs_passed_over_are_not_read(
    six_runs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from trajtui.ui.screens.main import selection

    # presses this close together are fast, however slowly a loaded machine handles them
    monkeypatch.setattr(selection, "RAPID_MOVES", 30.0)
    monkeypatch.setattr(selection, "MOVES_PAUSED", 0.5)
    async with running([str(six_runs)]) as (pilot, _app, screen):
        read: list[int] = []
        real = type(screen.selection).load_run

        def counted(self: object, s: int, i: int) -> None:
            read.append(i)
            real(screen.selection, s, i)

        monkeypatch.setattr(type(screen.selection), "load_run", counted)
        await pilot.press("j", "j", "j", "j")
        assert screen.run_list.cursor == 4  # at once, before any run is read
        await settle(pilot)
        assert screen.run is not None and screen.run.ref == "run-4"
        assert screen.timeline.row_text(0).startswith("run-4 answers")
        assert read == [1, 4]  # the first press's run at once, then the one stopped at


async def test_one_press_shows_its_run_at_once(six_runs: Path) -> None:
    async with running([str(six_runs)]) as (pilot, _app, screen):
        await pilot.pause(0.3)  # no move just before
        await pilot.press("j")
        assert screen.state.run_wanted is None  # read now, not after a pause
        assert screen.run_key == (0, 1)
        await settle(pilot)
        assert screen.run is not None and screen.run.ref == "run-1"


async def test_enter_after_fast_moves_opens_the_run_under_the_cursor(
    six_runs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from trajtui.ui.screens.main import selection

    monkeypatch.setattr(selection, "RAPID_MOVES", 30.0)
    monkeypatch.setattr(selection, "MOVES_PAUSED", 30.0)  # only enter can end the wait
    async with running([str(six_runs)]) as (pilot, _app, screen):
        await pilot.press("j", "j", "enter")
        assert screen.state.run_wanted is None and screen.run_key == (0, 2)  # read now
        await settle(pilot)
        assert screen.focused is screen.timeline
        assert screen.run is not None and screen.run.ref == "run-2"
