"""What names ATIF before anything of it is read: its format id and the version a file's
``schema_version`` says (what the registry's claims need, without the readers)."""

from __future__ import annotations

import re
from typing import Any

from trajtui.core.source import FormatInfo

FORMAT_ID = "atif"
FORMAT = FormatInfo(FORMAT_ID, "Harbor ATIF trajectories")

_VERSION = re.compile(r"^\s*(?:atif[-_ ]?v?)?(\d{1,4})(?:\.(\d{1,4}))?", re.IGNORECASE)


def version_of(value: Any) -> tuple[int, int] | None:
    """``(1, 7)`` for ``"ATIF-v1.7"``, ``"1.7"``, ``"ATIF-1.7"``, ``"atif-1"``...; else None."""
    if not isinstance(value, str):
        return None
    m = _VERSION.match(value)
    if m is None:
        return None
    return int(m[1]), int(m[2] or 0)
