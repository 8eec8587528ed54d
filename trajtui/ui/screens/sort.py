"""``O``: pick the column the run list is sorted by, in one key (``s`` cycles instead)."""

from __future__ import annotations

from dataclasses import dataclass

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from trajtui.render.columns import ALWAYS, SORTS
from trajtui.ui.literal import literal

COLUMNS: tuple[str | None, ...] = SORTS
"""What the run list can be sorted by, in the picker's order (the column table's, as ``s``
cycles). The picker offers those the runs have a value for (file order, status and
reference always), numbered from 0: its digit keys."""


@dataclass(frozen=True, slots=True)
class SortChoice:
    """A column picked (None: file order), and whether to reverse it."""

    column: str | None
    reverse: bool


class SortScreen(ModalScreen[SortChoice | None]):
    """The sort columns the runs have, each with a digit: the digit (or enter on a row)
    sorts by it (the column is shown while the list is sorted by it); the column already
    sorted by is marked, and picking it again reverses the order."""

    BINDINGS = [
        Binding("escape,q", "cancel", "Cancel"),
        Binding("j", "cursor_down", show=False),
        Binding("k", "cursor_up", show=False),
        *(Binding(str(n), f"pick({n})", show=False) for n in range(len(COLUMNS))),
    ]

    DEFAULT_CSS = """
    SortScreen { align: center middle; }
    SortScreen > Vertical {
        width: 44; height: auto; border: round $accent; background: $surface; padding: 0 1;
    }
    SortScreen Static { color: $text-muted; }
    SortScreen OptionList { height: auto; max-height: 14; border: none; }
    """

    def __init__(self, current: str | None, reverse: bool, present: set[str] | None = None) -> None:
        super().__init__()
        self.current = current
        self.reverse = reverse
        self.columns = [
            c for c in COLUMNS if present is None or c in ALWAYS or c in present or c == current
        ]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(literal("sort by: digit or ⏎ (again: reverse)"))
            options = []
            for n, column in enumerate(self.columns):
                name = column or "file order"
                mark = ""
                if column == self.current:
                    mark = "  ← now" + (", reversed" if self.reverse else "")
                options.append(Option(literal(f"{n}  {name}{mark}"), id=str(n)))
            yield OptionList(*options, id="sort-columns")

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        columns = self.columns
        options.highlighted = columns.index(self.current) if self.current in columns else 0
        options.focus()

    def _choose(self, n: int) -> None:
        if n >= len(self.columns):
            return  # a digit no column has
        column = self.columns[n]
        reverse = (not self.reverse) if column == self.current and column is not None else False
        self.dismiss(SortChoice(column, reverse))

    def action_pick(self, n: int) -> None:
        self._choose(n)

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self._choose(int(event.option.id or 0))

    def action_cursor_down(self) -> None:
        self.query_one(OptionList).action_cursor_down()

    def action_cursor_up(self) -> None:
        self.query_one(OptionList).action_cursor_up()

    def action_cancel(self) -> None:
        self.dismiss(None)
