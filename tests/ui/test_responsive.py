"""No file I/O on the UI thread: the screen answers keys while the disk is slow.

Each test makes one of the app's reads block (as on a hung network mount) until the test
has seen the UI answer; had the read run on the UI thread, it would time out first, and the
test says so.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from tests.helpers.ui import capture_fixture, running, screen_lines, settle
from tests.helpers.workspace import open_paths
from trajtui.core.jsonl.source import JsonlSource
from trajtui.ui.app import make_app
from trajtui.ui.screens.main import MainScreen
from trajtui.ui.screens.opening import OpeningScreen

BLOCKED_FOR = 8.0
"""Seconds a slow read waits for the test before giving up (held to: never reached)."""


class SlowRead:
    """A read that blocks until :meth:`release`, noting whether it was still blocked when
    the UI answered."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.released = threading.Event()
        self.returned = threading.Event()

    def wait(self) -> None:
        self.started.set()
        self.released.wait(BLOCKED_FOR)
        self.returned.set()

    def release(self) -> None:
        self.released.set()


async def test_the_ui_answers_keys_while_looking_for_changes_is_slow(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    slow = SlowRead()
    real_changed = JsonlSource.changed

    def slow_changed(self: JsonlSource) -> str | None:
        slow.wait()
        return real_changed(self)

    cap = capture_fixture(tmp_path)
    async with running([str(cap)]) as (pilot, app, screen):
        monkeypatch.setattr(JsonlSource, "changed", slow_changed)
        for _ in range(100):  # the change watcher looks every 2 s
            if slow.started.is_set():
                break
            await pilot.pause(0.05)
        assert slow.started.is_set(), "the files were never looked at"
        before = screen.run_list.cursor
        await pilot.press("j")
        answered = screen.run_list.cursor == before + 1 and not slow.returned.is_set()
        slow.release()
        await settle(pilot)
        assert answered, "the key waited for the look at the files"


async def test_the_first_screen_shows_while_the_paths_are_opened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    slow = SlowRead()
    real_open = open_paths

    def slow_open(paths: list[str], formats: object) -> object:
        slow.wait()
        return real_open(paths)

    monkeypatch.setattr("trajtui.ui.app.open_paths", slow_open)
    cap = capture_fixture(tmp_path)
    app = make_app([str(cap)])
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.1)
        drawn = "opening" in "\n".join(screen_lines(app)) and isinstance(app.screen, OpeningScreen)
        blocked = not slow.returned.is_set()
        slow.release()
        await settle(pilot)
        assert drawn and blocked, "nothing was drawn until the paths were open"
        assert isinstance(app.screen, MainScreen)
        assert "websearch-1" in "\n".join(screen_lines(app))


async def test_q_quits_while_the_paths_are_opened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    slow = SlowRead()
    monkeypatch.setattr("trajtui.ui.app.open_paths", lambda paths: slow.wait())
    app = make_app([str(tmp_path)])
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.1)
        await pilot.press("q")
        await pilot.pause(0.1)
        quit_while_blocked = not app.is_running and not slow.returned.is_set()
        slow.release()
    assert quit_while_blocked


async def test_settings_are_read_off_the_ui_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from trajtui.ui import settings

    slow = SlowRead()
    real_load = settings.load

    def slow_load() -> dict[str, object]:
        slow.wait()
        return real_load()

    monkeypatch.setattr(settings, "load", slow_load)
    app = make_app([str(capture_fixture(tmp_path))])
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.1)
        drawn = "opening" in "\n".join(screen_lines(app)) and not slow.returned.is_set()
        slow.release()
        await settle(pilot)
        assert drawn, "nothing was drawn until the settings were read"
        assert isinstance(app.screen, MainScreen)
