"""A big session's first screen: its row is listed at once, partial, while the file is
still being read, and revised when it is read whole."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.formats.claude_code import builders as b
from tests.helpers.ui import Held, screen_lines, settle
from trajtui.core.jsonl.session import SessionSource
from trajtui.ui.app import make_app

SIZE = 40 << 20


def big_session(path: Path) -> None:
    """The fixture's turns repeated with fresh ids, a 60 KB line after each copy, up to
    :data:`SIZE` bytes."""
    pad = json.dumps({"type": "attachment", "attachment": {"type": "x", "text": "x" * 60_000}})
    path.parent.mkdir(parents=True)
    n = 0
    with path.open("w") as f:
        while f.tell() < SIZE:
            for obj in b.session_21():
                text = json.dumps(obj)
                f.write(text.replace("toolu_", f"toolu_{n}_").replace('"msg_0', f'"msg_{n}_0'))
                f.write("\n")
            f.write(pad + "\n")
            n += 1


def row_of(app: Any) -> str:
    return next((line for line in screen_lines(app) if "Fix the failing build" in line), "")


async def test_a_big_session_is_listed_partial_before_it_is_read_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "projects" / "-home-u-app" / f"{b.SID}.jsonl"
    big_session(path)
    # what is on screen before the fold's end is the partial row
    held = Held(monkeypatch, SessionSource, "_finish")  # the fold's end waits for the test
    app = make_app([str(path)])
    async with app.run_test(size=(200, 40)) as pilot:
        try:
            await held.until(pilot, lambda: row_of(app))  # (and the last revision drawn)
            row = row_of(app)
            assert "reading" in row, screen_lines(app)
            assert "done" not in row
            source = app.screen.ws.sources[0]  # type: ignore[attr-defined]
            assert not source.complete
        finally:
            held.release()
        await settle(pilot)
        row = row_of(app)
        assert "done" in row and "reading" not in row
        # the row revised to the whole run's figures, and the detail shows them too
        whole = source.entry(0)
        assert source.complete and whole.status == "done"
        assert f" {whole.steps:,} " in row and f" {whole.tool_calls:,} " in row, row
        assert len(app.screen.run.steps) == whole.steps  # type: ignore[attr-defined]


async def test_the_step_read_while_the_session_is_read_stays_shown_when_it_is_read_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The run shown is read again when its session is read whole: the step the user went to
    in the meantime stays the one shown, not the run's top."""
    path = tmp_path / "projects" / "-home-u-app" / f"{b.SID}.jsonl"
    big_session(path)
    held = Held(monkeypatch, SessionSource, "_finish")  # the fold's end waits for the test
    app = make_app([str(path)])
    async with app.run_test(size=(200, 40)) as pilot:
        screen: Any = None
        try:
            await held.until(
                pilot, lambda: getattr(getattr(app.screen, "state", None), "run", None)
            )
            screen = app.screen
            await pilot.press("enter")  # into the timeline
            await pilot.press("j", "j", "j")
            await pilot.pause(0.2)
            cursor = screen.timeline.cursor
            assert cursor == 3
            before = screen.state.subject
        finally:
            held.release()
        await settle(pilot)
        assert screen.state.run is not None and screen.state.run.steps  # read whole
        assert screen.timeline.cursor == cursor
        assert screen.state.subject == before
        assert screen.focused is screen.timeline
