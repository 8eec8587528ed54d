"""The resource tracker that multiprocessing starts beside spawned row workers
(:mod:`~trajtui.core.jsonl.rowpool`), kept quiet when it dies.

Spawned workers share the pool's queues through named semaphores, and multiprocessing tells a
helper process, its resource tracker, of each (to unlink any left behind at exit). Killed (the
out-of-memory killer, a ``kill -9``), it is relaunched at the next semaphore made or freed,
with a ``UserWarning`` on standard error, and the new one prints a Python traceback for each
semaphore it is told to forget but was never told of. Nothing is lost or leaked meanwhile (a
semaphore is unlinked by the process that freed it, before the tracker is told): so the
warning is not shown, and a tracker is only told to forget what it was told of.
"""

from __future__ import annotations

import threading
import warnings
from typing import Any

__all__ = ["quiet"]

_lock = threading.Lock()
_quiet = False
_told: dict[str, Any] = {}
"""Name of each semaphore registered, and the pid of the tracker it was registered with."""


def quiet() -> None:
    """Keep the resource tracker's death off standard error (once; where multiprocessing is
    not as this module expects, nothing changes)."""
    global _quiet
    with _lock:
        if _quiet:
            return
        from multiprocessing import resource_tracker

        tracker: Any = getattr(resource_tracker, "_resource_tracker", None)
        if not all(hasattr(tracker, a) for a in ("_pid", "_fd", "_check_alive")):
            return
        register, unregister = resource_tracker.register, resource_tracker.unregister

        def told(name: str, rtype: str) -> None:
            register(name, rtype)
            _told[name] = tracker._pid

        def forget(name: str, rtype: str) -> None:
            pid = _told.pop(name, None)
            if pid is not None and (
                pid != tracker._pid or tracker._fd is None or not tracker._check_alive()
            ):
                return  # the tracker told of it died: a new one never knew it
            unregister(name, rtype)

        module: Any = resource_tracker  # its functions are looked up at each call
        module.register, module.unregister = told, forget
        warnings.filterwarnings(
            "ignore", message="resource_tracker: process died unexpectedly", category=UserWarning
        )
        _quiet = True
