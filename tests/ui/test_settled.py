"""The app's settled signal (what Pilot tests wait on), the host protocol the screens reach
the app through, and the loader's waits, woken rather than polled."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.app import App

from tests.formats.acp.builders import capture, write_jsonl
from tests.helpers.ui import capture_fixture, running, settle
from trajtui.core.jsonl.index import ScanProgress
from trajtui.core.jsonl.source import JsonlSource
from trajtui.ui.app import make_app
from trajtui.ui.host import host


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """Holds the reading of files named ``late*`` until the event is set."""
    release = threading.Event()
    real = JsonlSource.scan

    def scan(self: JsonlSource) -> Iterator[ScanProgress]:
        if Path(self.path).name.startswith("late"):
            release.wait(30)
        yield from real(self)

    monkeypatch.setattr(JsonlSource, "scan", scan)
    yield release
    release.set()


async def test_a_test_waiting_on_an_app_that_never_settles_fails_saying_what(
    tmp_path: Path, held: threading.Event
) -> None:
    path = capture_fixture(tmp_path, "late.jsonl")
    app = make_app([str(path)])
    async with app.run_test(size=(120, 40)) as pilot:
        with pytest.raises(
            AssertionError, match=r"did not settle within 0\.5 s: reading the files"
        ):
            await settle(pilot, timeout=0.5)
        held.set()
        await settle(pilot)
        assert app.unsettled() == []
        assert app.main is not None and app.main.run is not None


async def test_a_settled_app_says_so_at_once(tmp_path: Path) -> None:
    async with running([str(capture_fixture(tmp_path))]) as (pilot, app, screen):
        assert app.unsettled() == [] and screen.unsettled() == []
        await asyncio.wait_for(app.settled(), 1)
        await pilot.press("j")  # another run: read in a worker
        await settle(pilot)
        assert screen.run is not None and screen.run.ref == "websearch-2"


async def test_a_reload_is_settled_on_the_new_screen(tmp_path: Path) -> None:
    async with running([str(capture_fixture(tmp_path))]) as (pilot, app, screen):
        await pilot.press("R")
        await settle(pilot)
        assert app.main is not None and app.main is not screen and app.screen is app.main
        assert app.main.run is not None


async def test_a_screen_in_an_app_that_is_no_host_says_what_it_lacks() -> None:
    app: App[Any] = App()
    async with app.run_test():
        with pytest.raises(TypeError, match=r"App is no trajtui host: it lacks paths, follow"):
            host(app.screen)


async def test_quitting_while_the_loader_waits_for_the_first_screen_ends_the_wait(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The loader waits (without a time limit here) for a first screen that never comes:
    quitting wakes it, and its thread ends."""
    from trajtui.core.jsonl import index
    from trajtui.ui.screens.main import loading
    from trajtui.ui.screens.main.selection import Selection

    monkeypatch.setattr(index, "CHUNK", 32768)
    monkeypatch.setattr(loading, "FIRST_SCREEN_WAIT", 1e9)
    monkeypatch.setattr(loading, "FIRST_SCREEN_FROM", 0)
    monkeypatch.setattr(Selection, "_check_first_drawn", lambda self: None)  # never drawn
    waiting, ended = threading.Event(), threading.Event()
    real = loading.Loader._first_screen_first

    def watched(self: Any, *args: Any) -> int:
        waiting.set()
        try:
            return real(self, *args)
        finally:
            ended.set()

    monkeypatch.setattr(loading.Loader, "_first_screen_first", watched)
    path = write_jsonl(
        tmp_path / "many.jsonl", [capture(f"run-{i:03d}", input="x" * 400) for i in range(300)]
    )
    app = make_app([str(path)])
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(200):
            if waiting.is_set():
                break
            await pilot.pause(0.05)
        assert waiting.is_set(), "the loader never waited for the first screen"
        await pilot.pause(0.2)
        assert not ended.is_set(), "the wait ended with no first screen drawn"
    assert await asyncio.to_thread(ended.wait, 5), "the loader still waits after quitting"


async def test_paths_opened_after_the_app_quit_are_closed_not_shown(tmp_path: Path) -> None:
    """A reload (or ``F``'s read again) whose paths open while the app is quitting: the
    app ended with an internal error (no screen to switch from) under load."""
    from trajtui.core.workspace import open_paths
    from trajtui.formats.registry import formats
    from trajtui.ui.messages import Opened

    path = capture_fixture(tmp_path)
    app = make_app([str(path)])
    async with app.run_test() as pilot:
        await settle(pilot)
    assert not app.screen_stack  # the app has quit
    ws = open_paths([str(path)], formats())
    closed: list[bool] = []
    ws.close = lambda: closed.append(True)  # type: ignore[method-assign]
    app.on_opened(Opened(ws, None, None))
    assert closed == [True]
