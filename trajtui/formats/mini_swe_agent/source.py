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
from collections.abc import Iterator
from functools import partial
from typing import Any

from trajtui.core.docruns import DocumentRuns
from trajtui.core.format_api import Certainty, Claim, Format, Opened, Reach, Scope
from trajtui.core.io import safeio
from trajtui.core.io.detect import Sniffed
from trajtui.core.io.discover import Walked, subdirs
from trajtui.core.io.jsonutil import JsonError, loads
from trajtui.core.jsonl.index import ScanProgress
from trajtui.core.model import Problem, Run, Severity
from trajtui.core.source import FormatInfo
from trajtui.core.values import mapping
from trajtui.formats.mini_swe_agent.document import (
    SUFFIX,
    marked,
    marked_file,
    named_file,
    stem,
)
from trajtui.formats.mini_swe_agent.lean import Lean, Reading
from trajtui.formats.mini_swe_agent.runs import FORMAT_ID, build_run, predicted_only

FORMAT = FormatInfo(FORMAT_ID, "mini-swe-agent trajectories")
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


class MiniSource(DocumentRuns[Lean, dict[str, Any]]):
    """A trajectory file (``kind`` ``file``) or a batch directory (``batch``)."""

    def __init__(self, path: str, kind: str, label: str | None = None) -> None:
        super().__init__(path, FORMAT, label)
        self.kind = kind
        self.root_real = os.path.realpath(
            os.path.dirname(os.path.abspath(path)) if kind == "file" else path
        )

    def _begin(self, path: str) -> Reading:
        return Reading(path)

    def _run(self, ref: str, read: Lean, path: str, extra: dict[str, Any] | None) -> Run:
        return build_run(ref, read, path, extra)

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
