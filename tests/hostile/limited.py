"""trajtui (or Python) in a subprocess held to a time limit (a hang fails the test instead
of stopping the suite) and to an address-space limit, with its peak RSS measured: how the
hostile I/O tests run it."""

from __future__ import annotations

import os
import signal
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
    peak = tempfile.NamedTemporaryFile(delete=False)  # noqa: SIM115 (read after the run)
    peak.close()
    # A small launcher sets the limit, starts the command as its own child and writes that
    # child's peak RSS (wait4) to ``peak``. The command is not started from this process:
    # Linux keeps a process's peak RSS across fork and exec, so the command was charged
    # with the test worker's own size (321.8 MB for an ls of 50 MB, late in a suite).
    launcher = (
        "import os, resource, subprocess, sys\n"
        "limit = int(sys.argv[1])\n"
        "resource.setrlimit(resource.RLIMIT_AS, (limit, limit))\n"
        "proc = subprocess.Popen(sys.argv[3:])\n"
        "_, status, usage = os.wait4(proc.pid, 0)\n"
        "with open(sys.argv[2], 'w') as f:\n"
        "    f.write(str(usage.ru_maxrss))\n"
        "code = os.waitstatus_to_exitcode(status)\n"
        "if code < 0:  # ended by a signal: the launcher ends by it too, as the test expects\n"
        "    import signal\n"
        "    signal.signal(-code, signal.SIG_DFL)\n"
        "    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))\n"
        "    os.kill(os.getpid(), -code)\n"
        "sys.exit(code)\n"
    )
    argv = [sys.executable, "-c", launcher, str(limit), peak.name, *argv]

    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.monotonic()
        proc = subprocess.Popen(
            argv,
            stdout=out,
            stderr=err,
            stdin=subprocess.DEVNULL,
            start_new_session=True,  # (a timeout kills the launcher and the command)
            cwd=ROOT,
            env={**os.environ, **(env or {})},
        )
        killed = threading.Event()

        def kill() -> None:
            killed.set()
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

        timer = threading.Timer(timeout, kill)
        timer.start()
        try:
            _, status, _usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        try:
            rss_kb = float(Path(peak.name).read_text() or 0)
        except (OSError, ValueError):
            rss_kb = 0.0  # (killed before it was written)
        finally:
            os.unlink(peak.name)
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Ran(
            proc.returncode,
            out.read().decode("utf-8", "replace"),
            err.read().decode("utf-8", "replace"),
            rss_kb / 1024,
            time.monotonic() - started,
            killed.is_set(),
        )


def trajtui(*args: str, timeout: float = 60, mem_gb: float = 3) -> Ran:
    """``trajtui ARGS`` under the limits."""
    return run_limited([sys.executable, "-m", "trajtui", *args], timeout=timeout, mem_gb=mem_gb)


def python(code: str, *args: str, timeout: float = 60) -> Ran:
    """``python -c CODE ARGS`` under the limits."""
    return run_limited([sys.executable, "-c", code, *args], timeout=timeout)
