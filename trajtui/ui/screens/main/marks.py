"""Bookmarks and notes on the main screen: ``b`` bookmarks the run, trial or step under the
cursor (again: removes it), ``A`` writes its note, ``'`` lists them all
(:mod:`trajtui.ui.screens.notes`).

The marks of the open sources are read once loading starts, in a thread worker, and kept in
``state.marks``; the run list and the timeline draw a ★ (bookmark) or ✎ (a note only) on
the rows that have one. Saving runs in a thread worker too (notes files are tiny, but
finding a moved source's notes may hash a file), then the rows are drawn again. A part
composed into the main screen, reaching it through :class:`Marked`.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Protocol

from textual.widget import Widget

from trajtui.core import notes, notes_located
from trajtui.core.model import Problem, Run, Step
from trajtui.ui.host import host
from trajtui.ui.screens.main.panes import Panes
from trajtui.ui.screens.notes import BookmarksScreen, NoteScreen, glyph
from trajtui.ui.subjects import SegmentSubject, StepSubject, Subject, TrialSubject


class Marked(Panes, Protocol):
    """What bookmarks and notes need of the screen."""

    def run_list_focused(self) -> bool:
        """The run list has the focus."""

    def cursor_run(self) -> tuple[int, int] | None:
        """``(source, entry)`` of the run the user is on."""

    def focused_subject(self) -> Subject:
        """The subject of the focused pane."""

    def steps_for(self, run: Run, subject: Subject) -> Sequence[Step]:
        """The timeline a step subject belongs to."""

    def go_to(self, ref: str) -> None:
        """Go to ``ref``."""


class Bookmarks:
    """Bookmarking, noting, and the bookmarks panel."""

    def __init__(self, screen: Marked, node: Widget) -> None:
        """Args:
        screen: The screen marked in.
        node: The same screen as a widget (its workers, toasts and the screens it opens).
        """
        self.screen = screen
        self.node = node

    def read(self) -> None:
        """Read the marks of the open sources (in a worker)."""
        self.node.run_worker(
            self._read, thread=True, exclusive=True, group="marks", exit_on_error=False
        )

    def _read(self) -> None:
        found = notes_located.of_workspace(self.screen.ws, check=False)
        marks = {(loc.source, loc.note.ref): loc.note for loc in found}
        self.node.app.call_from_thread(self._set_marks, marks)

    def _set_marks(self, marks: dict[tuple[int, str], notes.Note]) -> None:
        self.screen.state.marks = marks
        self.screen.run_list.run_marks = {key: glyph(n) for key, n in marks.items()}
        self.mark_timeline()
        self.screen.run_list.redraw()

    def mark_timeline(self) -> None:
        """Draw the marks of the selected run's steps and trials."""
        state = self.screen.state
        s = state.run_key[0] if state.run_key is not None else None
        timeline = self.screen.timeline
        timeline.step_marks = {ref: glyph(n) for (src, ref), n in state.marks.items() if src == s}
        timeline.redraw()

    # -- what is under the cursor ------------------------------------------------------------

    def _target(self) -> tuple[int, str, str] | None:
        """``(source index, reference in the source, kind)`` of the run, trial or step under
        the cursor of the focused pane (the run list: its run)."""
        screen = self.screen
        ws = screen.ws
        if screen.run_list_focused():
            key = screen.cursor_run()
            entry = ws.sources[key[0]].peek(key[1]) if key is not None else None
            if key is None or entry is None or isinstance(entry, Problem):
                return None
            return key[0], entry.ref, "run"
        run, key = screen.state.run, screen.state.run_key
        if run is None or key is None:
            return None
        subject = screen.focused_subject()
        match subject:
            case StepSubject(first=first):
                steps = screen.steps_for(run, subject)
                if first < len(steps):
                    return key[0], steps[first].ref, "step"
            case TrialSubject(number=number):
                attempt = run.attempt(number)
                if attempt is not None:
                    return key[0], attempt.ref, "trial"
            case SegmentSubject(word=word, key=segment_key):
                kind = ws.sources[key[0]].segments.get(word, word)
                return key[0], f"{run.ref}/{word}:{segment_key}", kind
        return key[0], run.ref, "run"

    # -- the keys ----------------------------------------------------------------------------

    def bookmark(self) -> None:
        """``b``: bookmark what is under the cursor, or remove its bookmark."""
        target = self._target()
        if target is None:
            self.node.notify("nothing to bookmark here", timeout=2)
            return
        s, ref, kind = target
        old = self.screen.state.marks.get((s, ref))
        self._save(s, ref, kind, bookmark=not (old is not None and old.bookmarked))

    def note(self) -> None:
        """``A``: write the note of what is under the cursor."""
        target = self._target()
        if target is None:
            self.node.notify("nothing to write a note on here", timeout=2)
            return
        s, ref, kind = target
        old = self.screen.state.marks.get((s, ref))

        def done(text: str | None) -> None:
            if text is not None:
                self._save(s, ref, kind, text=text)

        ws = self.screen.ws
        shown = ws.ref(ws.sources[s], ref)
        self.node.app.push_screen(NoteScreen(shown, old.text if old else ""), done)

    def list_them(self) -> None:
        """``'``: every bookmark and note; the one chosen is gone to."""

        def done(ref: str | None) -> None:
            if ref:
                self.screen.go_to(ref)

        self.node.app.push_screen(BookmarksScreen(self.screen.ws), done)

    def _save(
        self, s: int, ref: str, kind: str, *, bookmark: bool | None = None, text: str | None = None
    ) -> None:
        work = partial(self._write, s, ref, kind, bookmark, text)
        self.node.run_worker(work, thread=True, group="marks-save", exit_on_error=False)

    def _write(self, s: int, ref: str, kind: str, bookmark: bool | None, text: str | None) -> None:
        ws = self.screen.ws
        source = ws.sources[s]
        app = self.node.app
        opened = list(host(self.node).paths)
        shown = ws.ref(source, ref)
        try:
            if bookmark is not None:
                notes.set_bookmark(source.path, ref, kind, bookmark, opened=opened)
                said = f"bookmarked {shown}" if bookmark else f"bookmark removed: {shown}"
            else:
                note = notes.set_note(source.path, ref, kind, text or "", opened=opened)
                said = f"note on {shown} saved" if note.text else f"note on {shown} cleared"
            entry = notes.get(source.path, ref)
        except notes.NotesError as err:
            app.call_from_thread(self.node.notify, str(err), severity="error", timeout=8)
            return
        app.call_from_thread(self._saved, s, ref, entry, said)

    def _saved(self, s: int, ref: str, entry: notes.Note | None, said: str) -> None:
        marks = dict(self.screen.state.marks)
        if entry is None:
            marks.pop((s, ref), None)
        else:
            marks[(s, ref)] = entry
        self._set_marks(marks)
        self.node.notify(said, timeout=3)
