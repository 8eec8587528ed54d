"""The one-line header of the main screen, fitted to the terminal's width.

What was opened, its format, the counts, a changed-on-disk notice and the reading progress,
in that order. When the line is too long the parts give way by importance: the bar goes
first, then the format, then the middle of a long path (``…/runs/results.jsonl``): the
counts and the notice always show, and nothing is cut mid-word without an ellipsis.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.cells import cell_len
from rich.text import Text
from textual.content import Content
from textual.widgets import Static

from trajtui.core.io.text import visible
from trajtui.render.facts import Facts
from trajtui.ui.literal import literal

NAME_MIN = 24
"""Cells a path keeps at the least (its end: the file name)."""
COUNTS_SEP = " · "


@dataclass(frozen=True)
class HeaderParts:
    """What the header says.

    Attributes:
        name: The path opened, or ``N sources``.
        kind: The format's name ("" for several sources).
        counts: The run counts (``12 runs · 70% pass``).
        notice: A notice to keep in view ("" for none).
        progress: ``indexing 45%`` while reading ("" when done).
        bar: The progress bar drawn after ``progress``.
    """

    name: str
    kind: str
    counts: str
    notice: str = ""
    progress: str = ""
    bar: str = ""


def shorten_path(path: str, width: int) -> str:
    """``path`` in ``width`` cells, keeping its end (``…/results.jsonl``)."""
    if cell_len(path) <= width:
        return path
    tail = path[-max(1, width - 1) :]
    while cell_len(tail) > width - 1 and len(tail) > 1:
        tail = tail[1:]
    cut = tail.find("/")
    if 0 <= cut < len(tail) - 1 and len(tail) - cut > NAME_MIN // 2:
        tail = tail[cut:]  # start at a directory boundary when that keeps enough
    return "…" + tail


def header_line(parts: HeaderParts, width: int) -> Text:
    """The header for a terminal ``width`` cells wide."""
    name = visible(parts.name, keep_newlines=False)
    logo = " trajtui "
    counts = COUNTS_SEP + parts.counts
    notice = f"  {parts.notice} " if parts.notice else ""
    kind = f" · {parts.kind}" if parts.kind else ""
    progress = f"   {parts.progress} " if parts.progress else ""
    bar = parts.bar if parts.progress else ""

    def room_for_name() -> int:
        return width - cell_len(logo + "  " + kind + counts + notice + progress + bar)

    for drop in ("bar", "kind", "progress"):
        if room_for_name() >= min(NAME_MIN, cell_len(name)):
            break
        if drop == "bar":
            bar = ""
        elif drop == "kind":
            kind = ""
        else:
            progress = ""
    name = shorten_path(name, max(NAME_MIN, room_for_name()))
    # The counts give way last, whole parts at a time (the runs pane's title has them all).
    parts_of_counts = parts.counts.split(COUNTS_SEP)
    while (
        len(parts_of_counts) > 1
        and cell_len(logo + "  " + name + kind + notice + progress + bar + counts) > width
    ):
        parts_of_counts = parts_of_counts[:-1]
        counts = COUNTS_SEP + COUNTS_SEP.join([*parts_of_counts, "…"])
    text = Text(no_wrap=True, overflow="ellipsis", end="")
    text.append(logo, style="bold reverse")
    text.append(f"  {name}{kind}", style="bold")
    text.append(counts)
    if notice:
        text.append(notice, style="bold reverse")
    if progress:
        text.append(progress, style="dim")
        text.append(bar, style="bold")
    return text


def progress_bar(fraction: float, width: int = 10) -> str:
    """``▕███▍      ▏``: ``fraction`` of ``width`` cells, in eighths."""
    filled = fraction * width
    full = int(filled)
    part = " ▏▎▍▌▋▊▉"[int((filled - full) * 8)] if full < width else ""
    return "▕" + ("█" * full + part).ljust(width) + "▏"


class FactsHeader(Static):
    """A one-line header of facts (over the timeline): those that fit the width, whole."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._facts: Facts | Text = Text()

    def show(self, facts: Facts | Text) -> None:
        """Show ``facts`` (a ``Text`` as it is: a problem's one line)."""
        self._facts = facts
        self.refresh()  # one line high always: no layout for each run shown

    def render(self) -> Content:
        width = max(self.content_size.width, 1)
        facts = self._facts
        line = facts.fit(width - 1) if isinstance(facts, Facts) else facts
        return literal(Text.assemble(" ", line)) if line.plain else literal("")
