"""Going to a reference while files are read: the loader leaves the interpreter to the run
gone to until it is drawn (``--goto`` on a big file shows its run sooner), and lets go
again whatever the reference turns out to be."""

from __future__ import annotations

from pathlib import Path

from tests.ui_helpers import capture_fixture, listed, running, settle


async def test_reading_goes_on_after_every_kind_of_reference(tmp_path: Path) -> None:
    path = capture_fixture(tmp_path)
    async with running([str(path)], goto="websearch-2-step-3") as (pilot, _app, screen):
        # a step: its run is drawn, with the step in the detail
        assert screen.run is not None and screen.run.ref == "websearch-2"
        assert "StepSubject(trial=None, first=2, last=2)" in screen.detail.key
        assert screen._goto_since is None
        assert "unread" not in listed(screen)
        # a reference naming nothing: said, and nothing waits for it
        screen.go_to("websearch-9")
        await settle(pilot)
        assert screen._goto_since is None and screen._pending_goto is None
        # the run already shown
        screen.go_to("websearch-1")
        await settle(pilot)
        screen.go_to("websearch-1")
        await settle(pilot)
        assert screen.run is not None and screen.run.ref == "websearch-1"
        assert screen._goto_since is None
