"""The registry's hooks of ATIF (:data:`ATIF`): which files and directories are Harbor ATIF
(recognised by content: :mod:`~.layout`), each opened as an :class:`~.source.AtifSource`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from trajtui.core.format_api import Certainty, Claim, Format, Opened, Scope
from trajtui.core.io.detect import Sniffed
from trajtui.core.io.discover import Walked
from trajtui.formats.atif import layout

if TYPE_CHECKING:
    from trajtui.formats.atif.source import AtifSource
from trajtui.formats.atif.ident import FORMAT


class AtifFormat(Format):
    """Harbor ATIF trajectories: a ``trajectory.json`` on its own, a Harbor job, trial or
    agent directory, recognised by content."""

    infos = (FORMAT,)
    view = "trajtui.formats.atif.view:VIEW"

    def claim_file(self, path: str, sniffed: Sniffed, label: str | None) -> Claim | None:
        if sniffed.layout not in ("json", "jsonl"):
            return None
        keys = sniffed.first if sniffed.layout == "jsonl" else layout.head_keys(path)
        keys = keys if isinstance(keys, dict) else None
        if not layout.looks_atif(keys):
            return None
        schema = keys.get("schema_version") if keys else None
        marked = isinstance(schema, str) and schema.lstrip().lower().startswith("atif")
        return Claim(
            Certainty.MARKED if marked else Certainty.SHAPE,
            lambda: Opened((_source()(path, "file", label),)),
        )

    def claim_dir(self, place: Walked) -> Claim | None:
        kind = layout.dir_kind(place.path, place.files, place.dirs)
        if kind is None:
            return None
        scope: Scope | None = None  # a trial directory is read as a whole
        if kind == layout.JOB:
            scope = layout.JobScope(place.path)
        elif kind == layout.AGENT_DIR:
            scope = layout.AgentScope(place.path)
        return Claim(Certainty.SHAPE, lambda: Opened((_source()(place.path, kind),), scope=scope))


def _source() -> type[AtifSource]:
    """The source class, imported when a file or directory is opened as ATIF (a command
    that meets none never imports the readers)."""
    from trajtui.formats.atif.source import AtifSource

    return AtifSource


ATIF = AtifFormat()
"""The registered ATIF format."""
