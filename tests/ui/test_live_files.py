"""Files that change under the viewer: appended, truncated, replaced, deleted, rewritten.

No crash; the user is told; a reload (R) shows the new state; a file that grows (a run
still being written) is followed without asking.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from textual.pilot import Pilot

from tests.formats.acp.builders import capture, write_jsonl
from tests.formats.forecast import builders as bf
from tests.helpers.ui import main_screen, running, settle
from trajtui.core.model import RunSummary
from trajtui.ui.screens.main import MainScreen


def refs(screen: MainScreen) -> list[str]:
    out = []
    for _, s, i in screen.store.rows:
        e = screen.ws.sources[s].peek(i)
        out.append(e.ref if isinstance(e, RunSummary) else "problem")
    return out


async def tick(pilot: Pilot[int], screen: MainScreen) -> None:
    """Let the change watcher run now (it polls every 2 s)."""
    screen.disk.check()
    await settle(pilot)


@pytest.fixture
def live(tmp_path: Path) -> Path:
    p = tmp_path / "live.jsonl"
    p.write_text(json.dumps(capture("a")) + "\n" + json.dumps(capture("b"))[:50])
    return p


async def test_a_growing_file_is_followed(live: Path) -> None:
    async with running([str(live)]) as (pilot, app, screen):
        assert refs(screen) == ["a", "problem"]
        with live.open("a") as f:
            f.write(json.dumps(capture("b"))[50:] + "\n" + json.dumps(capture("c")) + "\n")
        await tick(pilot, screen)
        assert refs(screen) == ["a", "b", "c"]
        assert "3 runs" in screen.store.summary_line()


async def test_truncated_file_is_reported_and_reload_shows_the_new_state(tmp_path: Path) -> None:
    p = write_jsonl(tmp_path / "t.jsonl", [capture("a"), capture("b"), capture("c")])
    async with running([str(p)]) as (pilot, app, screen):
        p.write_text(json.dumps(capture("a")) + "\n")
        await tick(pilot, screen)
        assert app.is_running
        assert any("truncated on disk" in n.message for n in app.notices)
        await pilot.press("G")  # the last run can no longer be read: shown as a problem
        await settle(pilot)
        assert screen.run is None and screen.run_problem is not None
        assert "shorter" in screen.run_problem.message
        await pilot.press("R")
        await settle(pilot)
        assert refs(main_screen(app)) == ["a"]


@pytest.mark.parametrize("how", ["replaced", "deleted"])
async def test_replaced_or_deleted_file(tmp_path: Path, how: str) -> None:
    p = write_jsonl(tmp_path / "t.jsonl", [capture("a"), capture("b")])
    async with running([str(p)]) as (pilot, app, screen):
        if how == "replaced":
            tmp = tmp_path / "new.jsonl"
            write_jsonl(tmp, [capture("x"), capture("y"), capture("z")])
            os.replace(tmp, p)
        else:
            p.unlink()
        await tick(pilot, screen)
        assert any(f"{how} on disk" in n.message for n in app.notices)
        await pilot.press("j")  # still browsable from what was read
        await settle(pilot)
        assert app.is_running
        await pilot.press("R")
        await settle(pilot)
        if how == "replaced":
            assert refs(main_screen(app)) == ["x", "y", "z"]
        else:
            assert app.is_running  # nothing to show, but no crash


async def test_forecast_run_dir_rewritten_mid_read(tmp_path: Path) -> None:
    ev = tmp_path / "eval"
    bf.write_json(ev / "summary.json", bf.summary([bf.entry("fed")]))
    run = ev / "runs" / "fed"
    bf.run_dir(run, bf.fed_run())
    full = (run / "trajectory.json").read_bytes()
    (run / "trajectory.json").write_bytes(full[: len(full) // 2])  # caught half-written
    async with running([str(ev)]) as (pilot, app, screen):
        assert app.is_running
        assert screen.run is not None and screen.run.steps == ()
        assert any("trajectory.json" in str(p) for p in screen.run.problems)
        (run / "trajectory.json").write_bytes(full)
        await tick(pilot, screen)
        assert any("changed on disk" in n.message for n in app.notices)
        await pilot.press("R")
        await settle(pilot)
        reloaded = main_screen(app)
        assert reloaded.run is not None and len(reloaded.run.steps) > 0


async def test_reload_keeps_the_selected_run_of_the_right_source(tmp_path: Path) -> None:
    write_jsonl(tmp_path / "a.jsonl", [capture("same-1"), capture("same-2")])
    write_jsonl(tmp_path / "b.jsonl", [capture("same-1"), capture("same-2")])
    async with running([str(tmp_path)]) as (pilot, app, screen):
        await pilot.press("colon", *"b.jsonl::same-2", "enter")
        await settle(pilot)
        assert screen.run_key is not None
        assert screen.ws.sources[screen.run_key[0]].label == "b.jsonl"
        await pilot.press("R")
        await settle(pilot)
        new = main_screen(app)
        assert new.run is not None and new.run.ref == "same-2"
        assert new.run_key is not None
        assert new.ws.sources[new.run_key[0]].label == "b.jsonl"
