"""``?`` in the run-list filter box: the fields a query can name, with an example each."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from trajtui.core.query import RUNS, STEPS, fields_of

SYNTAX = (
    "a b  both · a OR b  either · -a or NOT a  not · ( ) groups · = != < <= > >= compare",
    'text matches any case, anywhere in the value; "quoted" the whole value; * a glob',
    "durations need a unit (500ms 60s 5m 1h); counts take k and M (100k 2M)",
    "a run without a value never matches a comparison on it (-score>0.5 keeps it)",
)
"""How terms combine and values match, under the fields."""

STEP_NOTE = "the filter stays on as you move between runs; f then esc clears it"
"""What a step filter does besides choosing steps."""


def fields_text(scope: str = RUNS) -> Text:
    """Every field of ``scope`` (name, kind, example, meaning) and the syntax notes, as
    lines."""
    fields = fields_of(scope)
    name_w = max(len(f.name) for f in fields)
    kind_w = max(len(f.kind) for f in fields)
    example_w = max(len(f.example) for f in fields)
    out = Text()
    for f in fields:
        out.append(f"{f.name:<{name_w}}  ", style="bold")
        out.append(f"{f.kind:<{kind_w}}  ", style="dim")
        out.append(f"{f.example:<{example_w}}  ", style="green")
        out.append(f.meaning + "\n")
    out.append("\n")
    syntax = SYNTAX if scope == RUNS else (*SYNTAX[:3], STEP_NOTE)
    out.append("\n".join(syntax), style="dim")
    return out


class FieldsScreen(ModalScreen[None]):
    """The query fields (of the run list's filter, or with ``STEPS`` of the timeline's);
    any of esc, q, ?, enter closes it (back to the filter box)."""

    BINDINGS = [
        Binding("escape,q,question_mark,enter", "close", "Close"),
        Binding("j", "scroll_down", show=False),
        Binding("k", "scroll_up", show=False),
    ]

    DEFAULT_CSS = """
    FieldsScreen { align: center middle; }
    FieldsScreen > VerticalScroll {
        width: auto; max-width: 96%; height: auto; max-height: 90%;
        border: round $accent; background: $surface; padding: 0 1;
    }
    FieldsScreen Static { width: auto; }
    """

    def __init__(self, scope: str = RUNS) -> None:
        super().__init__()
        self.scope = scope

    def compose(self) -> ComposeResult:
        with VerticalScroll() as box:
            what = "step query fields" if self.scope == STEPS else "query fields"
            box.border_title = f"{what} (esc closes)"
            yield Static(fields_text(self.scope), id="fields")

    def action_close(self) -> None:
        self.dismiss(None)

    def action_scroll_down(self) -> None:
        self.query_one(VerticalScroll).scroll_down()

    def action_scroll_up(self) -> None:
        self.query_one(VerticalScroll).scroll_up()
