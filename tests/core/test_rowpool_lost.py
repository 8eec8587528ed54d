"""A row worker that dies (``kill -9``, the out-of-memory killer) loses no row (issue 23,
item 8): its jobs are done in the caller, a new pool takes the rest, and the user is told
once, in ``ls`` and in the TUI."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.core.slowrows import slow_rows
from tests.formats.acp.builders import capture, write_jsonl
from tests.helpers.ui import listed, running, screen_lines
from tests.helpers.workspace import open_paths
from trajtui.cli import cli
from trajtui.core.jsonl import rowpool
from trajtui.core.jsonl.source import JsonlSource
from trajtui.core.source import Entry


@pytest.fixture
def workers(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Rows go to the worker processes however few there are; a fresh pool before and after."""
    monkeypatch.setattr(rowpool, "PARALLEL_FROM", 0)
    monkeypatch.setattr(rowpool, "SMALL_RECORD", 0)
    monkeypatch.setattr(rowpool, "BATCH_RECORDS", 3)
    rowpool.shutdown()
    yield
    rowpool.shutdown()


@pytest.fixture
def many(tmp_path: Path) -> Path:
    return write_jsonl(tmp_path / "many.jsonl", [capture(f"run-{i:02d}") for i in range(60)])


def _source(path: Path) -> JsonlSource:
    (source,) = open_paths([str(path)]).sources
    assert isinstance(source, JsonlSource)
    for _ in source.scan():
        pass
    return source


def _ordinary(path: Path) -> list[Entry]:
    source = _source(path)
    return [source.entry(i) for i in range(len(source))]


def _kill_a_worker() -> None:
    """SIGKILL one process of the pool, and wait until the pool knows it is broken."""
    workers = rowpool.pool()
    assert workers is not None
    pid = next(iter(workers._processes))
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while not workers._broken and time.monotonic() < deadline:
        time.sleep(0.01)


def test_a_worker_killed_mid_job_loses_no_row(
    many: Path, workers: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    ordinary = _ordinary(many)
    monkeypatch.setattr(rowpool, "rows_of", slow_rows)
    assert rowpool.pool() is not None  # started: the jobs go out at once
    source = _source(many)
    filler = source.filler()
    assert filler is not None
    got: list[Entry] = []
    for first, rows in filler.fill(len(source), wait=False):  # jobs handed out, under way
        got.extend(source.take(first + k, r) for k, r in enumerate(rows))
    pool = rowpool.pool()
    assert pool is not None and filler._jobs
    os.kill(next(iter(pool._processes)), signal.SIGKILL)
    for first, rows in filler.fill(len(source)):
        got.extend(source.take(first + k, r) for k, r in enumerate(rows))
    assert got == ordinary
    (notice,) = rowpool.notices()
    assert "killed by SIGKILL" in notice and "none lost" in notice
    assert rowpool.pool() is not pool  # a new pool
    assert rowpool.notices() == []  # said once


def test_ls_lists_every_row_when_a_worker_died_and_says_so_once(many: Path, workers: None) -> None:
    runner = CliRunner()
    plain = runner.invoke(cli, ["ls", "--json", "--no-cache", str(many)])
    rowpool.shutdown()
    _kill_a_worker()
    broken = runner.invoke(cli, ["ls", "--json", "--no-cache", str(many)])
    assert broken.exit_code == 0, broken.output
    assert broken.stdout == plain.stdout
    told = [ln for ln in broken.stderr.splitlines() if "row worker" in ln]
    assert len(told) == 1 and told[0].startswith("trajtui: a row worker was killed by SIGKILL")
    again = runner.invoke(cli, ["ls", "--json", "--no-cache", str(many)])
    assert again.stdout == plain.stdout and "row worker" not in again.stderr


async def test_the_tui_lists_every_row_when_a_worker_died_and_says_so_once(
    many: Path, workers: None
) -> None:
    ordinary = [e.ref for e in _ordinary(many)]
    _kill_a_worker()
    async with running([str(many)], notifications=True) as (pilot, app, screen):
        assert listed(screen) == ordinary
        text = "\n".join(screen_lines(app))
        assert text.count("row worker was killed by SIGKILL") == 1, text
        assert "60 runs" in text
        await pilot.press("R")  # reading again works, with the new workers
        from tests.helpers.ui import settle

        await settle(pilot)
        assert listed(screen) == ordinary


def _children(pid: int, word: bytes) -> list[int]:
    """Processes whose parent is ``pid`` and whose command line holds ``word``."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{name}/stat").read_text()
            command = Path(f"/proc/{name}/cmdline").read_bytes()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid and word in command:
            found.append(int(name))
    return found


def test_killing_the_workers_resource_tracker_prints_no_traceback(tmp_path: Path) -> None:
    """Spawned workers (the CLI runs threads) have a resource tracker beside them: killed,
    Python relaunched it with a UserWarning, and the new one printed a traceback for each
    semaphore freed at exit (B5). No row is lost, nothing but the count goes to stderr."""
    import subprocess
    import sys

    path = write_jsonl(
        tmp_path / "big.jsonl", [capture(f"r{i:05d}", input="x" * 3000) for i in range(6000)]
    )
    ls = subprocess.Popen(
        [sys.executable, "-m", "trajtui", "ls", "--json", "--no-cache", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 30
    trackers: list[int] = []
    while not trackers and ls.poll() is None and time.monotonic() < deadline:
        trackers = _children(ls.pid, b"resource_tracker")
        time.sleep(0.02)
    assert trackers, "no resource tracker was started"
    os.kill(trackers[0], signal.SIGKILL)
    out, err = ls.communicate(timeout=120)
    assert ls.returncode == 0, err
    assert len(out.splitlines()) == 6000
    assert b"Traceback" not in err and b"Warning" not in err, err.decode()
    assert err == b""
