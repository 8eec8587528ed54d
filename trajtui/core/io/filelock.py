"""An advisory lock between trajtui processes, for read-merge-write of a shared state file.

Two sessions open at once (two terminals on one box, a script beside the TUI) change the
same notes or settings: each change is made under :func:`locked` as *read the file as it
is now, apply this one change, write it atomically*, so neither loses the other's.

The lock is ``flock(2)`` on a private lock file beside the state (``0600``, never followed
through a symlink): it is released by the kernel when the process dies, so a crashed
session never leaves it held. Where ``fcntl`` does not exist the changes are still merged
and written atomically, only not serialised.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX
    fcntl = None  # type: ignore[assignment]

WAIT = 10.0
"""Seconds to wait for another process to finish its change before giving up."""


class LockTimeout(OSError):
    """Another process held the lock for longer than :data:`WAIT` seconds."""


@contextmanager
def locked(lock_file: Path, wait: float = WAIT) -> Iterator[None]:
    """Hold the exclusive lock of ``lock_file`` (made 0600 if need be) while the block runs.

    Raises:
        OSError: The lock file cannot be opened (it is a symlink, the directory is not
            writable...).
        LockTimeout: Another process kept it for ``wait`` seconds.
    """
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(lock_file, flags, 0o600)
    try:
        if fcntl is not None:
            deadline = time.monotonic() + wait
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        raise LockTimeout(
                            f"{lock_file}: another trajtui kept it locked for {wait:.0f} s"
                        ) from None
                    time.sleep(0.005)
        yield
    finally:
        os.close(fd)  # releases the lock
