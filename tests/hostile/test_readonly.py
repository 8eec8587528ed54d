"""trajtui never writes into what it inspects: every command and a TUI session over
fixtures of every format leave the tree unchanged, byte for byte, with no new files, even
when run from inside it. Its own state (settings, pager temp files, logs) lands under
platformdirs' directories (``$XDG_CONFIG_HOME/trajtui``...), nowhere else in ``$HOME``."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from contextlib import nullcontext
from pathlib import Path

import pytest

from tests.formats.eval_results import builders as be
from tests.formats.forecast import builders as bf
from tests.formats.ultraplan import builders as bu
from tests.helpers import forked
from tests.helpers.ui import capture_fixture, running, settle, trials_fixture
from trajtui.demo import DATA

XDG = {
    "XDG_CONFIG_HOME": ".config",
    "XDG_CACHE_HOME": ".cache",
    "XDG_DATA_HOME": ".local/share",
    "XDG_STATE_HOME": ".local/state",
}


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


def files_under(root: Path) -> set[Path]:
    """Every file and link under ``root`` (directories left out)."""
    return {p for p in root.rglob("*") if p.is_file() or p.is_symlink()}


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh ``$HOME`` with the XDG directories inside it, and a private temp dir."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for var, rel in XDG.items():
        monkeypatch.setenv(var, str(home / rel))
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    monkeypatch.setenv("TMPDIR", str(tmp))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    return home


def cli(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return forked.run(
        [sys.executable, "-m", "trajtui", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
    )


async def test_commands_and_a_tui_session_change_nothing(
    tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = build_tree(tmp_path / "data")
    before = snapshot(root)
    outside = tmp_path / "outside"  # where the test's pager leaves its records
    outside.mkdir()

    outputs = [
        cli(root, "ls", str(root)),
        cli(root, "ls", str(root), "--json", "--verbose"),
        cli(root, "show", str(root / "results.jsonl"), "websearch-2-step-2"),
        cli(root, "show", str(root / "results.jsonl"), "websearch-2", "--json"),
        cli(root, "show", str(root / "forecast"), "fed/msg:A0"),
        cli(root, "validate", str(root / "plans")),
        cli(root, "validate", str(root / "plans"), "--json"),
        cli(root, "notes", str(root)),
        cli(root, "sql", "SELECT count(*) FROM runs", str(root)),  # tables in the cache
        cli(root, "show", str(root), "nope"),
    ]
    assert all("Traceback" not in o.stderr for o in outputs), [o.stderr for o in outputs]
    assert outputs[0].returncode == 0 and len(outputs[0].stdout.splitlines()) > 20
    assert outputs[-1].returncode != 0 and "nope" in outputs[-1].stderr

    # e: the pager gets a file; it says where the file was and what it held
    pager = f'sh -c \'echo "$1" >> {outside}/paged; cat "$1" >> {outside}/text\' pager'
    monkeypatch.setenv("PAGER", pager)
    monkeypatch.chdir(root)  # a relative path written by mistake would land in the data
    async with running([str(root)]) as (pilot, app, screen):
        monkeypatch.setattr(app, "suspend", nullcontext)  # headless: nothing to suspend
        for keys in (
            ["j", "enter", "j", "enter", "r", "o", "y", "Y", "e"],
            ["escape", "escape", "L", "L", "m", "s", "S"],
            ["f", "p", "a", "s", "s", "enter", "slash", "a", "enter"],  # search every run
            ["down", "enter", "n", "N"],  # open a hit, then the next and back
            ["R"],
            ["b", "A", "x", "enter", "apostrophe", "escape"],  # a bookmark and a note
            ["T"],
        ):
            await pilot.press(*keys)
            await settle(pilot)

    assert snapshot(root) == before

    # the pager's temporary file was in trajtui's cache dir, and is gone
    (paged,) = (outside / "paged").read_text().splitlines()
    assert Path(paged).parent == home / ".cache" / "trajtui"
    assert not Path(paged).exists()
    assert (outside / "text").read_text().strip()

    # only trajtui's state dirs got files; the theme was remembered in its config dir
    state_dirs = [home / rel / "trajtui" for rel in XDG.values()]
    stray = [p for p in files_under(home) if not any(p.is_relative_to(d) for d in state_dirs)]
    assert stray == []
    assert files_under(tmp_path / "tmp") == set()
    settings = home / ".config" / "trajtui" / "settings.json"
    assert settings.is_file() and '"textual-light"' in settings.read_text()
    notes_dir = home / ".local/share/trajtui/notes"
    (notes_file,) = notes_dir.glob("*.json")  # the bookmark and note, in one file
    for written in (notes_file, notes_dir / ".lock"):  # and the lock they were made under
        assert oct(written.stat().st_mode & 0o777) == "0o600"

    # ...and is read back from there by the next session
    async with running([str(root)]) as (pilot, app, screen):
        assert not app.current_theme.dark
    assert snapshot(root) == before
