"""Which run or source is A and which is B stays on screen at every width: compare headers
gave A's name whole and cut B's (``compare sources  A capture_..._scored.jsonl  ·  B`` at 80
and 120 columns; the timeline's head cut B's reference before its file's distinct part and
its run). The start and end the two names share give way first."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.formats.acp.builders import capture, step_message, step_tool, write_jsonl
from tests.helpers.ui import running, screen_lines, settle
from trajtui.render.fmt import elide_pair
from trajtui.ui.screens.compare import CompareScreen
from trajtui.ui.screens.compare_sources import SourcesScreen

A_FILE = "capture_headless_claude-code_mcp_scored.jsonl"
B_FILE = "capture_headless_gemini_many-message-chunks_scored.jsonl"


def _sources(tmp_path: Path) -> tuple[Path, Path]:
    out = []
    for name, tool in ((A_FILE, "WebSearch"), (B_FILE, "google_web_search")):
        steps = [step_tool(tool, "completed", 10, input={"q": "ceo"}), step_message("Dario", 20)]
        recs = [
            capture("websearch-7", steps, score={"pass": True, "score": 0.8}),
            capture("websearch-26", steps, score={"pass": False, "score": 0.2}),
        ]
        out.append(write_jsonl(tmp_path / name, recs))
    return out[0], out[1]


def _top(app: object, rows: int = 4) -> str:
    return "\n".join(screen_lines(app)[:rows])


@pytest.mark.parametrize("width", [80, 120, 200])
async def test_C_names_both_sources_at_every_width(tmp_path: Path, width: int) -> None:
    a, b = _sources(tmp_path)
    async with running([str(a), str(b)], size=(width, 30)) as (pilot, app, _screen):
        await pilot.press("C")
        await settle(pilot)
        assert isinstance(app.screen, SourcesScreen)
        top = _top(app)
        assert "claude-code_mcp" in top, top
        assert "gemini_many-message-chunks" in top, top
        if width >= 200:
            assert A_FILE in top and B_FILE in top, top


@pytest.mark.parametrize("width", [80, 120, 200])
async def test_the_run_compare_names_both_runs_at_every_width(tmp_path: Path, width: int) -> None:
    a, b = _sources(tmp_path)
    async with running([str(a), str(b)], size=(width, 30)) as (pilot, app, screen):
        first = screen.store.row_of(0, 0)
        second = screen.store.row_of(1, 0)
        assert first is not None and second is not None
        screen.run_list.set_cursor(first)
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        screen.run_list.set_cursor(second)
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        assert isinstance(app.screen, CompareScreen)
        lines = screen_lines(app)
        title = "\n".join(lines[:2])
        for distinct in ("claude-code_mcp", "gemini_many-message-chunks"):
            assert distinct in title, title
        assert title.count("websearch-7") == 2, title
        heads = next(line for line in lines if line.startswith(" A ") and " B " in line)
        side_a, side_b = heads.split(" B ", 1)
        assert "claude" in side_a and "websearch-7" in side_a, heads
        assert "gemini" in side_b and "websearch-7" in side_b, heads


@settings(max_examples=400, deadline=None)
@given(
    shared=st.text("ab-_:./x", max_size=30),
    a=st.text("ab-_:./xy12", min_size=1, max_size=20),
    b=st.text("ab-_:./xy12", min_size=1, max_size=20),
    end=st.text("ab-_:./x", max_size=30),
    width=st.integers(8, 90),
)
def test_two_names_cut_to_a_width_still_tell_apart(
    shared: str, a: str, b: str, end: str, width: int
) -> None:
    """Whatever the two names share, cut to any width they fit it and never look alike."""
    x, y = elide_pair(shared + a + end, shared + b + end, width)
    assert len(x) <= width and len(y) <= width
    if a != b:
        assert x != y, (x, y)
