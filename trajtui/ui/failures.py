"""Failed workers, never silent: a one-line notice on screen, the traceback in a log file.

Every thread worker of the TUI runs with ``exit_on_error=False``: a bug in reading or
drawing one object must not end the session. What goes wrong is still told. A worker's
``Worker.StateChanged`` messages go to the widget or screen that started it and do not
bubble, so each of those hands its failures to the app (:func:`hand_to_app`), and the app's
one handler (:meth:`trajtui.ui.app.TrajtuiApp.on_worker_state_changed`) writes the log
entry (:func:`write_entry`, in a worker of its own) and then shows the notice
(:func:`notice`).

The log is ``trajtui.log`` in platformdirs' user log directory (``~/.local/state/trajtui/log``
on Linux), written only when something failed, never inside a path the user opened, and
bounded: past :data:`MAX_LOG_BYTES` it is moved to ``trajtui.log.1`` (replacing the older
one) and started afresh.
"""

from __future__ import annotations

import os
import time
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from platformdirs import user_log_path
from textual.dom import DOMNode
from textual.worker import Worker, WorkerState

from trajtui.core.io.text import one_line
from trajtui.ui.settings import outside_opened

MAX_LOG_BYTES = 256 << 10
"""A log bigger than this is rotated (one older log is kept)."""
MAX_ENTRY_CHARS = 32 << 10
"""An entry (its traceback) is cut to this many characters."""

WHAT: dict[str, str] = {
    "loader": "reading the files",
    "run": "reading the run",
    "goto": "going to the reference",
    "detail-layout": "drawing the detail",
    "changes": "watching the files for changes",
    "open": "opening the paths",
    "settings": "saving the settings",
    "failure-log": "writing the log",
}
"""What the workers of each group do, in words (``reading the run failed: ...``)."""


def log_path() -> Path:
    """Where failures are logged (``~/.local/state/trajtui/log/trajtui.log`` on Linux)."""
    return user_log_path("trajtui") / "trajtui.log"


def hand_to_app(node: DOMNode, event: Worker.StateChanged) -> None:
    """Pass a failure of one of ``node``'s workers on to the app, which reports it."""
    if event.state is WorkerState.ERROR and node.app is not node:
        node.app.post_message(Worker.StateChanged(event.worker, event.state))


def what_failed(worker: Worker[Any]) -> str:
    """What ``worker`` was doing, in words."""
    return WHAT.get(worker.group, f"the task {worker.name or worker.group}")


def notice(worker: Worker[Any], log: Path | None) -> str:
    """The one line that tells of ``worker``'s failure (and where its details are)."""
    error = worker.error
    why = f"{type(error).__name__}: {error}" if error is not None else "unknown error"
    line = f"{what_failed(worker)} failed: {one_line(why, limit=160)}"
    if log is not None:
        line += f" (details in {log})"
    else:
        line += " (no log could be written)"
    return one_line(line, limit=400)


def entry(worker: Worker[Any]) -> str:
    """The log entry for ``worker``'s failure: when, what, and the traceback."""
    error = worker.error
    stamp = time.strftime("%Y-%m-%d %H:%M:%S")
    head = (
        f"{stamp} {what_failed(worker)} failed (worker {worker.name!r}, group {worker.group!r})\n"
    )
    if error is None:
        return head
    trace = "".join(traceback.format_exception(error))
    if len(trace) > MAX_ENTRY_CHARS:
        trace = trace[: MAX_ENTRY_CHARS // 2] + "\n[...]\n" + trace[-MAX_ENTRY_CHARS // 2 :]
    return head + trace + "\n"


def write_entry(text: str, *, opened: Sequence[str] = ()) -> Path | None:
    """Append ``text`` to the log (rotating it first when it is full).

    Nothing is written inside one of the ``opened`` paths, or through a link.

    Returns:
        The log's path, or None when it could not be written.
    """
    path = log_path()
    if not outside_opened(path, opened):
        return None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            if os.lstat(path).st_size + len(text) > MAX_LOG_BYTES:
                os.replace(path, path.with_name(path.name + ".1"))
        except FileNotFoundError:
            pass
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "a", encoding="utf-8", errors="replace") as f:
            f.write(text)
    except OSError:
        return None
    return path
