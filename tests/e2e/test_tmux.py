"""End to end: the installed ``trajtui`` command in a real terminal (tmux), driven by keys.

A person opens a capture file, drills from the run list to a step, reads it on screen,
copies it, opens it in a pager and quits. Nothing here reaches into the app: only keys in,
screen text out.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.compare_pairs import pairs_fixture
from tests.helpers.ui import capture_fixture

pytestmark = pytest.mark.e2e

TRAJTUI = Path(sys.executable).with_name("trajtui")


def _clean_env() -> dict[str, str]:
    """The environment for tmux: no inherited terminal size (COLUMNS/LINES would win over
    the real one), and no outer tmux."""
    drop = {"COLUMNS", "LINES", "TMUX", "TMUX_PANE"}
    return {k: v for k, v in os.environ.items() if k not in drop}


class Tmux:
    """One detached tmux session on its own server socket."""

    def __init__(self, socket: Path, name: str) -> None:
        self.socket = str(socket)
        self.name = name

    def run(self, *args: str, check: bool = True) -> str:
        out = subprocess.run(
            ["tmux", "-S", self.socket, *args],
            capture_output=True,
            text=True,
            check=check,
            env=_clean_env(),
        )
        return out.stdout

    def keys(self, *keys: str) -> None:
        for key in keys:
            self.run("send-keys", "-t", self.name, key)
            time.sleep(0.05)

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-t", self.name)

    def wait_for(self, *texts: str, timeout: float = 15.0) -> str:
        """The screen once every one of ``texts`` is on it (a frame can reach the terminal
        in several writes: one pane drawn, the other not yet)."""
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if all(text in screen for text in texts):
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{texts!r} did not all appear; the screen was:\n{screen}")

    def alive(self) -> bool:
        return (
            subprocess.run(
                ["tmux", "-S", self.socket, "has-session", "-t", self.name], capture_output=True
            ).returncode
            == 0
        )


@pytest.fixture
def tmux(tmp_path: Path) -> Iterator[Tmux]:
    if shutil.which("tmux") is None:
        pytest.fail("tmux is not installed: the end-to-end test needs it (apt-get install tmux)")
    session = Tmux(tmp_path / "tmux.sock", "trajtui-e2e")
    yield session
    session.run("kill-server", check=False)


def test_drill_down_to_a_step_read_it_copy_page_and_quit(tmux: Tmux, tmp_path: Path) -> None:
    assert TRAJTUI.exists(), f"the trajtui command is not installed next to {sys.executable}"
    data = tmp_path / "data"
    data.mkdir()
    path = capture_fixture(data)
    before = {p.name: p.read_bytes() for p in data.iterdir()}
    pages = tmp_path / "pages"
    pages.mkdir()
    env = {
        "TERM": "xterm-256color",
        "PAGER": f"cp -t {pages}",
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "TEXTUAL_ANIMATIONS": "none",
    }
    env_args = [item for k, v in env.items() for item in ("-e", f"{k}={v}")]
    tmux.run(
        "new-session",
        "-d",
        "-x",
        "120",
        "-y",
        "40",
        "-s",
        tmux.name,
        *env_args,
        str(TRAJTUI),
        str(path),
    )
    tmux.run("set-option", "-s", "set-clipboard", "on")

    # the broken line is a marked row
    tmux.wait_for("websearch-4", "4 runs · 66.7% pass", "line 4")

    tmux.keys("j")  # websearch-2
    tmux.wait_for("websearch-2 ─", "Let me se")  # the run shown beside the list
    tmux.keys(
        "Enter", "j", "j", "j", "Enter"
    )  # into the timeline, to the failed Read, into the detail
    tmux.wait_for("websearch-2-step-4", "ENOENT", "src/main.tf")

    tmux.keys("y")
    tmux.wait_for("copied")
    buffer = tmux.run("show-buffer", check=False)
    assert "src/main.tf" in buffer, f"the tmux buffer holds {buffer!r}"

    tmux.keys("e")
    deadline = time.monotonic() + 10
    while not any(pages.iterdir()) and time.monotonic() < deadline:
        time.sleep(0.1)
    (paged,) = pages.iterdir()
    assert paged.read_text().startswith("websearch-2-step-4")
    tmux.wait_for("websearch-2-step-4")  # back in the TUI after the pager

    tmux.keys("q")
    deadline = time.monotonic() + 10
    while tmux.alive() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not tmux.alive(), "trajtui did not quit on q"
    assert {p.name: p.read_bytes() for p in data.iterdir()} == before


def test_y_in_tmux_with_its_default_clipboard_setting_says_what_happened(
    tmux: Tmux, tmp_path: Path
) -> None:
    """tmux's default ``set-clipboard external`` drops an application's OSC 52: ``y`` said
    "copied 62 characters" while nothing arrived. The text goes into tmux's paste buffer
    (tmux passes it on to the terminal's clipboard itself), and the toast says so and how to
    let OSC 52 through."""
    data = tmp_path / "data"
    data.mkdir()
    path = capture_fixture(data)
    env = {
        "TERM": "xterm-256color",
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "TEXTUAL_ANIMATIONS": "none",
    }
    env_args = [item for k, v in env.items() for item in ("-e", f"{k}={v}")]
    tmux.run(
        "new-session", "-d", "-x", "120", "-y", "40", "-s", tmux.name, *env_args,
        str(TRAJTUI), str(path),
    )  # fmt: skip
    assert tmux.run("show-options", "-sv", "set-clipboard").strip() == "external"
    tmux.wait_for("websearch-4")
    tmux.keys("j")
    tmux.wait_for("websearch-2 ─", "Let me se")  # the run shown beside the list
    tmux.keys("Y")  # the reference
    screen = tmux.wait_for("paste buffer", "external")
    toast = " ".join(
        line.rsplit("▌", 1)[1].strip(" │") for line in screen.splitlines() if "▌" in line
    )
    assert "'set -g set-clipboard on' in ~/.tmux.conf" in toast, toast
    assert tmux.run("show-buffer", check=False) == "websearch-2"
    tmux.keys("q")


def test_names_that_try_to_act_do_not_reach_the_terminal(tmux: Tmux, tmp_path: Path) -> None:
    """A forecast run directory, an eval run directory and a sample id holding OSC 0 (window
    title) and OSC 52 (clipboard): opening and reading them leaves the title and the
    clipboard alone, and shows the names as symbols."""
    from tests.formats.eval_results import builders as be
    from tests.formats.forecast import builders as bf
    from tests.hostile.test_names import EVAL_DIR, OSC52, RUN_ID, SAMPLE, TITLE

    fc = tmp_path / "fc"
    bf.write_json(fc / "summary.json", bf.summary([bf.entry(RUN_ID, brier=0.05)]))
    bf.run_dir(fc / "runs" / RUN_ID, bf.fed_run())
    doc = be.results_doc([be.sample(SAMPLE, f"n{TITLE}", gt="Low Risk")], total=1, correct=1)
    be.write_json(tmp_path / "ev" / "results" / "dev" / EVAL_DIR / "results.json", doc)
    assert OSC52 in RUN_ID
    env = {
        "TERM": "xterm-256color",
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "TEXTUAL_ANIMATIONS": "none",
    }
    env_args = [item for k, v in env.items() for item in ("-e", f"{k}={v}")]
    tmux.run("new-session", "-d", "-x", "120", "-y", "40", "-s", tmux.name, "sleep", "600")
    tmux.run("set-option", "-s", "set-clipboard", "on")
    tmux.run("set-option", "-g", "allow-rename", "on")
    title = tmux.run("display-message", "-p", "-t", tmux.name, "#{pane_title}")
    tmux.run(
        "respawn-pane",
        "-k",
        "-t",
        tmux.name,
        *env_args,
        str(TRAJTUI),
        str(fc),
        str(tmp_path / "ev"),
    )
    screen = tmux.wait_for("2 runs")
    tmux.keys("j", "j", "enter", "j", "enter")  # each run, then a sample's detail
    time.sleep(1.0)
    screen = tmux.screen()
    assert "␛]0;PWNED␇" in screen, screen
    assert tmux.run("display-message", "-p", "-t", tmux.name, "#{pane_title}") == title
    buffers = tmux.run("list-buffers", check=False)
    assert "curl" not in buffers and "Y3Vyb" not in buffers, buffers
    tmux.keys("q")


def test_search_every_run_and_open_a_hit(tmux: Tmux, tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    path = capture_fixture(data)
    env = {
        "TERM": "xterm-256color",
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "TEXTUAL_ANIMATIONS": "none",
    }
    env_args = [item for k, v in env.items() for item in ("-e", f"{k}={v}")]
    tmux.run(
        "new-session", "-d", "-x", "120", "-y", "40", "-s", tmux.name, *env_args,
        str(TRAJTUI), str(path),
    )  # fmt: skip
    tmux.wait_for("websearch-4")
    tmux.keys("/")
    tmux.keys(*"enoent")
    tmux.wait_for("1 hit in 1 run", "websearch-2-step-4  error  ENOENT")
    tmux.keys("Down", "Enter")  # to the hit, open it
    tmux.wait_for("src/main.tf", "websearch-2-step-4")
    tmux.keys("q")
    deadline = time.monotonic() + 10
    while tmux.alive() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not tmux.alive()


def test_compare_two_runs_step_by_step(tmux: Tmux, tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    path = pairs_fixture(data)
    env = {
        "TERM": "xterm-256color",
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "TEXTUAL_ANIMATIONS": "none",
    }
    env_args = [item for k, v in env.items() for item in ("-e", f"{k}={v}")]
    tmux.run(
        "new-session", "-d", "-x", "120", "-y", "40", "-s", tmux.name, *env_args,
        str(TRAJTUI), str(path),
    )  # fmt: skip
    tmux.wait_for("early")
    tmux.keys("c")  # base is A
    tmux.wait_for("A✓ pass")
    tmux.keys("j", "j", "c")  # changed is B
    tmux.wait_for("first divergence: A step-3 / B step-3 (input differs: url)", "▶~")
    tmux.keys("Enter")  # the differing step, side by side: A's url and B's
    tmux.wait_for("anthropic.com/team", "anthropic.com/company")
    tmux.keys("Escape", "Escape")
    tmux.wait_for("Runs")
    tmux.keys("q")
    deadline = time.monotonic() + 10
    while tmux.alive() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not tmux.alive()
