"""A trajectory file read in bounded memory: listed from one pass, its steps read when shown.

:func:`read_trajectory` streams the file through the core engine for big JSON documents
(:class:`~trajtui.core.io.jsondoc.DocumentScan`; :class:`TrajectoryRead` when the run is
listed as it is read, its partial trajectory watched): every top-level member but ``steps`` is
decoded, each step is folded into the run's figures and kept :func:`lightened
<trajtui.formats.atif.trajectory.lighten>` (ids, names, flags, numbers: no message, no
arguments, no tool output) with its byte span. :class:`Bodies` reads one step whole again by
its span, and :class:`Timeline` is the run's timeline built from them a window of steps at a
time, the last few windows kept: what a run holds is what is shown, not the file.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import replace
from typing import Any

from trajtui.core.docruns import revisions
from trajtui.core.io import safeio
from trajtui.core.io.jsondoc import DocumentScan, Scanned, Span, Spans, read_item
from trajtui.core.io.jsonutil import JsonError
from trajtui.core.model import Field, Step
from trajtui.core.values import integer
from trajtui.core.windowed import WindowedSteps
from trajtui.formats.atif.document import STEPS
from trajtui.formats.atif.facts import Answer, Pairing, start_time
from trajtui.formats.atif.timeline import ChildRef, build_step
from trajtui.formats.atif.trajectory import AtifStep, StepFold, Trajectory, make_step

WINDOW = 32
"""Steps built at a time."""
WINDOWS_KEPT = 4
"""Windows of built steps a timeline keeps (the rest are built again when asked for)."""


class NotATrajectory(Exception):
    """The file is JSON, but not an object (``str()``: what it is)."""


class BodyLost(Exception):
    """A step's body could not be read again (the file changed, or went)."""


class Bodies:
    """Reads the steps of a trajectory file again by their spans (``bodies(step)``: the
    step whole), the file checked to be the one scanned (same file, same size)."""

    def __init__(self, path: str, spans: Spans, ident: tuple[int, int], size: int) -> None:
        self.path = path
        self.spans = spans  # by position - 1
        self.ident = ident
        self.size = size

    def read(self, steps: Sequence[AtifStep]) -> list[AtifStep]:
        """``steps`` (lightened) whole, read again from the file.

        Raises:
            BodyLost: The file changed since it was scanned, or cannot be read.
        """
        try:
            with safeio.open_regular(self.path) as f:
                if f.ident != self.ident or f.size != self.size:
                    raise BodyLost("the file changed since it was read")
                out = []
                for lean in steps:
                    item = read_item(f, self.spans[lean.position - 1])
                    if not isinstance(item, dict) or integer(item.get("step_id")) != lean.step_id:
                        raise BodyLost("the file changed since it was read")
                    out.append(make_step(item, lean.position, lean.number, lean.line))
                return out
        except (OSError, JsonError) as err:
            raise BodyLost(
                f"cannot read it again: {getattr(err, 'strerror', None) or err}"
            ) from None

    def __call__(self, step: AtifStep) -> AtifStep:
        return self.read([step])[0]


class TrajectoryRead:
    """A trajectory file read in one pass, watched as it goes: iterating it reads the file,
    giving after each step the byte offset read up to; :meth:`partial` is the trajectory
    of the steps read so far, :attr:`trajectory` the whole one once the iteration ends.

    Raises (iterating):
        NotATrajectory: It is JSON, but not an object.
        OSError: It cannot be opened or read (:class:`~trajtui.core.io.safeio.Refused`
            when it is not a regular file).
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self.size = 0
        self.trajectory: Trajectory | None = None
        self._fold = StepFold(path, lean=True)
        self._kept = Spans()  # the spans of the steps (items that are objects), by position
        self._scan: DocumentScan | None = None
        self._body: Bodies | None = None

    def __iter__(self) -> Iterator[int]:
        fold, kept = self._fold, self._kept

        def visit(key: str, span: Span, item: Any) -> None:
            if fold.add(span.line, item):
                kept.append(span)

        with safeio.open_regular(self.path) as f:
            self.size = f.size
            self._body = Bodies(self.path, kept, f.ident, f.size)
            self._scan = DocumentScan(f, arrays=frozenset({STEPS}), visit=visit)
            yield from self._scan
        self._finish(self._scan.scanned)

    def _finish(self, scanned: Scanned) -> None:
        if scanned.error is None and not isinstance(scanned.value, dict):
            raise NotATrajectory(
                "a JSON array" if isinstance(scanned.value, list) else "not a JSON object"
            )
        has_steps = STEPS in scanned.spans
        self.trajectory = self._fold.finish(
            scanned.value, has_steps, scanned.error, scanned.warnings, self._body
        )

    def watched(
        self, partial: Callable[[Trajectory], None] | None, every: float, after: float = 0.0
    ) -> Generator[int, None, Trajectory]:
        """Read the file, giving ``partial`` (when given) the trajectory so far once it has
        been read for ``after`` seconds (a file read sooner is never partial), then at most
        every ``every`` seconds (or four times as long as making it took: each is made from
        every step read), yielding the bytes read after each. Returns the whole
        trajectory."""
        yield from revisions(self, self.partial, partial, every, after)
        assert self.trajectory is not None
        return self.trajectory

    def partial(self) -> Trajectory | None:
        """The trajectory of the steps read so far (None before its document starts, or
        when it is no object); call it between two steps of the iteration."""
        scanned = self._scan.scanned if self._scan is not None else None
        if scanned is None or not isinstance(scanned.value, dict):
            return None
        value = {k: v for k, v in scanned.value.items() if k != STEPS}
        return self._fold.finish(value, True, None, list(scanned.warnings), self._body)


def read_trajectory(path: str) -> Trajectory:
    """The trajectory in the file at ``path``, read in one pass in bounded memory (its steps
    lightened, their bodies read again by :class:`Bodies`).

    Raises:
        NotATrajectory: It is JSON, but not an object.
        OSError: It cannot be opened or read (:class:`~trajtui.core.io.safeio.Refused`
            when it is not a regular file).
    """
    reading = TrajectoryRead(path)
    for _ in reading:
        pass
    assert reading.trajectory is not None
    return reading.trajectory


class Timeline(WindowedSteps):
    """A trajectory's timeline built from its steps on demand, :data:`WINDOW` steps at a
    time, the last :data:`WINDOWS_KEPT` windows kept (thread-safe). The steps of a
    trajectory read whole (an embedded subagent's) are built as they are."""

    WINDOW = WINDOW
    WINDOWS_KEPT = WINDOWS_KEPT

    def __init__(
        self, trajectory: Trajectory, pairing: Pairing, run_ref: str, child: ChildRef
    ) -> None:
        super().__init__(run_ref, len(trajectory.steps))
        self._t = trajectory
        self._pairing = pairing
        self._child = child
        self._t0 = start_time(trajectory.steps)

    def _whole(self, steps: Sequence[AtifStep]) -> tuple[list[AtifStep], str | None]:
        bodies = self._t.body
        if not isinstance(bodies, Bodies):
            return list(steps), None
        try:
            return bodies.read(steps), None
        except BodyLost as err:
            return list(steps), str(err)

    def _build(self, lo: int, hi: int) -> list[Step]:
        lean = self._t.steps
        whole, lost = self._whole(lean[lo:hi])
        by_position = {s.position: s for s in whole}

        def content(a: Answer) -> Any:
            step = by_position.get(a.step)
            if step is None:  # a result in a step of another window
                step = self._whole([lean[a.step - 1]])[0][0]
                by_position[a.step] = step
            results = step.results
            return results[a.index].content if a.index < len(results) else None

        built = []
        for step in whole:
            s = build_step(step, lean, self._pairing, self._ref, self._t0, self._child, content)
            if lost is not None:
                note = Field("step body", f"not shown: {lost} (open it again to read it)")
                s = replace(s, fields=(*s.fields, note))
            built.append(s)
        return built
