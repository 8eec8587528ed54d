"""What ``y`` / ``Y`` did with the text, said as it is: inside tmux, what tmux lets through.

trajtui writes the text as OSC 52, the escape sequence that asks the terminal to put it on
the clipboard (over SSH too). Inside tmux that sequence goes to tmux, whose default
``set-clipboard external`` drops it: "copied 62 characters" was said while nothing arrived.
So inside tmux the text is also loaded into tmux's paste buffer (``tmux load-buffer -w``:
tmux itself passes it on to the terminal's clipboard where its setting allows), and the toast
says which of these happened and, when tmux holds OSC 52 back, the line that lets it through
(``set -g set-clipboard on``).

The text is handed to ``tmux`` on its standard input, never on a command line or to a shell.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass

TIMEOUT = 3.0
"""Seconds a ``tmux`` command may take before it is given up."""
LET_THROUGH = "set -g set-clipboard on"


@dataclass(frozen=True, slots=True)
class TmuxCopy:
    """What tmux did with a copy.

    Attributes:
        setting: tmux's ``set-clipboard`` (``on``, ``external``, ``off``), or "" when it
            could not be read.
        buffered: The text is in tmux's paste buffer.
    """

    setting: str
    buffered: bool


def in_tmux() -> bool:
    """trajtui runs inside tmux."""
    return bool(os.environ.get("TMUX"))


def _tmux(args: list[str], text: str | None = None) -> str | None:
    """``tmux ARGS`` (on ``text`` as its input): its output, or None when it failed."""
    try:
        done = subprocess.run(
            ["tmux", *args],
            input=text.encode("utf-8", "surrogatepass") if text is not None else None,
            capture_output=True,
            timeout=TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.decode("utf-8", "replace") if done.returncode == 0 else None


def tmux_copy(text: str) -> TmuxCopy:
    """Read tmux's ``set-clipboard``; unless it is ``on`` (tmux then takes the OSC 52 itself,
    into a buffer and on to the terminal), load ``text`` into tmux's paste buffer and through
    tmux to the terminal's clipboard where the setting allows it. Blocks: run it off the UI
    thread."""
    setting = (_tmux(["show-options", "-sv", "set-clipboard"]) or "").strip()
    if setting == "on":
        return TmuxCopy(setting, buffered=True)
    buffered = _tmux(["load-buffer", "-w", "-"], text) is not None
    if not buffered:  # tmux before 3.2 has no -w
        buffered = _tmux(["load-buffer", "-"], text) is not None
    return TmuxCopy(setting, buffered)


def said(what: str, tmux: TmuxCopy | None) -> str:
    """The toast for ``what`` (``62 characters of websearch-2``) copied; ``tmux`` is what
    tmux did, None outside tmux."""
    if tmux is None:
        return f"copied {what}: sent to the terminal as OSC 52 (its clipboard, if it allows)"
    if tmux.setting == "on":
        return f"copied {what}: sent as OSC 52, which tmux puts in its paste buffer and passes on"
    buffer = " into tmux's paste buffer (prefix ])" if tmux.buffered else ""
    if tmux.setting == "external":
        passed = ", which tmux passes to the terminal's clipboard" if buffer else ""
        return (
            f"copied {what}{buffer}{passed}; tmux's set-clipboard external drops OSC 52 from "
            f"programs: '{LET_THROUGH}' in ~/.tmux.conf lets it through"
        )
    setting = f"set-clipboard {tmux.setting}" if tmux.setting else "set-clipboard"
    return (
        f"copied {what}{buffer}; tmux's {setting} keeps it from the terminal's clipboard: "
        f"'{LET_THROUGH}' in ~/.tmux.conf lets it through"
    )
