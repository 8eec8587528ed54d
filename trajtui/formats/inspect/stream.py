"""A ``.json`` log streamed in a thread: its rows as they are read (:func:`stream_rows`), and
its samples read in order from one paused stream (:class:`Cursor`).

Both run :func:`~trajtui.core.io.jsonstream.load_object` in a thread that hands what it
reads over a small queue and waits while nobody takes it, so memory holds a sample or two
whatever the size of the log; a stop event ends the thread (it never outlives a ``close``).
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any

from trajtui.core.io import safeio
from trajtui.core.io.jsonstream import StreamError, load_object

SAMPLES = frozenset({"samples"})


def _put(
    feed: queue.Queue[tuple[str, Any]], stop: threading.Event, message: tuple[str, Any]
) -> None:
    while not stop.is_set():
        try:
            feed.put(message, timeout=0.05)
            return
        except queue.Full:
            continue
    raise _Stopped


class _Stopped(Exception):
    """The reading was stopped (the scan was cancelled)."""


class Counted(safeio.SafeFile):
    """An open file that knows how far it was read (a scan's progress)."""

    read_to = 0

    def pread(self, size: int, offset: int) -> bytes:
        data = super().pread(size, offset)
        self.read_to = max(self.read_to, offset + len(data))
        return data


def stream_rows(
    f: safeio.SafeFile,
    feed: queue.Queue[tuple[str, Any]],
    stop: threading.Event,
    compact: Callable[[dict[str, Any]], Any],
) -> None:
    """Read the document (in a thread), putting on ``feed`` ``("head", members)`` when the
    samples start, ``("item", row)`` for each sample (None: not an object), then
    ``("done", streamed)``, or ``("error", err)`` where it breaks."""

    def put(message: tuple[str, Any]) -> None:
        _put(feed, stop, message)

    def passed(key: str, item: Any) -> None:
        put(("item", compact(item) if isinstance(item, dict) else None))

    def started(key: str, members: dict[str, Any]) -> None:
        put(("head", dict(members)))

    try:
        streamed = load_object(
            f, arrays=frozenset({"samples"}), keep=0, passed=passed, started=started
        )
    except _Stopped:
        return
    except (StreamError, OSError) as err:
        message: tuple[str, Any] = ("error", err)
    except Exception as err:  # a bug reading one log never stops the others
        message = ("error", StreamError(f"not read to the end: {type(err).__name__}: {err}"))
    else:
        message = ("done", streamed)
    try:
        put(message)
    except _Stopped:
        return


class Cursor:
    """One stream of a ``.json`` log's samples, paused after the last one taken.

    Attributes:
        next: The position of the next sample it can give.

    Raises (at construction):
        OSError: The file cannot be opened.
    """

    def __init__(self, path: str) -> None:
        fd, st = safeio.open_fd(path)
        self._file = safeio.SafeFile(path, fd, st)
        self._feed: queue.Queue[tuple[str, Any]] = queue.Queue(maxsize=1)
        self._stop = threading.Event()
        self._done = False
        self.next = 0
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        def passed(key: str, item: Any) -> None:
            _put(self._feed, self._stop, ("item", item))

        try:
            load_object(self._file, arrays=SAMPLES, keep=0, passed=passed)
            message: tuple[str, Any] = ("end", None)
        except _Stopped:
            return
        except (StreamError, OSError) as err:
            message = ("error", err)
        except Exception as err:  # a bug reading one log never stops the others
            message = ("error", StreamError(f"not read: {type(err).__name__}: {err}"))
        try:
            _put(self._feed, self._stop, message)
        except _Stopped:
            return

    def take(self, position: int) -> Any:
        """The sample at ``position`` (at or after :attr:`next`), the ones before it passed.

        Raises:
            IndexError: The document has no sample there (any more).
            StreamError: The document breaks before it.
            OSError: The file cannot be read.
        """
        while not self._done:
            what, value = self._feed.get()
            if what == "item":
                self.next += 1
                if self.next - 1 == position:
                    return value
                continue
            self._done = True
            if what == "error":
                raise value
        raise IndexError(position)

    def close(self) -> None:
        """Stop the stream and close the file."""
        self._stop.set()
        while self._thread.is_alive():
            try:
                self._feed.get(timeout=0.05)
            except queue.Empty:
                pass
        self._file.close()
