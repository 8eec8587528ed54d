"""Pilot tests: every key of the command table does what the help says: moving, drilling in and
backing out, panes and runs, search, going to a reference, copying, paging, quitting, and keys
on big lists."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from textual.widget import Widget

from tests.formats.forecast.builders import fed_eval
from tests.helpers.ui import (
    PagerHost,
    capture_fixture,
    reads,
    running,
    screen_lines,
    settle,
    trials_fixture,
    typed,
)
from trajtui.core.model import Problem
from trajtui.ui.app import TrajtuiApp
from trajtui.ui.screens.main import MainScreen
from trajtui.ui.subjects import StepSubject
from trajtui.ui.widgets.detail import DetailView
from trajtui.ui.widgets.run_list import RunList
from trajtui.ui.widgets.timeline import Timeline


@pytest.fixture
def cap(tmp_path: Path) -> str:
    return str(capture_fixture(tmp_path))


@pytest.fixture
def forecast_dir(tmp_path: Path) -> str:
    return str(fed_eval(tmp_path / "eval"))


def current_ref(screen: MainScreen) -> str | None:
    return screen.run.ref if screen.run is not None else None


def focused(app: TrajtuiApp) -> Widget | None:
    """The focused widget (read through a call: mypy would keep ``app.focused`` narrowed
    to what an earlier assert said, though keys move the focus)."""
    return app.focused


async def test_first_screen_lists_runs_and_a_problem_row(cap: str) -> None:
    async with running([cap]) as (pilot, app, screen):
        rows = screen.store.rows
        assert len(rows) == 5
        kinds = [type(screen.ws.sources[0].peek(i)).__name__ for _, _, i in rows]
        assert kinds == ["RunSummary", "RunSummary", "RunSummary", "Problem", "RunSummary"]
        assert screen.store.summary_line() == (
            "4 runs · 66.7% pass (2 of 3 graded) · 1 timeout · 1 with tool errors"
            " · 2 flagged toolErrors · 1 problem"
        )
        assert current_ref(screen) == "websearch-1"
        assert isinstance(app.focused, RunList)


async def test_j_k_and_arrows_move_and_show_the_run(cap: str) -> None:
    async with running([cap]) as (pilot, app, screen):
        await pilot.press("j")
        await settle(pilot)
        assert current_ref(screen) == "websearch-2"
        await pilot.press("down", "down")
        await settle(pilot)
        assert screen.run is None and isinstance(screen.run_problem, Problem)
        assert screen.run_problem.line == 4
        assert reads(screen.detail.text, "results.jsonl:4: invalid JSON")
        await pilot.press("k", "up")
        await settle(pilot)
        assert current_ref(screen) == "websearch-2"
        assert screen.timeline.row_count == 9


async def test_enter_and_l_drill_in_esc_and_h_back_out(cap: str) -> None:
    async with running([cap]) as (pilot, app, screen):
        await pilot.press("j")
        await settle(pilot)
        await pilot.press("enter")
        assert isinstance(app.focused, Timeline)
        await pilot.press("j", "l")
        await settle(pilot)
        assert isinstance(app.focused, DetailView)
        assert isinstance(screen.subject, StepSubject)
        assert "websearch-2-step-2" in screen.detail.text
        assert "anthropic ceo" in screen.detail.text
        await pilot.press("escape")
        assert isinstance(app.focused, Timeline)
        await pilot.press("h")
        assert isinstance(app.focused, RunList)


async def test_tab_and_shift_tab_cycle_panes(cap: str) -> None:
    async with running([cap]) as (pilot, app, screen):
        await pilot.press("tab")
        assert isinstance(app.focused, Timeline)
        await pilot.press("tab")
        assert isinstance(app.focused, DetailView)
        await pilot.press("tab")
        assert isinstance(app.focused, RunList)
        await pilot.press("shift+tab")
        assert isinstance(app.focused, DetailView)


async def test_H_and_L_change_run_from_any_pane(cap: str) -> None:
    async with running([cap]) as (pilot, app, screen):
        await pilot.press("enter")
        assert isinstance(app.focused, Timeline)
        await pilot.press("L")
        await settle(pilot)
        assert current_ref(screen) == "websearch-2"
        assert isinstance(app.focused, Timeline)
        await pilot.press("L", "L")  # skips nothing: the problem row is a row
        await settle(pilot)
        await pilot.press("H")
        await settle(pilot)
        assert screen.run_list.cursor == 2
        await pilot.press("H", "H", "H")
        await settle(pilot)
        assert current_ref(screen) == "websearch-1"


async def test_g_and_G_go_to_first_and_last(cap: str) -> None:
    async with running([cap]) as (pilot, app, screen):
        await pilot.press("G")
        await settle(pilot)
        assert current_ref(screen) == "websearch-4"
        await pilot.press("g")
        await settle(pilot)
        assert current_ref(screen) == "websearch-1"
        await pilot.press("L", "enter", "G")
        assert screen.timeline.cursor == screen.timeline.row_count - 1


async def test_search_and_n_N_in_the_timeline_and_detail(cap: str) -> None:
    async with running([cap]) as (pilot, app, screen):
        await pilot.press("j", "enter")  # the run list's / searches every run (test_ui_grep)
        await settle(pilot)
        await pilot.press("slash")
        await typed(pilot, "read")
        await pilot.press("enter")
        await settle(pilot)
        assert screen.timeline.search_query == "read"
        await pilot.press("slash")
        await typed(pilot, "websearch")
        await pilot.press("enter")
        start = screen.timeline.cursor
        await pilot.press("n")
        assert screen.timeline.cursor != start
        await pilot.press("N")
        assert screen.timeline.cursor == start
        # in the detail pane
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("g")
        await settle(pilot)
        await pilot.press("tab", "tab")
        assert isinstance(app.focused, DetailView)
        await pilot.press("slash")
        await typed(pilot, "search")
        await pilot.press("enter")
        # step 1: "websearch-1-step-1  ◦ I'll search for it", then its text again
        assert len(screen.detail.matches) == 3
        assert focused(app) is screen.detail
        assert screen.detail.match_index == 0
        await pilot.press("n")
        assert screen.detail.match_index == 1
        await pilot.press("N", "N")
        assert screen.detail.match_index == 2  # wraps around


async def test_escape_closes_search_without_keeping_it(cap: str) -> None:
    async with running([cap]) as (pilot, app, screen):
        await pilot.press("j", "enter")
        await settle(pilot)
        await pilot.press("slash", *"read")
        assert screen.timeline.search_query == "read"
        await pilot.press("escape")
        assert screen.timeline.search_query == ""
        assert isinstance(app.focused, Timeline)


async def test_colon_goes_to_a_reference(cap: str) -> None:
    async with running([cap]) as (pilot, app, screen):
        await pilot.press("colon")
        await typed(pilot, "websearch-2-step-4")
        await pilot.press("enter")
        await settle(pilot)
        assert current_ref(screen) == "websearch-2"
        assert screen.subject == StepSubject(trial=None, first=3, last=3)
        assert isinstance(app.focused, DetailView)
        assert "ENOENT" in screen.detail.text
        await pilot.press("colon")
        await typed(pilot, "nope-17")
        await pilot.press("enter")
        await settle(pilot)
        assert current_ref(screen) == "websearch-2"


async def test_the_goto_prompt_names_the_segments_of_the_open_sources(
    cap: str, forecast_dir: str
) -> None:
    """The ``:`` prompt's hint names the reference segments the open formats resolve (a
    forecast run's ``msg:`` and ``src:``), and none for formats that have none."""

    async def hint(paths: list[str]) -> str:
        async with running(paths) as (pilot, app, _screen):
            await pilot.press("colon")
            await settle(pilot)
            shown = "\n".join(screen_lines(app))
            await pilot.press("escape")
            return shown

    plain = await hint([cap])
    assert "go to: RUN · RUN-step-N" in plain
    assert "msg:" not in plain and "src:" not in plain
    forecast = await hint([forecast_dir])
    assert "RUN/msg:KEY · RUN/src:KEY" in forecast


async def test_goto_option_opens_at_a_trial_step(tmp_path: Path) -> None:
    path = str(trials_fixture(tmp_path))
    async with running([path], goto="search-1/trial-2/step-3") as (pilot, app, screen):
        assert current_ref(screen) == "search-1"
        assert screen.subject == StepSubject(trial=2, first=2, last=2)
        assert "search-1/trial-2/step-3" in screen.detail.text


async def test_y_copies_the_current_object_and_Y_its_reference(cap: str) -> None:
    async with running([cap]) as (pilot, app, screen):
        await pilot.press("j")
        await settle(pilot)
        await pilot.press("enter", "j", "j", "j")
        await settle(pilot)
        await pilot.press("y")
        assert '"file_path": "src/main.tf"' in app.clipboard
        await pilot.press("Y")
        assert app.clipboard == "websearch-2-step-4"


async def test_e_opens_the_object_in_the_pager(cap: str, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []

    def fake_page(app: object, text: str) -> str | None:
        seen.append(text)
        return None

    monkeypatch.setattr("trajtui.ui.pager.page", fake_page)
    async with running([cap]) as (pilot, app, screen):
        await pilot.press("e")
        assert seen and seen[0].startswith("websearch-1\n")
        assert '"id": "websearch-1"' in seen[0]


def test_pager_writes_a_temp_file_outside_the_data_and_removes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from trajtui.ui.pager import page

    out = tmp_path / "out"
    out.mkdir()
    monkeypatch.setenv("PAGER", f"cp -t {out}")
    assert page(PagerHost(), "hello \x1b[31m") is None
    (copied,) = out.iterdir()
    assert copied.read_text() == "hello ␛[31m"
    cache = Path(os.environ["XDG_CACHE_HOME"]) / "trajtui"
    assert list(cache.iterdir()) == []


async def test_q_quits(cap: str) -> None:
    async with running([cap]) as (pilot, app, screen):
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running


async def test_page_keys_move_a_page(tmp_path: Path) -> None:
    from tests.formats.acp.builders import capture, write_jsonl

    path = write_jsonl(tmp_path / "many.jsonl", [capture(f"r{i}") for i in range(200)])
    async with running([str(path)]) as (pilot, app, screen):
        height = screen.run_list.size.height
        await pilot.press("pagedown")
        assert screen.run_list.cursor == height - 1
        await pilot.press("ctrl+d")
        assert screen.run_list.cursor == 2 * (height - 1)
        await pilot.press("ctrl+u", "pageup")
        assert screen.run_list.cursor == 0


async def test_a_hundred_thousand_runs_scroll(tmp_path: Path) -> None:
    line = '{"id":"r%06d","input":"q","output":"","trajectory":[],"timing":{"start":0,"end":5},"toolErrors":false}\n'
    path = tmp_path / "big.jsonl"
    path.write_text("".join(line % i for i in range(100_000)))
    async with running([str(path)]) as (pilot, app, screen):
        assert screen.run_list.row_count == 100_000
        await pilot.press("G")
        await settle(pilot)
        assert screen.run is not None and screen.run.ref == "r099999"
        assert "r099999" in screen.run_list.render_row(screen.run_list.cursor, 100).plain
        await pilot.press("colon")
        await typed(pilot, "r050000")
        await pilot.press("enter")
        await settle(pilot)
        assert screen.run.ref == "r050000"


async def test_a_60_mb_record_does_not_freeze_the_ui(tmp_path: Path) -> None:
    from tests.formats.acp.builders import capture, step_tool, write_jsonl

    huge = "y" * (60 * 1024 * 1024)
    path = write_jsonl(
        tmp_path / "huge.jsonl",
        [
            capture("a"),
            capture("huge", [step_tool("Read", "completed", 1, output=huge)]),
            capture("c"),
        ],
    )
    async with running([str(path)]) as (pilot, app, screen):
        await pilot.press("j")  # the huge run is read in a worker...
        await pilot.press("j")  # ...while the cursor moves on at once
        assert screen.run_list.cursor == 2
        await pilot.press("k")
        await settle(pilot)
        assert screen.run is not None and screen.run.ref == "huge"
        await pilot.press("enter", "enter")
        await settle(pilot)
        assert "folded" in screen.detail.text
        assert screen.detail.line_count < 200


async def test_keys_typed_ahead_across_enter_move_in_the_pane_enter_opened(
    tmp_path: Path,
) -> None:
    """``j enter j j`` in one read: enter opens websearch-2's timeline and the j's after it
    move there (they used to reach the run list, focus moving only after them)."""
    from textual import events

    path = str(capture_fixture(tmp_path))
    async with running([path]) as (pilot, app, screen):
        await pilot.press("j")
        await settle(pilot)
        for key in ("enter", "j", "j"):
            app.post_message(events.Key(key, "\r" if key == "enter" else key))
        await settle(pilot)
        assert app.focused is screen.timeline
        assert screen.run is not None and screen.run.ref == "websearch-2"
        assert screen.timeline.cursor == 2
