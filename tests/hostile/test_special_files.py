"""Hostile files and trees as the I/O layer meets them: FIFOs and devices where files should be
(refused, never waited on, even when swapped in after being looked at), and unreadable
directories (named, never fatal). Each case runs trajtui in a subprocess held to a time limit
(:mod:`tests.hostile.limited`)."""

from __future__ import annotations

import json
import os
import stat
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.formats.acp.builders import capture, write_jsonl
from tests.formats.forecast import builders as bf
from tests.helpers.ui import running
from tests.hostile.limited import python, run_limited, trajtui
from trajtui.core.io import safeio

# -- FIFOs and devices where a file should be (issue 8, item 22) ---------------------------------


@pytest.fixture
def fifo_run(tmp_path: Path) -> Path:
    """A forecast run whose sources.json is a FIFO nobody writes to."""
    run = bf.run_dir(tmp_path / "runs" / "fed")
    (run / "sources.json").unlink()
    os.mkfifo(run / "sources.json")
    return run


@pytest.mark.parametrize("command", ["ls", "show"])
def test_a_fifo_in_a_run_directory_is_refused_not_waited_on(fifo_run: Path, command: str) -> None:
    """Held to: 30 s (it used to hang forever)."""
    root = fifo_run.parent.parent
    args = ("ls", str(root)) if command == "ls" else ("show", str(root), "fed")
    ran = trajtui(*args, timeout=30)
    assert not ran.hung, "trajtui waited on the FIFO"
    assert ran.code == 0, ran.err
    assert f"{fifo_run / 'sources.json'}: not a regular file (a FIFO; not read)" in ran.err
    assert "fed" in ran.out


TUI = """
import asyncio, json, sys
from tests.helpers.ui import running, settle

async def main():
    async with running(sys.argv[1:]) as (pilot, app, screen):
        detail = screen.detail.text
        rows = [screen.ws.sources[s].peek(i) for _, s, i in screen.store.rows]
        await pilot.press("q")
        await settle(pilot)
        print(json.dumps({"detail": detail, "rows": [getattr(r, "ref", str(r)) for r in rows],
                          "running": app.is_running}))

asyncio.run(main())
"""


def test_the_tui_opens_and_quits_with_a_fifo_in_a_run_directory(fifo_run: Path) -> None:
    """Held to: 60 s (the TUI used to hang on open and could not quit)."""
    ran = python(TUI, str(fifo_run.parent.parent), timeout=60)
    assert not ran.hung, "the TUI hung on the FIFO"
    assert ran.code == 0, ran.err
    shown = json.loads(ran.out.splitlines()[-1])
    assert shown["rows"] == ["fed"] and not shown["running"]
    detail = " ".join(shown["detail"].split())  # as wrapped on screen
    assert f"{fifo_run / 'sources.json'}: not a regular file (a FIFO; not read)" in detail


SWAPPED = """
import os, sys
from trajtui.core.io import safeio
from trajtui.core.io.detect import sniff

real_stat = os.stat

class LooksRegular:
    # The name is a regular file when it is looked at, a FIFO when it is opened: the race
    # of a file swapped between the listing and the read, made certain.
    def __getattr__(self, name):
        return getattr(os, name)

    def stat(self, path, **kw):
        return real_stat(sys.argv[2], **kw)

safeio.os = LooksRegular()
try:
    sniff(sys.argv[1])
except safeio.Refused as err:
    print("refused:", err.strerror)
"""


def test_a_file_swapped_for_a_fifo_after_it_was_looked_at_is_refused(tmp_path: Path) -> None:
    """The opened descriptor is checked again (fstat), and the open never blocks. Held to:
    30 s (it used to hang forever)."""
    fifo = tmp_path / "a.jsonl"
    os.mkfifo(fifo)
    regular = write_jsonl(tmp_path / "b.jsonl", [capture("x")])
    ran = python(SWAPPED, str(fifo), str(regular), timeout=30)
    assert not ran.hung, "opening the FIFO blocked"
    assert ran.out.strip() == "refused: not a regular file (a FIFO; not read)", ran.err


def test_files_swapped_for_fifos_during_discovery_never_hang(tmp_path: Path) -> None:
    """A thread keeps replacing files of the tree with FIFOs and back while ``ls`` walks it
    (the race is not certain to be hit in a few runs: the test above makes it certain).
    Held to: 30 s per run (6 runs in 30 used to hang forever)."""
    files = [write_jsonl(tmp_path / f"c{i}.jsonl", [capture(f"r{i}")]) for i in range(12)]
    for i in range(3):
        run = bf.run_dir(tmp_path / f"run{i}")
        files += [run / n for n in ("info.json", "trajectory.json", "sources.json")]
    originals = {p: p.read_bytes() for p in files}
    stop = threading.Event()

    def swap() -> None:
        k = 0
        while not stop.is_set():
            p = files[k % len(files)]
            k += 1
            try:
                p.unlink()
                os.mkfifo(p)
                time.sleep(0.002)
                p.unlink()
                p.write_bytes(originals[p])
            except OSError:
                pass

    swapper = threading.Thread(target=swap, daemon=True)
    swapper.start()
    try:
        for _ in range(4):
            ran = trajtui("ls", str(tmp_path), timeout=30)
            assert not ran.hung, "ls hung on a file swapped for a FIFO"
            assert "internal error" not in ran.err and "Traceback" not in ran.err
    finally:
        stop.set()
        swapper.join()


def test_devices_and_fifos_are_refused_by_name_without_blocking(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo")
    for path, kind in (("/dev/zero", "a character device"), (str(tmp_path / "fifo"), "a FIFO")):
        with pytest.raises(safeio.Refused, match=f"not a regular file \\({kind}; not read\\)"):
            safeio.read_bytes(path)
        with pytest.raises(safeio.Refused):
            safeio.read_head(path, 10)
    with pytest.raises(safeio.Refused, match="a directory"):
        safeio.read_bytes(str(tmp_path))
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "fifo")
    with pytest.raises(safeio.Refused, match="a symbolic link"):
        safeio.read_bytes(str(link), follow_links=False)


def test_a_character_device_in_a_run_directory_is_refused(tmp_path: Path) -> None:
    """A device node where sources.json should be (made as root; otherwise a FIFO, the other
    file that never ends). Held to: 30 s, 300 MB (it used to read /dev/zero until
    MemoryError, losing every other source)."""
    run = bf.run_dir(tmp_path / "runs" / "fed")
    other = bf.run_dir(tmp_path / "runs" / "nba", bf.nba_run())
    dev = run / "sources.json"
    dev.unlink()
    try:
        os.mknod(dev, stat.S_IFCHR | 0o644, os.makedev(1, 5))  # what /dev/zero is
        kind = "a character device"
    except PermissionError:
        os.mkfifo(dev)
        kind = "a FIFO"
    ran = trajtui("ls", str(tmp_path), timeout=30, mem_gb=2)
    assert not ran.hung and ran.code == 0, ran.err
    assert f"{dev}: not a regular file ({kind}; not read)" in ran.err
    assert "fed" in ran.out and other.name in ran.out
    assert ran.rss_mb < 300


# -- unreadable directories (item 28) --------------------------------------------------------------


def without_file_permission_override(argv: list[str]) -> list[str]:
    """As root, drop the two capabilities that bypass file permissions (setpriv is
    util-linux), so a directory of mode 0 is unreadable as it is for anyone else."""
    if os.geteuid() != 0:
        return argv
    drop = "-dac_override,-dac_read_search"
    return ["setpriv", f"--inh-caps={drop}", f"--bounding-set={drop}", *argv]


def test_an_unreadable_subdirectory_is_named_in_ls(tmp_path: Path) -> None:
    (tmp_path / "ok").mkdir()
    (tmp_path / "secret").mkdir()
    write_jsonl(tmp_path / "ok" / "a.jsonl", [capture("a")])
    secret = tmp_path / "secret"
    write_jsonl(secret / "b.jsonl", [capture("b")])
    secret.chmod(0)
    try:
        argv = without_file_permission_override(
            [sys.executable, "-m", "trajtui", "ls", str(tmp_path)]
        )
        ran = run_limited(argv, timeout=60)
    finally:
        secret.chmod(0o755)
    assert ran.code == 0, ran.err
    assert "a" in ran.out.split()
    assert f"{secret}: warning: cannot read directory: permission denied (skipped)" in ran.err


async def test_an_unreadable_subdirectory_is_a_problem_row_in_the_tui(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "ok").mkdir()
    (tmp_path / "secret").mkdir()
    write_jsonl(tmp_path / "ok" / "a.jsonl", [capture("a")])
    secret = tmp_path / "secret"
    write_jsonl(secret / "b.jsonl", [capture("b")])
    real_scandir = os.scandir

    def scandir(path: str) -> object:  # the directory as a user without permission sees it
        if os.fspath(path) == str(secret):
            raise PermissionError(13, "Permission denied", str(secret))
        return real_scandir(path)

    monkeypatch.setattr("trajtui.core.io.discover.os.scandir", scandir)
    async with running([str(tmp_path)]) as (pilot, app, screen):
        from trajtui.ui.widgets.run_list import RunList

        run_list = screen.query_one(RunList)
        rows = [run_list.render_row(i, 160).plain for i in range(len(screen.store.rows))]
        assert any(
            f"{secret}: cannot read directory: permission denied (skipped)" in row for row in rows
        ), rows
        assert any(" a " in row and "Find the CEO" in row for row in rows), rows
