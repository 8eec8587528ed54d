"""The grader's reasoning, the first thing wanted when a prompt flips: in the compare header
(``c``), on demand in the source compare's rows (``C``, then ``w`` on a row), and in the
Markdown export of a run (tests/cli/test_export_text.py)."""

from __future__ import annotations

from pathlib import Path

from tests.cli.test_whole_runs import trials_file
from tests.formats.acp.builders import capture, write_jsonl
from tests.helpers.ui import running, screen_lines, settle
from tests.ui.test_compare import open_compare
from trajtui.ui.screens.compare_sources import SourcesScreen


def _text(app: object) -> str:
    return "\n".join(screen_lines(app))


def _rec(rid: str, passed: bool, why: str) -> dict[str, object]:
    return capture(rid, score={"pass": passed, "score": 1.0 if passed else 0.0, "reasoning": why})


async def test_the_compare_header_gives_each_sides_grader_reasoning(tmp_path: Path) -> None:
    path = write_jsonl(
        tmp_path / "runs.jsonl",
        [
            _rec("p1", True, "Names the CEO and cites the company page."),
            _rec("p2", False, "Answer names a former CEO; no source."),
        ],
    )
    async with running([str(path)]) as (pilot, app, screen):
        await open_compare(pilot, app, screen, 0, 1)
        text = _text(app)
        assert "Names the CEO and cites the company page." in text, text
        assert "Answer names a former CEO; no source." in text


async def test_C_shows_the_reasoning_of_the_row_under_the_cursor_on_w(tmp_path: Path) -> None:
    before = write_jsonl(
        tmp_path / "before.jsonl",
        [_rec("p1", True, "before: cites the page"), _rec("p2", False, "before: no answer")],
    )
    after = write_jsonl(
        tmp_path / "after.jsonl",
        [_rec("p1", False, "after: wrong person"), _rec("p2", True, "after: right, with source")],
    )
    async with running([str(before), str(after)]) as (pilot, app, screen):
        await pilot.press("C")
        await settle(pilot)
        assert isinstance(app.screen, SourcesScreen)
        assert "before: cites the page" not in _text(app)  # on demand only
        await pilot.press("w")
        await settle(pilot)
        text = _text(app)
        assert "before: cites the page" in text and "after: wrong person" in text, text
        await pilot.press("j")  # the next row: its reasoning
        await settle(pilot)
        text = _text(app)
        assert "before: no answer" in text and "after: right, with source" in text, text
        await pilot.press("w")  # hidden again
        await settle(pilot)
        assert "before: no answer" not in _text(app)


async def test_C_w_gives_each_trials_reasoning_of_a_trials_record(tmp_path: Path) -> None:
    """A trials record's grader judges each trial: ``w`` said "(the file gives no
    reasoning)" for every trials record."""
    (tmp_path / "b").mkdir()
    before, after = trials_file(tmp_path), trials_file(tmp_path / "b")
    async with running([str(before), str(after)]) as (pilot, app, _screen):
        await pilot.press("C")
        await settle(pilot)
        assert isinstance(app.screen, SourcesScreen)
        await pilot.press("w")
        await settle(pilot)
        text = _text(app)
        assert "gives no reasoning" not in text, text
        for trial in (1, 2, 3):
            assert f"trial {trial} judged: " in text, text


async def test_the_compare_header_of_two_trials_records_gives_every_trials_reasoning(
    tmp_path: Path,
) -> None:
    path = trials_file(tmp_path)
    async with running([str(path)]) as (pilot, app, screen):
        await open_compare(pilot, app, screen, 0, 1)
        text = _text(app)
        assert "grader A trial-3  trial 3 judged: cites a source" in text, text
        assert "grader B trial-2  trial 2 judged: cites a source" in text, text
