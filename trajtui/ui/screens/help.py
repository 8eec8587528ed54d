"""The ``?`` screen: every key, grouped, from the one command table."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from trajtui.ui.commands import COMMANDS


def help_table() -> Table:
    """Keys and what they do, grouped."""
    table = Table.grid(padding=(0, 2))
    table.add_column(justify="right", style="bold")
    table.add_column()
    group = None
    for command in COMMANDS:
        if command.group != group:
            if group is not None:
                table.add_row("", "")
            group = command.group
            table.add_row("", Text(group, style="bold underline"))
        table.add_row(command.key_label, Text(command.help))
    table.add_row("", "")
    table.add_row("", Text("Mouse", style="bold underline"))
    table.add_row("click", "select a row, focus a pane; click a column name to sort")
    table.add_row("double click", "open (drill in)")
    table.add_row("wheel", "scroll")
    return table


class HelpScreen(ModalScreen[None]):
    """Every key of trajtui."""

    BINDINGS = [
        Binding("escape,q,question_mark", "dismiss", "Close"),
        Binding("j,down", "scroll_down", "Down", show=False),
        Binding("k,up", "scroll_up", "Up", show=False),
    ]

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 96; max-width: 95%; height: 90%;
        border: round $accent; background: $surface; padding: 0 2;
    }
    """

    def compose(self) -> ComposeResult:
        with VerticalScroll() as scroll:
            scroll.border_title = "trajtui keys (esc closes)"
            yield Static(help_table())

    def action_scroll_down(self) -> None:
        self.query_one(VerticalScroll).scroll_down(animate=False)

    def action_scroll_up(self) -> None:
        self.query_one(VerticalScroll).scroll_up(animate=False)

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(result)
