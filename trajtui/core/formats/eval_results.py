"""Placeholder: the eval_results reader is being written (issue 3)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from trajtui.core.detect import Sniffed
    from trajtui.core.discover import Walked
    from trajtui.core.formats.registry import DirClaim
    from trajtui.core.source import Source


def open_file(path: str, sniffed: Sniffed, label: str | None) -> Source | None:
    return None


def claim_dir(place: Walked) -> DirClaim | None:
    return None
