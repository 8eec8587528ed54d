"""End to end, in a real terminal (tmux): what trajtui leaves the terminal in (issue 23,
items 13 and 14). A pager that cannot run is one line and the TUI goes on (it used to stay
suspended, keys echoed, ``q`` dead); SIGTERM and SIGHUP give the terminal back as SIGINT
does (the main screen, no mouse reporting, the cursor shown) and end the row workers (they
were left in the alternate screen, the workers orphaned and running)."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.test_tmux import TRAJTUI, Tmux
from tests.formats.acp.builders import capture, write_jsonl
from tests.helpers.ui import capture_fixture

pytestmark = pytest.mark.e2e

MODES = "alt=#{alternate_on} mouse=#{mouse_any_flag}#{mouse_button_flag}#{mouse_standard_flag}"
MODES += " sgr=#{mouse_sgr_flag} cursor=#{cursor_flag}"
"""The pane's terminal modes, as tmux reports them."""
GIVEN_BACK = "alt=0 mouse=000 sgr=0 cursor=1"
"""A terminal as a shell wants it: the main screen, no mouse reporting, the cursor shown."""


@pytest.fixture
def tmux(tmp_path: Path) -> Iterator[Tmux]:
    import shutil

    if shutil.which("tmux") is None:
        pytest.fail("tmux is not installed: the end-to-end test needs it (apt-get install tmux)")
    session = Tmux(tmp_path / "tmux.sock", "trajtui-term")
    yield session
    session.run("kill-server", check=False)


def _start(tmux: Tmux, tmp_path: Path, path: Path, **env: str) -> None:
    """trajtui on ``path`` in a shell that says how it ended (``exit=N``) and stays."""
    env = {
        "TERM": "xterm-256color",
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "TEXTUAL_ANIMATIONS": "none",
        **env,
    }
    env_args = [item for k, v in env.items() for item in ("-e", f"{k}={v}")]
    script = f"'{TRAJTUI}' '{path}'; echo exit=$?; sleep 600"
    tmux.run(
        "new-session", "-d", "-x", "120", "-y", "40", "-s", tmux.name, *env_args,
        "sh", "-c", script,
    )  # fmt: skip


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


def _trajtui_pid(tmux: Tmux) -> int:
    shell = int(tmux.run("display-message", "-p", "-t", tmux.name, "#{pane_pid}").strip())
    (pid,) = _children(shell)
    return pid


@pytest.mark.parametrize(
    "pager",
    ["/nonexistent/pager", "{dir}", "false"],
    ids=["missing", "a-directory", "exits-1"],
)
def test_a_pager_that_cannot_run_is_one_line_and_the_tui_goes_on(
    tmux: Tmux, tmp_path: Path, pager: str
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    path = capture_fixture(data)
    (tmp_path / "a-dir").mkdir()
    _start(tmux, tmp_path, path, PAGER=pager.format(dir=tmp_path / "a-dir"))
    tmux.wait_for("websearch-4", "4 runs")
    tmux.keys("e")
    said = "the pager (false) exited with status 1" if pager == "false" else "cannot open a pager"
    tmux.wait_for(said)
    tmux.keys("j")  # the TUI answers keys again
    tmux.wait_for("─ websearch-2 ─", "score 0.31")  # its timeline, under its name
    tmux.keys("q")
    tmux.wait_for("exit=0")
    assert tmux.run("display-message", "-p", "-t", tmux.name, MODES).strip() == GIVEN_BACK


@pytest.fixture
def worked(tmp_path: Path) -> Path:
    """A file whose rows the TUI reads with worker processes (many records over 2 KB)."""
    pad = "x" * 2600
    return write_jsonl(
        tmp_path / "worked.jsonl", [capture(f"w-{i:04d}", output=pad) for i in range(2200)]
    )


@pytest.mark.parametrize(
    "sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT], ids=lambda s: s.name
)
def test_sigterm_and_sighup_give_the_terminal_back_and_end_the_workers(
    tmux: Tmux, tmp_path: Path, worked: Path, sig: signal.Signals
) -> None:
    _start(tmux, tmp_path, worked)
    tmux.wait_for("w-0000", "2,200 runs", timeout=60)
    pid = _trajtui_pid(tmux)
    deadline = time.monotonic() + 30
    while len(workers := _children(pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert len(workers) >= 2, "the row workers did not start"
    assert tmux.run("display-message", "-p", "-t", tmux.name, MODES).strip() != GIVEN_BACK
    os.kill(pid, sig)
    tmux.wait_for(f"exit={128 + sig}")
    assert tmux.run("display-message", "-p", "-t", tmux.name, MODES).strip() == GIVEN_BACK
    deadline = time.monotonic() + 10
    while any(_running(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [w for w in workers if _running(w)]
    for w in left:
        os.kill(w, signal.SIGKILL)
    assert not left, "row workers outlived trajtui"


def _command(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP], ids=lambda s: s.name)
def test_an_ending_signal_while_the_pager_runs_ends_both_at_once(
    tmux: Tmux, tmp_path: Path, sig: signal.Signals
) -> None:
    """B4: the signal waited until the user quit less (a script's kill, a shutdown, did not
    end trajtui); it is passed on to the pager, and trajtui ends at once."""
    import shutil

    less = shutil.which("less")
    if less is None:
        pytest.fail("less is not installed: this test needs a real pager (apt-get install less)")
    data = tmp_path / "data"
    data.mkdir()
    _start(tmux, tmp_path, capture_fixture(data), PAGER=less)
    tmux.wait_for("websearch-4", "4 runs")
    pid = _trajtui_pid(tmux)
    tmux.keys("e")
    deadline = time.monotonic() + 20
    pagers: list[int] = []
    while not pagers and time.monotonic() < deadline:
        pagers = [c for c in _children(pid) if b"less" in _command(c)]
        time.sleep(0.1)
    assert pagers, "the pager did not start"
    time.sleep(0.5)  # less has taken the terminal
    os.kill(pid, sig)
    tmux.wait_for(f"exit={128 + sig}", timeout=10)
    assert tmux.run("display-message", "-p", "-t", tmux.name, MODES).strip() == GIVEN_BACK
    assert not _running(pagers[0]), "the pager outlived trajtui"
    tty = tmux.run("display-message", "-p", "-t", tmux.name, "#{pane_tty}").strip()
    modes = subprocess.run(["stty", "-F", tty], capture_output=True, text=True).stdout.split()
    assert "-icanon" not in modes and "-echo" not in modes, modes  # lines, echoed: cooked
