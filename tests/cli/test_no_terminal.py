"""The TUI without a terminal (B6): ``trajtui f.jsonl </dev/null >out`` ran until killed,
drawing escape sequences nobody saw. It refuses in one line, exit 2, when its standard
input, output or error (where Textual draws) is not a terminal."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path
from typing import IO, Any

import pytest

from tests.helpers.ui import capture_fixture


@pytest.mark.parametrize("plain", ["stdin", "stdout", "stderr"])
def test_the_viewer_without_a_terminal_says_so_in_one_line(tmp_path: Path, plain: str) -> None:
    path = capture_fixture(tmp_path)
    master, slave = pty.openpty()
    log = tmp_path / "log"
    try:
        with open(os.devnull, "rb") as null, open(log, "wb") as out:
            streams: dict[str, int | IO[Any]] = {"stdin": slave, "stdout": slave, "stderr": slave}
            streams[plain] = null if plain == "stdin" else out
            try:
                proc = subprocess.run(
                    [sys.executable, "-m", "trajtui", str(path), "--goto", "websearch-2"],
                    stdin=streams["stdin"],
                    stdout=streams["stdout"],
                    stderr=streams["stderr"],
                    timeout=30,
                    env={**os.environ, "TERM": "xterm-256color"},
                )
            except subprocess.TimeoutExpired:
                pytest.fail(f"the viewer waited for keys with {plain} not a terminal")
    finally:
        os.close(slave)
        said = _drain(master)
        os.close(master)
    assert proc.returncode == 2
    text = log.read_text() if plain == "stderr" else said
    lines = [ln for ln in text.replace("\r", "").splitlines() if ln]
    assert lines == [
        f"trajtui: the viewer needs a terminal ({_name(plain)} is not one); "
        "for output use: trajtui ls, show, grep, export, stats (trajtui --help)"
    ]
    if plain == "stdout":
        assert log.read_bytes() == b""


def _name(stream: str) -> str:
    return {"stdin": "standard input", "stdout": "standard output", "stderr": "standard error"}[
        stream
    ]


def _drain(fd: int) -> str:
    os.set_blocking(fd, False)
    data = b""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        data += chunk
    return data.decode("utf-8", "replace")
