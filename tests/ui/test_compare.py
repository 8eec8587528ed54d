"""Comparing in the TUI: c marks a run as A, c on another aligns the two; C compares two
sources prompt by prompt. Hand-made pairs whose right answer is obvious."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.widgets import OptionList

from tests.formats.acp.builders import capture, step_message, trials, write_jsonl
from tests.helpers.compare_pairs import fetch, pairs_fixture, search, sources_fixture, think
from tests.helpers.ui import foreign_controls, running, screen_lines, settle, terminal_output
from trajtui.core.compare.align import Op
from trajtui.ui.screens.compare import CompareScreen, PairList
from trajtui.ui.screens.compare_sources import PickSource, SourceRows, SourcesScreen
from trajtui.ui.screens.compare_step import PairScreen
from trajtui.ui.widgets.detail import DetailView


async def open_compare(pilot: Any, app: Any, screen: Any, a: int, b: int) -> CompareScreen:
    """Mark row ``a`` with c, go to row ``b``, c again: the compare screen, aligned."""
    screen.run_list.set_cursor(a)
    await settle(pilot)
    await pilot.press("c")
    await settle(pilot)
    screen.run_list.set_cursor(b)
    await settle(pilot)
    await pilot.press("c")
    await settle(pilot)
    compare = app.screen
    assert isinstance(compare, CompareScreen)
    return compare


async def test_c_marks_a_run_visibly_and_says_so(tmp_path: Path) -> None:
    path = pairs_fixture(tmp_path)
    async with running([str(path)], notifications=True) as (pilot, app, screen):
        screen.run_list.set_cursor(1)
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        said = [n.message for n in app.notices]
        assert any("marked inserted as A" in m for m in said)
        rows = [line for line in screen_lines(app) if "inserted" in line and "done" in line]
        assert rows and rows[0].split("│")[1].startswith("A• done")
        others = [line for line in screen_lines(app) if "base" in line and "pass" in line]
        assert others and others[0].split("│")[1].startswith(" ✓ pass")
        await pilot.press("c")  # again on the same run: unmarked
        await settle(pilot)
        assert screen.marked is None
        assert any("no longer marked" in n.message for n in app.notices)


async def test_an_inserted_step_opens_on_the_gap_and_n_N_move_between_differences(
    tmp_path: Path,
) -> None:
    path = pairs_fixture(tmp_path)
    async with running([str(path)], notifications=True) as (pilot, app, screen):
        compare = await open_compare(pilot, app, screen, 0, 1)
        plist = compare.pair_list
        ops = [p.op for p in plist.pairs]
        assert ops == [Op.SAME, Op.SAME, Op.ONLY_B, Op.SAME, Op.SAME]
        assert plist.cursor == 2  # on the first divergence
        text = "\n".join(screen_lines(app))
        assert "first divergence: A · / B step-3" in text
        row = next(line for line in screen_lines(app) if "▶+" in line)
        assert "Read" in row and row.index("Read") > row.index("▶+")  # only B's side
        assert row[: row.index("▶+")].strip() == ""  # A's cell is blank
        await pilot.press("g")
        await settle(pilot)
        assert plist.cursor == 0
        await pilot.press("n")
        await settle(pilot)
        assert plist.cursor == 2
        await pilot.press("n")  # no more: stays, says so
        await settle(pilot)
        assert plist.cursor == 2
        assert any("no more differences" in n.message for n in app.notices)
        await pilot.press("G", "N")
        await settle(pilot)
        assert plist.cursor == 2
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is screen
        assert screen.marked is not None and screen.marked.ref == "base"


async def test_the_header_gives_both_figures_and_their_differences(tmp_path: Path) -> None:
    path = pairs_fixture(tmp_path)
    async with running([str(path)]) as (pilot, app, screen):
        await open_compare(pilot, app, screen, 0, 3)
        lines = screen_lines(app)
        text = "\n".join(lines)
        for head in ("outcome", "duration", "tool calls", "steps"):
            assert head in text
        delta = next(line for line in lines if line.lstrip().startswith("B - A"))
        assert "-2" in delta  # B has two steps fewer
        assert "-834ms" in delta or "-0.8s" in delta or "-834" in delta


async def test_a_changed_input_is_a_tilde_row_saying_which_field_and_enter_opens_both(
    tmp_path: Path,
) -> None:
    path = pairs_fixture(tmp_path)
    async with running([str(path)]) as (pilot, app, screen):
        compare = await open_compare(pilot, app, screen, 0, 2)
        plist: PairList = compare.pair_list
        assert plist.pairs[plist.cursor].op is Op.CHANGED
        row = next(line for line in screen_lines(app) if "▶~" in line)
        assert "input differs: url" in row
        await pilot.press("enter")
        await settle(pilot)
        pair = app.screen
        assert isinstance(pair, PairScreen)
        a = pair.query_one("#detail-a", DetailView)
        b = pair.query_one("#detail-b", DetailView)
        assert "anthropic.com/company" in a.text
        assert "anthropic.com/team" in b.text
        assert app.focused is a
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is compare


async def test_enter_on_a_step_only_b_has_shows_b_and_says_a_has_none(tmp_path: Path) -> None:
    path = pairs_fixture(tmp_path)
    async with running([str(path)]) as (pilot, app, screen):
        await open_compare(pilot, app, screen, 0, 1)
        await pilot.press("enter")
        await settle(pilot)
        pair = app.screen
        assert isinstance(pair, PairScreen)
        a = pair.query_one("#detail-a", DetailView)
        b = pair.query_one("#detail-b", DetailView)
        assert "only B has this step" in a.text
        assert "notes.md" in b.text
        assert app.focused is b


async def test_a_run_that_stops_early_ends_in_steps_only_a_has(tmp_path: Path) -> None:
    path = pairs_fixture(tmp_path)
    async with running([str(path)]) as (pilot, app, screen):
        compare = await open_compare(pilot, app, screen, 0, 3)
        ops = [p.op for p in compare.pair_list.pairs]
        assert ops == [Op.SAME, Op.SAME, Op.ONLY_A, Op.ONLY_A]
        assert compare.pair_list.cursor == 2


async def test_c_in_the_timeline_on_a_trial_compares_trials(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "t.jsonl", [trials("search-1", [True, False])])
    async with running([str(path)], notifications=True) as (pilot, app, screen):
        await pilot.press("enter")  # into the timeline: trial 1's header
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        assert screen.marked is not None and screen.marked.ref == "search-1/trial-1"
        headers = [line for line in screen_lines(app) if "▾ trial" in line]
        assert "A▾ trial 1" in headers[0] and "A▾" not in headers[1]
        row = screen.timeline.row_of_attempt(2)
        assert row is not None
        screen.timeline.set_cursor(row)
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        compare = app.screen
        assert isinstance(compare, CompareScreen)
        assert compare.comparison is not None
        assert compare.comparison.b.ref == "search-1/trial-2"
        assert any(p.op is not Op.SAME for p in compare.pair_list.pairs)


async def test_compare_with_marked_is_in_the_palette_only_once_a_run_is_marked(
    tmp_path: Path,
) -> None:
    path = pairs_fixture(tmp_path)
    async with running([str(path)]) as (pilot, app, screen):
        assert screen.check_action("compare_marked", ()) is None
        await pilot.press("c")
        await settle(pilot)
        assert screen.check_action("compare_marked", ()) is True
        screen.run_list.set_cursor(2)
        await settle(pilot)
        await screen.run_action("compare_marked")
        await settle(pilot)
        assert isinstance(app.screen, CompareScreen)


async def test_C_lists_flips_first_with_the_summary_and_enter_compares_the_prompt(
    tmp_path: Path,
) -> None:
    before, after = sources_fixture(tmp_path)
    async with running([str(before), str(after)], notifications=True) as (pilot, app, screen):
        await pilot.press("C")
        await settle(pilot)
        srcs = app.screen
        assert isinstance(srcs, SourcesScreen)
        rows: SourceRows = srcs.rows
        assert [r.ref for r in rows.rows] == ["p1", "p2", "p3", "p4", "p5"]
        text = "\n".join(screen_lines(app))
        assert "pass rate over prompts graded on both sides: A 66.7% (2/3) · B 66.7% (2/3)" in text
        assert "flips: pass→fail 1 · fail→pass 1" in text
        assert "paired difference" in text and "95% CI [" in text
        first = next(line for line in screen_lines(app) if " p1 " in line)
        assert "pass→fail" in first and "-0.8 " in first
        await pilot.press("G")
        await pilot.press("enter")  # only in B: nothing to compare
        await settle(pilot)
        assert app.screen is srcs
        assert any("only in B" in n.message for n in app.notices)
        await pilot.press("g", "enter")
        await settle(pilot)
        compare: object = app.screen
        assert isinstance(compare, CompareScreen)
        assert [p.op for p in compare.pair_list.pairs] == [Op.SAME, Op.SAME, Op.ONLY_A]
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is srcs
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is screen


async def test_C_with_one_source_says_two_are_needed(tmp_path: Path) -> None:
    path = pairs_fixture(tmp_path)
    async with running([str(path)], notifications=True) as (pilot, app, screen):
        await pilot.press("C")
        await settle(pilot)
        assert app.screen is screen
        assert any("needs two sources" in n.message for n in app.notices)


async def test_run_ids_with_markup_are_shown_as_they_are(tmp_path: Path) -> None:
    path = write_jsonl(
        tmp_path / "evil.jsonl",
        [
            capture("[bold]x[/bold]", [think(), search()]),
            capture("[@click=app.quit]y[/]", [think(), fetch()]),
        ],
    )
    async with running([str(path)]) as (pilot, app, screen):
        await open_compare(pilot, app, screen, 0, 1)
        text = "\n".join(screen_lines(app))
        assert "[bold]x[/bold]" in text
        assert "[@click=app.quit]y[/]" in text


async def test_C_with_three_sources_asks_which_is_A_and_which_B(tmp_path: Path) -> None:
    before, after = sources_fixture(tmp_path)
    third = write_jsonl(tmp_path / "third.jsonl", [capture("p1", [think()])])
    paths = [str(third), str(before), str(after)]
    async with running(paths) as (pilot, app, screen):
        labels = [s.label for s in screen.ws.sources]
        await pilot.press("C")
        await settle(pilot)
        assert isinstance(app.screen, PickSource)
        await pilot.press("j", "enter")  # A: the second source
        await settle(pilot)
        picker = app.screen
        assert isinstance(picker, PickSource)
        shown = [str(o.prompt) for o in picker.query_one(OptionList)._options]
        assert len(shown) == 2 and shown[1].startswith(labels[2])
        assert not any(s.startswith(labels[1]) for s in shown)  # A is not offered as B
        await pilot.press("j", "enter")  # B: the third (the second offered)
        await settle(pilot)
        srcs = app.screen
        assert isinstance(srcs, SourcesScreen)
        assert (srcs.a, srcs.b) == (1, 2)
        assert [r.ref for r in srcs.rows.rows][:2] == ["p1", "p2"]


async def test_escape_sequences_in_steps_never_reach_the_terminal(tmp_path: Path) -> None:
    evil = "\x1b]0;title\x07 \x1b[31mred\x1b[0m \u202edesrever"
    path = write_jsonl(
        tmp_path / "evil.jsonl",
        [
            capture("one", [step_message(evil, 10), search()]),
            capture("two", [step_message(evil + " more", 10), search()]),
        ],
    )
    async with running([str(path)]) as (pilot, app, screen):
        await open_compare(pilot, app, screen, 0, 1)
        assert foreign_controls(terminal_output(app)) == []
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, PairScreen)
        assert foreign_controls(terminal_output(app)) == []


async def test_the_two_steps_of_a_pair_scroll_together(tmp_path: Path) -> None:
    long_a = "\n\n".join(f"paragraph {k} of A" for k in range(200))
    long_b = "\n\n".join(f"paragraph {k} of B" for k in range(200))
    path = write_jsonl(
        tmp_path / "long.jsonl",
        [
            capture("one", [think(), step_message(long_a, 10)]),
            capture("two", [think(), step_message(long_b, 10)]),
        ],
    )
    async with running([str(path)]) as (pilot, app, screen):
        await open_compare(pilot, app, screen, 0, 1)
        await pilot.press("enter")
        await settle(pilot)
        pair = app.screen
        assert isinstance(pair, PairScreen)
        a = pair.query_one("#detail-a", DetailView)
        b = pair.query_one("#detail-b", DetailView)
        await pilot.press("o")  # every paragraph
        await settle(pilot)
        await pilot.press("pagedown", "pagedown")
        await settle(pilot)
        assert a.scroll_y > 30
        assert b.scroll_y == a.scroll_y
        shown = "\n".join(screen_lines(app))
        assert "paragraph 0 of" not in shown
        assert "paragraph 40 of A" in shown and "paragraph 40 of B" in shown


async def test_x_on_the_compare_screen_writes_it_as_html_or_markdown(
    tmp_path: Path, monkeypatch: Any
) -> None:
    (tmp_path / "data").mkdir()
    path = pairs_fixture(tmp_path / "data")
    monkeypatch.chdir(tmp_path)
    async with running([str(path)]) as (pilot, app, screen):
        await open_compare(pilot, app, screen, 0, 1)
        await pilot.press("x")
        await settle(pilot)
        await pilot.press("2")  # markdown, then the path as offered
        await pilot.press("enter")
        for _ in range(100):
            written = list(tmp_path.glob("*.md"))
            if written and written[0].stat().st_size:
                break
            await settle(pilot)
    assert len(written) == 1
    text = written[0].read_text()
    assert text.startswith("## Compare: base vs inserted")
    assert "| \\+ | · | step-" in text  # an inserted step: only in B


async def test_keys_typed_ahead_of_the_screen_mark_and_compare_the_runs_under_the_cursor(
    tmp_path: Path,
) -> None:
    """``j j c`` typed faster than the run list's moves reach the screen (over SSH, keys
    come in one read): c takes the run the cursor is on, not the one shown before."""
    from textual import events

    path = pairs_fixture(tmp_path)
    async with running([str(path)]) as (pilot, app, screen):
        await pilot.press("c")  # base is A
        await settle(pilot)
        for key in ("j", "j", "c"):
            app.post_message(events.Key(key, key))
        # the keys are in the app's queue: settled is only once they are taken
        for _ in range(600):
            if isinstance(app.screen, CompareScreen):
                break
            await pilot.pause(0.05)
        await settle(pilot)
        compare = app.screen
        assert isinstance(compare, CompareScreen)
        assert "B changed" in str(compare.query_one("#compare-title").render())


async def test_the_palette_on_the_compare_screen_lists_its_own_keys_and_runs_them(
    tmp_path: Path,
) -> None:
    from trajtui.ui.app import TrajtuiCommands
    from trajtui.ui.screens.export import ExportScreen

    path = pairs_fixture(tmp_path)
    async with running([str(path)]) as (pilot, app, screen):
        compare = await open_compare(pilot, app, screen, 0, 1)
        commands = TrajtuiCommands(compare)._commands()
        titles = [title for title, _, _ in commands]
        assert "Next diff  (n)" in titles and "Export  (x)" in titles
        assert not any(t.startswith(("Filter runs", "Sort runs")) for t in titles)  # main's
        run = next(run for title, _, run in commands if title == "Export  (x)")
        await run()
        await settle(pilot)
        assert isinstance(app.screen, ExportScreen)


async def test_the_run_marked_for_compare_stays_marked_after_a_reload(tmp_path: Path) -> None:
    from tests.helpers.ui import main_screen

    path = pairs_fixture(tmp_path)
    async with running([str(path)]) as (pilot, app, screen):
        screen.run_list.set_cursor(2)  # changed
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        with path.open("a") as f:  # the file grows meanwhile: indices could shift, refs not
            f.write('{"id": "late", "input": "x", "output": "y", "trajectory": []}\n')
        await pilot.press("R")
        await settle(pilot)
        new = main_screen(app)
        assert new is not screen
        assert new.marked is not None and new.marked.ref == "changed"
        row = next(line for line in screen_lines(app) if "changed" in line and "│" in line)
        assert row.split("│")[1].startswith("A")
        new.run_list.set_cursor(0)  # base: c compares it with the marked run
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        assert isinstance(app.screen, CompareScreen)
        assert "A changed  ·  B base" in str(app.screen.query_one("#compare-title").render())
