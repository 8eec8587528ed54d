"""trajtui never writes into what it inspects: every command and a TUI session over
fixtures of every format leave the tree unchanged, byte for byte, with no new files.
Its own state (settings, pager temp files) lives under platformdirs' directories."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests import builders_eval as be
from tests import builders_forecast as bf
from tests import builders_ultraplan as bu
from tests.ui_helpers import capture_fixture, running, settle, trials_fixture
from trajtui.demo import DATA


def snapshot(root: Path) -> dict[str, tuple[bytes | str, int, int]]:
    """Every entry under ``root``: content (or link target), mode and mtime."""
    out: dict[str, tuple[bytes | str, int, int]] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = Path(dirpath) / name
            st = path.lstat()
            rel = str(path.relative_to(root))
            if path.is_symlink():
                out[rel] = (os.readlink(path), st.st_mode, st.st_mtime_ns)
            elif path.is_file():
                out[rel] = (path.read_bytes(), st.st_mode, st.st_mtime_ns)
            else:
                out[rel] = ("<dir>", st.st_mode, st.st_mtime_ns)
    return out


def build_tree(root: Path) -> Path:
    """One directory with every format, a broken file and a link."""
    root.mkdir(parents=True)
    capture_fixture(root)
    trials_fixture(root)
    ev = root / "forecast"
    bf.write_json(
        ev / "summary.json", bf.summary([bf.entry("fed"), bf.entry("gone", "BatchRunTimeoutError")])
    )
    bf.run_dir(ev / "runs" / "fed", bf.fed_run())
    project = bu.project(root / "plans")
    bu.write_result(project, "03-01-task-01-success.yaml", bu.log(bu.result()))
    be.make_tree(root / "evals")
    shutil.copytree(DATA, root / "demo")
    (root / "link.jsonl").symlink_to(root / "results.jsonl")
    return root


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "trajtui", *args], capture_output=True, text=True, timeout=120
    )


async def test_commands_and_a_tui_session_change_nothing(tmp_path: Path) -> None:
    root = build_tree(tmp_path / "data")
    before = snapshot(root)
    state_before = set(Path(os.environ["XDG_CONFIG_HOME"]).parent.rglob("*"))

    outputs = [
        cli("ls", str(root)),
        cli("ls", str(root), "--json", "--verbose"),
        cli("show", str(root / "results.jsonl"), "websearch-2-step-2"),
        cli("show", str(root / "results.jsonl"), "websearch-2", "--json"),
        cli("show", str(root / "forecast"), "fed/msg:A0"),
        cli("validate", str(root / "plans")),
        cli("validate", str(root / "plans"), "--json"),
        cli("show", str(root), "nope"),
    ]
    assert all("Traceback" not in o.stderr for o in outputs)
    assert outputs[0].returncode == 0 and len(outputs[0].stdout.splitlines()) > 20

    async with running([str(root)]) as (pilot, app, screen):
        for keys in (
            ["j", "enter", "j", "enter", "r", "o", "y", "Y"],
            ["escape", "escape", "L", "L", "m", "s", "S"],
            ["f", "p", "a", "s", "s", "enter", "slash", "a", "enter", "n", "N"],
            ["R"],
            ["T"],
        ):
            await pilot.press(*keys)
            await settle(pilot)

    assert snapshot(root) == before
    state_after = set(Path(os.environ["XDG_CONFIG_HOME"]).parent.rglob("*"))
    assert state_after >= state_before  # state went to platformdirs' dirs, if anywhere
    assert all(
        str(p).startswith(os.environ["XDG_CONFIG_HOME"].rsplit("/", 1)[0])
        for p in state_after - state_before
    )
