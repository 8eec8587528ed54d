"""trajtui (or Python) in a subprocess held to a time limit (a hang fails the test instead
of stopping the suite) and to an address-space limit, with its peak RSS measured: how the
hostile I/O tests run it."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Ran:
    """What a trajtui subprocess did."""

    code: int
    out: str
    err: str
    rss_mb: float
    seconds: float
    hung: bool


def run_limited(
    argv: list[str],
    *,
    timeout: float = 60,
    mem_gb: float = 3,
    env: dict[str, str] | None = None,
) -> Ran:
    """Run ``argv`` with at most ``mem_gb`` of address space, killed after ``timeout``
    seconds; its peak RSS comes from ``wait4``."""
    limit = int(mem_gb * (1 << 30))

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.monotonic()
        proc = subprocess.Popen(
            argv,
            stdout=out,
            stderr=err,
            stdin=subprocess.DEVNULL,
            preexec_fn=cap,
            cwd=ROOT,
            env={**os.environ, **(env or {})},
        )
        killed = threading.Event()

        def kill() -> None:
            killed.set()
            proc.kill()

        timer = threading.Timer(timeout, kill)
        timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Ran(
            proc.returncode,
            out.read().decode("utf-8", "replace"),
            err.read().decode("utf-8", "replace"),
            usage.ru_maxrss / 1024,
            time.monotonic() - started,
            killed.is_set(),
        )


def trajtui(*args: str, timeout: float = 60, mem_gb: float = 3) -> Ran:
    """``trajtui ARGS`` under the limits."""
    return run_limited([sys.executable, "-m", "trajtui", *args], timeout=timeout, mem_gb=mem_gb)


def python(code: str, *args: str, timeout: float = 60) -> Ran:
    """``python -c CODE ARGS`` under the limits."""
    return run_limited([sys.executable, "-c", code, *args], timeout=timeout)
