"""Open text in the user's ``$PAGER`` (``e``), suspending the TUI meanwhile.

The text is written to a private temporary file (mode 0600) in trajtui's own cache
directory, or the system's temporary directory when that cannot be used (a regular file
where the directory should be, no permission, or a place inside a path the user opened),
never beside the data; control characters are made visible; the file is removed afterwards.

A pager that cannot run (not installed, a typo, a directory, not executable) is said in one
line before anything is suspended; one that fails once started (exits non-zero, killed) is
said after the TUI is back. SIGTERM, SIGHUP (any ending signal) while the pager runs is
passed on to it, and trajtui ends once the terminal is back. Nothing raised while suspended escapes the suspension: Textual
resumes only when its block ends normally, and a TUI left suspended echoes keys and never
quits.
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import termios
import time
from collections.abc import Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, Protocol

from platformdirs import user_cache_path

from trajtui.core import signals
from trajtui.core.io.text import visible
from trajtui.ui.settings import outside_opened


class Suspends(Protocol):
    """What the pager needs of the app: the opened paths (the temporary file goes outside
    them) and a way to give the terminal back (the :class:`~trajtui.ui.host.Host` has both)."""

    paths: list[str]

    def suspend(self) -> AbstractContextManager[None]:
        """Give the terminal back for a while."""


def _temp_file(opened: Sequence[str]) -> tuple[int, str] | None:
    """A new private temporary file outside the opened paths: ``(fd, path)``, or None."""
    for place in (user_cache_path("trajtui"), Path(tempfile.gettempdir())):
        if not outside_opened(place, opened):
            continue
        try:
            place.mkdir(parents=True, exist_ok=True)
            return tempfile.mkstemp(prefix="trajtui-", suffix=".txt", dir=place)
        except OSError:
            continue
    return None


PAGERS = ("less", "more")
"""Tried in turn when ``$PAGER`` is not set."""


def _pager() -> tuple[list[str], str | None]:
    """The pager's command line (its program found on ``PATH``), or an error message."""
    wanted = os.environ.get("PAGER") or ""
    if not wanted.strip():
        for name in PAGERS:
            found = shutil.which(name)
            if found is not None:
                return [found], None
        return [], "cannot open a pager: $PAGER is not set and neither less nor more is here"
    try:
        command = shlex.split(wanted)
    except ValueError as err:
        return [], f"cannot open a pager: $PAGER is not a command line ({err})"
    if not command:
        return [], "cannot open a pager: $PAGER is empty"
    found = shutil.which(command[0])
    if found is None:
        return [], f"cannot open a pager: $PAGER {visible(command[0])!r} is not a command here"
    return [found, *command[1:]], None


def _ended(command: list[str], code: int) -> str | None:
    """What went wrong with a pager that ended with ``code`` (None: nothing)."""
    if code == 0:
        return None
    name = visible(os.path.basename(command[0]))
    if code < 0:
        try:
            how = signal.Signals(-code).name
        except ValueError:
            how = f"signal {-code}"
        return f"the pager ({name}) was ended by {how}"
    return f"the pager ({name}) exited with status {code}"


GRACE = 2.0
"""Seconds a pager is given to end after an ending signal was passed on to it; then it is
killed."""


def _run(argv: list[str], passed: list[int]) -> int:
    """Run the pager and wait for it; returns its exit code (``-N``: ended by signal N). An
    ending signal that reaches trajtui meanwhile (:mod:`trajtui.core.signals`) is passed on
    to it (noted in ``passed``), so both end at once; a pager still running :data:`GRACE`
    seconds later is killed. The terminal's modes are put back as they were before it, if
    it was ended by a signal."""
    modes = _modes()
    proc = subprocess.Popen(argv)

    def pass_on(signum: int) -> None:
        passed.append(signum)
        try:
            proc.send_signal(signum)
        except OSError:
            pass

    taker = signals.push(pass_on)
    try:
        deadline: float | None = None
        while True:
            try:
                code = proc.wait(timeout=0.2)
                break
            except subprocess.TimeoutExpired:
                if passed and deadline is None:
                    deadline = time.monotonic() + GRACE
                if deadline is not None and time.monotonic() > deadline:
                    proc.kill()
    finally:
        signals.pop(taker)
    if code < 0 and modes is not None:
        try:
            termios.tcsetattr(modes[0], termios.TCSADRAIN, modes[1])
        except (OSError, termios.error):
            pass
    return code


def _modes() -> tuple[int, list[Any]] | None:
    """The terminal's descriptor and modes, or None when there is no terminal."""
    try:
        fd = sys.__stdin__.fileno() if sys.__stdin__ is not None else -1
        return (fd, termios.tcgetattr(fd)) if fd >= 0 and os.isatty(fd) else None
    except (OSError, ValueError, termios.error):
        return None


def page(app: Suspends, text: str) -> str | None:
    """Show ``text`` in ``$PAGER`` (default ``less``, else ``more``). Returns an error
    message or None."""
    command, error = _pager()
    if error is not None:
        return error
    opened = [str(p) for p in app.paths]
    made = _temp_file(opened)
    if made is None:
        return "cannot open a pager: no place to write a temporary file outside the opened paths"
    fd, path = made
    outcome: list[str | None] = [None]
    interrupted: list[BaseException] = []
    passed: list[int] = []
    try:
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(visible(text))
        except OSError as err:
            return f"cannot open a pager: cannot write {path}: {err.strerror or err}"
        try:
            with app.suspend():
                # nothing may be raised in here: Textual would stay suspended
                try:
                    code = _run([*command, path], passed)
                    outcome[0] = _ended(command, code)
                except Exception as err:  # it could not be started after all
                    outcome[0] = f"cannot open a pager ({visible(command[0])}): {err}"
                except BaseException as err:  # a signal ending trajtui: once resumed
                    interrupted.append(err)
        except Exception as err:  # SuspendNotSupported in headless tests
            return f"cannot open a pager ({' '.join(command)}): {err or type(err).__name__}"
        if interrupted:
            raise interrupted[0]
        if passed:  # the TUI is back: it ends as the signal says
            signals.hand_on(passed[0])
    finally:
        try:
            os.unlink(path)
        except OSError:
            pass
    return outcome[0]
