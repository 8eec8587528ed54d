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
from collections.abc import Iterator
from typing import Any

from trajtui.core.docruns import DocumentRuns
from trajtui.core.format_api import Certainty, Claim, Format, Opened, Reach, Scope
from trajtui.core.io import safeio
from trajtui.core.io.detect import Sniffed
from trajtui.core.io.discover import Walked, inside, subdirs
from trajtui.core.io.jsonutil import JsonError, loads
from trajtui.core.jsonl.index import ScanProgress
from trajtui.core.model import Problem, Run, Severity
from trajtui.core.source import FormatInfo
from trajtui.core.values import mapping, string
from trajtui.formats.swe_agent.document import (
    SUFFIX,
    looks_like,
    looks_like_value,
    stem,
)
from trajtui.formats.swe_agent.lean import Lean, Reading
from trajtui.formats.swe_agent.runs import FORMAT_ID, Pred, build_run

FORMAT = FormatInfo(FORMAT_ID, "SWE-agent trajectories")
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


class SweSource(DocumentRuns[Lean, Pred]):
    """A trajectory file (``kind`` ``file``) or an output directory (``output``)."""

    def __init__(self, path: str, kind: str, label: str | None = None) -> None:
        super().__init__(path, FORMAT, label)
        self.kind = kind
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

    def _begin(self, path: str) -> Reading:
        return Reading(path)

    def _run(self, ref: str, read: Lean, path: str, extra: Pred | None) -> Run:
        return build_run(ref, read, path, extra)

    def _extra(self, path: str, extra: Pred | None) -> Pred | None:
        return self._pred(path) or extra  # (its own .pred beside it, else preds.json's)

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
