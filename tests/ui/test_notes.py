"""Pilot tests: b bookmarks, A notes, ' lists them across the open sources, enter goes there;
marks show in the run list and the timeline; notes are drawn as text, never as markup."""

from __future__ import annotations

from pathlib import Path

from tests.formats.acp.builders import capture, step_message, write_jsonl
from tests.helpers.ui import (
    capture_fixture,
    foreign_controls,
    running,
    screen_lines,
    settle,
    terminal_output,
    trials_fixture,
)
from trajtui.core import notes
from trajtui.ui.screens.notes import BookmarksScreen, NoteScreen
from trajtui.ui.widgets.timeline import Timeline


def row_with(lines: list[str], text: str) -> str:
    """The first row of a pane (panes side by side split at their borders) with ``text``."""
    rows = [part for line in lines for part in line.split("│") if text in part and "─" not in part]
    assert rows, f"no row with {text!r}"
    return rows[0]


async def test_b_bookmarks_the_run_and_the_step_under_the_cursor(tmp_path: Path) -> None:
    path = str(capture_fixture(tmp_path))
    async with running([path]) as (pilot, app, screen):
        await pilot.press("j", "b")  # websearch-2, from the run list
        await settle(pilot)
        assert row_with(screen_lines(app), "websearch-2 ").startswith("★✗ fail")
        await pilot.press("enter", "j", "j", "b")  # its third step, from the timeline
        await settle(pilot)
        assert isinstance(app.focused, Timeline)
        step_row = row_with(screen_lines(app), "3 ⚙ tool ")  # the timeline row (the title cut)
        assert step_row.startswith("★   3 ⚙ tool")
    assert [(n.ref, n.kind, n.bookmarked) for n in notes.notes_for(path)] == [
        ("websearch-2", "run", True),
        ("websearch-2-step-3", "step", True),
    ]
    # a new session shows the marks it finds; b again removes the bookmark
    async with running([path]) as (pilot, app, screen):
        await settle(pilot)
        assert row_with(screen_lines(app), "websearch-2 ").startswith("★✗ fail")
        await pilot.press("j", "b")
        await settle(pilot)
        assert "★" not in row_with(screen_lines(app), "websearch-2 ")
    assert [n.ref for n in notes.notes_for(path)] == ["websearch-2-step-3"]


async def test_b_typed_ahead_of_the_screen_bookmarks_the_run_under_the_cursor(
    tmp_path: Path,
) -> None:
    """``j b`` in one read (a fast typist over SSH): b takes the run the cursor moved to,
    though the run shown has not caught up yet."""
    from textual import events

    path = str(capture_fixture(tmp_path))
    async with running([path]) as (pilot, app, screen):
        await settle(pilot)
        for key in ("j", "b"):
            app.post_message(events.Key(key, key))
        await settle(pilot)
    assert [(n.ref, n.kind) for n in notes.notes_for(path)] == [("websearch-2", "run")]


async def test_A_writes_a_note_that_is_shown_as_typed(tmp_path: Path) -> None:
    path = str(capture_fixture(tmp_path))
    async with running([path]) as (pilot, app, screen):
        await pilot.press("j", "A")
        await settle(pilot)
        assert isinstance(app.screen, NoteScreen)
        await pilot.press(*"[bold]x[/bold]", "enter")
        await settle(pilot)
        assert row_with(screen_lines(app), "websearch-2 ").startswith("✎✗ fail")
        await pilot.press("apostrophe")
        await settle(pilot)
        assert isinstance(app.screen, BookmarksScreen)
        assert "websearch-2  [bold]x[/bold]" in "\n".join(screen_lines(app))
        await pilot.press("escape", "A")  # the prompt starts from the note; empty clears
        await settle(pilot)
        await pilot.press(*["backspace"] * 20, "enter")
        await settle(pilot)
        assert "✎" not in row_with(screen_lines(app), "websearch-2 ")
    assert notes.notes_for(path) == []


async def test_panel_lists_every_source_and_enter_goes_there(tmp_path: Path) -> None:
    a = capture_fixture(tmp_path)
    b = trials_fixture(tmp_path)
    notes.set_note(str(b), "search-1/trial-2", "trial", "the flaky one")
    notes.set_bookmark(str(a), "websearch-3", "run")
    notes.set_bookmark(str(a), "websearch-9-step-1", "step")  # no such run
    async with running([str(tmp_path)], notifications=True) as (pilot, app, screen):
        await pilot.press("apostrophe")
        await settle(pilot)
        text = "\n".join(screen_lines(app))
        assert "trials.jsonl::search-1/trial-2  the flaky one" in text
        assert "results.jsonl::websearch-3" in text
        assert "results.jsonl::websearch-9-step-1  (no longer found)" in text
        assert "3 in 2 of 2 sources · 1 no longer found" in text
        rows = app.screen.query_one("#bookmarks-list").entries  # type: ignore[attr-defined]
        await pilot.press(
            *["j"] * [loc.ref for loc in rows].index("trials.jsonl::search-1/trial-2")
        )
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is screen
        assert screen.run is not None and screen.run.ref == "search-1"
        assert isinstance(app.focused, Timeline)
        assert "★" not in row_with(screen_lines(app), "▾ trial 1")
        assert "✎▾ trial 2" in row_with(screen_lines(app), "trial 2")


async def test_a_target_gone_is_said_and_not_entered(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    write_jsonl(path, [capture("only", [step_message("hi", 1)])])
    notes.set_bookmark(str(path), "vanished", "run")
    async with running([str(path)], notifications=True) as (pilot, app, screen):
        await pilot.press("apostrophe")
        await settle(pilot)
        assert "vanished  (no longer found)" in "\n".join(screen_lines(app))
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, BookmarksScreen)
    assert [n.ref for n in notes.notes_for(str(path))] == ["vanished"]


async def test_hostile_note_is_inert_in_the_panel(tmp_path: Path) -> None:
    path = str(capture_fixture(tmp_path))
    notes.set_note(path, "websearch-1", "run", "\x1b]52;c;aGk=\x07[@click=app.quit]x[/]")
    async with running([path]) as (pilot, app, screen):
        await pilot.press("apostrophe")
        await settle(pilot)
        assert foreign_controls(terminal_output(app)) == []
        assert "[@click=app.quit]x[/]" in "\n".join(screen_lines(app))
