"""Follow mode (``F``, ``--follow``), as in ``less +F``: what is written appears by itself,
the view stays where the user is unless they are at the end."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from tests.formats.acp.builders import capture, write_jsonl
from tests.helpers.ui import listed, main_screen, running, screen_lines, settle, until
from trajtui.cli import cli
from trajtui.ui.app import TrajtuiApp
from trajtui.ui.screens.main import MainScreen


def following(app: TrajtuiApp) -> bool:
    return app.follow


def append(path: Path, *ids: str) -> None:
    with path.open("a") as f:
        for rid in ids:
            f.write(json.dumps(capture(rid)) + "\n")


async def test_F_toggles_following_and_the_header_says_so(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "r.jsonl", [capture("a")])
    async with running([str(path)]) as (pilot, app, screen):
        assert not following(app)
        await pilot.press("F")
        await settle(pilot)
        assert following(app)
        assert "following (F stops)" in screen_lines(app)[0]
        await pilot.press("F")
        await settle(pilot)
        assert not following(app)
        assert "(F stops)" not in screen_lines(app)[0]


async def test_following_at_the_end_keeps_the_cursor_at_the_end(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "r.jsonl", [capture("a"), capture("b")])
    async with running([str(path)]) as (pilot, app, screen):
        await pilot.press("F", "G")
        await settle(pilot)
        assert screen.run is not None and screen.run.ref == "b"
        append(path, "c", "d")
        await until(pilot, lambda: listed(screen) == ["a", "b", "c", "d"])
        await until(pilot, lambda: screen.run is not None and screen.run.ref == "d")


async def test_following_elsewhere_leaves_the_cursor_where_it_is(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "r.jsonl", [capture("a"), capture("b")])
    async with running([str(path)]) as (pilot, app, screen):
        await pilot.press("F", "g")
        await settle(pilot)
        append(path, "c")
        await until(pilot, lambda: listed(screen) == ["a", "b", "c"])
        assert screen.run is not None and screen.run.ref == "a"
        assert screen.run_list.cursor == 0


async def test_follow_option_starts_at_the_end_and_reads_a_truncated_file_again(
    tmp_path: Path,
) -> None:
    path = write_jsonl(tmp_path / "r.jsonl", [capture("a"), capture("b"), capture("c")])
    app = TrajtuiApp([str(path)], follow=True)
    async with app.run_test(size=(120, 40)) as pilot:
        # the opening screen comes first
        await until(
            pilot, lambda: isinstance(app.screen, MainScreen) and app.screen.run is not None
        )
        screen = main_screen(app)
        await until(pilot, lambda: screen.run is not None and screen.run.ref == "c")
        path.write_text(json.dumps(capture("x")) + "\n")  # truncated and rewritten
        await until(
            pilot, lambda: isinstance(app.screen, MainScreen) and listed(app.screen) == ["x"]
        )
        notices = [n.message for n in app.notices]
        assert any("truncated on disk" in m and "read again" in m for m in notices), notices


async def test_following_a_directory_shows_new_files(tmp_path: Path) -> None:
    root = tmp_path / "outputs"
    root.mkdir()
    write_jsonl(root / "one.jsonl", [capture("a")])
    async with running([str(root)]) as (pilot, app, screen):
        await pilot.press("F")
        await settle(pilot)
        await pilot.pause(1.2)  # a first look takes the directory's measure
        write_jsonl(root / "two.jsonl", [capture("b")])
        await until(
            pilot, lambda: isinstance(app.screen, MainScreen) and len(app.screen.ws.sources) == 2
        )
        notices = [n.message for n in app.notices]
        assert any("files added to or removed from" in m for m in notices), notices


def test_follow_is_in_the_help() -> None:
    shown = CliRunner().invoke(cli, ["--help"])
    assert "--follow" in shown.output and "F toggles" in shown.output
