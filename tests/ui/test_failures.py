"""A UI that never fails silently: a worker that raises is told on screen in one line, its
traceback is in the log under the state directory, and nothing reaches the terminal."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.helpers.ui import capture_fixture, running, screen_lines, settle
from trajtui.core.jsonl.source import JsonlSource
from trajtui.ui import failures
from trajtui.ui.widgets.detail import DetailView


def boom(*args: object, **kwargs: object) -> object:
    raise RuntimeError("boom [@click=app.quit]x[/]\nsecond line")


async def test_a_run_that_cannot_be_read_is_told_and_logged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(JsonlSource, "run", boom)
    cap = capture_fixture(tmp_path)
    async with running([str(cap)], notifications=True, failures=True) as (pilot, app, screen):
        await settle(pilot, failures=True)
        assert app.is_running
        text = "\n".join(screen_lines(app))
        assert "reading the run failed" in text
        notices = [n.message for n in app.notices]
        told = [m for m in notices if m.startswith("reading the run failed")]
        assert told, notices
        # one line, literal: the exception's text as it is, no markup read
        assert "\n" not in told[0]
        assert "RuntimeError: boom [@click=app.quit]x[/]" in told[0]
        assert str(failures.log_path()) in told[0]
        assert "[@click=app.quit]x[/]" in text
    log = failures.log_path().read_text()
    assert "reading the run failed" in log
    assert "Traceback (most recent call last)" in log
    assert "in boom" in log and "RuntimeError: boom" in log
    out, err = capfd.readouterr()
    assert "Traceback" not in out + err and "boom" not in out + err


async def test_a_detail_that_cannot_be_drawn_is_told(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cap = capture_fixture(tmp_path)
    async with running([str(cap)], notifications=True) as (pilot, app, screen):
        monkeypatch.setattr(DetailView, "show", _show_with_failing_builder)
        await pilot.press("j")
        await settle(pilot, failures=True)
        assert any(n.message.startswith("drawing the detail failed") for n in app.notices)
        assert not screen.detail.busy
    assert "RuntimeError: boom" in failures.log_path().read_text()


_real_show = DetailView.show


def _show_with_failing_builder(self: DetailView, builder: object, **kwargs: object) -> None:
    _real_show(self, boom, **kwargs)  # type: ignore[arg-type]


def test_the_log_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(failures, "MAX_LOG_BYTES", 1000)
    for k in range(50):
        assert failures.write_entry(f"entry {k} " + "x" * 90 + "\n") == failures.log_path()
    log = failures.log_path()
    older = log.with_name(log.name + ".1")
    assert log.stat().st_size <= 1000 and older.stat().st_size <= 1000
    assert "entry 49" in log.read_text()
    assert sorted(p.name for p in log.parent.iterdir()) == ["trajtui.log", "trajtui.log.1"]


def test_nothing_is_logged_inside_an_opened_path() -> None:
    assert failures.write_entry("x\n", opened=[os.environ["XDG_STATE_HOME"]]) is None
    assert not failures.log_path().exists()
