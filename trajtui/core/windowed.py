"""A run's timeline built on demand a window at a time (:class:`WindowedSteps`): the
``steps`` of a :class:`~trajtui.core.model.Run` read from a big file, where building every
step at once would hold the file's worth of steps in memory.

A reader subclasses it with the one thing that differs, :meth:`WindowedSteps._build`: the
steps at positions ``lo`` to ``hi`` built from what it kept (a session file's step rows, a
JSON document's item spans). The base keeps the last windows built and is a
``Sequence[Step]`` (``len``, indexing, slices, iteration) that is safe across threads.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from typing import ClassVar, overload

from trajtui.core.model import Step


class WindowedSteps(Sequence[Step]):
    """``count`` steps built :attr:`window` at a time by :meth:`_build`, the last
    :attr:`kept` windows kept (thread-safe: two threads may build the same window,
    the last one built is kept)."""

    WINDOW: ClassVar[int] = 64
    """Steps built at a time (:attr:`window`)."""
    WINDOWS_KEPT: ClassVar[int] = 8
    """Windows of built steps kept, the rest built again when asked for (:attr:`kept`)."""

    def __init__(self, ref: str, count: int) -> None:
        self._ref = ref
        self._count = count
        self._windows: OrderedDict[int, list[Step]] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def window(self) -> int:
        """Steps built at a time (a subclass may read its module's setting)."""
        return self.WINDOW

    @property
    def kept(self) -> int:
        """Windows kept."""
        return self.WINDOWS_KEPT

    def _build(self, lo: int, hi: int) -> list[Step]:
        """The steps at positions ``lo`` to ``hi`` (0-based, ``hi`` excluded), exactly
        ``hi - lo`` of them."""
        raise NotImplementedError

    def _window(self, w: int) -> list[Step]:
        with self._lock:
            got = self._windows.get(w)
            if got is not None:
                self._windows.move_to_end(w)
                return got
        lo = w * self.window
        steps = self._build(lo, min(lo + self.window, self._count))
        with self._lock:
            self._windows[w] = steps
            while len(self._windows) > self.kept:
                self._windows.popitem(last=False)
        return steps

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, i: int) -> Step: ...
    @overload
    def __getitem__(self, i: slice) -> tuple[Step, ...]: ...
    def __getitem__(self, i: int | slice) -> Step | tuple[Step, ...]:
        if isinstance(i, slice):
            return tuple(self[k] for k in range(*i.indices(self._count)))
        if i < 0:
            i += self._count
        if not 0 <= i < self._count:
            raise IndexError(i)
        n = self.window
        return self._window(i // n)[i % n]

    def __iter__(self) -> Iterator[Step]:
        n = self.window
        for w in range((self._count + n - 1) // n):
            yield from self._window(w)

    def __bool__(self) -> bool:
        return self._count > 0

    def __eq__(self, other: object) -> bool:
        return self is other

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self._ref} ({self._count} steps)>"
