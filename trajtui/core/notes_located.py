"""The notes of the sources a workspace has open, each with whether its reference still
resolves (:mod:`trajtui.core.notes` keeps the notes themselves)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Protocol

from trajtui.core.jsonl.index import FileChanged
from trajtui.core.notes import Note, books, find_book
from trajtui.core.refs import RefError
from trajtui.core.source import Source


@dataclass(frozen=True, slots=True)
class Located:
    """A note of an opened source, and whether its reference still resolves.

    Attributes:
        note: The entry.
        source: Index of its source in the workspace.
        ref: Its reference as typed with these sources open (``SOURCE::REF`` when several).
        found: The reference resolves (False: "no longer found"; None: not checked).
    """

    note: Note
    source: int
    ref: str
    found: bool | None = None


class Opened(Protocol):
    """What :func:`of_workspace` needs of a :class:`~trajtui.core.workspace.Workspace`
    (named so, this module imports no format through it)."""

    sources: list[Source]

    def ref(self, source: Source, ref: str) -> str: ...


def of_workspace(ws: Opened, *, check: bool = True) -> list[Located]:
    """The notes of every source of ``ws``, source by source; with ``check``, each
    reference resolved (this may read a run per note: call it off the UI thread)."""
    shelf = books()
    out = []
    for s, source in enumerate(ws.sources):
        for note in find_book(source.path, shelf).entries.values():
            note = replace(note, path=source.path)
            found: bool | None = None
            if check:
                try:
                    source.resolve(note.ref)
                    found = True
                except (RefError, OSError, FileChanged):
                    found = False
            out.append(Located(note, s, ws.ref(source, note.ref), found))
    return out
