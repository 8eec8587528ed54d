"""Pilot tests of the search screen: `/` from the run list (and ctrl+g anywhere) searches every
text of every run; hits stream in with reference, field and marked match; counts and progress;
enter opens the hit with the match marked in the detail (unfolded if folded); n / N move
between hits across runs; the latest query wins; a bad regex says why."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.formats.acp.builders import capture, step_message, step_tool, write_jsonl
from tests.helpers.ui import running, screen_lines, settle
from trajtui.ui.screens.grep import GrepScreen
from trajtui.ui.screens.main import MainScreen


@pytest.fixture
def cap(tmp_path: Path) -> str:
    long_output = "\n".join(f"line {i}" for i in range(300)) + "\nthe zebra is here"
    recs = [
        capture("alpha", [step_message("nothing to see", 5)], output="no animals"),
        capture(
            "bravo",
            [
                step_message("a zebra appears", 5),
                step_tool("Read", "completed", 9, output=long_output),
            ],
        ),
        capture("charlie", [step_message("no", 5)], output="Zebra crossing"),
    ]
    return str(write_jsonl(tmp_path / "c.jsonl", recs))


def text_of(app: object) -> str:
    return "\n".join(screen_lines(app))


async def test_slash_from_the_run_list_opens_the_search_and_hits_stream_in(cap: str) -> None:
    async with running([cap]) as (pilot, app, screen):
        await pilot.press("slash")
        assert isinstance(app.screen, GrepScreen)
        await pilot.press(*"zebra")
        await settle(pilot, 0.4)
        grep = app.screen
        assert isinstance(grep, GrepScreen)
        assert [(h.ref, h.field) for h in grep.result.hits] == [
            ("bravo-step-1", "message"),
            ("bravo-step-2", "tool output"),
            ("charlie", "output"),
        ]
        text = text_of(app)
        assert "3 hits in 2 runs" in text and "ignoring case" in text and "searched 3 runs" in text
        assert "bravo-step-2  tool output  …the zebra is here" in text


async def test_capital_letters_match_case_and_the_latest_query_wins(cap: str) -> None:
    async with running([cap]) as (pilot, app, screen):
        await pilot.press("ctrl+g", *"zeb")
        await pilot.press("backspace", "backspace", "backspace", *"Zebra")
        await settle(pilot, 0.4)
        grep = app.screen
        assert isinstance(grep, GrepScreen)
        assert [h.ref for h in grep.result.hits] == ["charlie"]
        assert "1 hit in 1 run" in text_of(app) and "matching case" in text_of(app)
        await pilot.press(*" nowhere")
        await settle(pilot, 0.4)
        assert "no match for 'Zebra nowhere'" in text_of(app)


async def test_a_bad_regex_says_why(cap: str) -> None:
    async with running([cap]) as (pilot, app, screen):
        await pilot.press("slash", "ctrl+r", *"(zeb")
        await settle(pilot, 0.4)
        assert "invalid regular expression '(zeb': missing )" in text_of(app)
        await pilot.press("end", *")r[a-z]")
        await settle(pilot, 0.4)
        grep = app.screen
        assert isinstance(grep, GrepScreen)
        assert len(grep.result.hits) == 3


async def test_enter_opens_the_hit_marked_and_unfolded_and_n_N_move_across_runs(
    cap: str,
) -> None:
    async with running([cap]) as (pilot, app, screen):
        await pilot.press("slash", *"zebra")
        await settle(pilot, 0.4)
        await pilot.press("enter")  # to the hits
        await pilot.press("down", "enter")  # the second: folded in a long tool output
        await settle(pilot, 0.3)
        assert isinstance(app.screen, MainScreen)
        assert screen.run is not None and screen.run.ref == "bravo"
        assert "bravo-step-2" in screen.detail.text
        assert "the zebra is here" in screen.detail.text  # unfolded to show it
        assert screen.detail.matches and screen.detail.query_text == "zebra"
        assert "the zebra is here" in text_of(app), "the view is not at the match"
        await pilot.press("n")
        await settle(pilot, 0.3)
        assert screen.run is not None and screen.run.ref == "charlie"
        assert "Zebra crossing" in screen.detail.text and screen.detail.matches
        await pilot.press("n")  # wraps around to the first hit
        await settle(pilot, 0.3)
        assert screen.run is not None and screen.run.ref == "bravo"
        assert "a zebra appears" in screen.detail.text
        await pilot.press("N")
        await settle(pilot, 0.3)
        assert screen.run is not None and screen.run.ref == "charlie"


async def test_escape_closes_and_slash_in_a_pane_still_searches_the_pane(cap: str) -> None:
    async with running([cap]) as (pilot, app, screen):
        await pilot.press("slash", *"zebra", "escape")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        await pilot.press("enter")  # the timeline
        await settle(pilot)
        await pilot.press("slash", *"nothing", "enter")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        assert screen.timeline.search_query == "nothing"


def _current_line(screen: MainScreen) -> str:
    """The detail's line holding the match marked as current (what the eye is taken to)."""
    detail = screen.detail
    assert detail.match_index >= 0, "no match is marked"
    return detail.text.split("\n")[detail.matches[detail.match_index][0]]


async def test_n_to_a_hit_in_a_folded_value_marks_that_hit_and_o_keeps_it(tmp_path: Path) -> None:
    """Two hits in one tool output, the second past the fold: n unfolds and marks the
    second (it said 'hit 3 of 3' and kept marking the first); o keeps the mark."""
    lines = [f"line {i}" for i in range(300)]
    lines[1] = "first zebra near the top"
    lines[280] = "second zebra far below"
    rec = capture(
        "delta", [step_tool("Read", "completed", 9, output="\n".join(lines))], input="a zebra?"
    )
    path = write_jsonl(tmp_path / "d.jsonl", [rec])
    async with running([str(path)]) as (pilot, app, screen):
        await pilot.press("slash", *"zebra")
        await settle(pilot, 0.4)
        grep = app.screen
        assert isinstance(grep, GrepScreen)
        assert [(h.ref, h.occurrence) for h in grep.result.hits][-2:] == [
            ("delta-step-1", 0),
            ("delta-step-1", 1),
        ]
        await pilot.press("enter", "down", "enter")  # the hit near the top of the output
        await settle(pilot, 0.3)
        assert "first zebra near the top" in _current_line(screen)
        await pilot.press("n")  # the one far below, in the folded part
        await settle(pilot, 0.3)
        assert "second zebra far below" in _current_line(screen)
        assert "second zebra far below" in text_of(app), "the view is not at the match"
        await pilot.press("o")  # fold again: the mark is not lost (nothing to show it in)
        await settle(pilot, 0.3)
        await pilot.press("o")  # and unfold: the same match marked, in view
        await settle(pilot, 0.3)
        assert "second zebra far below" in _current_line(screen)
        assert "second zebra far below" in text_of(app)
