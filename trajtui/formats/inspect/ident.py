"""What names Inspect AI's logs before any is read: the format id and its name (what the
registry's claim needs, without the readers)."""

from __future__ import annotations

from trajtui.core.source import FormatInfo

FORMAT_ID = "inspect"
FORMAT = FormatInfo(FORMAT_ID, "Inspect AI logs")
