"""Pilot tests: the keys that change what the run list and the views show: a click, the filter,
sorting, merged chunks, raw JSON and unfolding, the theme, a narrow terminal; text from the data
shown literally."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.ui import (
    capture_fixture,
    hostile_fixture,
    listed,
    running,
    settle,
)
from trajtui.ui.screens.main import MainScreen
from trajtui.ui.widgets.detail import DetailView
from trajtui.ui.widgets.run_list import ColumnHeader, RunList
from trajtui.ui.widgets.timeline import Timeline


@pytest.fixture
def cap(tmp_path: Path) -> str:
    return str(capture_fixture(tmp_path))


def current_ref(screen: MainScreen) -> str | None:
    return screen.run.ref if screen.run is not None else None


async def test_mouse_click_selects_a_row_and_sorts_by_a_column(cap: str) -> None:
    async with running([cap]) as (pilot, app, screen):
        await pilot.click(RunList, offset=(5, 1))
        await settle(pilot)
        assert current_ref(screen) == "websearch-2"
        header = app.screen.query_one(ColumnHeader)
        x = next(start for start, _, sort in header._spans if sort == "score")
        await pilot.click(ColumnHeader, offset=(x, 0))
        await settle(pilot)
        assert screen.store.sort == "score"
        refs = [ref for ref in listed(screen) if ref != "problem"]
        assert refs[:2] == ["websearch-2", "websearch-4"]
        assert refs[-1] == "websearch-3"  # no score: last
        await pilot.click(RunList, offset=(5, 0), times=2)
        await settle(pilot)
        assert isinstance(app.focused, Timeline)


async def test_f_filters_by_status_and_text(cap: str) -> None:
    async with running([cap]) as (pilot, app, screen):
        await pilot.press("f", *"status:pass")
        await settle(pilot)
        assert listed(screen) == ["websearch-1", "websearch-4"]
        await pilot.press("enter")
        assert isinstance(app.focused, RunList)
        await pilot.press("f", "escape")
        assert len(screen.store.rows) == 5
        await pilot.press("f", *"is:problem", "enter")
        assert len(screen.store.rows) == 1


async def test_s_and_S_sort(cap: str) -> None:
    async with running([cap]) as (pilot, app, screen):
        await pilot.press("s")
        assert screen.store.sort == "status"
        await pilot.press("S")
        assert screen.store.reverse
        seen = []
        for _ in range(7):  # the columns the runs have (none has a cost: not sorted by)
            await pilot.press("s")
            seen.append(screen.store.sort)
        # tool calls too, as O offers it (s used to skip it)
        assert seen == ["ref", "steps", "tool calls", "tool errors", "duration", "score", None]


async def test_m_merges_streamed_chunks(cap: str) -> None:
    async with running([cap]) as (pilot, app, screen):
        await pilot.press("j")
        await settle(pilot)
        assert screen.timeline.row_count == 9
        await pilot.press("m")
        assert screen.timeline.row_count == 5
        await pilot.press("enter", "G")
        await settle(pilot)
        assert "The CEO is Dario Amodei." in screen.detail.text
        assert "5 streamed message chunks merged" in screen.detail.text


async def test_r_shows_raw_json_and_o_unfolds(tmp_path: Path) -> None:
    from tests.formats.acp.builders import capture, step_tool, write_jsonl

    long_output = "\n".join(f"line {i}" for i in range(300))
    path = write_jsonl(
        tmp_path / "c.jsonl",
        [capture("long", [step_tool("Read", "completed", 5, output=long_output)])],
    )
    async with running([str(path)]) as (pilot, app, screen):
        await pilot.press("enter", "enter")
        await settle(pilot)
        assert "line 20" in screen.detail.text and "line 299" not in screen.detail.text
        assert "more lines folded" in screen.detail.text
        await pilot.press("o")
        await settle(pilot)
        assert "line 299" in screen.detail.text
        await pilot.press("r")
        await settle(pilot)
        assert '"type": "tool_call"' in screen.detail.text


async def test_text_from_the_data_is_shown_literally(tmp_path: Path) -> None:
    path = str(hostile_fixture(tmp_path))
    async with running([path]) as (pilot, app, screen):
        await pilot.press("enter", "j", "enter")
        await settle(pilot)
        text = screen.detail.text
        assert "[@click=app.quit]click me[/]" in text
        assert "␛[31mred␛[0m" in text and "\x1b" not in text
        assert "⟨U+202E⟩" in text and "\u202e" not in text
        # clicking the would-be link does nothing
        await pilot.click(DetailView, offset=(5, 4))
        await pilot.pause()
        assert app.is_running
        row = screen.run_list.render_row(0, 80).plain
        assert "evil-[bold]1" in row


async def test_T_switches_theme_and_it_is_remembered(cap: str) -> None:
    from trajtui.ui import settings

    async with running([cap]) as (pilot, app, screen):
        assert app.theme == "textual-dark"
        await pilot.press("T")
        assert app.theme == "textual-light" and not app.current_theme.dark
    assert settings.load()["theme"] == "textual-light"


async def test_narrow_terminal_shows_one_pane_with_a_breadcrumb(cap: str) -> None:
    async with running([cap], size=(80, 24)) as (pilot, app, screen):
        assert screen.narrow
        top = app.screen.query_one("#timeline-pane")
        assert not top.display or not top.visible or top.region.width == 0
        await pilot.press("j", "enter")
        await settle(pilot)
        assert isinstance(app.focused, Timeline)
        assert app.screen.query_one("#timeline-pane").region.width > 70
        assert "Runs › websearch-2" in str(app.screen.query_one("#breadcrumb").render())
        await pilot.press("escape")
        assert app.screen.query_one("#runs-pane").region.width > 70
