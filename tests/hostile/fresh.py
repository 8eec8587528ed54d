"""trajtui and Python run in a fresh interpreter for the hostile tests of the index, the
reader and the numbers, and records whose id is written exactly as given."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from tests.helpers import forked

ROOT = Path(__file__).resolve().parents[2]


def run(
    *args: str, timeout: float = 60, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``trajtui ARGS`` run as a command."""
    return forked.run(
        [sys.executable, "-m", "trajtui", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
    )


def python(code: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter (for resource limits and peak memory)."""
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
    )


def refs_of(out: str) -> list[str]:
    """The references of the runs ``ls --json`` printed."""
    return [json.loads(line)["ref"] for line in out.splitlines()]


def rec(rid_json: str, rest: str = '"input":"q","trajectory":[],"timing":{}') -> bytes:
    """A capture record whose id is written exactly as ``rid_json``."""
    return b'{"id":' + rid_json.encode() + b"," + rest.encode() + b"}"
