"""A record of tens of megabytes under an address-space limit (issue 23, item 16; the
256 MB and 1 GB cases are in ``tests/bench/hostile_bench.py``): every command that reads or
writes it either does, or says in one line that it is too big for the memory left; none
ends with SIGSEGV (orjson reserves about 16 times a document and crashes when an
allocation fails), whatever the limit."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.formats.acp.builders import capture

CHILD = r"""
import resource, sys
from trajtui.cli.entry import main
size = int(sys.argv[1])
room = float(sys.argv[2])
used = int(open("/proc/self/status").read().split("VmSize:")[1].split()[0]) * 1024
resource.setrlimit(resource.RLIMIT_AS, (used + int(room * size), resource.RLIM_INFINITY))
main(sys.argv[3:])
"""
"""Run the CLI with ``room`` times the record's size of address space left to it."""

ROOMS = [2.5, 4.0, 5.5, 7.0, 13.0, 14.0, 14.5, 16.0]
"""Address space left, in records: where reading or writing used to end with SIGSEGV
(each between what Python's parser needs and what orjson reserves)."""


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("big") / "big.jsonl"
    with path.open("w") as f:
        f.write(json.dumps(capture("small-1")) + "\n")
        f.write(json.dumps(capture("huge", output="word " * ((32 << 20) // 5))) + "\n")
    return path


@pytest.mark.parametrize(
    "command",
    [
        ["grep", "{path}", "word", "-m", "1"],
        ["stats", "{path}"],
        ["show", "{path}", "huge"],
        ["show", "{path}", "huge", "--json"],
    ],
    ids=lambda c: " ".join(c[:1] + c[3:]),
)
def test_a_big_record_is_read_or_said_too_big_never_a_crash(big: Path, command: list[str]) -> None:
    size = big.stat().st_size
    argv = [arg.replace("{path}", str(big)) for arg in command] + ["--no-cache"]
    ended = {}
    for room in ROOMS:
        out = subprocess.run(
            [sys.executable, "-c", CHILD, str(size), str(room), *argv],
            capture_output=True,
            text=True,
            timeout=120,
        )
        ended[room] = out.returncode
        assert out.returncode >= 0, f"killed by signal {-out.returncode} with {room}x left"
        if out.returncode != 0:
            said = [ln for ln in out.stderr.splitlines() if "too big" in ln]
            assert len(said) == 1, (room, out.stderr)
            assert "MB are left" in said[0] and "Traceback" not in out.stderr
    assert ended[ROOMS[-1]] == 0  # with enough room, it is read
