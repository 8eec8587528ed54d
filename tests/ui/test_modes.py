"""Modes that outlive the object they were turned on for say so on screen, and settings
written by one session never undo another's.

`r` (raw JSON) stayed on for every later object with nothing saying so; `m` (merged chunks)
and `T` (theme) came back in a new session silently; and a session wrote back every setting
it had read, so two sessions open at once overwrote each other's changes.
"""

from __future__ import annotations

import json
from pathlib import Path

from textual.widgets import TabbedContent

from tests.helpers.ui import capture_fixture, running, screen_lines, settle
from trajtui.ui import settings


def _detail_tab(app: object) -> str:
    tabs = app.screen.query_one("#bottom", TabbedContent)  # type: ignore[attr-defined]
    return str(tabs.get_tab("tab-detail").label)


def _text(app: object) -> str:
    return "\n".join(screen_lines(app))


async def test_raw_json_is_said_in_the_detail_tab_for_every_object_it_stays_on_for(
    tmp_path: Path,
) -> None:
    path = capture_fixture(tmp_path)
    async with running([str(path)]) as (pilot, app, screen):
        assert "raw" not in _detail_tab(app)
        await pilot.press("r")
        await settle(pilot)
        assert "raw JSON" in _detail_tab(app)
        await pilot.press("j")  # another run: still raw, still said
        await settle(pilot)
        assert "raw JSON" in _detail_tab(app) and "raw JSON" in _text(app)
        await pilot.press("r")
        await settle(pilot)
        assert "raw" not in _detail_tab(app)
        await pilot.press("o")  # long values in full: said too
        await settle(pilot)
        assert "unfolded" in _detail_tab(app)


async def test_merged_chunks_from_the_last_session_are_said(tmp_path: Path) -> None:
    path = capture_fixture(tmp_path)
    where = settings.settings_path()
    where.parent.mkdir(parents=True, exist_ok=True)
    where.write_text(json.dumps({"theme": "textual-light", "merge_chunks": True}))
    async with running([str(path)], notifications=True) as (pilot, app, screen):
        await pilot.press("j")
        await settle(pilot)
        text = _text(app)
        assert "chunks merged" in text  # the timeline's title says it
        assert "from your settings" in text  # and the first screen says where it came from


def test_a_session_writes_only_the_settings_it_changed(tmp_path: Path) -> None:
    """Two sessions: A reads the settings, B turns merging on and saves, A switches the
    theme and saves: B's merging stays."""
    where = settings.settings_path()
    where.parent.mkdir(parents=True, exist_ok=True)
    where.write_text(json.dumps({"theme": "textual-dark", "merge_chunks": False, "x": 1}))
    session_a = settings.load()
    assert session_a["merge_chunks"] is False
    assert settings.save({"merge_chunks": True})  # session B
    assert settings.save({"theme": "textual-light"})  # session A changed only the theme
    saved = json.loads(where.read_text())
    assert saved == {"theme": "textual-light", "merge_chunks": True, "x": 1}
    assert not settings.save({"theme": "textual-light"})  # nothing changed: nothing written
