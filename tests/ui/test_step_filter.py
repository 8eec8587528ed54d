"""Pilot tests of the timeline's filter (issue 11: the one query language, over steps):
``f`` in the timeline narrows its steps, the filter stays on from run to run, a query that
does not parse is pointed at, nothing kept says so, ``?`` lists the step fields, and a
step the filter hides is still reached by a reference."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input

from tests.formats.acp.builders import capture, step_message, step_thought, step_tool, write_jsonl
from tests.helpers.ui import running, screen_lines, settle, typed
from trajtui.ui.screens.fields import FieldsScreen
from trajtui.ui.widgets.timeline import Timeline


@pytest.fixture
def runs(tmp_path: Path) -> str:
    """Two runs: one with a failed Bash call among five steps, one with two failed calls."""
    return str(
        write_jsonl(
            tmp_path / "steps.jsonl",
            [
                capture(
                    "first",
                    [
                        step_thought("I should check the config", 100),
                        step_tool("WebSearch", "completed", 150, input={"query": "ceo"}),
                        step_tool(
                            "Bash",
                            "failed",
                            3000,
                            input={"command": "cat .env"},
                            output="permission denied",
                            duration=9000,
                        ),
                        step_tool("Read", "completed", 12000, input={"path": "notes.md"}),
                        step_message("The CEO is Dario Amodei.", 15000),
                    ],
                ),
                capture(
                    "second",
                    [
                        step_tool("Bash", "failed", 100, input={"command": "make"}),
                        step_message("Retrying.", 200),
                        step_tool("Bash", "failed", 300, input={"command": "make -j1"}),
                    ],
                ),
            ],
        )
    )


def shown_steps(timeline: Timeline) -> list[int]:
    """Numbers of the steps the timeline shows, top to bottom."""
    assert timeline.run is not None
    return [timeline.run.steps[row.first].number for row in timeline.rows]


def text(app: object) -> str:
    return "\n".join(screen_lines(app))


async def test_f_in_the_timeline_keeps_the_steps_the_query_names_and_says_how_many(
    runs: str,
) -> None:
    async with running([runs]) as (pilot, app, screen):
        await pilot.press("enter")  # into the first run's timeline
        await settle(pilot)
        assert shown_steps(screen.timeline) == [1, 2, 3, 4, 5]
        await pilot.press("f")
        await typed(pilot, "is:error OR kind:thought")
        await settle(pilot)
        assert app.focused is not None and app.focused.id == "step-filter"
        assert shown_steps(screen.timeline) == [1, 3]
        assert "2 of 5 steps match is:error OR kind:thought" in text(app)
        assert not screen.query_one("#filter", Input).display  # the run list's box is not it
        await pilot.press("enter")  # back in the timeline, on a kept step, its detail shown
        await settle(pilot)
        assert app.focused is screen.timeline
        await pilot.press("j")
        await settle(pilot)
        assert "cat .env" in text(app)


async def test_the_step_filter_stays_on_from_run_to_run(runs: str) -> None:
    async with running([runs]) as (pilot, app, screen):
        await pilot.press("enter", "f")
        await typed(pilot, "tool:bash")
        await pilot.press("enter")
        await settle(pilot)
        assert shown_steps(screen.timeline) == [3]
        await pilot.press("escape", "j")  # to the run list, the next run
        await settle(pilot)
        assert screen.timeline.run is not None and screen.timeline.run.ref == "second"
        assert shown_steps(screen.timeline) == [1, 3]
        assert "2 of 3 steps match tool:bash" in text(app)


async def test_a_step_query_that_does_not_parse_is_pointed_at_and_the_steps_stay(
    runs: str,
) -> None:
    async with running([runs]) as (pilot, app, screen):
        await pilot.press("enter", "f")
        await typed(pilot, "tool:bash")
        await settle(pilot)
        assert shown_steps(screen.timeline) == [3]
        screen.query_one("#step-filter", Input).insert_text_at_cursor(" duraton>5s")  # pasted
        await settle(pilot)
        shown = text(app)
        # the timeline pane's lines, read as one text (the message wraps in a narrow pane)
        pane = " ".join(
            line.split("││", 1)[1].strip(" │") for line in screen_lines(app) if "││" in line
        )
        assert "unknown field 'duraton': did you mean duration?" in " ".join(pane.split())
        assert "steps are unchanged" in shown
        assert shown_steps(screen.timeline) == [3]
        await pilot.press(*["backspace"] * 7, *"ation>5s")  # duration>5s
        await settle(pilot)
        assert "unknown field" not in text(app)
        assert shown_steps(screen.timeline) == [3]


async def test_nothing_kept_says_so_with_the_query_and_esc_shows_every_step(runs: str) -> None:
    async with running([runs]) as (pilot, app, screen):
        await pilot.press("enter", "f")
        await typed(pilot, "tool:Write")
        await settle(pilot)
        assert screen.timeline.rows == []
        assert "no steps match: tool:Write" in text(app)
        await pilot.press("escape")
        await settle(pilot)
        assert app.focused is screen.timeline
        assert shown_steps(screen.timeline) == [1, 2, 3, 4, 5]
        assert not screen.query_one("#step-filter", Input).display
        assert "steps match" not in text(app)


async def test_question_mark_lists_the_step_fields(runs: str) -> None:
    async with running([runs]) as (pilot, app, screen):
        await pilot.press("enter", "f")
        await typed(pilot, "tool:bash ?")
        await settle(pilot)
        assert isinstance(app.screen, FieldsScreen)
        shown = text(app)
        assert "step query fields" in shown
        assert "is:error" in shown and "kind:thought" in shown
        assert "metadata" not in shown  # a run's field, not a step's
        await pilot.press("escape")
        await settle(pilot)
        box = screen.query_one("#step-filter", Input)
        assert app.focused is box and box.value == "tool:bash "


async def test_going_to_a_step_the_filter_hides_clears_the_filter(runs: str) -> None:
    async with running([runs], notifications=True) as (pilot, app, screen):
        await pilot.press("enter", "f")
        await typed(pilot, "tool:bash")
        await pilot.press("enter")
        await settle(pilot)
        screen.go_to("first-step-5")
        await settle(pilot)
        assert shown_steps(screen.timeline) == [1, 2, 3, 4, 5]
        row = screen.timeline.current_row()
        assert row is not None and row.first == 4
        assert any("step filter is cleared" in n.message for n in app.notices)
