"""Pilot tests of issue 8's "invisible or misleading UI" items: what the screen shows is true,
visible and usable (the search prompt, empty results, scrolling to a target, sources of mixed
rows, and the small ones); what is cut to fit is :mod:`tests.ui.test_cut_to_fit`'s."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.formats.acp.builders import capture, write_jsonl
from tests.helpers import forked
from tests.helpers.ui import capture_fixture, list_rows, running, screen_lines, settle, typed
from trajtui.ui.widgets.timeline import Timeline


@pytest.fixture
def cap(tmp_path: Path) -> str:
    return str(capture_fixture(tmp_path))


def screen_text(app: object) -> str:
    return "\n".join(screen_lines(app))


# -- 10. the search prompt --------------------------------------------------------------------


@pytest.mark.parametrize("size", [(160, 45), (80, 24)])
async def test_what_is_typed_after_slash_is_on_screen_with_the_match_count(
    cap: str, size: tuple[int, int]
) -> None:
    async with running([cap], size=size) as (pilot, app, screen):
        await pilot.press("j", "enter")  # the timeline of websearch-2 (the run list's / searches
        await settle(pilot)  # every run: tests/ui/test_grep.py)
        await pilot.press("slash", *"websearch")
        await settle(pilot)
        lines = screen_lines(app)
        count = screen.timeline.row_count
        prompt = next((line for line in lines if f"{count} matches" in line), None)
        assert prompt is not None, "\n".join(lines)
        assert "/ websearch" in prompt
        await pilot.press(*"-9x")
        await settle(pilot)
        assert "no match" in screen_text(app)


async def test_a_search_with_no_match_leaves_the_cursor_where_it_was(cap: str) -> None:
    async with running([cap]) as (pilot, app, screen):
        await pilot.press("j", "enter")  # the timeline of websearch-2
        await settle(pilot)
        await pilot.press("slash", *"websearch-2-step-4x")
        await settle(pilot)
        assert screen.timeline.cursor == 0, "the cursor stayed on a partial match"
        assert "no match" in screen_text(app)
        await pilot.press("escape")
        await pilot.press("slash", *"websearch-2-step-4", "escape")
        await settle(pilot)
        assert screen.timeline.cursor == 0, "esc goes back to where the search started"


# -- 14. detail search looks inside folded values ----------------------------------------------


async def test_detail_search_finds_text_in_a_folded_value_and_unfolds_at_it(
    tmp_path: Path,
) -> None:
    from tests.formats.acp.builders import step_tool

    long_output = "\n".join(f"line {i}" for i in range(300)) + "\nthe needle is here"
    path = write_jsonl(
        tmp_path / "c.jsonl",
        [capture("long", [step_tool("Read", "completed", 5, output=long_output)])],
    )
    async with running([str(path)]) as (pilot, app, screen):
        await pilot.press("enter", "enter")
        await settle(pilot)
        assert "needle" not in screen.detail.text and "folded" in screen.detail.text
        await pilot.press("slash", *"needle")
        await settle(pilot)
        assert "the needle is here" in screen.detail.text
        assert screen.detail.matches
        assert "the needle is here" in screen_text(app), "the view is not at the match"
        assert "1 of 1 match" in screen_text(app)
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("slash", *"nowhere at all")
        await settle(pilot)
        assert "no match" in screen_text(app)


# -- 13. an empty filter result says so -------------------------------------------------------


async def test_a_filter_that_matches_nothing_says_so(cap: str) -> None:
    async with running([cap]) as (pilot, app, screen):
        await pilot.press("f")
        await typed(pilot, "zebra")
        await settle(pilot)
        text = screen_text(app)
        assert "reading…" not in text
        assert "no runs match" in text and "zebra" in text
        assert "0 shown" not in text


async def test_a_filter_it_does_not_understand_says_so(cap: str) -> None:
    async with running([cap]) as (pilot, app, screen):
        await pilot.press("f")
        await typed(pilot, "steps>30")  # a query now: it filters
        await settle(pilot)
        assert "no runs match: steps>30" in screen_text(app)
        await pilot.press("ctrl+u")
        await typed(pilot, "score:zero")
        await settle(pilot)
        text = screen_text(app)
        assert "score takes a number" in text and "zero" in text
        await pilot.press("ctrl+u")
        await typed(pilot, "status:pass")
        await settle(pilot)
        assert "takes a number" not in screen_text(app)


async def test_a_filter_over_several_files_hides_the_headers_of_files_without_a_match(
    tmp_path: Path,
) -> None:
    write_jsonl(tmp_path / "a.jsonl", [capture("alpha-1"), capture("alpha-2")])
    write_jsonl(tmp_path / "b.jsonl", [capture("beta-1")])
    async with running([str(tmp_path)]) as (pilot, app, screen):
        await pilot.press("f")
        await typed(pilot, "beta")
        await settle(pilot)
        rows = [screen.run_list.render_row(i, 80).plain for i in range(screen.run_list.row_count)]
        assert any("b.jsonl" in row for row in rows)
        assert not any("a.jsonl" in row for row in rows), rows
        await pilot.press(*"zz")
        await settle(pilot)
        assert "no runs match" in screen_text(app)


# -- 11. a run without a directory clears the forecast tabs ------------------------------------


@pytest.fixture
def forecast_dir(tmp_path: Path) -> str:
    from tests.formats.forecast import builders as bf

    ev = tmp_path / "eval"
    bf.write_json(
        ev / "summary.json",
        bf.summary([bf.entry("fed", brier=0.05), bf.entry("late", "timeout", error="timed out")]),
    )
    bf.run_dir(ev / "runs" / "fed", bf.fed_run())
    return str(ev)


@pytest.mark.parametrize("tab", ["src:S1", "msg:A1"])
async def test_going_to_a_run_without_a_directory_leaves_no_board_or_pool_behind(
    forecast_dir: str, tab: str
) -> None:
    async with running([forecast_dir], goto=f"fed/{tab}") as (pilot, app, screen):
        assert "Story 1" in screen_text(app) or "A1" in screen_text(app)
        await pilot.press("colon")
        await typed(pilot, "late")
        await pilot.press("enter")
        await settle(pilot)
        assert screen.run is not None and screen.run.ref == "late"
        assert screen.tabs.active == "tab-detail"
        text = screen_text(app)
        assert "late" in screen.detail.text
        assert "Story 1" not in text and "fed/" not in text, text
        assert not screen.query_one("#tab-sources").display


# -- 12. going to a step scrolls the timeline to it ---------------------------------------------


def long_run(tmp_path: Path) -> str:
    from tests.formats.acp.builders import step_message

    steps = [step_message(f"chunk number {i}", 10 * i) for i in range(1, 201)]
    return str(write_jsonl(tmp_path / "long.jsonl", [capture("first"), capture("long", steps)]))


def row_on_screen(timeline: Timeline, row: int) -> bool:
    top = round(timeline.scroll_offset.y)
    return top <= row < top + timeline.size.height


@pytest.mark.parametrize("how", ["--goto", ":"])
@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
async def test_going_to_a_step_shows_its_row_in_the_timeline(
    tmp_path: Path, how: str, size: tuple[int, int]
) -> None:
    path = long_run(tmp_path)
    goto = "long-step-150" if how == "--goto" else None
    async with running([path], goto=goto, size=size) as (pilot, app, screen):
        if how == ":":
            await pilot.press("colon")
            await typed(pilot, "long-step-150")
            await pilot.press("enter")
            await settle(pilot)
        assert screen.timeline.cursor == 149
        if screen.narrow:
            await pilot.press("escape")  # from the step back to the timeline
            await settle(pilot)
        assert row_on_screen(screen.timeline, 149), screen.timeline.scroll_offset
        assert "chunk number 150" in screen_text(app)


# -- 18. the small ones ------------------------------------------------------------------------


def tool_run(tmp_path: Path) -> Path:
    from tests.formats.acp.builders import step_tool

    return write_jsonl(
        tmp_path / "tools.jsonl",
        [
            capture(
                "calls",
                [
                    step_tool("WebSearch", "pending", 200, input={"query": "q"}),
                    step_tool("toolu_01abc", "completed", 2300, output="found"),
                    step_tool("Read", "in_progress", 2500, input={"file_path": "a.txt"}),
                ],
            )
        ],
    )


async def test_a_tool_call_that_never_completes_is_flagged_and_a_pair_shows_its_latency(
    tmp_path: Path,
) -> None:
    async with running([str(tool_run(tmp_path))]) as (pilot, app, screen):
        rows = [screen.timeline.render_row(i, 200).plain for i in range(3)]
        assert "completed by 2 after 2.1s" in rows[0], rows[0]
        assert "completes 1 after 2.1s" in rows[1], rows[1]
        assert "no completion" in rows[2] and "no completion" not in rows[0], rows[2]
        await pilot.press("enter", "j", "j", "enter")
        await settle(pilot)
        assert "no completion" in screen.detail.text


def test_show_flags_a_call_that_never_completes_and_the_latency_of_a_pair(
    tmp_path: Path,
) -> None:
    import sys

    path = tool_run(tmp_path)
    out = forked.run(
        [sys.executable, "-m", "trajtui", "show", str(path), "calls"],
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout
    assert "completed by 2 after 2.1s" in out and "no completion" in out
    step = forked.run(
        [sys.executable, "-m", "trajtui", "show", str(path), "calls-step-2"],
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout
    assert "2.1s between the two" in step


# -- 16. rows of several sources, mixed by a sort, say where they are from -----------------------


async def test_sorted_rows_of_several_files_each_name_their_file(tmp_path: Path) -> None:
    for n, name in enumerate(["first-results.jsonl", "second-results.jsonl", "third.jsonl"]):
        write_jsonl(
            tmp_path / name,
            [
                capture("websearch-120", score={"pass": True, "score": 0.1 + n / 10}),
                capture(f"websearch-{n}", score={"pass": False, "score": 0.9 - n / 10}),
            ],
        )
    async with running([str(tmp_path)]) as (pilot, app, screen):
        while screen.store.sort != "score":
            await pilot.press("s")
        await settle(pilot)
        rows = list_rows(screen)
        assert len(rows) == 6, rows  # no group headers: the rows are mixed
        for row in rows:
            assert "::websearch-" in row, row
        assert any("third.jsonl::websearch-120" in row for row in rows), rows
        files = [next((n for n in ("first", "second", "third") if n in row), row) for row in rows]
        assert files != sorted(files), "rows of the files are mixed by the sort"
        await pilot.press("s")  # back to file order: grouped again, under headers
        await settle(pilot)
        assert screen.store.sort is None or screen.store.sort != "score"


@pytest.mark.parametrize("key", ["s", "S"])
async def test_unscored_runs_sort_last_both_ways(tmp_path: Path, key: str) -> None:
    path = write_jsonl(
        tmp_path / "s.jsonl",
        [
            capture("unscored"),
            capture("low", score={"pass": False, "score": 0.2}),
            capture("high", score={"pass": True, "score": 0.9}),
        ],
    )
    async with running([str(path)]) as (pilot, app, screen):
        while screen.store.sort != "score":
            await pilot.press("s")
        if key == "S":
            await pilot.press("S")
        await settle(pilot)
        refs = [row.split()[2] for row in list_rows(screen)]
        assert refs[-1] == "unscored", refs
        assert refs[:2] == (["low", "high"] if key == "s" else ["high", "low"]), refs


async def test_r_on_a_merged_chunk_group_shows_the_chunks_as_in_the_file(cap: str) -> None:
    async with running([cap]) as (pilot, app, screen):
        await pilot.press("j")
        await settle(pilot)
        await pilot.press("m", "enter", "G", "enter")
        await settle(pilot)
        assert "5 streamed message chunks merged" in screen.detail.text
        await pilot.press("r")
        await settle(pilot)
        text = screen.detail.text
        assert '"type": "message"' in text and '"content": "Dario "' in text, text
        await pilot.press("r")
        await settle(pilot)
        assert "The CEO is Dario Amodei." in screen.detail.text


async def test_o_keeps_the_detail_where_it_was(tmp_path: Path) -> None:
    from tests.formats.acp.builders import step_tool

    long_output = "\n".join(f"line {i}" for i in range(300))
    path = write_jsonl(
        tmp_path / "c.jsonl",
        [capture("long", [step_tool("Read", "completed", 5, output=long_output)])],
    )
    async with running([str(path)]) as (pilot, app, screen):
        await pilot.press("enter", "enter")
        await settle(pilot)
        await pilot.press("j", "j", "j", "j", "j", "j", "j", "j", "j", "j")
        top = round(screen.detail.scroll_offset.y)
        assert top == 10
        await pilot.press("o")
        await settle(pilot)
        assert "line 299" in screen.detail.text
        assert round(screen.detail.scroll_offset.y) == top


async def test_a_failed_goto_selects_the_first_run_and_says_why(cap: str) -> None:
    async with running([cap], goto="nope-17", notifications=True) as (pilot, app, screen):
        assert screen.run is not None and screen.run.ref == "websearch-1"
        assert "no run selected" not in screen_text(app)
        assert "nope-17" in screen_text(app)  # the message


def eval_tree(tmp_path: Path) -> Path:
    from tests.formats.eval_results import builders as be

    root = tmp_path / "results" / "dev"
    ungraded = be.results_doc([be.sample("b1", "Cafe", graded=False)], accuracy=0.0, total=0)
    graded = be.results_doc(
        [be.sample("b2", "Diner", gt="Low Risk")], accuracy=1.0, correct=1, total=1
    )
    be.write_json(root / "20260118_000000_G1_allergy_V2" / "results.json", ungraded)
    be.write_json(root / "20260118_010000_G1_allergy_V2" / "results.json", graded)
    return tmp_path / "results"


async def test_an_eval_run_that_graded_nothing_has_no_accuracy(tmp_path: Path) -> None:
    async with running([str(eval_tree(tmp_path))]) as (pilot, app, screen):
        rows = list_rows(screen)
        ungraded = next(r for r in rows if "000000" in r)
        graded = next(r for r in rows if "010000" in r)
        assert " n/a " in ungraded and " 0 " not in ungraded.split("G1_allergy_V2")[1], ungraded
        assert " 1 " in graded, graded
        assert "accuracy n/a" in screen.detail.text and "0 of 0 graded" in screen.detail.text


def test_ls_says_n_a_for_the_accuracy_of_an_eval_run_that_graded_nothing(tmp_path: Path) -> None:
    import sys

    out = forked.run(
        [sys.executable, "-m", "trajtui", "ls", str(eval_tree(tmp_path))],
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout
    line = next(x for x in out.splitlines() if "000000" in x)
    assert "n/a" in line.split(), line


async def test_a_forecast_message_says_when_it_was_written_as_a_date(forecast_dir: str) -> None:
    async with running([forecast_dir], goto="fed/msg:A0") as (pilot, app, screen):
        text = screen.pane_previews["messages"].text
        assert "2027-01-15 08:00:00.000 UTC" in text, text
        assert "1800000000" not in text
