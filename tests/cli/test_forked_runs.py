"""tests.helpers.forked runs a ``trajtui`` command as a fresh ``python -m trajtui`` does:
the same exit code, stdout and stderr, byte for byte, for a listing, an error, a command
that reads stdin and one that fails to parse its arguments. (Most CLI tests run their
commands through it.)"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.helpers import forked
from tests.helpers.ui import capture_fixture

TRAJTUI = [sys.executable, "-m", "trajtui"]


def test_a_forked_command_says_what_a_fresh_one_says(tmp_path: Path) -> None:
    path = str(capture_fixture(tmp_path))
    env = {**os.environ, "COLUMNS": "100"}
    for args, cwd in [
        (["ls", "--json", path], None),
        (["ls", path], None),
        (["show", path, "websearch-2"], None),
        (["show", path, "no-such-run"], None),
        (["ls", str(tmp_path / "missing.jsonl")], None),
        (["ls", "--no-such-option"], None),
        (["show", "results.jsonl", "websearch-1"], tmp_path),
        (["--help"], None),
    ]:
        fresh = subprocess.run(
            [*TRAJTUI, *args], capture_output=True, text=True, timeout=60, env=env, cwd=cwd
        )
        fork = forked.run(
            [*TRAJTUI, *args], capture_output=True, text=True, timeout=60, env=env, cwd=cwd
        )
        assert (fork.returncode, fork.stdout, fork.stderr) == (
            fresh.returncode,
            fresh.stdout,
            fresh.stderr,
        ), args
    assert forked._zygote is not None and forked._zygote[0].poll() is None  # it forked


def test_a_forked_command_reads_its_input_and_gives_bytes(tmp_path: Path) -> None:
    data = capture_fixture(tmp_path).read_bytes()
    fresh = subprocess.run([*TRAJTUI, "ls", "--json", "-"], input=data, capture_output=True)
    fork = forked.run([*TRAJTUI, "ls", "--json", "-"], input=data, capture_output=True)
    assert (fork.returncode, fork.stdout, fork.stderr) == (
        fresh.returncode,
        fresh.stdout,
        fresh.stderr,
    )
