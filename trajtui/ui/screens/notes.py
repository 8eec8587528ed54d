"""Bookmarks and notes in the TUI: the note prompt (``A``) and the bookmarks panel (``'``).

The panel lists the bookmarks and notes of every open source (reference, note, and "no
longer found" where the reference names nothing any more); enter goes to one through the
main screen's ``:`` machinery. References are resolved in a thread worker (a step's may
read its run). Notes are untrusted text: drawn through :func:`~trajtui.core.io.text.visible`,
never as markup.
"""

from __future__ import annotations

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from trajtui.core import notes, notes_located
from trajtui.core.io.text import visible
from trajtui.core.workspace import Workspace
from trajtui.ui.literal import SafeInput, literal
from trajtui.ui.widgets.vlist import VirtualList

BOOKMARK = "★"
NOTE = "✎"
GONE = "no longer found"
NOT_YET = "not found yet (still reading)"


def glyph(note: notes.Note) -> str:
    """The mark of a row with an entry: ★ bookmarked, ✎ a note only."""
    return BOOKMARK if note.bookmarked else NOTE


class NoteScreen(ModalScreen[str | None]):
    """Asks for the note on one object (enter saves, an empty note clears it)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    DEFAULT_CSS = """
    NoteScreen { align: center top; }
    NoteScreen > Vertical {
        width: 80%; max-width: 100; height: auto; margin-top: 3;
        border: round $accent; background: $surface; padding: 0 1;
    }
    NoteScreen Static { color: $text-muted; }
    """

    def __init__(self, ref: str, text: str = "") -> None:
        """Args:
        ref: The object's reference (shown).
        text: Its note so far.
        """
        super().__init__()
        self.ref = ref
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(
                literal(f"note on {self.ref} · enter saves, empty clears, esc cancels"),
                id="note-hint",
            )
            yield SafeInput(
                value=visible(self.text, keep_newlines=False),
                placeholder="a short note",
                max_length=notes.MAX_NOTE,
                id="note-input",
            )

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


class NoteList(VirtualList):
    """Entries: mark, reference, note, and whether the reference still resolves."""

    COMPONENT_CLASSES = {*VirtualList.COMPONENT_CLASSES, "notes--ref", "notes--gone"}

    DEFAULT_CSS = """
    NoteList {
        height: 1fr;
        & > .notes--ref { color: $accent; }
        & > .notes--gone { color: $error; }
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.entries: list[notes_located.Located] = []
        self.reading: set[int] = set()
        """Sources still being read (a reference not found there may yet be)."""
        self.empty_text = "reading bookmarks…"

    @property
    def row_count(self) -> int:
        return len(self.entries)

    def render_row(self, index: int, width: int) -> Text:
        loc = self.entries[index]
        row = Text(no_wrap=True)
        row.append(f" {glyph(loc.note)} ")
        row.append(visible(loc.ref, keep_newlines=False), self.cstyle("notes--ref"))
        if loc.note.text:
            row.append("  " + visible(loc.note.text, keep_newlines=False))
        if loc.found is False:
            why = NOT_YET if loc.source in self.reading else GONE
            row.append(f"  ({why})", self.cstyle("notes--gone"))
        return row

    def row_text(self, index: int) -> str:
        loc = self.entries[index]
        return f"{loc.ref} {loc.note.text}"


class BookmarksScreen(ModalScreen[str | None]):
    """Every bookmark and note of the open sources; enter goes to one."""

    BINDINGS = [
        Binding("escape,q,apostrophe", "close", "Close"),
        Binding("enter,l", "choose", "Go there", show=False),
    ]

    DEFAULT_CSS = """
    BookmarksScreen { align: center middle; }
    BookmarksScreen > Vertical {
        width: 90%; max-width: 120; height: 80%;
        border: round $accent; background: $surface; padding: 0 1;
    }
    BookmarksScreen #bookmarks-status { color: $text-muted; height: 1; }
    """

    def __init__(self, ws: Workspace) -> None:
        """Args:
        ws: The open sources.
        """
        super().__init__()
        self.ws = ws

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = literal("Bookmarks and notes")
            yield Static(literal("reading…"), id="bookmarks-status")
            yield NoteList(id="bookmarks-list")

    @property
    def note_list(self) -> NoteList:
        """The list of entries."""
        return self.query_one(NoteList)

    def on_mount(self) -> None:
        self.note_list.focus()
        self._locate()

    @work(thread=True, exclusive=True, group="notes", exit_on_error=False)
    def _locate(self) -> None:
        """Find every entry and resolve its reference (may read runs)."""
        found = notes_located.of_workspace(self.ws)
        reading = {s for s, source in enumerate(self.ws.sources) if not source.complete}
        self.app.call_from_thread(self._show, found, reading)

    def _show(self, found: list[notes_located.Located], reading: set[int]) -> None:
        lst = self.note_list
        lst.entries, lst.reading = found, reading
        lst.empty_text = "no bookmarks or notes · b bookmarks what is under the cursor, A notes it"
        lst.reset(cursor=0)
        gone = sum(1 for loc in found if loc.found is False)
        sources = len({loc.source for loc in found})
        status = f"{len(found)} in {sources} of {len(self.ws.sources)} sources"
        if gone:
            status += f" · {gone} no longer found"
        self.query_one("#bookmarks-status", Static).update(
            literal(status + " · enter goes there · esc closes")
        )

    @on(VirtualList.Selected, "#bookmarks-list")
    def _chosen(self, event: VirtualList.Selected) -> None:
        self._go(event.index)

    def action_choose(self) -> None:
        self._go(self.note_list.cursor)

    def _go(self, index: int) -> None:
        entries = self.note_list.entries
        if not 0 <= index < len(entries):
            return
        loc = entries[index]
        if loc.found is False and loc.source not in self.note_list.reading:
            self.notify(f"{loc.ref}: {GONE}", severity="warning", timeout=4)
            return
        self.dismiss(loc.ref)

    def action_close(self) -> None:
        self.dismiss(None)
