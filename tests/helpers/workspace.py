"""Opening paths in tests as the application does: with every registered format."""

from __future__ import annotations

from collections.abc import Sequence

from trajtui.core import workspace
from trajtui.formats.registry import formats


def open_paths(paths: Sequence[str]) -> workspace.Workspace:
    """:func:`trajtui.core.workspace.open_paths` with the formats trajtui reads."""
    return workspace.open_paths(paths, formats())
