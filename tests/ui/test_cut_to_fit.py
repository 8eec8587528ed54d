"""Pilot tests of issue 8's truncation items: what is cut to fit says so (an ellipsis) and keeps
what tells rows apart; the header and footer at 80x24 keep the file name, the counts and whole
keys; ``show`` fits its columns."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.formats.acp.builders import capture, write_jsonl
from tests.helpers import forked
from tests.helpers.ui import capture_fixture, list_rows, running, screen_lines, settle


@pytest.fixture
def cap(tmp_path: Path) -> str:
    return str(capture_fixture(tmp_path))


def screen_text(app: object) -> str:
    return "\n".join(screen_lines(app))


# -- 15. truncation ------------------------------------------------------------------------------


async def test_a_cut_status_ends_with_an_ellipsis(tmp_path: Path) -> None:
    path = write_jsonl(
        tmp_path / "s.jsonl",
        [capture("a", status="LimitsExceededByFarTooMuch"), capture("b", status="ok")],
    )
    async with running([str(path)]) as (pilot, app, screen):
        rows = list_rows(screen)
        assert "LimitsExceededByFarTooMuch" not in rows[0]
        assert re.search(r"LimitsExce\w*… ", rows[0]), rows[0]


async def test_titles_that_start_alike_show_what_tells_them_apart(tmp_path: Path) -> None:
    lead = "Use ydc-server and answer\n"
    questions = ["What is the latest on tsuzaki430?", "Where can I rent a boat?", "How to fix X"]
    path = write_jsonl(
        tmp_path / "t.jsonl", [capture(f"ws-{i}", input=lead + q) for i, q in enumerate(questions)]
    )
    async with running([str(path)]) as (pilot, app, screen):
        rows = list_rows(screen)
        for row, question in zip(rows, questions, strict=True):
            assert "Use ydc-server" not in row
            assert question[:12] in row, row
        assert "… = Use ydc-server and answer" in screen_text(app), "the elided words are said once"


async def test_at_120_columns_the_run_title_gets_the_width_the_steps_do_not_use(
    tmp_path: Path,
) -> None:
    from tests.formats.acp.builders import step_message

    lead = "Use ydc-server and answer\n"
    questions = [
        f"{w} is the latest news on topic {i}?"
        for i, w in enumerate(["What", "Where", "Who", "How", "Why"])
    ]
    records = [
        capture(
            f"websearch-{1000 + i}",
            [step_message("I'll search", 100), step_message("Found it", 200)],
            input=lead + q,
            score={"pass": True, "score": 0.8},
        )
        for i, q in enumerate(questions)
    ]
    path = write_jsonl(tmp_path / "t.jsonl", records)
    async with running([str(path)], size=(120, 40)) as (pilot, app, screen):
        # the columns first (issue 22: a wider terminal never shows fewer of them than 80x24),
        # then the title shares what is left with the step titles
        for row, question in zip(list_rows(screen), questions, strict=True):
            assert question[:12] in row, row
        step_row = screen.timeline.render_row(0, screen.timeline.size.width).plain
        assert not step_row.endswith(" " * 10), "the steps pane keeps empty columns"


# -- 15. header and footer at 80x24 --------------------------------------------------------------


async def test_at_80x24_the_header_keeps_the_file_name_and_the_counts(tmp_path: Path) -> None:
    deep = tmp_path / "a-long-directory-name" / "another-long-directory-name" / "and-one-more"
    deep.mkdir(parents=True)
    path = capture_fixture(deep, "capture_headless_claude-code_mcp_scored.jsonl")
    async with running([str(path)], size=(80, 24)) as (pilot, app, screen):
        header = screen_lines(app)[0]
        assert "mcp_scored.jsonl" in header, header
        assert "4 runs · 66.7% pass" in header, header


@pytest.mark.parametrize("width", [60, 80, 100])
async def test_the_footer_never_shows_part_of_a_key(cap: str, width: int) -> None:
    async with running([cap], size=(width, 24)) as (pilot, app, screen):
        for keys in ((), ("enter",), ("enter",)):
            await pilot.press(*keys)
            await settle(pilot)
            footer = screen_lines(app)[-1]
            labels = {
                f"{app.get_key_display(b)} {b.description}"
                for _, b, _, _ in screen.active_bindings.values()
            }
            parts = [p.strip() for p in re.split(r"\s{2,}|▏", footer) if p.strip()]
            assert parts, footer
            for part in parts:
                assert part in labels or part == "^p palette", (part, footer)
            assert "? help" in footer


@pytest.mark.parametrize("columns", ["60", "150"])
def test_show_fits_columns_and_adds_no_trailing_blanks(tmp_path: Path, columns: str) -> None:
    import os
    import sys

    from rich.cells import cell_len

    words = " ".join(f"word{i}" for i in range(80))
    cap = str(write_jsonl(tmp_path / "w.jsonl", [capture("websearch-2", input=words)]))

    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    out = forked.run(
        [sys.executable, "-m", "trajtui", "show", cap, "websearch-2"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**env, "COLUMNS": columns},
    ).stdout
    lines = out.splitlines()
    assert lines
    assert not [line for line in lines if line != line.rstrip()]
    widest = max(cell_len(line) for line in lines)
    assert widest <= int(columns)
    if columns == "150":
        assert widest > 100, "COLUMNS is ignored"


async def test_a_row_wider_than_its_pane_ends_with_an_ellipsis(tmp_path: Path) -> None:
    long_name = "a-results-file-with-a-rather-long-name-that-goes-on-and-on.jsonl"
    write_jsonl(tmp_path / long_name, [capture("r1")])
    write_jsonl(tmp_path / "b.jsonl", [capture("r2")])
    async with running([str(tmp_path)]) as (pilot, app, screen):
        width = screen.run_list.scrollable_content_region.width
        line = screen.run_list.render_line(0).text  # the first group's header row
        assert line.rstrip().endswith("…"), line
        assert len(line) <= width
