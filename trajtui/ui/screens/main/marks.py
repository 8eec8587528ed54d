"""Bookmarks and notes on the main screen: ``b`` bookmarks the run, trial or step under the
cursor (again: removes it), ``A`` writes its note, ``'`` lists them all
(:mod:`trajtui.ui.screens.notes`).

The marks of the open sources are read once at mount, in a thread worker, and kept in
:attr:`Marks.marks`; the run list and the timeline draw a ★ (bookmark) or ✎ (a note only)
on the rows that have one. Saving runs in a thread worker too (notes files are tiny, but
finding a moved source's notes may hash a file), then the rows are drawn again.
"""

from __future__ import annotations

from textual import work

from trajtui.core import notes
from trajtui.core.model import Problem
from trajtui.ui.host import host
from trajtui.ui.screens.main.actions import Actions
from trajtui.ui.screens.notes import BookmarksScreen, NoteScreen, glyph
from trajtui.ui.subjects import SegmentSubject, StepSubject, TrialSubject


class Marks(Actions):
    """Bookmarking, noting, and the bookmarks panel."""

    def _start_loading(self) -> None:
        super()._start_loading()
        self._read_marks()

    @work(thread=True, exclusive=True, group="marks", exit_on_error=False)
    def _read_marks(self) -> None:
        found = notes.of_workspace(self.ws, check=False)
        marks = {(loc.source, loc.note.ref): loc.note for loc in found}
        self.app.call_from_thread(self._set_marks, marks)

    def _set_marks(self, marks: dict[tuple[int, str], notes.Note]) -> None:
        self.state.marks = marks
        self.run_list.run_marks = {key: glyph(n) for key, n in marks.items()}
        self._mark_timeline()
        self.run_list.redraw()

    def _mark_timeline(self) -> None:
        s = self.state.run_key[0] if self.state.run_key is not None else None
        self.timeline.step_marks = {
            ref: glyph(n) for (src, ref), n in self.state.marks.items() if src == s
        }
        self.timeline.redraw()

    def _load_run(self, s: int, i: int) -> None:
        super()._load_run(s, i)
        self._mark_timeline()

    # -- what is under the cursor ------------------------------------------------------------

    def _mark_target(self) -> tuple[int, str, str] | None:
        """``(source index, reference in the source, kind)`` of the run, trial or step under
        the cursor of the focused pane (the run list: its run)."""
        if self.focused is self.run_list:
            key = self._cursor_run()
            entry = self.ws.sources[key[0]].peek(key[1]) if key is not None else None
            if key is None or entry is None or isinstance(entry, Problem):
                return None
            return key[0], entry.ref, "run"
        run, key = self.state.run, self.state.run_key
        if run is None or key is None:
            return None
        subject = self._focused_subject()
        match subject:
            case StepSubject(first=first):
                steps = self._steps_for(run, subject)
                if first < len(steps):
                    return key[0], steps[first].ref, "step"
            case TrialSubject(number=number):
                attempt = run.attempt(number)
                if attempt is not None:
                    return key[0], attempt.ref, "trial"
            case SegmentSubject(word=word, key=segment_key):
                kind = self.ws.sources[key[0]].segments.get(word, word)
                return key[0], f"{run.ref}/{word}:{segment_key}", kind
        return key[0], run.ref, "run"

    # -- actions ---------------------------------------------------------------------------

    def action_bookmark(self) -> None:
        target = self._mark_target()
        if target is None:
            self.notify("nothing to bookmark here", timeout=2)
            return
        s, ref, kind = target
        old = self.state.marks.get((s, ref))
        self._save_mark(s, ref, kind, bookmark=not (old is not None and old.bookmarked))

    def action_note(self) -> None:
        target = self._mark_target()
        if target is None:
            self.notify("nothing to write a note on here", timeout=2)
            return
        s, ref, kind = target
        old = self.state.marks.get((s, ref))

        def done(text: str | None) -> None:
            if text is not None:
                self._save_mark(s, ref, kind, text=text)

        self.app.push_screen(
            NoteScreen(self.ws.ref(self.ws.sources[s], ref), old.text if old else ""), done
        )

    def action_bookmarks(self) -> None:
        def done(ref: str | None) -> None:
            if ref:
                self.go_to(ref)

        self.app.push_screen(BookmarksScreen(self.ws), done)

    @work(thread=True, group="marks-save", exit_on_error=False)
    def _save_mark(
        self, s: int, ref: str, kind: str, *, bookmark: bool | None = None, text: str | None = None
    ) -> None:
        source = self.ws.sources[s]
        opened = list(host(self).paths)
        shown = self.ws.ref(source, ref)
        try:
            if bookmark is not None:
                notes.set_bookmark(source.path, ref, kind, bookmark, opened=opened)
                said = f"bookmarked {shown}" if bookmark else f"bookmark removed: {shown}"
            else:
                note = notes.set_note(source.path, ref, kind, text or "", opened=opened)
                said = f"note on {shown} saved" if note.text else f"note on {shown} cleared"
            entry = notes.get(source.path, ref)
        except notes.NotesError as err:
            self.app.call_from_thread(self.notify, str(err), severity="error", timeout=8)
            return
        self.app.call_from_thread(self._saved, s, ref, entry, said)

    def _saved(self, s: int, ref: str, entry: notes.Note | None, said: str) -> None:
        marks = dict(self.state.marks)
        if entry is None:
            marks.pop((s, ref), None)
        else:
            marks[(s, ref)] = entry
        self._set_marks(marks)
        self.notify(said, timeout=3)
