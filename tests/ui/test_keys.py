"""Pilot tests: every key of the command table does what the help says."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from textual.containers import VerticalScroll
from textual.pilot import Pilot
from textual.widget import Widget

from tests.formats.forecast.builders import board_of, call_of, pool_of
from tests.helpers.ui import (
    PagerHost,
    capture_fixture,
    hostile_fixture,
    listed,
    reads,
    running,
    screen_lines,
    settle,
    trials_fixture,
)
from trajtui.core.model import Problem
from trajtui.formats.forecast.detail import forecast_run
from trajtui.formats.registry import views
from trajtui.ui.app import TrajtuiApp
from trajtui.ui.screens.help import HelpScreen
from trajtui.ui.screens.main import MainScreen
from trajtui.ui.subjects import StepSubject
from trajtui.ui.widgets.detail import DetailView
from trajtui.ui.widgets.run_list import ColumnHeader, RunList
from trajtui.ui.widgets.timeline import Timeline


@pytest.fixture
def cap(tmp_path: Path) -> str:
    return str(capture_fixture(tmp_path))


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
        await pilot.press("slash", *"read", "enter")
        await settle(pilot)
        assert screen.timeline.search_query == "read"
        await pilot.press("slash", *"websearch", "enter")
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
        await pilot.press("slash", *"search", "enter")
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
        await pilot.press("colon", *"websearch-2-step-4", "enter")
        await settle(pilot)
        assert current_ref(screen) == "websearch-2"
        assert screen.subject == StepSubject(trial=None, first=3, last=3)
        assert isinstance(app.focused, DetailView)
        assert "ENOENT" in screen.detail.text
        await pilot.press("colon", *"nope-17", "enter")
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


# How the help screen writes a key, and the name Textual gives it.
SYMBOLS = {
    "↓": "down",
    "↑": "up",
    "←": "left",
    "→": "right",
    "⏎": "enter",
    "esc": "escape",
    "?": "question_mark",
    "/": "slash",
    ":": "colon",
    "[": "left_square_bracket",
    "]": "right_square_bracket",
    "⇧tab": "shift+tab",
    "'": "apostrophe",
}


async def read_help(pilot: Pilot[int]) -> dict[str, list[tuple[list[str], str]]]:
    """Open ``?`` in a screen tall enough to show it whole, and read it as a person does:
    group heading -> rows of (Textual key names, what the key does)."""
    await pilot.press("question_mark")
    await pilot.pause()
    app = pilot.app
    help_screen = app.screen
    assert isinstance(help_screen, HelpScreen)
    box = help_screen.query_one(VerticalScroll)
    assert box.max_scroll_y == 0, "the help does not fit: make the test's screen taller"
    region = box.content_region
    lines = screen_lines(app)[region.y : region.bottom]
    groups: dict[str, list[tuple[list[str], str]]] = {}
    group, blank = "", True
    for line in (ln[region.x : region.right].strip() for ln in lines):
        row = re.fullmatch(r"(\S.*?)\s{2,}(\S.*)", line)
        if row is not None:
            keys = [SYMBOLS.get(k, k) for k in row[1].split(" / ")]
            groups[group].append((keys, row[2]))
        elif line and blank:  # a heading follows an empty line
            group = line
            groups[group] = []
        elif line:  # the rest of a long description
            keys, what = groups[group][-1]
            groups[group][-1] = (keys, f"{what} {line}")
        blank = not line
    await pilot.press("escape")
    assert not isinstance(app.screen, HelpScreen)
    return groups


def documented_keys(groups: dict[str, list[tuple[list[str], str]]]) -> set[str]:
    return {k for name, rows in groups.items() if name != "Mouse" for keys, _ in rows for k in keys}


def textual_defaults() -> set[tuple[str, str]]:
    """(key, action) pairs Textual binds by itself (quit, copy, horizontal scroll...)."""
    from textual.app import App
    from textual.binding import Binding
    from textual.containers import ScrollableContainer
    from textual.screen import Screen

    out = set()
    for cls in (App, Screen, ScrollableContainer):
        for b in cls.BINDINGS:
            assert isinstance(b, Binding)
            out |= {(k.strip(), b.action) for k in b.key.split(",")}
    return out


def bound_actions(app: TrajtuiApp) -> dict[str, str]:
    """Every key that does something where the focus is: key -> the action it runs; an
    action no node implements fails the test."""
    out = {}
    for key, active in app.active_bindings.items():
        action = active.binding.action
        namespace, _, name = action.partition("(")[0].rpartition(".")
        node = {"app": app, "screen": app.screen, "": active.node}[namespace]
        assert callable(getattr(node, f"action_{name}", None)), f"{key}: {action} does nothing"
        out[key] = action
    return out


async def test_the_help_screen_lists_exactly_the_keys_every_pane_binds(forecast_dir: str) -> None:
    """A key the help lists works in every pane, or in the pane its line names; a key a
    pane binds is in the help (Textual's own defaults aside)."""
    async with running([forecast_dir], size=(100, 110)) as (pilot, app, screen):
        groups = await read_help(pilot)
        assert {"Move", "Panes", "Find", "View", "Data", "App", "Mouse"} <= set(groups)
        documented = documented_keys(groups)
        in_detail = {
            k
            for rows in groups.values()
            for keys, what in rows
            if "detail pane" in what
            for k in keys
        }
        assert in_detail == {"left_square_bracket", "right_square_bracket"}
        defaults = textual_defaults()
        # keys of another format's runs (their line names them): not bound on a forecast run
        others = [v.runs_name for v in views() if v.runs_name and v.runs_name != "forecast runs"]
        elsewhere = {
            k
            for rows in groups.values()
            for keys, what in rows
            if any(f"({name})" in what for name in others)
            for k in keys
        }
        documented -= elsewhere
        panes = [
            screen.run_list,
            screen.timeline,
            screen.detail,
            screen.pane_lists["messages"],
            screen.pane_lists["sources"],
            screen.pane_previews["messages"],
            screen.pane_previews["sources"],
        ]
        for pane in panes:
            pane.focus()
            await pilot.pause()
            assert app.focused is pane
            bound = bound_actions(app)
            wanted = documented if pane is screen.detail else documented - in_detail
            missing = wanted - set(bound)
            assert not missing, f"documented, but nothing when {pane.id} has focus: {missing}"
            unknown = {
                k for k, a in bound.items() if k not in documented and (k, a) not in defaults
            }
            assert not unknown, f"bound in {pane.id} but not in the help: {unknown}"


async def test_every_page_key_of_the_help_pages_every_pane_and_the_help(tmp_path: Path) -> None:
    from tests.formats.acp.builders import capture, step_tool, write_jsonl

    long_output = "\n".join(f"line {i}" for i in range(300))
    long = capture("long", [step_tool("Read", "completed", 5, output=long_output)])
    path = write_jsonl(tmp_path / "many.jsonl", [*(capture(f"r{i}") for i in range(60)), long])
    async with running([str(path)], size=(100, 110)) as (pilot, app, screen):
        groups = await read_help(pilot)
        await pilot.resize_terminal(100, 30)  # a smaller screen draws faster
        await settle(pilot)
        pages = {what: keys for keys, what in groups["Move"] if what.startswith("Move a page")}
        down, up = pages["Move a page down"], pages["Move a page up"]
        assert {"space", "pagedown", "ctrl+d", "ctrl+f"} <= set(down)
        height = screen.run_list.size.height
        for key in down:
            await pilot.press("g", key)
            assert screen.run_list.cursor == height - 1, key
        for key in up:
            await pilot.press("g", "pagedown", key)
            assert screen.run_list.cursor == 0, key
        await pilot.press("G")
        await settle(pilot)
        await pilot.press("enter", "enter", "o")  # a step's whole output: pages of it
        await settle(pilot)
        assert app.focused is screen.detail and "line 299" in screen.detail.text
        for key in down:
            await pilot.press("g", key)
            assert screen.detail.scroll_offset.y > 0, key
        for key in up:
            await pilot.press("g", "pagedown", key)
            assert screen.detail.scroll_offset.y == 0, key

        # the help is a pane too, and a long one on a small screen
        await pilot.resize_terminal(80, 24)
        await pilot.press("question_mark")
        await pilot.pause()
        box = app.screen.query_one(VerticalScroll)
        assert box.max_scroll_y > 0
        for keys, what in groups["Move"]:
            if keys[0] in ("enter", "escape", "right_square_bracket", "left_square_bracket"):
                continue
            upwards = " up" in what or "first" in what
            for key in keys:
                await pilot.press("end" if upwards else "home", key)
                assert box.scroll_y != (box.max_scroll_y if upwards else 0), f"{key} in the help"


async def test_ctrl_p_palette_offers_the_commands(cap: str) -> None:
    async with running([cap]) as (pilot, app, screen):
        await pilot.press("ctrl+p")
        await pilot.pause(0.2)
        await pilot.press(*"merge")
        await pilot.pause(0.5)
        from textual.command import CommandPalette

        palette = app.screen
        assert isinstance(palette, CommandPalette)
        from textual.widgets import OptionList

        options = palette.query_one(OptionList)
        prompts = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert any("Merge chunks" in p for p in prompts)
        await pilot.press("enter")
        await settle(pilot)
        assert screen.timeline.merge is True


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


# -- forecast runs: message pool, source board, mentions -------------------------------------


@pytest.fixture
def forecast_dir(tmp_path: Path) -> str:
    from tests.formats.forecast import builders as bf

    ev = tmp_path / "eval"
    bf.write_json(ev / "summary.json", bf.summary([bf.entry("fed", brier=0.05)]))
    bf.run_dir(ev / "runs" / "fed", bf.fed_run())
    return str(ev)


async def test_M_shows_what_the_model_saw_and_p_the_whole_pool(forecast_dir: str) -> None:
    async with running([forecast_dir]) as (pilot, app, screen):
        await pilot.press("enter", "j", "j")
        await settle(pilot)
        await pilot.press("M")
        await settle(pilot)
        assert app.focused is screen.pane_lists["messages"]
        marks = {row.key: row.mark for row in screen.pane_lists["messages"].rows}
        run = screen.run
        assert run is not None and forecast_run(run).pool is not None
        call = call_of(run.steps[2])
        assert call.output_key is not None
        assert [r.key for r in screen.pane_lists["messages"].rows if r.mark != "-"][
            : len(call.input_keys)
        ] == list(call.input_keys)
        assert marks[call.output_key] == "→"
        assert "-" in marks.values() and "+" in marks.values()
        # the preview shows the message under the cursor
        await pilot.press("j")
        await settle(pilot)
        key = screen.pane_lists["messages"].current_key()
        assert f"fed/msg:{key}" in screen.pane_previews["messages"].text
        await pilot.press("p")
        assert [r.key for r in screen.pane_lists["messages"].rows] == pool_of(run).keys()


async def test_B_shows_the_source_board_and_a_mention_leads_to_its_source(
    forecast_dir: str,
) -> None:
    async with running([forecast_dir]) as (pilot, app, screen):
        await pilot.press("B")
        await settle(pilot)
        assert focused(app) is screen.pane_lists["sources"]
        run = screen.run
        assert (
            run is not None
            and forecast_run(run).board is not None
            and forecast_run(run).pool is not None
        )
        assert screen.pane_lists["sources"].rows[0].key in board_of(run).board_source_ids()
        # a step whose text mentions a source: select the mention with ], follow it with enter
        pool = pool_of(run)

        def says_s(key: str | None) -> bool:
            message = pool.get(key) if key else None
            return message is not None and "S" in (message.text or "")

        step = next(s for s in run.steps if says_s(call_of(s).output_key))
        await pilot.press("colon", *step.ref, "enter")
        await settle(pilot)
        assert focused(app) is screen.detail
        assert screen.detail.mentions
        await pilot.press("right_square_bracket")
        mention = screen.detail.current_mention
        assert mention is not None
        target = mention.target
        await pilot.press("enter")
        await settle(pilot)
        assert focused(app) is screen.pane_lists["sources"]
        assert screen.pane_lists["sources"].current_key() == target
        assert f"fed/src:{target}" in screen.pane_previews["sources"].text


async def test_goto_a_message_and_a_source(forecast_dir: str) -> None:
    async with running([forecast_dir], goto="fed/msg:A1") as (pilot, app, screen):
        assert app.focused is screen.pane_lists["messages"]
        assert screen.pane_lists["messages"].current_key() == "A1"
        assert "fed/msg:A1" in screen.pane_previews["messages"].text
        await pilot.press("y")
        assert app.clipboard  # the message's text
        await pilot.press("Y")
        assert app.clipboard == "fed/msg:A1"
        await pilot.press("colon", *"fed/src:S1", "enter")
        await settle(pilot)
        assert screen.pane_lists["sources"].current_key() == "S1"


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
        await pilot.press("colon", *"r050000", "enter")
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
