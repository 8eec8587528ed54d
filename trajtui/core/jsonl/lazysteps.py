"""A one-run file's steps read on demand (:class:`LazySteps`): the ``steps`` of the
:class:`~trajtui.core.model.Run` a :class:`~trajtui.core.jsonl.session.SessionSource`
gives, built a window of rows at a time by its format and the last windows kept
(:class:`~trajtui.core.windowed.WindowedSteps`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from trajtui.core.model import Problem, Step
from trajtui.core.source import LoadError
from trajtui.core.windowed import WindowedSteps

if TYPE_CHECKING:
    from trajtui.core.jsonl.session import SessionSource, SessionState

WINDOW = 64
"""Step rows built at a time."""
WINDOWS_KEPT = 8
"""Windows of built steps a run keeps (the rest are built again when asked for)."""


class LazySteps(WindowedSteps):
    """A run's timeline read from its file on demand: built :data:`WINDOW` steps at a time,
    the last :data:`WINDOWS_KEPT` windows kept (thread-safe)."""

    @property
    def window(self) -> int:
        return WINDOW

    @property
    def kept(self) -> int:
        return WINDOWS_KEPT

    def __init__(self, source: SessionSource, ref: str, rows: SessionState, count: int) -> None:
        super().__init__(ref, count)
        self._source = source
        self._rows = rows

    def _build(self, lo: int, hi: int) -> list[Step]:
        rows = [self._rows.row(p) for p in range(lo, hi)]
        steps = self._source.fmt.steps(self._ref, rows, self._source.read_kept)
        if len(steps) != hi - lo:  # a format bug: never a wrong step under a number
            raise LoadError(
                Problem(self._source.path, None, "steps could not be built (internal error)")
            )
        return steps
