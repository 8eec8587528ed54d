"""The registry's hooks of ultraplan (:data:`ULTRAPLAN`): which files and directories are
ultraplan's, each opened as an :class:`~.source.UltraplanSource`. The readers are imported
when a YAML file or a directory is looked at: a command that meets neither (``ls`` of a JSONL
file) never imports them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from trajtui.core.format_api import ByShape, Opened
from trajtui.core.io.detect import Sniffed
from trajtui.core.io.discover import Walked
from trajtui.core.source import FormatInfo
from trajtui.formats.ultraplan.ids import YAML_SUFFIXES

if TYPE_CHECKING:
    from trajtui.formats.ultraplan.source import UltraplanSource

FORMAT = FormatInfo("ultraplan", "ultraplan logs")


class UltraplanFormat(ByShape):
    """ultraplan projects (``.ultraplan/logs/``, ``.planning/phases/``) and result logs."""

    infos = (FORMAT,)
    view = "trajtui.formats.ultraplan.view:VIEW"
    figures = "trajtui.formats.ultraplan.figures:FIGURES"

    def open_file(self, path: str, sniffed: Sniffed, label: str | None) -> UltraplanSource | None:
        if not path.endswith(YAML_SUFFIXES) or sniffed.layout in ("empty", "binary"):
            return None
        from trajtui.formats.ultraplan.source import open_file

        return open_file(path, sniffed, label)

    def open_dir(self, place: Walked) -> Opened | None:
        from trajtui.formats.ultraplan.source import claim_dir

        return claim_dir(place)


ULTRAPLAN = UltraplanFormat()
"""The registered ultraplan format."""
