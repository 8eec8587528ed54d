"""The mini-swe-agent source and format: one trajectory file, or a SWE-bench batch
directory (``<instance>/<instance>.traj.json`` for each instance, ``preds.json`` beside
them), each recognised by content.

A batch is one list: a run per instance directory, in name order, and a run for each
instance ``preds.json`` names that has no trajectory (its prediction alone). Listing reads
every trajectory once, in one pass that keeps numbers per message (:mod:`~.lean`); a run's
steps are built when shown, each from its messages read again by their byte spans.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Generator, Iterator
from dataclasses import replace
from functools import partial
from typing import Any

from trajtui.core.format_api import Certainty, Claim, Format, Opened, Reach, Scope
from trajtui.core.io import safeio
from trajtui.core.io.detect import Sniffed
from trajtui.core.io.discover import Walked, inside, subdirs
from trajtui.core.io.jsonutil import JsonError, loads
from trajtui.core.jsonl.index import ScanProgress
from trajtui.core.model import Outcome, Problem, Run, RunSummary, Severity
from trajtui.core.source import FormatInfo, LoadError
from trajtui.core.static_source import PARTIAL_AFTER, PARTIAL_EVERY, StaticSource
from trajtui.core.values import mapping
from trajtui.formats.mini_swe_agent.document import (
    SUFFIX,
    Unreadable,
    marked,
    marked_file,
    named_file,
    stem,
)
from trajtui.formats.mini_swe_agent.lean import Lean, Reading
from trajtui.formats.mini_swe_agent.runs import FORMAT_ID, build_run, predicted_only

FORMAT = FormatInfo(FORMAT_ID, "mini-swe-agent trajectories")
READING = "reading"  # a partial row's status (still being read), as session formats say it
PREDS = "preds.json"
MAX_PREDS = 64 << 20


def instance_file(root: str, name: str) -> str:
    """Where a batch keeps instance ``name``'s trajectory."""
    return os.path.join(root, name, name + SUFFIX)


def instance_dirs(root: str, dirs: list[str]) -> list[str]:
    """The subdirectories of ``root`` that hold their instance's trajectory, by name."""
    return sorted(d for d in dirs if safeio.regular_file(instance_file(root, d)))


class BatchScope(Scope):
    """A batch's: ``preds.json`` and its instance directories (each read as a whole);
    anything else in it is left to the walk."""

    def reach_dir(self, place: Walked) -> Reach:
        path = os.path.normpath(place.path)
        name = os.path.basename(path)
        if os.path.dirname(path) == self.root and safeio.regular_file(
            instance_file(self.root, name)
        ):
            return Reach.ALL
        return Reach.NONE if path != self.root else Reach.ALL

    def reach_file(self, place: Walked, name: str) -> Reach:
        at_root = os.path.normpath(place.path) == self.root
        return Reach.ALL if at_root and name == PREDS else Reach.NONE


class MiniSource(StaticSource):
    """A trajectory file (``kind`` ``file``) or a batch directory (``batch``)."""

    def __init__(self, path: str, kind: str, label: str | None = None) -> None:
        super().__init__(path, FORMAT, label)
        self.kind = kind
        self._last: tuple[tuple[Any, ...], Lean] | None = None
        self._reading: tuple[str, Lean] | None = None  # the partial run being listed
        self.root_real = os.path.realpath(
            os.path.dirname(os.path.abspath(path)) if kind == "file" else path
        )

    def _traj(self, path: str) -> Lean:
        """The trajectory of ``path``, read in one pass (:mod:`~.lean`); while the scan
        lists it partial, the messages read so far; the last one read is kept while its
        file stays the same, so a run listed and then opened is read once."""
        reading = self._reading
        if reading is not None and reading[0] == path:
            return reading[1]
        read = self._read(path, None)
        while True:
            try:
                next(read)
            except StopIteration as done:
                return done.value

    def _read(
        self, path: str, partial_run: Callable[[Lean], None] | None
    ) -> Generator[int, None, Lean]:
        """Read the trajectory at ``path``, yielding the bytes read now and then, and
        giving ``partial_run`` the run so far (once it has been read for
        :data:`PARTIAL_AFTER` seconds, then at most every :data:`PARTIAL_EVERY`).

        Raises:
            Unreadable: It is not a trajectory (or outside the opened directory).
            OSError: It cannot be read.
        """
        if not inside(self.root_real, path):
            raise Unreadable(None, "outside the opened directory (not read)")
        self.watch(path)
        st = os.stat(path)
        key = (path, st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
        last = self._last
        if last is not None and last[0] == key:
            return last[1]
        reading = Reading(path)
        due = time.monotonic() + PARTIAL_AFTER
        for at in reading:
            if partial_run is not None and time.monotonic() >= due:
                began = time.monotonic()
                so_far = reading.partial()
                if so_far is not None and so_far.steps:
                    partial_run(so_far)
                    now = time.monotonic()
                    due = now + max(PARTIAL_EVERY, 4 * (now - began))
                    yield at
        traj = reading.finish()
        self._last = (key, traj)
        return traj

    def _load(self) -> Iterator[ScanProgress]:
        if self.kind == "file":
            yield from self._list(self.path, stem(self.path), None)
            yield ScanProgress(1, 1, len(self), finished=False)
            return
        preds = self._preds()
        dirs = subdirs(self.path)
        names = instance_dirs(self.path, dirs)
        for n, name in enumerate(names, 1):
            yield from self._list(
                instance_file(self.path, name), name, mapping(preds.pop(name, None)) or None
            )
            if n % 16 == 0:
                yield ScanProgress(n, len(names), len(self), finished=False)
        pred_path = os.path.join(self.path, PREDS)
        for name, entry in preds.items():
            entry = mapping(entry)
            self.add_run(
                predicted_only(name, entry, pred_path).summary,
                partial(lambda e, p, ref: predicted_only(ref, e, p), entry, pred_path),
            )
        yield ScanProgress(1, 1, len(self), finished=False)

    def _preds(self) -> dict[str, Any]:
        path = os.path.join(self.path, PREDS)
        if not safeio.regular_file(path):
            return {}
        self.watch(path)
        try:
            value, _ = loads(safeio.read_bytes(path, limit=MAX_PREDS))
        except (OSError, JsonError) as err:
            self.add_problem(Problem(path, None, f"not read: {err}", Severity.WARNING))
            return {}
        if not isinstance(value, dict):
            self.add_problem(
                Problem(path, 1, "not an object of predictions (not read)", Severity.WARNING)
            )
            return {}
        return dict(value)

    def _list(
        self, path: str, ref: str, predicted: dict[str, Any] | None
    ) -> Iterator[ScanProgress]:
        """List the run of ``path``; when the reader revises rows, listed partial once it
        has been read for :data:`PARTIAL_AFTER` seconds (a big one), revised as read."""
        listed: RunSummary | None = None
        read_so_far: RunSummary | None = None

        def revise(so_far: Lean) -> None:
            nonlocal listed, read_so_far
            read_so_far = build_run(ref, so_far, path, predicted).summary
            row = replace(read_so_far, status=READING, outcome=Outcome.RUNNING)
            self._reading = (path, so_far)
            if listed is None:
                listed = self.add_run(row, partial(self._build, path, predicted))
            else:
                listed = self.revise_run(listed.index, row)

        problem: Problem | None = None
        try:
            read = self._read(path, revise if self.partial_rows else None)
            while True:
                try:
                    at = next(read)
                except StopIteration as done:
                    traj: Lean = done.value
                    break
                yield ScanProgress(at, max(1, os.path.getsize(path)), len(self), finished=False)
        except Unreadable as err:
            problem = Problem(path, err.line, err.message, ref=ref)
        except OSError as err:
            problem = Problem(path, None, f"cannot read: {err.strerror or err}", ref=ref)
        finally:
            self._reading = None
        if problem is not None:
            if listed is not None and read_so_far is not None:  # what preceded the break
                self.revise_run(listed.index, read_so_far)
                self.add_problem(replace(problem, ref=listed.ref))
            else:
                self.add_problem(problem, row=True)
            return
        if traj.warning:
            self.add_problem(Problem(path, None, traj.warning, Severity.WARNING, ref=ref))
        summary = build_run(ref, traj, path, predicted).summary
        if listed is None:
            self.add_run(summary, partial(self._build, path, predicted))
        else:
            self.revise_run(listed.index, summary)

    def _build(self, path: str, predicted: dict[str, Any] | None, ref: str) -> Run:
        try:
            traj = self._traj(path)
        except Unreadable as err:
            raise LoadError(Problem(path, err.line, err.message, ref=ref)) from None
        return build_run(ref, traj, path, predicted)


class MiniFormat(Format):
    """mini-swe-agent trajectories: a ``.traj.json`` (or any file whose tail names a
    ``mini-swe-agent`` trajectory format), or a batch directory."""

    infos = (FORMAT,)
    view = "trajtui.formats.mini_swe_agent.view:VIEW"

    def claim_file(self, path: str, sniffed: Sniffed, label: str | None) -> Claim | None:
        if sniffed.layout not in ("json", "jsonl"):
            return None
        if sniffed.layout == "jsonl" and "trajectory_format" in sniffed.keys:
            ours = marked(sniffed.first)
        else:
            ours = marked_file(path)
        if ours:
            certainty = Certainty.MARKED
        elif sniffed.layout == "json" and named_file(path):
            certainty = Certainty.NAME
        else:
            return None
        return Claim(certainty, lambda: Opened((MiniSource(path, "file", label),)))

    def claim_dir(self, place: Walked) -> Claim | None:
        names = instance_dirs(place.path, place.dirs)
        if not names:
            return None
        try:
            if not any(marked_file(instance_file(place.path, n)) for n in names[:3]):
                return None
        except OSError:
            return None
        return Claim(
            Certainty.SHAPE,
            lambda: Opened((MiniSource(place.path, "batch"),), scope=BatchScope(place.path)),
        )


MINI_SWE_AGENT = MiniFormat()
"""The registered mini-swe-agent format."""
