"""The SWE-agent source and format: one ``.traj`` file (its ``.pred`` beside it read too),
or an output directory of instance directories (``<id>/<id>.traj``, ``preds.json``:
``sweagent run-batch``, or ``sweagent run`` with its one instance), each recognised by
content.

An output directory is one list: a run per instance directory, in name order. Listing
reads every trajectory once, in one pass that keeps numbers per item (:mod:`~.lean`); a
run's steps are built when shown, each from its item read again by its byte span.
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
from trajtui.core.values import mapping, string
from trajtui.formats.swe_agent.document import (
    SUFFIX,
    Unreadable,
    looks_like,
    looks_like_value,
    stem,
)
from trajtui.formats.swe_agent.lean import Lean, Reading
from trajtui.formats.swe_agent.runs import FORMAT_ID, Pred, build_run

FORMAT = FormatInfo(FORMAT_ID, "SWE-agent trajectories")
READING = "reading"  # a partial row's status (still being read), as session formats say it
PREDS = "preds.json"
PRED = ".pred"
MAX_PREDS = 64 << 20


def instance_file(root: str, name: str) -> str:
    """Where an output directory keeps instance ``name``'s trajectory."""
    return os.path.join(root, name, name + SUFFIX)


def instance_dirs(root: str, dirs: list[str]) -> list[str]:
    """The subdirectories of ``root`` that hold their instance's trajectory, by name."""
    return sorted(d for d in dirs if safeio.regular_file(instance_file(root, d)))


class OutputScope(Scope):
    """An output directory's: ``preds.json`` and its instance directories (each read as a
    whole: the trajectory and its ``.pred``); anything else is left to the walk."""

    def reach_dir(self, place: Walked) -> Reach:
        path = os.path.normpath(place.path)
        if path == self.root:
            return Reach.ALL
        name = os.path.basename(path)
        if os.path.dirname(path) == self.root and safeio.regular_file(
            instance_file(self.root, name)
        ):
            return Reach.ALL
        return Reach.NONE

    def reach_file(self, place: Walked, name: str) -> Reach:
        at_root = os.path.normpath(place.path) == self.root
        return Reach.ALL if at_root and name == PREDS else Reach.NONE


class RunScope(Scope):
    """A run directory's (``sweagent run``'s ``<id>/``): its ``<id>.traj`` and ``<id>.pred``;
    its logs, patch and config are left to the walk."""

    def reach_dir(self, place: Walked) -> Reach:
        return Reach.NONE

    def reach_file(self, place: Walked, name: str) -> Reach:
        own = os.path.basename(self.root)
        at_root = os.path.normpath(place.path) == self.root
        return Reach.ALL if at_root and name in (own + SUFFIX, own + PRED) else Reach.NONE


class SweSource(StaticSource):
    """A trajectory file (``kind`` ``file``) or an output directory (``output``)."""

    def __init__(self, path: str, kind: str, label: str | None = None) -> None:
        super().__init__(path, FORMAT, label)
        self.kind = kind
        self._last: tuple[tuple[Any, ...], Lean] | None = None
        self._reading: tuple[str, Lean] | None = None  # the partial run being listed
        self.root_real = os.path.realpath(
            os.path.dirname(os.path.abspath(path)) if kind == "file" else path
        )

    def _json(self, path: str, limit: int = MAX_PREDS) -> Any:
        """A small JSON file beside the trajectories (None when absent; a problem said)."""
        if not safeio.regular_file(path) or not inside(self.root_real, path):
            return None
        self.watch(path)
        try:
            value, _ = loads(safeio.read_bytes(path, limit=limit))
        except (OSError, JsonError) as err:
            self.add_problem(Problem(path, None, f"not read: {err}", Severity.WARNING))
            return None
        return value

    def _pred(self, traj_path: str) -> Pred | None:
        path = traj_path[: -len(SUFFIX)] + PRED if traj_path.endswith(SUFFIX) else None
        value = mapping(self._json(path)) if path else {}
        if not value:
            return None
        return Pred(path or "", string(value.get("model_name_or_path")), value.get("model_patch"))

    def _load(self) -> Iterator[ScanProgress]:
        if self.kind == "file":
            yield from self._list(self.path, stem(self.path), None)
            yield ScanProgress(1, 1, len(self), finished=False)
            return
        preds_path = os.path.join(self.path, PREDS)
        preds = mapping(self._json(preds_path))
        names = instance_dirs(self.path, subdirs(self.path))
        for n, name in enumerate(names, 1):
            entry = mapping(preds.get(name))
            pred = None
            if entry:
                pred = Pred(
                    preds_path, string(entry.get("model_name_or_path")), entry.get("model_patch")
                )
            yield from self._list(instance_file(self.path, name), name, pred)
            if n % 16 == 0:
                yield ScanProgress(n, len(names), len(self), finished=False)
        yield ScanProgress(1, 1, len(self), finished=False)

    def _traj(self, path: str) -> Lean:
        """The trajectory of ``path``, read in one pass (:mod:`~.lean`); while the scan
        lists it partial, the items read so far; the last one read is kept while its file
        stays the same, so a run listed and then opened is read once."""
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

    def _list(self, path: str, ref: str, pred: Pred | None) -> Iterator[ScanProgress]:
        """List the run of ``path``; when the reader revises rows, listed partial once it
        has been read for :data:`PARTIAL_AFTER` seconds (a big one), revised as read."""
        pred = self._pred(path) or pred
        listed: RunSummary | None = None
        read_so_far: RunSummary | None = None

        def revise(so_far: Lean) -> None:
            nonlocal listed, read_so_far
            read_so_far = build_run(ref, so_far, path, pred).summary
            row = replace(read_so_far, status=READING, outcome=Outcome.RUNNING)
            self._reading = (path, so_far)
            if listed is None:
                listed = self.add_run(row, partial(self._build, path, pred))
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
        summary = build_run(ref, traj, path, pred).summary
        if listed is None:
            self.add_run(summary, partial(self._build, path, pred))
        else:
            self.revise_run(listed.index, summary)

    def _build(self, path: str, pred: Pred | None, ref: str) -> Run:
        try:
            traj = self._traj(path)
        except Unreadable as err:
            raise LoadError(Problem(path, err.line, err.message, ref=ref)) from None
        return build_run(ref, traj, path, pred)


class SweFormat(Format):
    """SWE-agent trajectories: a ``.traj`` (or any JSON file that starts as one), or an
    output directory of instance directories."""

    infos = (FORMAT,)
    view = "trajtui.formats.swe_agent.view:VIEW"

    def claim_file(self, path: str, sniffed: Sniffed, label: str | None) -> Claim | None:
        if sniffed.layout == "jsonl":
            ours = looks_like_value(sniffed.first, path)
        elif sniffed.layout == "json":
            ours = looks_like(path)
        else:
            return None
        if not ours:
            return None
        return Claim(Certainty.SHAPE, lambda: Opened((SweSource(path, "file", label),)))

    def claim_dir(self, place: Walked) -> Claim | None:
        own = os.path.basename(os.path.normpath(place.path)) + SUFFIX
        if own in place.files:
            path = os.path.join(place.path, own)
            try:
                if not looks_like(path):
                    return None
            except OSError:
                return None
            return Claim(
                Certainty.SHAPE,
                lambda: Opened((SweSource(path, "file"),), scope=RunScope(place.path)),
            )
        names = instance_dirs(place.path, place.dirs)
        if not names:
            return None
        try:
            if not any(looks_like(instance_file(place.path, n)) for n in names[:3]):
                return None
        except OSError:
            return None
        return Claim(
            Certainty.SHAPE,
            lambda: Opened((SweSource(place.path, "output"),), scope=OutputScope(place.path)),
        )


SWE_AGENT = SweFormat()
"""The registered SWE-agent format."""
