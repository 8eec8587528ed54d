"""A one-run file's steps read on demand (:class:`LazySteps`): the ``steps`` of the
:class:`~trajtui.core.model.Run` a :class:`~trajtui.core.jsonl.session.SessionSource`
gives, built a window of rows at a time by its format and the last windows kept.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, overload

from trajtui.core.model import Problem, Step
from trajtui.core.source import LoadError

if TYPE_CHECKING:
    from trajtui.core.jsonl.session import SessionSource, SessionState

WINDOW = 64
"""Step rows built at a time."""
WINDOWS_KEPT = 8
"""Windows of built steps a run keeps (the rest are built again when asked for)."""


class LazySteps(Sequence[Step]):
    """A run's timeline read from its file on demand: built :data:`WINDOW` steps at a time,
    the last :data:`WINDOWS_KEPT` windows kept (thread-safe)."""

    def __init__(self, source: SessionSource, ref: str, rows: SessionState, count: int) -> None:
        self._source = source
        self._ref = ref
        self._rows = rows
        self._count = count
        self._windows: OrderedDict[int, list[Step]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return self._count

    def _window(self, w: int) -> list[Step]:
        with self._lock:
            got = self._windows.get(w)
            if got is not None:
                self._windows.move_to_end(w)
                return got
        lo = w * WINDOW
        hi = min(lo + WINDOW, self._count)
        rows = [self._rows.row(p) for p in range(lo, hi)]
        steps = self._source.fmt.steps(self._ref, rows, self._source.read_kept)
        if len(steps) != hi - lo:  # a format bug: never a wrong step under a number
            raise LoadError(
                Problem(self._source.path, None, "steps could not be built (internal error)")
            )
        with self._lock:
            self._windows[w] = steps
            while len(self._windows) > WINDOWS_KEPT:
                self._windows.popitem(last=False)
        return steps

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
        return self._window(i // WINDOW)[i % WINDOW]

    def __iter__(self) -> Iterator[Step]:
        for w in range((self._count + WINDOW - 1) // WINDOW):
            yield from self._window(w)

    def __bool__(self) -> bool:
        return self._count > 0

    def __eq__(self, other: object) -> bool:
        return self is other

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return f"<LazySteps {self._ref} ({self._count} steps)>"
