"""The run list's columns: a wider terminal never shows fewer of them, and ``O`` offers the
columns the list can show (sorting by one shows it).

At 120 columns the run list sat beside the timeline in about 60 cells and gave its steps,
calls and tool err columns to the title, which 80x24 (the list alone, full width) showed.
"""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from textual.widgets import OptionList

from tests.formats.acp.builders import capture, step_tool, trials, write_jsonl
from tests.formats.atif.tbench import tb_job
from tests.formats.claude_code.builders import projects
from tests.helpers.ui import capture_fixture, running, screen_lines, settle
from trajtui.render.columns import DROP_ORDER
from trajtui.ui.screens.main.layout import NARROW_WIDTH
from trajtui.ui.widgets.run_list import (
    TITLE_ROOM,
    columns,
    ref_floor,
    split_width,
)

NAMES = ("status", "ref", "steps", "calls", "tool err", "time", "score", "cost", "project", "title")


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


def _trials_like(directory: Path) -> Path:
    """Trials records as acp-harness writes them for codex (k=5, ids ``websearch-NNNN``):
    at exactly 120x40 the list beside the timeline dropped its calls column."""
    recs = [
        trials(f"websearch-{n}", [n % 2 == 0, True, n % 3 == 0, False, True])
        for n in (1506, 120, 1182, 77, 1302)
    ]
    for rec in recs:
        for trial in rec["trials"]:
            for step in trial["trajectory"]:
                step.setdefault("duration", 0)  # codex writes 0 on a completed call
    return write_jsonl(directory / "trials_codex.jsonl", recs)


# The widths where what the list gets changes kind: the edges (80, 220), each side of
# NARROW_WIDTH (below it the list is alone, full width), 120 (the usual split), and each side
# of where the list first goes beside the timeline for this data (when the timeline keeps its
# room beside the list's columns: found by halving, every width tried a sample too). Beside
# the timeline the list's width only grows with the terminal's, and a wider list never shows
# fewer columns: that rule is checked at every width, over every shape of data, by the two
# pure tests below (a resize and full render here costs about 0.15 s a width, 0.4 s loaded).
EDGES = (80, NARROW_WIDTH - 1, NARROW_WIDTH, 120, 220)


async def _columns_by_width(paths: list[Path]) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    alone: dict[int, bool] = {}  # the list alone at that width (no timeline beside it)
    async with running([str(p) for p in paths], size=(EDGES[0], 40)) as (pilot, app, screen):

        async def at(width: int) -> bool:
            await pilot.resize_terminal(width, 40)
            out[width] = _shown(app)
            alone[width] = screen.has_class("-narrow")
            return alone[width]

        for width in EDGES:
            await at(width)
        assert alone[EDGES[0]] and not alone[EDGES[-1]], alone
        hi = min(w for w in alone if not alone[w])
        lo = max(w for w in alone if alone[w] and w < hi)
        while hi - lo > 1:
            mid = (lo + hi) // 2
            lo, hi = (mid, hi) if await at(mid) else (lo, mid)
    return out


def _never_fewer(shown: dict[int, list[str]], what: str) -> None:
    for smaller, wider in pairwise(sorted(shown)):
        lost = set(shown[smaller]) - set(shown[wider])
        assert not lost, f"{what}: {lost} shown at {smaller} columns, not at {wider}"


SHAPES = {
    "codex capture": lambda d: [_codex_like(d)],
    "trials": lambda d: [_trials_like(d)],
    "Harbor job": lambda d: [tb_job(d / "job")],
    "two files": lambda d: [capture_fixture(d), _trials_like(d)],
    "Claude Code projects": lambda d: [projects(d)],
}


@pytest.mark.parametrize("shape", SHAPES)
async def test_a_wider_terminal_never_shows_fewer_columns(tmp_path: Path, shape: str) -> None:
    """From 80 to 220 columns: the columns shown (the title among them) never lose one as
    the terminal widens."""
    (tmp_path / "job").mkdir()
    shown = await _columns_by_width(SHAPES[shape](tmp_path))
    if shape != "Harbor job":  # (its trials count no tool errors)
        assert {"steps", "calls", "tool err"} <= set(shown[80]), shown[80]
    _never_fewer(shown, shape)
    assert "title" in shown[120], shown[120]


@settings(max_examples=300, deadline=None)
@given(
    ref_width=st.integers(1, 80),
    shared=st.integers(0, 60),
    status_width=st.integers(1, 20),
    present=st.sets(st.sampled_from(DROP_ORDER)),
    keep=st.sampled_from([None, "ref", *DROP_ORDER]),
    project=st.integers(1, 90),
)
def test_columns_only_ever_gain_as_the_list_widens(
    ref_width: int,
    shared: int,
    status_width: int,
    present: set[str],
    keep: str | None,
    project: int,
) -> None:
    """The layout rule itself, over every shape of data: a list one cell wider shows every
    column the narrower one shows, and at the width the pane asks for it shows them all."""
    elided = max(1, ref_width - shared)
    shown = {
        width: {
            name
            for name, w in columns(
                width, ref_width, status_width, present, keep, elided, {"project": project}
            ).items()
            if w
        }
        for width in range(20, 200)
    }
    for width in range(20, 199):
        assert shown[width] <= shown[width + 1], (width, shown[width], shown[width + 1])
    floor = ref_floor(ref_width, elided)
    words = {"project": project}
    fixed = columns(10_000, floor, status_width, present, elided=elided, words=words)
    need = 1 + sum(w + 1 for name, w in fixed.items() if w and name != "title") + 1 + TITLE_ROOM
    at_need = columns(need, ref_width, status_width, present, keep, elided, words)
    assert {name for name, w in at_need.items() if w} == {"status", "ref", "title"} | present


@given(
    runs=st.integers(20, 120),
    cut=st.integers(0, 30),
    steps=st.integers(10, 60),
    least=st.integers(20, 60),
)
def test_the_run_list_pane_only_grows_and_keeps_its_columns_beside_the_timeline(
    runs: int, cut: int, steps: int, least: int
) -> None:
    fewest = max(20, runs - cut)  # references cut by their shared start
    widths = [split_width(total, runs, steps, least, fewest) for total in range(60, 260)]
    assert widths == sorted(widths)
    for total, width in zip(range(60, 260), widths, strict=True):
        if total >= fewest + 3 + least:  # not one pane at a time: every column beside
            assert width >= fewest + 3, (total, width)


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
