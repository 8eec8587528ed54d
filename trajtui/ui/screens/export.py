"""``x``: export what is on screen (the run table as listed, or the selected run, trial or
step) to a file the user names; the default place is never inside what is being inspected."""

from __future__ import annotations

import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

import platformdirs
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from trajtui.ui.literal import SafeInput, literal

TABLE_FORMATS = ("csv", "jsonl", "markdown")
OBJECT_FORMATS = ("html", "markdown", "jsonl")
EXTENSIONS = {"csv": ".csv", "jsonl": ".jsonl", "markdown": ".md", "html": ".html"}


@dataclass(frozen=True, slots=True)
class ExportChoice:
    """Where to write, and in which format."""

    path: str
    form: str


def inside(path: str, roots: list[str]) -> bool:
    """``path`` is in one of ``roots`` (a file root counts with its directory: writing
    beside an inspected file is writing into what is inspected)."""
    real = os.path.realpath(path)
    for root in roots:
        r = os.path.realpath(root)
        base = r if os.path.isdir(r) else os.path.dirname(r)
        if real == base or real.startswith(base.rstrip(os.sep) + os.sep):
            return True
    return False


def default_dir(opened: list[str]) -> str:
    """The first of these that is not inside an opened path: the working directory, the
    user's documents directory (``~/Documents/trajtui``), the home directory's
    ``trajtui-exports``, and last a private directory of the user's in the temporary
    directory (``trajtui ~`` opens all the others)."""
    try:
        cwd = os.getcwd()
    except OSError:  # the working directory was removed
        cwd = ""
    docs = platformdirs.user_documents_dir()
    home = str(Path.home())
    candidates = [
        cwd,
        os.path.join(docs, "trajtui") if docs and docs != home else "",
        os.path.join(home, "trajtui-exports"),
    ]
    for candidate in candidates:
        if candidate and not inside(candidate, opened):
            return candidate
    uid = os.getuid() if hasattr(os, "getuid") else 0
    return os.path.join(tempfile.gettempdir(), f"trajtui-exports-{uid}")


def file_name(what: str, form: str) -> str:
    """A file name for ``what`` (a reference, or ``runs``): characters a shell or a file
    system would trip on replaced."""
    stem = re.sub(r"[^\w.-]+", "_", what).strip("._") or "export"
    return stem[:120] + EXTENSIONS[form]


class ExportScreen(ModalScreen[ExportChoice | None]):
    """Pick a format (a digit, or enter on it), then edit the path; enter writes, escape
    cancels. ``x`` then enter twice writes the first format to the default place."""

    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        *(Binding(str(n), f"pick({n - 1})", show=False) for n in range(1, 4)),
    ]

    DEFAULT_CSS = """
    ExportScreen { align: center middle; }
    ExportScreen > Vertical {
        width: 80%; max-width: 100; height: auto; border: round $accent;
        background: $surface; padding: 0 1;
    }
    ExportScreen Static { color: $text-muted; }
    ExportScreen OptionList { height: auto; border: none; }
    ExportScreen #export-warning { color: $warning; }
    """

    def __init__(self, what: str, label: str, formats: tuple[str, ...], opened: list[str]) -> None:
        """Args:
        what: The reference exported (or ``runs`` for the table): names the file.
        label: What is exported, in words (shown).
        formats: The formats it can be written in, the default first.
        opened: The paths being inspected (the default path is outside them).
        """
        super().__init__()
        self.what = what
        self.label = label
        self.formats = formats
        self.opened = opened
        self.form = formats[0]
        self.directory = default_dir(opened)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(
                literal(f"export {self.label}: format (digit or ⏎), then the file (⏎ writes)")
            )
            yield OptionList(
                *(Option(literal(f"{n}  {f}"), id=f) for n, f in enumerate(self.formats, 1)),
                id="export-formats",
            )
            yield SafeInput(self._path_for(self.form), id="export-path")
            yield Static("", id="export-warning")

    def _path_for(self, form: str) -> str:
        return os.path.join(self.directory, file_name(self.what, form))

    def on_mount(self) -> None:
        formats = self.query_one(OptionList)
        formats.highlighted = 0
        formats.focus()
        self._warn()

    def action_pick(self, n: int) -> None:
        """A digit on the format list: that format, then the path."""
        if 0 <= n < len(self.formats) and not isinstance(self.focused, Input):
            self._set_form(self.formats[n])
            self.query_one(Input).focus()

    def _set_form(self, form: str) -> None:
        field = self.query_one(Input)
        old_ext = EXTENSIONS[self.form]
        self.form = form
        self.query_one(OptionList).highlighted = self.formats.index(form)
        if field.value.endswith(old_ext):  # the name follows the format unless edited away
            field.value = field.value[: -len(old_ext)] + EXTENSIONS[form]

    @on(OptionList.OptionSelected)
    def _picked(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            self._set_form(event.option.id)
        self.query_one(Input).focus()

    @on(Input.Changed)
    def _warn(self) -> None:
        path = self.query_one(Input).value.strip()
        warning = self.query_one("#export-warning", Static)
        if path and inside(path, self.opened):
            warning.update(literal("this is inside what you are inspecting: ⏎ writes there"))
        elif path and os.path.exists(path):
            warning.update(literal("this file exists: ⏎ replaces it"))
        else:
            warning.update("")

    @on(Input.Submitted)
    def _submit(self) -> None:
        path = os.path.expanduser(self.query_one(Input).value.strip())
        if path:
            self.dismiss(ExportChoice(path, self.form))

    def action_cancel(self) -> None:
        self.dismiss(None)
