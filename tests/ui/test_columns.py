"""The run list's columns: a wider terminal never shows fewer of them, and ``O`` offers the
columns the list can show (sorting by one shows it).

At 120 columns the run list sat beside the timeline in about 60 cells and gave its steps,
calls and tool err columns to the title, which 80x24 (the list alone, full width) showed.
"""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

from textual.widgets import OptionList

from tests.formats.acp.builders import capture, step_tool, write_jsonl
from tests.helpers.ui import capture_fixture, running, screen_lines, settle

NAMES = ("status", "ref", "steps", "calls", "tool err", "time", "score", "cost", "title")


def _shown(app: object) -> list[str]:
    """The column names over the run list, as the screen shows them."""
    line = next(line for line in screen_lines(app) if " ref " in line and "status" in line)
    line = line.split("││")[0].split("│╭")[0]  # the run list's pane only
    return [name for name in NAMES if f" {name}" in f" {line.replace('▲', ' ').replace('▼', ' ')}"]


def _codex_like(directory: Path) -> Path:
    """Long references and tool calls, some failed (as a codex capture has them)."""
    recs = [
        capture(
            f"codex-task-{n:03d}-refactor",
            [
                step_tool("item_1", "completed", 10, input={"cmd": "ls"}, output="a"),
                step_tool("item_2", "failed" if n % 2 else "completed", 20, input={"cmd": "x"}),
            ],
            score={"pass": n % 3 != 0, "score": n / 10},
            tool_errors=bool(n % 2),
        )
        for n in range(1, 8)
    ]
    return write_jsonl(directory / "codex.jsonl", recs)


async def _columns_by_width(path: Path) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    async with running([str(path)], size=(80, 24)) as (pilot, app, _screen):
        out[80] = _shown(app)
        for width in range(100, 201, 10):
            await pilot.resize_terminal(width, 40)
            await settle(pilot, pause=0.01)
            out[width] = _shown(app)
    return out


async def test_a_wider_terminal_never_shows_fewer_columns(tmp_path: Path) -> None:
    for path in (capture_fixture(tmp_path), _codex_like(tmp_path)):
        shown = await _columns_by_width(path)
        narrow = shown[80]
        assert {"steps", "tool err"} <= set(narrow), narrow
        widths = sorted(shown)
        for smaller, wider in pairwise(widths):
            lost = set(shown[smaller]) - set(shown[wider])
            assert not lost, f"{path.name}: {lost} shown at {smaller} columns, not at {wider}"
        assert "title" in shown[120], shown[120]


async def test_sort_offers_the_columns_the_data_has_and_sorting_shows_the_column(
    tmp_path: Path,
) -> None:
    path = _codex_like(tmp_path)
    async with running([str(path)], size=(100, 40)) as (pilot, app, _screen):
        await pilot.press("O")
        await settle(pilot)
        options = app.screen.query_one(OptionList)
        offered = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert not any("cost" in o for o in offered), offered  # no run has a cost
        wanted = next(o for o in offered if o.split()[1:2] == ["calls"] or "tool calls" in o)
        await pilot.press(wanted.split()[0])
        await settle(pilot)
        assert "calls" in _shown(app), screen_lines(app)[:4]
