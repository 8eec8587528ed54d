"""The TUI and the index cache: the first session saves the index (off the UI thread), and a
second session on the unchanged file has every row complete with the first progress it
gets, without decoding a record."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.core.cached import Reads, entry_file
from tests.formats.acp.builders import capture, write_jsonl
from tests.helpers.ui import running, screen_lines
from trajtui.core.jsonl.table import EMPTY
from trajtui.ui.messages import Loaded
from trajtui.ui.screens.main.loading import Loader


def runs_file(directory: Path) -> Path:
    recs = [
        capture(f"run-{i:03}", score={"pass": i % 3 != 0, "score": round(i / 300, 3)})
        for i in range(300)
    ]
    return write_jsonl(directory / "runs.jsonl", recs, raw_lines={150: b"{broken"})


async def test_a_second_open_shows_every_row_complete_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    p = runs_file(tmp_path)
    async with running([str(p)]) as (pilot, app, screen):
        first_summary = screen.store.summary_line()
    assert entry_file(p).is_file()
    assert sorted(os.listdir(tmp_path)) == ["runs.jsonl"]  # nothing beside the data

    # The second session: what the screen holds once it handled the first progress.
    at_first: list[dict[str, Any]] = []
    handle = Loader.loaded

    def watched(self: Loader, message: Loaded) -> None:
        handle(self, message)
        if not at_first:
            source = self.screen.ws.sources[message.source]
            at_first.append(
                {
                    "read": message.read,
                    "records": len(source),
                    "complete": source.complete,
                    "rows": len(self.screen.store.rows),
                    "unread": [i for i in range(len(source)) if source.row_kind(i) == EMPTY],
                    "counted": self.screen.store.counts[0].seen,
                    "summary": self.screen.store.summary_line(),
                }
            )

    monkeypatch.setattr(Loader, "loaded", watched)
    reads = Reads(monkeypatch)
    async with running([str(p)]) as (pilot, app, screen):
        assert at_first == [
            {
                "read": 301,
                "records": 301,
                "complete": True,
                "rows": 301,
                "unread": [],
                "counted": 301,
                "summary": first_summary,
            }
        ]
        assert "300 runs" in first_summary and "1 problem" in first_summary
        await pilot.press("G")  # the last row, drawn with its values
        await pilot.pause()
        rows = [line for line in screen_lines(app) if "run-299" in line and "╭" not in line]
        assert rows and "pass" in rows[0] and "0.997" in rows[0], screen_lines(app)
    assert (reads.decoded, reads.scanned_from) == (0, [])


async def test_no_cache_session_neither_reads_nor_writes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from trajtui.core.jsonl import indexcache

    p = runs_file(tmp_path)
    indexcache.configure(enabled=False)
    async with running([str(p)]) as (pilot, app, screen):
        assert "300 runs" in screen.store.summary_line()
    assert not entry_file(p).exists()


async def test_a_session_that_read_rows_out_of_order_still_saves_the_index(tmp_path: Path) -> None:
    """``--goto`` the last run (read before the rows above it) still leaves every key
    checked in the end: the index is saved for the next open."""
    p = runs_file(tmp_path)
    async with running([str(p)], goto="run-299") as (pilot, app, screen):
        assert screen.run is not None and screen.run.ref == "run-299"
        await pilot.press("g")  # the first rows, drawn (read) before the loader's turn
    assert entry_file(p).is_file()


async def test_a_run_list_counted_over_several_ticks_says_so_until_counted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A second open restores every row at once; the title's numbers are counted a slice
    at a time (keys are answered between slices). Until the count is whole the title says
    it is counting: a number of runs short of the list is never shown as if it were all."""
    from trajtui.ui import store as store_mod
    from trajtui.ui.screens.main import layout

    p = runs_file(tmp_path)
    async with running([str(p)]):
        pass
    real_count = store_mod.RunStore.count_new
    monkeypatch.setattr(  # 40 runs a slice: several slices for 300
        store_mod.RunStore,
        "count_new",
        lambda self, budget=None, at_least=1000: real_count(self, -1.0, 40),
    )
    titles: list[str] = []
    real_title = layout.Frame.update_title

    def seen(self: Any) -> None:
        real_title(self)
        titles.append(str(self.node.query_one("#title").render()))

    monkeypatch.setattr(layout.Frame, "update_title", seen)
    async with running([str(p)]) as (_pilot, _app, screen):
        assert screen.store.counts[0].seen == 301
        final = titles[-1]
    partial = [t for t in titles if "300 runs" not in t]
    assert partial, "counted at once: nothing to see"
    assert all("counting" in t or "reading" in t or "indexing" in t for t in partial), partial
    assert "300 runs" in final and "counting" not in final
