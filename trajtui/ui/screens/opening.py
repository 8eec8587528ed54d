"""The first screen, shown while the paths are opened (in a worker: a big directory takes a
while to look through) and replaced by the main screen as soon as they are."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

from trajtui.ui.literal import literal


class OpeningScreen(Screen[None]):
    """Says what is being opened; ``q`` quits."""

    BINDINGS = [Binding("q", "app.quit", "Quit")]

    DEFAULT_CSS = """
    OpeningScreen { align: center middle; }
    OpeningScreen > Static { width: auto; max-width: 90%; color: $text-muted; }
    """

    def __init__(self, paths: Sequence[str]) -> None:
        super().__init__()
        self.paths = list(paths)

    def compose(self) -> ComposeResult:
        what = self.paths[0] if self.paths else ""
        if len(self.paths) > 1:
            what += f" and {len(self.paths) - 1:,} more"
        yield Static(literal(f"opening {what}…"), id="opening")
