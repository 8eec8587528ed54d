"""What a forecast directory claim reads below its directory (the rest is offered to every
format): an eval directory reads its ``summary.json`` and its run directories (those its
summary lists, and ``runs/<id>/`` run directories it does not list yet); a run directory
reads its three files."""

from __future__ import annotations

import os

from trajtui.core.format_api import Reach, Scope
from trajtui.core.io.discover import Walked, inside
from trajtui.core.values import mapping, string
from trajtui.formats.forecast.detect import is_eval_summary, is_run_dir
from trajtui.formats.forecast.files import RUN_FILES, SUMMARY, read_small


class EvalScope(Scope):
    """An eval directory's: ``summary.json`` and its run directories, read as a whole."""

    def __init__(self, root: str) -> None:
        super().__init__(root)
        self._listed: set[str] | None = None

    def _listed_dirs(self) -> set[str]:
        """The run directories ``summary.json`` names (``output_dir``, else ``runs/<id>``)
        that stay inside the eval directory."""
        if self._listed is None:
            summary = read_small(os.path.join(self.root, SUMMARY))
            runs = summary["runs"] if is_eval_summary(summary) else []
            real = os.path.realpath(self.root)
            found: set[str] = set()
            for entry in runs:
                item = mapping(entry)
                rid = item.get("run_id", item.get("task_id"))
                default = os.path.join("runs", str(rid))
                path = os.path.join(self.root, string(item.get("output_dir")) or default)
                for where in (path, os.path.join(self.root, default)):
                    if inside(real, where):
                        found.add(os.path.normpath(where))
            self._listed = found
        return self._listed

    def reach_dir(self, place: Walked) -> Reach:
        path = os.path.normpath(place.path)
        if path in self._listed_dirs():
            return Reach.ALL
        if os.path.dirname(path) == os.path.join(self.root, "runs") and is_run_dir(
            path, place.files
        ):
            return Reach.ALL  # a run the summary does not list yet
        return Reach.OTHERS

    def reach_file(self, place: Walked, name: str) -> Reach:
        at_root = os.path.normpath(place.path) == self.root
        return Reach.ALL if at_root and name == SUMMARY else Reach.NONE


class RunScope(Scope):
    """A run directory's: its ``info.json``, ``trajectory.json`` and ``sources.json``."""

    def reach_dir(self, place: Walked) -> Reach:
        return Reach.NONE

    def reach_file(self, place: Walked, name: str) -> Reach:
        at_root = os.path.normpath(place.path) == self.root
        return Reach.ALL if at_root and name in RUN_FILES else Reach.NONE
