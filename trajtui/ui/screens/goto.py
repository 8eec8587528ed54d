"""The ``:`` prompt: go to any reference the CLI accepts."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.suggester import SuggestFromList
from textual.widgets import Input, Static

from trajtui.core.io.text import visible
from trajtui.ui.literal import SafeInput, literal


class GotoScreen(ModalScreen[str | None]):
    """Asks for a reference; completes run references as you type (→ accepts)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    DEFAULT_CSS = """
    GotoScreen { align: center top; }
    GotoScreen > Vertical {
        width: 80%; max-width: 100; height: auto; margin-top: 3;
        border: round $accent; background: $surface; padding: 0 1;
    }
    GotoScreen Static { color: $text-muted; }
    """

    def __init__(self, refs: list[str], current: str = "", segments: Sequence[str] = ()) -> None:
        """Args:
        refs: Run references to complete.
        current: The reference of what is shown (the input's placeholder).
        segments: The reference segment words the open sources resolve (``msg``...).
        """
        super().__init__()
        self.refs = refs
        self.current = current
        self.segments = tuple(segments)

    def hint(self) -> str:
        """The forms of reference the prompt takes: the common ones, then one per segment
        word of the open sources (``RUN/msg:KEY``)."""
        forms = ["RUN", "RUN-step-N", "RUN/trial-T/step-N", "RUN/step-N"]
        forms.extend(f"RUN/{word}:KEY" for word in self.segments)
        return "go to: " + " · ".join(forms)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(literal(visible(self.hint(), keep_newlines=False)))
            yield SafeInput(
                value="",
                placeholder=visible(self.current, keep_newlines=False) or "reference",
                suggester=SuggestFromList(
                    [visible(r, keep_newlines=False) for r in self.refs], case_sensitive=True
                ),
                id="goto-input",
            )

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value or None)

    def action_cancel(self) -> None:
        self.dismiss(None)
