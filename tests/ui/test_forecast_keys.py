"""Pilot tests: the keys of a forecast run's extra panes (the message pool, the source board)
and the mentions that lead to them."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widget import Widget

from tests.formats.forecast.builders import board_of, call_of, fed_eval, pool_of
from tests.helpers.ui import (
    running,
    settle,
)
from trajtui.formats.forecast.detail import forecast_run
from trajtui.ui.app import TrajtuiApp


def focused(app: TrajtuiApp) -> Widget | None:
    """The focused widget (read through a call: mypy would keep ``app.focused`` narrowed
    to what an earlier assert said, though keys move the focus)."""
    return app.focused


# -- forecast runs: message pool, source board, mentions -------------------------------------


@pytest.fixture
def forecast_dir(tmp_path: Path) -> str:
    return str(fed_eval(tmp_path / "eval"))


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
