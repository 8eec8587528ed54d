"""Pilot tests: the help screen lists exactly the keys every pane binds, its page keys page
every pane, and the command palette offers the commands."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.containers import VerticalScroll
from textual.pilot import Pilot

from tests.formats.forecast.builders import fed_eval
from tests.helpers.ui import (
    capture_fixture,
    running,
    screen_lines,
    settle,
)
from trajtui.formats.registry import views
from trajtui.ui.app import TrajtuiApp
from trajtui.ui.screens.help import HelpScreen


@pytest.fixture
def cap(tmp_path: Path) -> str:
    return str(capture_fixture(tmp_path))


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
    async with running([forecast_dir], size=(100, 114)) as (pilot, app, screen):
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
    async with running([str(path)], size=(100, 114)) as (pilot, app, screen):
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


@pytest.fixture
def forecast_dir(tmp_path: Path) -> str:
    return str(fed_eval(tmp_path / "eval"))
