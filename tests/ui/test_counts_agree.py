"""One number, one meaning, on the TUI's surfaces (issue 22, items 4 to 7 and 11): the run
list's rows and title, the run's detail and the stats screen say what ``ls``, ``ls --json``
and ``stats`` say (test_counts_agree.py); figures counted while the files are still being
read say they are partial, and catch up."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.formats.acp.adapters import claude_steps, codex_capture, gemini_steps
from tests.formats.acp.builders import capture, trials, write_jsonl
from tests.formats.atif import builders as atif
from tests.helpers.ui import running, screen_lines, settle
from trajtui.core.jsonl.index import ScanProgress
from trajtui.core.jsonl.source import JsonlSource
from trajtui.ui.app import make_app
from trajtui.ui.screens.main import MainScreen
from trajtui.ui.screens.stats import StatsScreen
from trajtui.ui.widgets.run_list import ColumnHeader


def title(screen: MainScreen) -> str:
    return str(screen.query_one("#runs-pane").border_title)


def cell(screen: MainScreen, ref: str, name: str) -> str:
    """The cell of column ``name`` (``calls``, ``tool err``, ``score``) in the run list row
    of ``ref``, as drawn: the text under the column's header, from the end of the column
    before it to the end of its own (numeric columns are right-aligned under their name)."""
    header = screen.query_one(ColumnHeader).render().plain
    end = header.index(f" {name} ") + 1 + len(name) if f" {name} " in header else -1
    assert end > 0, f"no column {name!r} in {header!r}"
    start = len(header[: end - len(name)].rstrip())
    for line in screen_lines(screen.app):
        row = line[1:]  # inside the pane's border, where the header is drawn
        if f" {ref} " in row[: header.index(" title")]:
            return row[start:end].strip()
    raise AssertionError(f"no row {ref!r} on screen")


async def test_rows_detail_and_title_count_tool_calls_and_flags_as_ls_does(
    tmp_path: Path,
) -> None:
    path = write_jsonl(
        tmp_path / "c.jsonl",
        [
            codex_capture("codex", 2, 3),  # 5 calls
            capture("gemini", gemini_steps("google_web_search", 3)),  # 3 calls
            capture("claude", claude_steps("WebSearch")),  # 1 call
            codex_capture("killed", 1, 2, timed_out=True, passed=False, score=0.2),
        ],
    )
    async with running([str(path)], size=(200, 40)) as (pilot, app, screen):
        for ref, calls in (("codex", "5"), ("gemini", "3"), ("claude", "1"), ("killed", "3")):
            assert cell(screen, ref, "calls") == calls
        # a run the file flags (toolErrors: true) and no call of which failed is marked
        assert cell(screen, "killed", "tool err") == "flagged"
        assert cell(screen, "codex", "tool err") == "0"
        await pilot.press("G")
        await settle(pilot)
        detail = " ".join(screen.detail.text.split())
        assert "tool calls 3 · tool errors 0 · toolErrors true" in detail
        assert "1 flagged toolErrors" in title(screen)


async def test_the_title_pass_share_counts_a_graded_timeout(tmp_path: Path) -> None:
    path = write_jsonl(
        tmp_path / "c.jsonl",
        [
            codex_capture("t1", 1, 2, timed_out=True, passed=False, score=0.2),
            codex_capture("t2", 1, 0, timed_out=True, passed=False, score=0.2),
            codex_capture("p1", 0, 2, passed=True, score=0.9),
            codex_capture("p2", 0, 1, passed=True, score=0.8),
            codex_capture("f1", 0, 1, passed=False, score=0.4),
            codex_capture("ungraded", 0, 1),
        ],
    )
    async with running([str(path)], size=(200, 40)) as (pilot, app, screen):
        # the file grades 5 runs (the two timeouts too): 2 passed
        assert "6 runs · 40.0% pass (2 of 5 graded) · 2 timeout" in title(screen)
        await pilot.press("a")
        await settle(pilot)
        assert isinstance(app.screen, StatsScreen)
        text = "\n".join(screen_lines(app))
        assert re.search(r"pass of graded\s+40\.0% ", text), text


async def test_a_trials_row_shows_its_score_under_score(tmp_path: Path) -> None:
    path = write_jsonl(
        tmp_path / "t.jsonl",
        [trials("a", [True, True, False, True, False]), trials("b", [True] * 5)],
    )
    async with running([str(path)], size=(200, 40)) as (pilot, app, screen):
        assert cell(screen, "a", "score") == "0.6"  # its pass rate, not "3/5"
        assert cell(screen, "b", "score") == "1"
        detail = " ".join(screen.detail.text.split())
        assert "pass rate 0.6 · passes 3 of 5 graded" in detail


# -- 7. stats of a list still being read -----------------------------------------------------------


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """Holds the reading of files named ``late*`` until the event is set."""
    release = threading.Event()
    real = JsonlSource.scan

    def scan(self: JsonlSource) -> Iterator[ScanProgress]:
        if Path(self.path).name.startswith("late"):
            release.wait(30)
        yield from real(self)

    monkeypatch.setattr(JsonlSource, "scan", scan)
    yield release
    release.set()


async def wait_for(pilot: Any, test: Any, seconds: float = 20) -> None:
    for _ in range(int(seconds / 0.05)):
        if test():
            return
        await pilot.pause(0.05)
    raise AssertionError("never happened")


async def test_stats_of_runs_read_so_far_say_so_and_catch_up(
    tmp_path: Path, held: threading.Event
) -> None:
    early = write_jsonl(
        tmp_path / "early.jsonl",
        [capture(f"e{n}", score={"pass": True, "score": 1.0}) for n in range(3)],
    )
    late = write_jsonl(
        tmp_path / "late.jsonl",
        [capture(f"l{n}", score={"pass": False, "score": 0.0}) for n in range(5)],
    )
    app = make_app([str(early), str(late)])
    async with app.run_test(size=(160, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen))
        screen = app.screen
        assert isinstance(screen, MainScreen)
        await wait_for(pilot, lambda: len(screen.store.listed_runs()) == 3)
        await pilot.press("a")
        await wait_for(pilot, lambda: "3 runs read so far" in "\n".join(screen_lines(app)))
        text = "\n".join(screen_lines(app))
        assert "Stats · 3 runs listed so far · partial" in text
        assert re.search(r"pass\s+100\.0% .*\(3/3 runs\)", text), text
        held.set()  # the second file is read: the figures catch up
        await wait_for(pilot, lambda: "(3/8 runs)" in "\n".join(screen_lines(app)))
        text = "\n".join(screen_lines(app))
        assert "Stats · 8 runs listed" in text
        assert "partial" not in text and "so far" not in text
        assert re.search(r"pass\s+37\.5% .*\(3/8 runs\)", text), text


@pytest.mark.parametrize("key", ["s", "S"])
async def test_runs_whose_failures_are_unknown_sort_last_by_tool_errors(
    tmp_path: Path, key: str
) -> None:
    job = atif.job(tmp_path / "job")
    async with running([str(job)], size=(200, 40)) as (pilot, app, screen):
        while screen.store.sort != "tool errors":
            await pilot.press("s")
            await settle(pilot)
        if key == "S":
            await pilot.press("S")
            await settle(pilot)
        refs = [screen.ws.sources[s].row_value(i, "ref") for s, i in screen.store.listed_runs()]
        known = ["fix-bug__AAAA111", "fix-bug__BBBB222"]  # 1 failed call each; the rest: —
        assert refs[:2] == known, refs
