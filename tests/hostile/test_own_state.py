"""trajtui's own state files as hostile input and as writes: no settings written into an opened
directory, settings written only when changed, a hostile settings file gives the defaults, and
the pager never writes inside an opened path."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

import pytest

from tests.formats.acp.builders import capture, write_jsonl
from tests.helpers.ui import PagerHost, running, settle
from tests.hostile.limited import run_limited

# -- trajtui's own state (item 27) -----------------------------------------------------------------


async def test_quitting_writes_no_settings_into_an_opened_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The opened directory holds the config directory (``trajtui ~``): quitting, even after
    a setting changed, writes nothing into it."""
    home = tmp_path / "home"
    home.mkdir()
    write_jsonl(home / "runs.jsonl", [capture("a")])
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    async with running([str(home)]) as (pilot, app, screen):
        await pilot.press("m")  # merged chunks: a setting that is saved
        await settle(pilot)
        await pilot.press("q")
        await settle(pilot)
    assert not (home / ".config").exists()


async def test_settings_are_written_only_when_they_changed(tmp_path: Path) -> None:
    from trajtui.ui import settings

    path = settings.settings_path()
    p = write_jsonl(tmp_path / "runs.jsonl", [capture("a")])
    async with running([str(p)]) as (pilot, app, screen):
        await pilot.press("q")
        await settle(pilot)
    assert not path.exists()  # nothing changed: nothing written
    async with running([str(p)]) as (pilot, app, screen):
        await pilot.press("m")
        await settle(pilot)
        await pilot.press("q")
        await settle(pilot)
    assert json.loads(path.read_text())["merge_chunks"] is True


STARTUP = """
from trajtui.ui import settings
print(settings.load())
"""


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "deep", "huge"])
def test_a_hostile_settings_file_gives_the_defaults(tmp_path: Path, kind: str) -> None:
    """Held to: 30 s (a FIFO hung start-up; a link to /dev/zero or 100,000-deep nesting
    crashed it)."""
    config = tmp_path / "config"
    path = config / "trajtui" / "settings.json"
    path.parent.mkdir(parents=True)
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev-zero":
        path.symlink_to("/dev/zero")
    elif kind == "deep":
        path.write_text("[" * 100_000 + "]" * 100_000)
    else:
        with path.open("wb") as f:
            f.truncate(20 << 30)
    ran = run_limited(
        [sys.executable, "-c", STARTUP], timeout=30, mem_gb=2, env={"XDG_CONFIG_HOME": str(config)}
    )
    assert not ran.hung, "start-up hung on the settings file"
    assert ran.code == 0, ran.err
    assert ran.out.strip() == "{'theme': 'textual-dark', 'merge_chunks': False}"


def test_a_file_where_the_cache_directory_should_be_does_not_stop_the_pager(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:

    from trajtui.ui.pager import page

    cache = Path(os.environ["XDG_CACHE_HOME"])
    cache.mkdir(parents=True, exist_ok=True)
    (cache / "trajtui").write_text("not a directory")
    out = tmp_path / "out"
    out.mkdir()
    monkeypatch.setenv("PAGER", f"cp -t {out}")

    assert page(PagerHost([str(tmp_path / "data")]), "hello") is None
    (copied,) = out.iterdir()
    assert copied.read_text() == "hello"
    assert not (tmp_path / "data").exists()


def test_the_pager_never_writes_inside_an_opened_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:

    from trajtui.ui.pager import page

    opened = tmp_path / "home"
    monkeypatch.setenv("XDG_CACHE_HOME", str(opened / ".cache"))
    monkeypatch.setenv("TMPDIR", str(opened / "tmp"))
    (opened / "tmp").mkdir(parents=True)
    tempfile.tempdir = None  # read TMPDIR again
    monkeypatch.setenv("PAGER", "true")

    try:
        message = page(PagerHost([str(opened)]), "hello")
    finally:
        tempfile.tempdir = None
    assert message is not None and "outside the opened paths" in message
    assert not (opened / ".cache").exists()
    assert list((opened / "tmp").iterdir()) == []
