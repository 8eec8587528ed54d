"""Every command that reads the rows of a big file has its row workers forked at once.

A command line runs one thread until it starts reading: its workers are then forked, ready
with every module imported. Started later, from a thread (the rows' filler starts them in
the background), they can only be spawned, and each imports the program again (0.2 s of a
core each, on the 1 GB capture a tenth of ``stats``).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.ui import capture_fixture

_PROG = """
import sys
from trajtui.core.jsonl import rowpool
rowpool.PARALLEL_BYTES = rowpool.SMALL_RECORD = rowpool.PARALLEL_FROM = 0  # a small file
started = rowpool.pool

def pool(*args):
    workers = started(*args)
    if workers is not None:
        sys.stderr.write("workers: " + workers._mp_context.get_start_method() + "\\n")
    return workers

rowpool.pool = pool
from trajtui.cli.entry import main
main(sys.argv[1:])
"""


@pytest.mark.parametrize(
    "command",
    [["ls", "--json"], ["stats", "--json"], ["export"], ["sql", "SELECT count(*) FROM runs"]],
    ids=lambda c: c[0],
)
def test_commands_reading_every_row_fork_their_workers(tmp_path: Path, command: list[str]) -> None:
    path = capture_fixture(tmp_path)
    assert "workers: fork" in _run(tmp_path, [*command, str(path)])


@pytest.mark.parametrize("command", [["ls", "--json"], ["stats", "--json"]], ids=lambda c: c[0])
def test_a_file_whose_rows_are_in_the_index_cache_starts_no_workers(
    tmp_path: Path, command: list[str]
) -> None:
    """Again with the file unchanged, every row comes from the index cache: no process is
    started for rows there is none to decode."""
    path = capture_fixture(tmp_path)
    first = _run(tmp_path, [*command, str(path)])
    assert "workers: fork" in first
    assert [line for line in _run(tmp_path, [*command, str(path)]) if "workers" in line] == []


def _run(tmp_path: Path, args: list[str]) -> list[str]:
    """Run trajtui with ``args`` (its index cache under ``tmp_path``); its stderr's lines
    (``workers: METHOD`` when it started row workers)."""
    done = subprocess.run(
        [sys.executable, "-c", _PROG, *args],
        capture_output=True,
        timeout=60,
        env={
            "PATH": "/usr/bin:/bin",
            "HOME": str(tmp_path),
            "XDG_CACHE_HOME": str(tmp_path / "cache"),
        },
    )
    assert done.returncode == 0, done.stderr.decode()
    return done.stderr.decode().splitlines()
