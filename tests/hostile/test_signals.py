"""Signals that end the command line (issue 23, item 14): SIGINT, SIGTERM and SIGHUP end
``ls`` with 128 + the signal's number, no traceback, and its row workers with it; workers
whose process was killed outright (SIGKILL: nothing could stop them) end by themselves."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.formats.acp.builders import capture, write_jsonl


@pytest.fixture(scope="module")
def worked(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A file whose rows ``ls`` reads with worker processes (many records over 2 KB)."""
    pad = "x" * 2600
    path = tmp_path_factory.mktemp("signals") / "worked.jsonl"
    return write_jsonl(path, [capture(f"w-{i:04d}", output=pad) for i in range(2200)])


def _children(pid: int) -> list[int]:
    out: list[int] = []
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            out += [int(c) for c in Path(f"/proc/{pid}/task/{task}/children").read_text().split()]
        except OSError:
            continue
    return out


def _running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _default_signals() -> None:
    """The ending signals as a terminal gives them: a suite started in the background (a
    shell's ``&``, ``nohup``) passes SIGINT and SIGQUIT on ignored, and trajtui rightly
    keeps a signal ignored that it was started with ignored."""
    for sig in (signal.SIGINT, signal.SIGQUIT, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)


def _stalled_ls(path: Path) -> tuple[subprocess.Popen[bytes], list[int]]:
    """``ls --json`` whose output nobody reads (it stops once the pipe is full), with its
    row workers started."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "trajtui", "ls", "--json", "--no-cache", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=_default_signals,
    )
    deadline = time.monotonic() + 30
    while len(_started(proc.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert len(_started(proc.pid)) >= 2, "the row workers did not start"
    return proc, _children(proc.pid)


def _started(pid: int) -> list[int]:
    """The worker processes of ``pid`` that are running (their output sent to /dev/null)."""
    out = []
    for child in _children(pid):
        try:
            if os.readlink(f"/proc/{child}/fd/1") == os.devnull:
                out.append(child)
        except OSError:
            continue
    return out


def _gone(workers: list[int], within: float) -> list[int]:
    deadline = time.monotonic() + within
    while any(_running(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [w for w in workers if _running(w)]
    for w in left:
        os.kill(w, signal.SIGKILL)
    return left


@pytest.mark.parametrize(
    "sig",
    [signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1],
    ids=lambda s: s.name,
)
def test_an_ending_signal_ends_ls_and_its_workers(worked: Path, sig: signal.Signals) -> None:
    proc, workers = _stalled_ls(worked)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 128 + sig, err
    assert b"Traceback" not in err and b"internal error" not in err, err
    assert _gone(workers, 10) == []


def test_workers_of_a_process_killed_outright_end_by_themselves(worked: Path) -> None:
    proc, workers = _stalled_ls(worked)
    proc.kill()
    proc.communicate(timeout=30)
    assert _gone(workers, 10) == []


SWALLOWED = r"""
import os, signal, sys
from trajtui.cli import entry


class Dropped:
    def __del__(self):  # the signal arrives where Python cannot raise
        os.kill(os.getpid(), signal.SIGTERM)
        for _ in range(10_000):
            pass


def command(*args, **kwargs):
    Dropped()
    return run(*args, **kwargs)


run = entry.cli.main
entry.cli.main = command
entry.main(sys.argv[1:])
"""


def test_a_signal_that_lands_in_a_destructor_still_ends_ls_with_its_exit_code(
    worked: Path,
) -> None:
    """Under load a signal can arrive while Python runs a ``__del__`` (the garbage
    collector), where the unwinding it starts cannot be raised: ``ls`` went on to the end
    and said 0, with an "Exception ignored" traceback on stderr."""
    out = subprocess.run(
        [sys.executable, "-c", SWALLOWED, "ls", "--json", "--no-cache", str(worked)],
        capture_output=True,
        timeout=120,
    )
    assert out.returncode == 128 + signal.SIGTERM, out.stderr
    assert b"Traceback" not in out.stderr and b"Exception ignored" not in out.stderr, out.stderr
