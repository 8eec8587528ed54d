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
import json, os, resource, sys, tempfile
from trajtui.cli.entry import main
size = int(sys.argv[1])
rooms = [float(room) for room in sys.argv[2].split(",")]
ended = {}
for room in rooms:
    err = tempfile.TemporaryFile()
    pid = os.fork()
    if pid == 0:
        os.dup2(err.fileno(), 2)
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
        used = int(open("/proc/self/status").read().split("VmSize:")[1].split()[0]) * 1024
        resource.setrlimit(resource.RLIMIT_AS, (used + int(room * size), resource.RLIM_INFINITY))
        code = 0
        try:
            main(sys.argv[3:])
        except SystemExit as end:
            code = end.code if isinstance(end.code, int) else 1
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    status = os.waitpid(pid, 0)[1]
    err.seek(0)
    ended[room] = [os.waitstatus_to_exitcode(status), err.read().decode(errors="replace")]
print(json.dumps(ended))
"""
"""Run the CLI once for each room (``room`` times the record's size of address space left
to it), each in a process forked from one that has imported trajtui once: the import is most
of a small command's time, and a fork keeps the limit's arithmetic as it was (the address
space the child starts with, plus the room)."""

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
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(size), ",".join(map(str, ROOMS)), *argv],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr
    ended = {float(room): said for room, said in json.loads(out.stdout).items()}
    for room, (code, stderr) in ended.items():
        assert code >= 0, f"killed by signal {-code} with {room}x left"
        if code != 0:
            said = [ln for ln in stderr.splitlines() if "too big" in ln]
            assert len(said) == 1, (room, stderr)
            assert "MB are left" in said[0] and "Traceback" not in stderr
    assert ended[ROOMS[-1]][0] == 0  # with enough room, it is read
