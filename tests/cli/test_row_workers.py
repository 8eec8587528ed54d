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
    done = subprocess.run(
        [sys.executable, "-c", _PROG, *command, str(path)],
        capture_output=True,
        timeout=60,
        env={
            "PATH": "/usr/bin:/bin",
            "HOME": str(tmp_path),
            "XDG_CACHE_HOME": str(tmp_path / "cache"),
        },
    )
    assert done.returncode == 0, done.stderr.decode()
    assert "workers: fork" in done.stderr.decode().splitlines()
