"""``x`` in the TUI: the run table as listed, or the current run, written where the user
says; by default never inside what is being inspected."""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path

import pytest
from textual.widgets import Input

from tests.helpers.ui import running, settle
from tests.ui.test_sort_filter import scored
from trajtui.ui.screens.export import ExportScreen


async def _wait_for(path: Path, pilot: object) -> None:
    for _ in range(100):
        if path.exists() and path.stat().st_size:
            return
        await settle(pilot)
    raise AssertionError(f"{path} was not written")


async def test_x_on_the_run_list_writes_the_table_as_listed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    path = scored(data)
    out = tmp_path / "out"
    out.mkdir()
    monkeypatch.chdir(out)
    async with running([str(path)]) as (pilot, app, screen):
        await pilot.press("O", "7")  # sorted by score, as on screen
        await settle(pilot)
        screen.run_list.focus()
        await pilot.press("x")
        await pilot.pause()
        assert isinstance(app.screen, ExportScreen)
        field = app.screen.query_one(Input)
        assert field.value == str(out / "runs.csv")
        await pilot.press("enter", "enter")  # the first format, then the path as offered
        await _wait_for(out / "runs.csv", pilot)
    rows = list(csv.DictReader(io.StringIO((out / "runs.csv").read_text())))
    assert [r["ref"] for r in rows] == ["r-low", "web-low", "r-mid", "r-high", "r-none"]


async def test_x_on_a_run_writes_it_as_html_and_digits_pick_the_format(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "d").mkdir()
    path = scored(tmp_path / "d")
    monkeypatch.chdir(tmp_path)
    async with running([str(path)]) as (pilot, app, screen):
        screen.timeline.focus()
        await pilot.press("x")
        await pilot.pause()
        assert isinstance(app.screen, ExportScreen)
        field = app.screen.query_one(Input)
        assert field.value.endswith(".html")
        await pilot.press("2")  # markdown: the name follows the format
        assert field.value.endswith(".md")
        await pilot.press("enter")
        written = Path(field.value)
        await _wait_for(written, pilot)
    assert written.parent == tmp_path
    assert written.read_text().startswith("## Evaluation Record: r-mid")


async def test_the_default_place_is_outside_what_is_inspected(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    path = scored(data)
    monkeypatch.chdir(data)  # started from inside the results directory
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_DOCUMENTS_DIR", str(tmp_path / "home" / "Documents"))
    async with running([str(path)]) as (pilot, app, screen):
        screen.run_list.focus()
        await pilot.press("x")
        await pilot.pause()
        value = app.screen.query_one(Input).value
        assert not value.startswith(str(data) + os.sep)
        await pilot.press("escape")
        await settle(pilot)
    assert sorted(p.name for p in data.iterdir()) == ["scored.jsonl"]


async def test_the_default_place_is_outside_what_is_inspected_when_home_is_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``cd ~; trajtui ~``: the working directory, the documents directory and the home
    directory are all inside what is inspected; the export goes somewhere else, and
    writing it leaves the inspected tree as it was."""
    home = tmp_path / "home"
    (home / "Documents").mkdir(parents=True)
    scored(home)
    monkeypatch.chdir(home)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DOCUMENTS_DIR", str(home / "Documents"))
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    before = sorted(str(p) for p in home.rglob("*"))
    async with running([str(home)]) as (pilot, app, screen):
        screen.run_list.focus()
        await pilot.press("x")
        await pilot.pause()
        field = app.screen.query_one(Input)
        assert not field.value.startswith(str(home) + os.sep), field.value
        await pilot.press("enter", "enter")
        written = Path(field.value)
        await _wait_for(written, pilot)
    assert sorted(str(p) for p in home.rglob("*")) == before
