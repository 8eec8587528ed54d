"""The ``?`` screen: every key, grouped, from the one command table; the movement keys of
the table scroll it."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from trajtui.ui.commands import COMMANDS, Command, widget_bindings
from trajtui.ui.literal import literal


def help_table() -> Table:
    """Keys and what they do, grouped."""
    table = Table.grid(padding=(0, 2))
    table.add_column(justify="right", style="bold")
    table.add_column()
    groups: dict[str, list[Command]] = {}
    for command in COMMANDS:  # a view's commands join their group, after the common ones
        groups.setdefault(command.group, []).append(command)
    for n, (group, commands) in enumerate(groups.items()):
        if n:
            table.add_row("", "")
        table.add_row("", Text(group, style="bold underline"))
        for command in commands:
            table.add_row(Text(command.key_label), Text(command.help))
    table.add_row("", "")
    table.add_row("", Text("Mouse", style="bold underline"))
    table.add_row(Text("click"), Text("select a row, focus a pane; click a column name to sort"))
    table.add_row(Text("double click"), Text("open (drill in)"))
    table.add_row(Text("wheel"), Text("scroll"))
    return table


class HelpScreen(ModalScreen[None]):
    """Every key of trajtui."""

    BINDINGS = [
        Binding("escape,q,question_mark", "dismiss", "Close"),
        *widget_bindings(
            {
                "cursor_down": "scroll_down",
                "cursor_up": "scroll_up",
                "first": "scroll_home",
                "last": "scroll_end",
                "page_down": "page_down",
                "page_up": "page_up",
            }
        ),
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
            scroll.border_title = literal("trajtui keys (esc closes)")
            yield Static(help_table())

    def action_scroll_down(self) -> None:
        self.query_one(VerticalScroll).scroll_down(animate=False)

    def action_scroll_up(self) -> None:
        self.query_one(VerticalScroll).scroll_up(animate=False)

    def action_scroll_home(self) -> None:
        self.query_one(VerticalScroll).scroll_home(animate=False)

    def action_scroll_end(self) -> None:
        self.query_one(VerticalScroll).scroll_end(animate=False)

    def action_page_down(self) -> None:
        self.query_one(VerticalScroll).scroll_page_down(animate=False)

    def action_page_up(self) -> None:
        self.query_one(VerticalScroll).scroll_page_up(animate=False)

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(result)
