"""A followed or reloaded file that goes away (issue 23, item 15): truncated to 0 bytes,
replaced by an empty directory, deleted, a symbolic-link loop. The TUI does not end (it
quit with exit 1); it says what happened and waits for the file to come back, then reads it
again (following) or says ``R`` reloads."""

from __future__ import annotations

import json
import os
import shutil
from concurrent.futures import Future
from pathlib import Path

import pytest

from tests.formats.acp.builders import capture, write_jsonl
from tests.helpers.ui import listed, screen_lines, until
from tests.helpers.workspace import open_paths
from trajtui.core.workspace import Workspace
from trajtui.ui.app import TrajtuiApp
from trajtui.ui.screens.main import MainScreen


def _app(path: Path, *, follow: bool) -> TrajtuiApp:
    """The app as ``trajtui PATH`` makes it: the paths opened before the TUI starts (an
    app so made quits when nothing at all can be read at start)."""
    opening: Future[Workspace] = Future()
    opening.set_result(open_paths([str(path)]))
    return TrajtuiApp([str(path)], opening=opening, follow=follow)


def _shown(app: TrajtuiApp) -> list[str]:
    screen = app.screen
    if not isinstance(screen, MainScreen) or not screen.ws.sources:
        return []  # (a path nothing could be read from is a problem row of no source)
    return listed(screen)


def _text(app: TrajtuiApp) -> str:
    """What the screen shows, and what its toasts said whole: a toast wraps a long path
    where it must, so a phrase after it ("R reloads") may be split over two lines."""
    return "\n".join([*screen_lines(app), *(notice.message for notice in app.notices)])


def _gone(path: Path, how: str) -> None:
    if how == "truncated":
        path.write_bytes(b"")
    elif how == "an-empty-directory":
        path.unlink()
        path.mkdir()
    elif how == "deleted":
        path.unlink()
    else:  # a symbolic link to itself
        path.unlink()
        os.symlink(path.name, path)


def _back(path: Path) -> None:
    if path.is_symlink() or path.is_file():
        path.unlink()
    elif path.is_dir():
        shutil.rmtree(path)
    path.write_text(json.dumps(capture("back-1")) + "\n" + json.dumps(capture("back-2")) + "\n")


SAID = {
    "truncated": "empty file",
    "an-empty-directory": "r.jsonl",
    "deleted": "no such file",
    "a-link-loop": "r.jsonl",
}

HOWS = ["truncated", "an-empty-directory", "deleted", "a-link-loop"]


@pytest.mark.parametrize("how", HOWS)
async def test_a_followed_file_that_goes_away_is_waited_for(tmp_path: Path, how: str) -> None:
    path = write_jsonl(tmp_path / "r.jsonl", [capture("a"), capture("b")])
    app = _app(path, follow=True)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await until(pilot, lambda: _shown(app) == ["a", "b"])
        _gone(path, how)
        said = "deleted on disk" if how == "deleted" else SAID[how]  # what was read stays
        await until(pilot, lambda: said in _text(app) and "waiting" in _text(app))
        assert app.is_running
        _back(path)
        await until(pilot, lambda: _shown(app) == ["back-1", "back-2"])
        assert app.is_running


@pytest.mark.parametrize("how", HOWS)
async def test_reloading_a_file_that_went_away_shows_why_and_reloads_when_it_is_back(
    tmp_path: Path, how: str
) -> None:
    path = write_jsonl(tmp_path / "r.jsonl", [capture("a"), capture("b")])
    app = _app(path, follow=False)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await until(pilot, lambda: _shown(app) == ["a", "b"])
        _gone(path, how)
        await pilot.press("R")
        await until(pilot, lambda: isinstance(app.screen, MainScreen) and _shown(app) == [])
        assert app.is_running
        await until(pilot, lambda: SAID[how] in _text(app))
        _back(path)
        await until(pilot, lambda: "R reloads" in _text(app))
        await pilot.press("R")
        await until(pilot, lambda: _shown(app) == ["back-1", "back-2"])


@pytest.mark.parametrize("size", ["longer", "as-long"])
async def test_a_followed_file_rewritten_in_place_is_read_again(tmp_path: Path, size: str) -> None:
    """Rewritten where it is (the same inode: ``cat new > file``), longer or as long: not
    taken for an append of the old rows."""
    path = write_jsonl(tmp_path / "r.jsonl", [capture("a"), capture("b")])
    before = path.stat().st_size
    app = _app(path, follow=True)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await until(pilot, lambda: _shown(app) == ["a", "b"])
        ids = ["x", "y", "z"] if size == "longer" else ["c", "d"]
        text = "".join(json.dumps(capture(i)) + "\n" for i in ids)
        with path.open("r+") as f:  # in place
            f.write(text)
            f.truncate()
        assert (path.stat().st_size > before) == (size == "longer")
        await until(pilot, lambda: _shown(app) == ids)
        assert any("rewritten on disk" in n.message for n in app.notices)  # said, if gone by now
