"""Going to a reference while files are read: the loader leaves the interpreter to the run
gone to until it is drawn (``--goto`` on a big file shows its run sooner), and lets go
again whatever the reference turns out to be."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.formats.acp.builders import capture, write_jsonl
from tests.helpers.ui import capture_fixture, listed, running, settle


async def test_reading_goes_on_after_every_kind_of_reference(tmp_path: Path) -> None:
    path = capture_fixture(tmp_path)
    async with running([str(path)], goto="websearch-2-step-3") as (pilot, _app, screen):
        # a step: its run is drawn, with the step in the detail
        assert screen.run is not None and screen.run.ref == "websearch-2"
        assert "StepSubject(trial=None, first=2, last=2)" in screen.detail.key
        assert screen.state.goto_since is None
        assert "unread" not in listed(screen)
        # a reference naming nothing: said, and nothing waits for it
        screen.go_to("websearch-9")
        await settle(pilot)
        assert screen.state.goto_since is None and screen.state.pending_goto is None
        # the run already shown
        screen.go_to("websearch-1")
        await settle(pilot)
        screen.go_to("websearch-1")
        await settle(pilot)
        assert screen.run is not None and screen.run.ref == "websearch-1"
        assert screen.state.goto_since is None


async def test_indexing_waits_for_the_first_screen_and_reads_its_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Indexing a big file pauses, once the first screenful is indexed, until the first
    screen is drawn with its rows read: the loader reads those rows itself while it waits
    (were it not to, only the wait's time limit would end it)."""
    from trajtui.core.jsonl import index
    from trajtui.ui.app import make_app
    from trajtui.ui.screens.main import MainScreen, loading

    monkeypatch.setattr(index, "CHUNK", 32768)  # a screenful and more a chunk, six chunks
    monkeypatch.setattr(loading, "FIRST_SCREEN_WAIT", 1e9)  # only drawing ends the wait
    monkeypatch.setattr(loading, "FIRST_SCREEN_FROM", 0)  # a big file, as far as it knows
    path = write_jsonl(
        tmp_path / "many.jsonl", [capture(f"run-{i:03d}", input="x" * 400) for i in range(300)]
    )
    app = make_app([str(path)])
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(400):  # the app quits (its loader cancelled) if this gives up
            await pilot.pause(0.025)
            screen = app.screen
            if isinstance(screen, MainScreen) and screen.state.first_drawn:
                break
        assert isinstance(screen, MainScreen) and screen.state.first_drawn
        assert screen.run is not None and screen.run.ref == "run-000"
        shown = listed(screen)[: screen.run_list.size.height]
        assert shown[0] == "run-000" and "unread" not in shown


async def test_going_to_a_reference_reads_that_run_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--goto`` to a run further on: that run is read once, and no other before it (rows
    read while the reference was resolved selected the first run, or the one under the
    cursor again: each a read and a frame on the way)."""
    from trajtui.ui.screens.main.selection import Selection

    read: list[int] = []
    real = Selection.load_run

    def counted(self: Selection, s: int, i: int) -> None:
        read.append(i)
        real(self, s, i)

    monkeypatch.setattr(Selection, "load_run", counted)
    path = write_jsonl(tmp_path / "many.jsonl", [capture(f"run-{i:03d}") for i in range(300)])
    async with running([str(path)], goto="run-250") as (_pilot, _app, screen):
        assert screen.run is not None and screen.run.ref == "run-250"
        assert read == [250]
