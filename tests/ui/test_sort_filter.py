"""Sorting and filtering many runs: a column picked in one key, the work done off the UI
thread, and the latest keystroke winning."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from tests.formats.acp.builders import capture, write_jsonl
from tests.helpers.ui import listed, running, screen_lines, settle
from trajtui.ui.screens.main import finding
from trajtui.ui.screens.sort import SortScreen
from trajtui.ui.store import RunStore


def scored(directory: Path) -> Path:
    """Runs whose scores are not in file order (one without a score)."""
    recs = [
        capture("r-mid", score={"pass": True, "score": 0.5}),
        capture("r-low", score={"pass": False, "score": 0.1}),
        capture("r-none"),
        capture("r-high", score={"pass": True, "score": 0.9}),
        capture("web-low", score={"pass": False, "score": 0.2}),
    ]
    return write_jsonl(directory / "scored.jsonl", recs)


async def test_O_picks_the_sort_column_in_one_key_and_again_reverses(tmp_path: Path) -> None:
    path = scored(tmp_path)
    async with running([str(path)]) as (pilot, app, screen):
        await pilot.press("O")
        await pilot.pause()
        assert isinstance(app.screen, SortScreen)
        drawn = "\n".join(screen_lines(app))
        assert "7  score" in drawn and "0  file order  ← now" in drawn
        await pilot.press("7")
        await settle(pilot)
        assert listed(screen) == ["r-low", "web-low", "r-mid", "r-high", "r-none"]
        await pilot.press("O")
        await pilot.pause()
        assert "7  score  ← now" in "\n".join(screen_lines(app))
        await pilot.press("7")  # the same column again: reversed, runs without a score last
        await settle(pilot)
        assert listed(screen) == ["r-high", "r-mid", "web-low", "r-low", "r-none"]
        await pilot.press("O", "escape")  # cancelled: nothing changes
        await settle(pilot)
        assert listed(screen) == ["r-high", "r-mid", "web-low", "r-low", "r-none"]
        await pilot.press("O", "k", "enter")  # the cursor starts on score; one up: duration
        await settle(pilot)
        assert (screen.store.sort, screen.store.reverse) == ("duration", False)
        await pilot.press("O")
        await pilot.pause()
        assert "cost" not in "\n".join(screen_lines(app))  # no run has a cost: not offered


@pytest.fixture
def in_worker(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Sorting and filtering go to the worker however few runs there are; returns the
    threads each computation of rows ran on, and slows each so keystrokes overtake it."""
    monkeypatch.setattr(finding, "ARRANGE_IN_WORKER_FROM", 0)
    threads: list[str] = []
    plan = RunStore.plan

    def slow_plan(self: RunStore, *args: Any, **kwargs: Any) -> Any:
        threads.append(threading.current_thread().name)
        if threading.current_thread() is not threading.main_thread():
            time.sleep(0.3)
        return plan(self, *args, **kwargs)

    monkeypatch.setattr(RunStore, "plan", slow_plan)
    return threads


async def test_many_runs_are_filtered_off_the_ui_thread_and_the_last_key_wins(
    tmp_path: Path, in_worker: list[str]
) -> None:
    path = scored(tmp_path)
    async with running([str(path)]) as (pilot, app, screen):
        in_worker.clear()
        await pilot.press("f", *"web")
        # what is typed is on screen at once, while the rows are being worked out
        assert screen.query_one("#filter").value == "web"  # type: ignore[attr-defined]
        await settle(pilot)
        assert listed(screen) == ["web-low"]
        assert screen.store.filter.text == "web"
        assert in_worker and threading.main_thread().name not in in_worker


async def test_many_runs_are_sorted_off_the_ui_thread(tmp_path: Path, in_worker: list[str]) -> None:
    path = scored(tmp_path)
    async with running([str(path)]) as (pilot, app, screen):
        in_worker.clear()
        await pilot.press("O", "7")
        await settle(pilot)
        assert listed(screen) == ["r-low", "web-low", "r-mid", "r-high", "r-none"]
        assert in_worker and threading.main_thread().name not in in_worker


async def test_s_cycles_through_the_columns_O_offers(tmp_path: Path) -> None:
    """``s`` and ``O`` read one column table: every column the picker offers, ``s`` visits
    (it skipped "tool calls"), in the picker's order, then back to file order."""
    step = {"type": "tool_call", "name": "Bash", "status": "completed", "timestamp": 5}
    recs = [
        capture("r-a", [step, step], score={"pass": True, "score": 0.5}),
        capture("r-b", [step], score={"pass": False, "score": 0.1}),
    ]
    path = write_jsonl(tmp_path / "calls.jsonl", recs)
    async with running([str(path)]) as (pilot, app, screen):
        await pilot.press("O")
        await pilot.pause()
        assert isinstance(app.screen, SortScreen)
        offered = [c or "file order" for c in app.screen.columns]
        await pilot.press("escape")
        visited = ["file order"]
        for _ in range(len(offered)):
            await pilot.press("s")
            await settle(pilot)
            visited.append(screen.store.sort or "file order")
        assert "tool calls" in offered
        assert visited == [*offered, "file order"]
