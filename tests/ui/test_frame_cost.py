"""Moving from run to run redraws the panes without laying out the whole screen.

A screen layout arranges every widget again; with a big run shown while rows load it took
30-150 ms a frame, and keys waited behind it. The scroll range of the lists and the detail
pane, and the one-line headers, change without one; a scrollbar that appears or goes still
lays the screen out, so what is drawn stays right.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.screen import Screen
from textual.widget import Widget

from tests.formats.acp.builders import capture, step_message, write_jsonl
from tests.helpers.ui import main_screen, running, screen_lines, settle


def _run(rid: str, steps: int) -> dict[str, object]:
    return capture(
        rid,
        [step_message(f"{rid} says line {i:03d}", 100 + i) for i in range(steps)],
        output="\n".join(f"answer line {i}" for i in range(80)),
    )


def _scrollbar(view: Widget) -> bool:
    """The view shows its vertical scrollbar."""
    return bool(view.show_vertical_scrollbar)


@pytest.fixture
def runs_of_many_lengths(tmp_path: Path) -> Path:
    return write_jsonl(
        tmp_path / "runs.jsonl",
        [_run("long-a", 90), _run("long-b", 120), _run("short-c", 3), _run("long-d", 60)],
    )


async def test_moving_between_long_runs_lays_out_nothing(
    runs_of_many_lengths: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with running([str(runs_of_many_lengths)]) as (pilot, _app, screen):
        await settle(pilot)  # (a layout the first screen still owes is not a move's)
        layouts: list[str] = []
        real = Screen._refresh_layout

        def counted(self: Screen[object], *args: object, **kwargs: object) -> None:
            layouts.append(screen.run.ref if screen.run is not None else "-")
            real(self, *args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(Screen, "_refresh_layout", counted)
        assert screen.run is not None and screen.run.ref == "long-a"
        await pilot.press("j")  # long-a -> long-b: both overflow their panes
        await settle(pilot)
        await pilot.press("k")
        await settle(pilot)
        assert screen.run is not None and screen.run.ref == "long-a"
        assert "long-a says line 000" in "\n".join(screen_lines(pilot.app))
        assert layouts == []


async def test_scrollbars_follow_the_run_shown(runs_of_many_lengths: Path) -> None:
    async with running([str(runs_of_many_lengths)]) as (pilot, app, screen):
        timeline = screen.timeline
        assert _scrollbar(timeline)  # 90 steps: more than the pane shows
        await pilot.press("j", "j")  # short-c: three steps, no scrollbar
        await settle(pilot)
        assert screen.run is not None and screen.run.ref == "short-c"
        assert not _scrollbar(timeline)
        assert timeline.max_scroll_y == 0
        await pilot.press("k")  # long-b: 120 steps, the whole range scrolls
        await settle(pilot)
        assert screen.run is not None and screen.run.ref == "long-b"
        assert _scrollbar(timeline)
        timeline.focus()
        await pilot.press("G")
        await settle(pilot)
        shown = "\n".join(screen_lines(app))
        assert "long-b says line 119" in shown
        assert (
            timeline.max_scroll_y == timeline.row_count - timeline.scrollable_content_region.height
        )


async def test_what_the_screen_keeps_is_out_of_the_collectors_sight(
    runs_of_many_lengths: Path,
) -> None:
    """Once every file is read, the summaries and widgets are frozen: a full collection
    (40-60 ms with 10,000 runs, in the middle of a frame) no longer walks them."""
    import gc

    async with running([str(runs_of_many_lengths)]) as (_pilot, _app, screen):
        assert screen.state.loading_done
        assert gc.get_freeze_count() > 0
        summary = screen.ws.sources[0].peek(0)
        assert summary is not None
        assert not any(summary is o for o in gc.get_objects(generation=2))


async def test_a_screen_left_is_freed(runs_of_many_lengths: Path) -> None:
    """``R`` opens a new screen: the old one, with everything it read, is freed (kept out
    of the collector's sight, its widgets' cycles would never be)."""
    import gc
    import weakref

    from trajtui.ui.app import make_app

    app = make_app([str(runs_of_many_lengths)])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        old = weakref.ref(main_screen(app))
        old_store = weakref.ref(main_screen(app).store)
        assert main_screen(app).state.loading_done  # what it read is kept
        await pilot.press("R")
        await settle(pilot)
        assert main_screen(app) is not old()
        assert main_screen(app).state.loading_done
        for _ in range(200):  # the app looks for screens left every second
            await pilot.pause(0.05)
            gc.collect()
            if old() is None:
                break
        assert old() is None and old_store() is None
        assert gc.get_freeze_count() > 0  # what the new screen holds is kept


async def test_the_app_ended_keeps_nothing(runs_of_many_lengths: Path) -> None:
    """What the app kept out of the collector's sight goes back to it when the app ends."""
    import gc

    async with running([str(runs_of_many_lengths)]) as (_pilot, _app, screen):
        assert screen.state.loading_done and gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0


async def test_a_row_read_off_screen_is_drawn_read_when_scrolled_to(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The run list skips drawing again when the rows on screen did not change; a row drawn
    earlier as "reading", and read while scrolled away, still shows its run when scrolled
    back to (not the row drawn before it was read)."""
    path = write_jsonl(tmp_path / "many.jsonl", [capture(f"run-{i:03d}") for i in range(200)])
    async with running([str(path)]) as (pilot, _app, screen):
        runs = screen.run_list
        runs.loaded_more()  # (what the list drew last is what is on screen)
        source = screen.ws.sources[0]
        real_peek = type(source).peek
        monkeypatch.setattr(  # row 120 not read yet, as while a big file loads
            type(source), "peek", lambda self, i: None if i == 120 else real_peek(self, i)
        )
        runs.scroll_to(y=118, animate=False)
        await pilot.pause(0.05)
        assert any("⋯ reading line 121" in line for line in screen_lines(pilot.app))
        runs.scroll_to(y=0, animate=False)
        await pilot.pause(0.05)
        monkeypatch.setattr(type(source), "peek", real_peek)  # now read
        runs.loaded_more()  # (the rows on screen are as they were)
        runs.scroll_to(y=118, animate=False)
        await pilot.pause(0.05)
        shown = "\n".join(screen_lines(pilot.app))
        assert "run-120" in shown and "reading" not in shown
