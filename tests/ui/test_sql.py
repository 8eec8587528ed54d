"""The query screen (``Q``): SQL over the tables of what is open, the result as a table,
an error as one line, and ⏎ on a row going to its run or step (as ``:`` does)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.formats.acp.builders import capture, step_message, step_tool, write_jsonl
from tests.helpers.ui import running, screen_lines, settle
from trajtui.ui.screens.sql import SqlScreen
from trajtui.ui.subjects import StepSubject


def runs_file(directory: Path) -> Path:
    return write_jsonl(
        directory / "results.jsonl",
        [
            capture("alpha-1", score={"pass": True, "score": 1.0}),
            capture(
                "beta-2",
                [
                    step_message("looking", 100),
                    step_tool("Bash", "failed", 200, input={"cmd": "ls"}, output="denied"),
                ],
                score={"pass": False, "score": 0.25},
            ),
            capture("gamma-3", score={"pass": True, "score": 0.75}),
        ],
    )


def drawn(app: Any) -> str:
    return "\n".join(screen_lines(app))


async def ask(pilot: Any, app: Any, query: str) -> SqlScreen:
    """Open the query screen, type ``query`` and run it."""
    if not isinstance(app.screen, SqlScreen):
        await pilot.press("Q")
        await settle(pilot)
    sql = app.screen
    assert isinstance(sql, SqlScreen)
    sql.query_one("#sql-input").value = query  # type: ignore[attr-defined]
    await pilot.press("enter")
    await settle(pilot)
    return sql


async def test_a_query_shows_its_rows(tmp_path: Path) -> None:
    async with running([str(runs_file(tmp_path))]) as (pilot, app, _screen):
        await ask(pilot, app, "SELECT ref, score FROM runs WHERE score < 0.9 ORDER BY score")
        text = drawn(app)
        assert "beta-2" in text and "0.25" in text and "gamma-3" in text and "0.75" in text
        assert "alpha-1" not in text
        assert "2 rows" in text
        assert text.index("beta-2") < text.index("gamma-3")


async def test_the_query_is_remembered_and_an_empty_result_says_so(tmp_path: Path) -> None:
    async with running([str(runs_file(tmp_path))]) as (pilot, app, _screen):
        await ask(pilot, app, "SELECT ref FROM runs WHERE score > 5")
        assert "no rows" in drawn(app)
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("Q")
        await settle(pilot)
        assert isinstance(app.screen, SqlScreen)
        assert app.screen.query_one("#sql-input").value == "SELECT ref FROM runs WHERE score > 5"  # type: ignore[attr-defined]
        assert "no rows" in drawn(app)  # run again at once


async def test_a_column_that_does_not_exist_is_named_in_one_line(tmp_path: Path) -> None:
    async with running([str(runs_file(tmp_path))]) as (pilot, app, _screen):
        sql = await ask(pilot, app, "SELECT scroe FROM runs")
        assert 'no column "scroe"' in sql.error and "\n" not in sql.error
        assert 'no column "scroe"' in drawn(app)
        await ask(pilot, app, "SELECT * FROM runz")
        assert 'no table "runz"' in drawn(app)
        await ask(pilot, app, "SELECT ref FROM runs")  # a good query after it clears it
        assert sql.error == "" and "3 rows" in drawn(app)


async def test_enter_on_a_row_opens_its_run_and_its_step(tmp_path: Path) -> None:
    async with running([str(runs_file(tmp_path))]) as (pilot, app, screen):
        await ask(pilot, app, "SELECT ref, title FROM runs WHERE ref = 'gamma-3'")
        await pilot.press("down", "enter")
        await settle(pilot)
        assert app.screen is screen
        assert screen.state.run is not None and screen.state.run.ref == "gamma-3"
        await ask(pilot, app, "SELECT run_ref, ref, tool FROM tool_calls WHERE failed")
        assert "beta-2" in drawn(app)
        await pilot.press("down", "enter")
        await settle(pilot)
        assert app.screen is screen
        assert screen.state.run is not None and screen.state.run.ref == "beta-2"
        assert screen.subject == StepSubject(trial=None, first=1, last=1)  # its step-2
        assert "denied" in drawn(app)  # its output, in the detail


async def test_text_from_the_data_in_a_cell_is_shown_verbatim(tmp_path: Path) -> None:
    path = write_jsonl(
        tmp_path / "results.jsonl",
        [capture("x[/bold]", input="[@click=app.quit]pwn [b]x[/b] \x1b]0;owned\x07 end")],
    )
    async with running([str(path)]) as (pilot, app, _screen):
        await ask(pilot, app, "SELECT ref, title FROM runs")
        text = drawn(app)
        assert "x[/bold]" in text
        assert "[@click=app.quit]pwn [b]x[/b] ␛]0;owned␇ end" in text
        assert isinstance(app.screen, SqlScreen)  # the would-be click quit nothing


async def test_a_long_cell_is_cut_and_says_so(tmp_path: Path) -> None:
    async with running([str(runs_file(tmp_path))], size=(300, 30)) as (pilot, app, _screen):
        await ask(pilot, app, "SELECT repeat('w', 500) AS long, ref FROM runs LIMIT 1")
        text = drawn(app)
        assert "w" * 199 + "…" in text and "w" * 200 not in text
        assert "alpha-1" in text  # the column after it is on screen
