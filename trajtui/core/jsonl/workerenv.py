"""Where row workers start from: whether this process may fork them, and what it lends or
hides while they start (:mod:`trajtui.core.jsonl.rowpool`)."""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["may_fork", "plain_main", "real_stderr"]


def may_fork() -> bool:
    """True when worker processes may be forked from this one: it is running one thread
    (counted by the kernel, so threads started outside Python count too), this one."""
    import multiprocessing

    # Linux only: macOS offers fork, but its system libraries are not safe across one
    if (
        not sys.platform.startswith("linux")
        or "fork" not in multiprocessing.get_all_start_methods()
    ):
        return False
    if threading.current_thread() is not threading.main_thread():
        return False
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:  # no /proc: only Python's own count is known
        return threading.active_count() == 1


@contextmanager
def real_stderr() -> Iterator[None]:
    """``sys.stderr`` is the process's own while inside (Textual replaces it with an object
    that has no usable file descriptor)."""
    saved = sys.stderr
    try:
        usable = saved.fileno() >= 0  # Textual's stand-in says -1
    except (AttributeError, OSError, ValueError):
        usable = False
    if not usable and sys.__stderr__ is not None:
        sys.stderr = sys.__stderr__
    try:
        yield
    finally:
        sys.stderr = saved


@contextmanager
def plain_main() -> Iterator[None]:
    """Workers start without running the program's main script: spawn re-imports
    ``__main__`` from its file in each worker (for ``trajtui``, the whole CLI and every
    format, 0.4 s of a core each), and rows need none of it."""
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    spec = getattr(main, "__spec__", None)
    if main is None or (path is None and spec is None):
        yield
        return
    try:
        if path is not None:
            del main.__file__
        main.__spec__ = None
        yield
    finally:
        if path is not None:
            main.__file__ = path
        main.__spec__ = spec
