"""The one place that owns the signals that end trajtui: SIGINT, SIGTERM, SIGHUP, and the
others whose default is to end a process without a word (SIGQUIT, SIGUSR1, SIGUSR2,
SIGALRM).

Each ends the program the same way, whatever it is doing: a running TUI is asked to quit
(its terminal given back as it was: the main screen, no mouse reporting, the cursor shown;
its settings saved), anything else unwinds (``finally`` blocks, exit handlers: the row
workers are stopped), and the exit code is 128 + the signal's number, as a shell reports a
program a signal ended. A second signal while the first is being handled unwinds at once.

:func:`install` (the command's entry point, in the main thread) sets the handlers; a TUI
takes them over while it runs with :func:`push` (its quit runs in its own event loop).
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Callable

__all__ = ["ENDING", "Ended", "exit_code", "hand_on", "install", "pop", "push", "received"]

ENDING = (
    signal.SIGINT,
    signal.SIGTERM,
    signal.SIGHUP,
    signal.SIGQUIT,
    signal.SIGUSR1,
    signal.SIGUSR2,
    signal.SIGALRM,
)
"""The signals that end trajtui (SIGTSTP, which stops it, Textual hands the terminal back
for itself; SIGPIPE is ignored, a closed pipe is an error where it is written)."""


class Ended(BaseException):
    """Raised in the main thread by an ending signal (not an ``Exception``: nothing on the
    way catches it as an error).

    Attributes:
        signum: The signal.
    """

    def __init__(self, signum: int) -> None:
        super().__init__(f"ended by {signal.Signals(signum).name}")
        self.signum = signum


_received: int | None = None
_takers: list[Callable[[int], object]] = []
_lock = threading.Lock()


def received() -> int | None:
    """The ending signal received, if any."""
    return _received


def exit_code(signum: int) -> int:
    """The exit code of a program ``signum`` ended (128 + its number)."""
    return 128 + signum


def _handle(signum: int, _frame: object) -> None:
    global _received
    first = _received is None
    _received = signum
    with _lock:
        taker = _takers[-1] if _takers else None
    if first and taker is not None:
        taker(signum)
        return
    raise Ended(signum)


def _unraisable(hook: Callable[[sys.UnraisableHookArgs], object]) -> Callable[..., None]:
    """``hook``, except for an :class:`Ended` raised where Python cannot raise (a signal
    that arrived in a ``__del__`` or a weakref callback): Python would print it with a
    traceback and go on; it is kept silent, and the command's exit code still says the
    signal (:func:`received`)."""

    def unraisable(args: sys.UnraisableHookArgs) -> None:
        if not isinstance(args.exc_value, Ended):
            hook(args)

    unraisable.__wrapped__ = hook  # type: ignore[attr-defined]
    return unraisable


def install() -> None:
    """Handle the ending signals (from the main thread; elsewhere, nothing is done)."""
    if threading.current_thread() is not threading.main_thread():
        return
    if not hasattr(sys.unraisablehook, "__wrapped__"):
        sys.unraisablehook = _unraisable(sys.unraisablehook)
    for sig in ENDING:
        try:
            if signal.getsignal(sig) is signal.SIG_IGN:  # started with it ignored (nohup)
                continue
            signal.signal(sig, _handle)
        except (OSError, ValueError):
            continue


def push(taker: Callable[[int], object]) -> Callable[[int], object]:
    """While it is pushed, ``taker(signum)`` is called (from the main thread, between two
    steps of whatever it was doing: it should only schedule the quit) instead of unwinding,
    for the first ending signal. Returns it, for :func:`pop`."""
    with _lock:
        _takers.append(taker)
    return taker


def pop(taker: Callable[[int], object]) -> None:
    """Stop handing signals to ``taker``."""
    with _lock:
        if taker in _takers:
            _takers.remove(taker)


def hand_on(signum: int) -> None:
    """Give ``signum``, which a taker only passed on (to a child process), to the taker now
    on top, as if it had just arrived; with none, unwind (raise :class:`Ended`)."""
    with _lock:
        taker = _takers[-1] if _takers else None
    if taker is None:
        raise Ended(signum)
    taker(signum)
