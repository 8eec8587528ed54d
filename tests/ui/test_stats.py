"""The stats screen (``a`` from the run list): figures of the listed runs with bars, read in
a worker, and ⏎ on a row narrowing the run list to the runs behind it."""

from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import Any

import pytest

from tests.formats.acp.builders import capture, step_tool, trials, write_jsonl
from tests.helpers.ui import listed, running, screen_lines, settle
from trajtui.core.stats import collect as collect_module
from trajtui.ui.screens.stats import StatsScreen, bar


def trials_file(directory: Path) -> Path:
    return write_jsonl(
        directory / "trials.jsonl",
        [
            trials("a", [True, False, False]),  # n=3, c=1
            trials("b", [True, True, True]),  # n=3, c=3
            trials("c", [True, False]),  # n=2, c=1
        ],
    )


def drawn(app: Any) -> str:
    return "\n".join(screen_lines(app))


async def open_stats(pilot: Any, app: Any) -> StatsScreen:
    await pilot.press("a")
    await settle(pilot)
    assert isinstance(app.screen, StatsScreen)
    return app.screen


async def highlight(pilot: Any, stats: StatsScreen, label: str) -> None:
    """Move the cursor (with j) to the row labelled ``label``."""
    for _ in range(80):
        options = stats.query_one("#stats-rows")
        oid = options.get_option_at_index(options.highlighted).id  # type: ignore[attr-defined]
        line = stats._lines.get(oid or "")
        if line is not None and line.label == label:
            return
        await pilot.press("j")
    raise AssertionError(f"no row {label!r}")


def test_bars_are_drawn_in_eighths() -> None:
    # 24 cells: 0.5 is 12 full cells; 1/3 is 8 cells (64 eighths)
    assert bar(0.5) == "█" * 12 + " " * 12
    assert bar(1 / 3) == "█" * 8 + " " * 16
    # 0.01 of 24 cells is 1.92 eighths: 2 eighths, a quarter cell
    assert bar(0.01) == "▎" + " " * 23
    assert bar(None) == " " * 24


async def test_stats_screen_shows_pass_at_k_and_opens_the_runs_behind_a_row(
    tmp_path: Path,
) -> None:
    async with running([str(trials_file(tmp_path))]) as (pilot, app, screen):
        stats = await open_stats(pilot, app)
        text = drawn(app)
        # pass@2 = 8/9 (see tests/core/test_stats.py), drawn with its bar (8/9 of 24 = 21.3 cells)
        assert re.search(r"pass@2\s+88\.9% █{21}", text), text
        assert "pass^3" in text and "trials disagree" in text
        assert "Stats · 3 runs listed" in text
        await highlight(pilot, stats, "trials disagree")
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is screen
        assert listed(screen) == ["a", "c"]
        title = str(screen.query_one("#runs-pane").border_title)
        assert title.endswith("· 2 shown · behind trials disagree (esc: all)")
        await pilot.press("escape")
        await settle(pilot)
        assert listed(screen) == ["a", "b", "c"]


async def test_stats_count_only_the_runs_the_filter_keeps(tmp_path: Path) -> None:
    recs = [
        capture(
            "web-1",
            [step_tool("Bash", "pending", 1), step_tool("Bash", "failed", 5, duration=4)],
            metadata={"agent": "A"},
        ),
        capture("web-2", metadata={"agent": "B"}),
        capture("other-3", metadata={"agent": "B"}),
    ]
    path = write_jsonl(tmp_path / "c.jsonl", recs)
    async with running([str(path)]) as (pilot, app, screen):
        await pilot.press("f", *"web", "enter")
        await settle(pilot)
        stats = await open_stats(pilot, app)
        assert stats.facts is not None and [f.ref for f in stats.facts] == ["web-1", "web-2"]
        assert "Stats · 2 runs matching 'web'" in drawn(app)
        # b groups by the next field (format, source, then metadata keys): to agent
        for _ in range(3):
            await pilot.press("b")
            await settle(pilot)
        assert stats.by == "agent"
        assert "groups by agent" in drawn(app)
        await highlight(pilot, stats, "agent B")
        await pilot.press("enter")
        await settle(pilot)
        assert listed(screen) == ["web-2"]


async def test_stats_are_read_off_the_ui_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[str] = []
    real = collect_module.collect

    def spy(*args: Any, **kwargs: Any) -> Any:
        threads.append(threading.current_thread().name)
        return real(*args, **kwargs)

    monkeypatch.setattr("trajtui.ui.screens.stats.collect", spy)
    async with running([str(trials_file(tmp_path))]) as (pilot, app, _screen):
        await open_stats(pilot, app)
        assert threads and threading.main_thread().name not in threads


async def test_trials_title_names_what_each_share_counts(tmp_path: Path) -> None:
    async with running([str(trials_file(tmp_path))]) as (pilot, app, screen):
        title = str(screen.query_one("#runs-pane").border_title)
        # k = 2 (the fewest trials of a task): pass@1 11/18, pass@2 8/9, pass^2 1/3
        assert "pass@1 61.1% · pass@2 88.9% · pass^2 33.3%" in title
        # no bare "pass" share: every one says its k
        assert not re.search(r"\d% pass\b", title)


async def test_x_on_the_stats_screen_writes_the_figures_shown_as_html_or_markdown(
    tmp_path: Path, monkeypatch: Any
) -> None:
    (tmp_path / "data").mkdir()
    recs = [
        capture("web-1", metadata={"agent": "A"}, score={"pass": True}),
        capture("web-2", metadata={"agent": "B"}, score={"pass": False}),
        capture("other-3", metadata={"agent": "B"}, score={"pass": False}),
    ]
    path = write_jsonl(tmp_path / "data" / "c.jsonl", recs)
    monkeypatch.chdir(tmp_path)
    async with running([str(path)]) as (pilot, app, screen):
        await pilot.press("f", *"web", "enter")
        await settle(pilot)
        stats = await open_stats(pilot, app)
        for _ in range(3):  # grouped by agent, as the export will be
            await pilot.press("b")
            await settle(pilot)
        assert stats.by == "agent"
        await pilot.press("x")
        await settle(pilot)
        await pilot.press("2", "enter")  # markdown, to the path offered (here, not the data)
        for _ in range(100):
            written = list(tmp_path.glob("*.md"))
            if written and written[0].stat().st_size:
                break
            await settle(pilot)
    assert len(written) == 1
    lines = written[0].read_text().splitlines()
    assert lines[0] == f"## Stats: {path} · matching 'web' · 2 runs"
    assert "| pass | 50.0% | (1/2 runs) |" in lines
    assert "| figure | A | B |" in lines
    assert list((tmp_path / "data").iterdir()) == [path]


async def test_stats_screen_counts_from_the_facts_a_stats_command_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After ``trajtui stats`` kept each run's tool calls in the index cache, the stats
    screen of the unchanged file counts them without building any run."""
    from click.testing import CliRunner

    from trajtui.cli import cli
    from trajtui.core.jsonl.source import JsonlSource

    calls = [step_tool("Bash", "pending", 100), step_tool("toolu_1", "failed", 300, duration=7)]
    path = write_jsonl(tmp_path / "cap.jsonl", [capture(f"r{i}", calls) for i in range(30)])
    assert CliRunner().invoke(cli, ["stats", str(path)]).exit_code == 0
    async with running([str(path)]) as (pilot, app, _screen):
        built: list[int] = []
        make_run = JsonlSource._make_run

        def counted(self: JsonlSource, i: int, entry: Any) -> Any:
            built.append(i)
            return make_run(self, i, entry)

        monkeypatch.setattr(JsonlSource, "_make_run", counted)
        await open_stats(pilot, app)
        text = " ".join(drawn(app).split())
        assert re.search(r"Bash 30 █+ calls · 30 failed .* median 7ms", text), text
        assert built == []
