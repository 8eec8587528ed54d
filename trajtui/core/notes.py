"""Bookmarks and short notes on runs, trials and steps, kept in platformdirs' data dir.

Where they live: ``$XDG_DATA_HOME/trajtui/notes/`` on Linux (``platformdirs.user_data_path``),
one JSON file per source (a file or directory trajtui opened), never beside the data. The
directory is used only when it is ours (a real directory of this user, mode 0700); files are
written 0600, atomically (a private temporary file, then ``os.replace``), and never when the
notes directory is inside a path the user opened (``trajtui ~``). Every change is made under
the directory's lock (:mod:`trajtui.core.io.filelock`) as read, change one entry, write: two
sessions (or a script beside the TUI) marking the same source at the same moment keep each
other's notes, in one file per source.

Which notes belong to which source (its *identity*): a notes file records the source's real
path and a fingerprint of its content (size, a hash of its first 64 KB and one of its last
64 KB; for a directory, its top-level names and sizes). The notes of an opened source are

1. those recorded for its real path (a file that grew or changed keeps its notes: the
   references that no longer resolve are reported as "no longer found", never dropped);
2. else those of a source that was moved or renamed: recorded under a path that no longer
   holds it (gone, or holding other content), with the same size and hashes, or (a file
   that grew since) whose first bytes are the same as the recorded head. A copy, whose
   original is still in place, does not take the original's notes.

Each entry is keyed by the reference inside its source (what ``trajtui show PATH REF`` and
``--goto`` accept with that one path open). Notes files are untrusted data: read through
:mod:`trajtui.core.io.safeio` with a size cap, decoded with the project's JSON reader, every
field type-checked; a file that is not a notes file is ignored with a one-line warning
(:func:`warnings`) and never overwritten. Notes are never lost: an entry that cannot be read
(a field of another type, from a hand edit or another version) is said in one line and kept
in the file as it is, and the fields and entries this version does not know are written back
as they were read.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from platformdirs import user_data_path

from trajtui.core.io import filelock, safeio
from trajtui.core.io.discover import inside
from trajtui.core.io.jsonutil import JsonError, dumps_line, loads
from trajtui.core.io.text import one_line
from trajtui.core.jsonl.cachedir import private_dir
from trajtui.core.noteid import fingerprint, in_place, real, starts_with

SUFFIX = ".json"
VERSION = 1
MAX_NOTE = 280
"""A note is one line of at most this many characters (longer text is cut, with ``…``)."""
MAX_FILE = 1 << 20
"""A notes file bigger than this is not read."""
MAX_ENTRIES = 10_000
"""Entries kept per source."""


class NotesError(Exception):
    """Notes cannot be saved (no usable data dir, or it is inside an opened path)."""


@dataclass(frozen=True, slots=True)
class Note:
    """A bookmark and/or a note on one object of a source.

    Attributes:
        ref: The object's reference inside its source (``task-7/trial-2/step-5``).
        path: The source's path (as last seen; for display).
        kind: What the reference named when it was marked (``run``, ``trial``, ``step``...).
        bookmarked: It is bookmarked.
        text: The note (one line, at most :data:`MAX_NOTE` characters; "" for none).
        created: When the entry was made (seconds since the epoch).
        updated: When it last changed.
        raw: The entry as the notes file holds it (its fields this version does not know
            included), what is written back; None for one made in this session.
    """

    ref: str
    path: str
    kind: str = "run"
    bookmarked: bool = False
    text: str = ""
    created: float = 0.0
    updated: float = 0.0
    raw: dict[str, Any] | None = field(default=None, compare=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        """The entry as a JSON object (what ``trajtui notes --json`` prints)."""
        return {
            "ref": self.ref,
            "path": self.path,
            "kind": self.kind,
            "bookmarked": self.bookmarked,
            "note": self.text,
            "created": self.created,
            "updated": self.updated,
        }


@dataclass(slots=True)
class Book:
    """The notes of one source, as kept in one notes file.

    Attributes:
        file: The notes file (None until first saved).
        path: The source's real path when last saved.
        fingerprint: The source's fingerprint when last saved.
        entries: By reference, in the order they were made.
        kept: Entries that could not be read, as the file holds them (written back as
            they are).
        extra: The file's fields this version does not know (written back as they are).
    """

    file: Path | None
    path: str
    fingerprint: dict[str, Any] = field(default_factory=dict)
    entries: dict[str, Note] = field(default_factory=dict)
    kept: list[Any] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)


# -- the directory ---------------------------------------------------------------------------


def directory() -> Path:
    """Where notes files live (``$XDG_DATA_HOME/trajtui/notes`` on Linux)."""
    return user_data_path("trajtui") / "notes"


def usable_dir(create: bool) -> Path | None:
    """The notes directory when it is ours (a real directory of this user, private; made
    0700 when ``create``), else None."""
    return private_dir(directory(), create)


# -- reading ---------------------------------------------------------------------------------

_warned: list[str] = []


def warnings() -> list[str]:
    """One line per notes file that was ignored since the last call (``PATH: why``)."""
    out = list(dict.fromkeys(_warned))
    _warned.clear()
    return out


def _read(file: Path) -> Book | None:
    """The book in ``file``, or None (with a warning) when it is not a notes file."""
    try:
        data, _ = loads(safeio.read_bytes(str(file), limit=MAX_FILE, follow_links=False))
    except (OSError, JsonError) as err:
        _warned.append(f"{file}: not a notes file, ignored ({one_line(str(err))[:80]})")
        return None
    book = _book(file, data)
    if book is None:
        _warned.append(f"{file}: not a notes file, ignored (unexpected content)")
    return book


def _book(file: Path, data: Any) -> Book | None:
    if not isinstance(data, dict) or data.get("version") != VERSION:
        return None
    path, fp, raw = data.get("path"), data.get("fingerprint"), data.get("entries")
    if type(path) is not str or not isinstance(raw, list):
        return None
    if not isinstance(fp, dict):
        fp = {}
    book = Book(file, path, {k: v for k, v in fp.items() if type(v) in (str, int)})
    book.extra = {k: v for k, v in data.items() if k not in _FILE_FIELDS}
    for n, item in enumerate(raw, 1):
        if n > MAX_ENTRIES:
            book.kept.extend(raw[MAX_ENTRIES:])
            _warned.append(
                f"{file}: {len(raw) - MAX_ENTRIES:,} entries after the first "
                f"{MAX_ENTRIES:,} not read, kept as they are"
            )
            break
        note = _note(item, path)
        if isinstance(note, Note):
            book.entries[note.ref] = note
            continue
        if note:
            ref = item.get("ref") if isinstance(item, dict) else None
            which = one_line(ref)[:80] if type(ref) is str and ref else str(n)
            _warned.append(f"{file}: entry {which}: {note}, kept as it is")
        if note or (isinstance(item, dict) and not item.keys() <= _ENTRY_FIELDS):
            book.kept.append(item)  # not understood, or empty but for fields not known
    return book


_FILE_FIELDS = frozenset({"version", "path", "fingerprint", "entries"})
_ENTRY_FIELDS = frozenset({"ref", "kind", "bookmarked", "note", "created", "updated"})
_TYPES: dict[str, tuple[type, ...]] = {
    "ref": (str,),
    "kind": (str,),
    "note": (str,),
    "bookmarked": (bool,),
    "created": (int, float),
    "updated": (int, float),
}
_SAID = {str: "text", bool: "true or false", int: "a number"}


def _note(item: Any, path: str) -> Note | str | None:
    """The entry ``item``; else why it cannot be read (``note is not text``), or None when
    it says nothing (neither bookmarked nor with a note)."""
    if not isinstance(item, dict):
        return "not an object"
    for key, types in _TYPES.items():
        if key in item and type(item[key]) not in types:
            return f"{key} is not {_SAID[types[0]]}"
    ref = item.get("ref")
    if ref is None or not ref:
        return "no ref"
    kind, text = item.get("kind", "run"), clean(item.get("note", ""))
    bookmarked = item.get("bookmarked", False)
    created, updated = item.get("created", 0.0), item.get("updated", 0.0)
    if not bookmarked and not text:
        return None
    return Note(ref, path, kind[:20], bookmarked, text, float(created), float(updated), item)


def clean(text: str) -> str:
    """``text`` as a note: one line, trimmed, at most :data:`MAX_NOTE` characters."""
    line = " ".join(text.split())
    return line if len(line) <= MAX_NOTE else line[: MAX_NOTE - 1] + "…"


def books() -> list[Book]:
    """Every readable notes file (unreadable ones are warned about and skipped)."""
    d = usable_dir(create=False)
    if d is None:
        return []
    try:
        names = sorted(os.listdir(d))
    except OSError:
        return []
    out = []
    for name in names:
        if name.startswith(".") or not name.endswith(SUFFIX):
            continue
        book = _read(d / name)
        if book is not None:
            out.append(book)
    return out


def find_book(path: str, shelf: Sequence[Book] | None = None) -> Book:
    """The notes of the source at ``path`` (an empty, unsaved book when it has none): see
    the module's docstring for how a source is recognised."""
    here = real(path)
    shelf = books() if shelf is None else shelf
    mine = [b for b in shelf if b.path == here]
    if mine:
        return max(mine, key=lambda b: len(b.entries))
    now: dict[str, Any] | None = None
    for book in shelf:
        fp = book.fingerprint
        if not fp or in_place(book.path, fp):
            continue  # the recorded source is still in place: this is not it
        if now is None:
            now = fingerprint(path)
            if now is None:
                break
        if now == fp or (now.get("kind") == "file" and starts_with(path, fp)):
            return book
    return Book(None, here)


# -- the API ---------------------------------------------------------------------------------


def notes_for(path: str) -> list[Note]:
    """Bookmarks and notes of the source at ``path``, in the order they were made (what
    exports include; empty when it has none). Each note's ``path`` is ``path``."""
    return [replace(n, path=path) for n in find_book(path).entries.values()]


def all_sources() -> list[tuple[str, int]]:
    """``(source path as last seen, number of entries)`` of every source with notes."""
    return sorted((b.path, len(b.entries)) for b in books() if b.entries)


def get(path: str, ref: str) -> Note | None:
    """The entry on ``ref`` of the source at ``path``, or None."""
    return find_book(path).entries.get(ref)


def toggle_bookmark(path: str, ref: str, kind: str, *, opened: Sequence[str] = ()) -> bool:
    """Bookmark ``ref`` of the source at ``path``, or remove its bookmark (a note on it
    stays), judged on the notes as they are on disk now. Returns whether it is bookmarked.

    Raises:
        NotesError: It cannot be saved.
    """
    return _put(path, ref, kind, opened, bookmarked=TOGGLE).bookmarked


def set_bookmark(
    path: str, ref: str, kind: str, on: bool = True, *, opened: Sequence[str] = ()
) -> None:
    """Add (``on``) or remove the bookmark on ``ref``.

    Raises:
        NotesError: It cannot be saved.
    """
    _put(path, ref, kind, opened, bookmarked=on)


def set_note(path: str, ref: str, kind: str, text: str, *, opened: Sequence[str] = ()) -> Note:
    """Set the note on ``ref`` (cleaned by :func:`clean`; "" clears it). Returns the entry
    (``text`` and ``bookmarked`` both empty when nothing is left of it).

    Raises:
        NotesError: It cannot be saved.
    """
    return _put(path, ref, kind, opened, text=clean(text))


TOGGLE = "toggle"
"""``bookmarked=TOGGLE``: the opposite of what the notes on disk say."""


def _put(
    path: str,
    ref: str,
    kind: str,
    opened: Sequence[str],
    *,
    bookmarked: bool | str | None = None,
    text: str | None = None,
) -> Note:
    """Change one entry: under the notes directory's lock, read the source's notes as
    they are on disk now (every file another session wrote for it merged into one),
    change the entry, write the one file atomically, and remove the files merged in."""
    d = _directory_for_saving(opened)
    try:
        with filelock.locked(d / LOCK):
            shelf = books()
            book, merged = _one_book(path, shelf, d)
            now = time.time()
            old = book.entries.get(ref) or Note(ref, path, kind, created=now)
            if bookmarked == TOGGLE:
                bookmarked = not old.bookmarked
            new = replace(
                old,
                bookmarked=old.bookmarked if bookmarked is None else bool(bookmarked),
                text=old.text if text is None else text,
                updated=now,
            )
            new = replace(new, raw={**(old.raw or {}), **_fields(new)})
            if new.bookmarked or new.text:
                book.entries[ref] = new
            else:
                book.entries.pop(ref, None)
            if len(book.entries) > MAX_ENTRIES:
                raise NotesError(f"more than {MAX_ENTRIES:,} notes on one source")
            _save(book, path, d)
            for other in merged:
                if other.file is not None and other.file != book.file:
                    other.file.unlink(missing_ok=True)
    except OSError as err:
        raise NotesError(f"not saved: {one_line(str(err))}") from None
    return new


LOCK = ".lock"
"""The lock file every change to a notes file is made under (:mod:`trajtui.core.io.filelock`)."""


def _one_book(path: str, shelf: Sequence[Book], d: Path) -> tuple[Book, list[Book]]:
    """The book of the source at ``path``, with every other book recorded for the same
    real path merged into it (sessions that each started a file: the newest change of
    each entry wins), and the books merged in. A source's first book is named after its
    real path, so two sessions starting one at the same moment write the same file."""
    book = find_book(path, shelf)
    here = real(path)
    others = [b for b in shelf if b.path == here and b is not book]
    for other in others:
        for ref, note in other.entries.items():
            mine = book.entries.get(ref)
            if mine is None or note.updated > mine.updated:
                book.entries[ref] = note
        book.kept.extend(k for k in other.kept if k not in book.kept)
        book.extra = {**other.extra, **book.extra}
    if book.file is None:
        name = d / f"{hashlib.blake2b(os.fsencode(here), digest_size=12).hexdigest()}{SUFFIX}"
        # a file of that name that was not read (another version's, damaged) is not replaced
        book.file = None if os.path.lexists(name) else name
    return book, others


def _directory_for_saving(opened: Sequence[str]) -> Path:
    d = usable_dir(create=False)
    if d is not None and not _outside(d, opened):
        raise NotesError(f"not saved: the notes directory {d} is inside an opened path")
    d = d or usable_dir(create=True)
    if d is None:
        raise NotesError(f"not saved: {directory()} is not a private directory of this user")
    if not _outside(d, opened):
        raise NotesError(f"not saved: the notes directory {d} is inside an opened path")
    return d


def _save(book: Book, path: str, d: Path) -> None:
    """Write ``book`` to its file atomically (a private temporary file, then a rename)."""
    book.path = real(path)
    book.fingerprint = fingerprint(path) or {}
    data = {
        **book.extra,
        "version": VERSION,
        "path": book.path,
        "fingerprint": book.fingerprint,
        "entries": [n.raw if n.raw is not None else _fields(n) for n in book.entries.values()]
        + book.kept,
    }
    target = book.file or d / f"{secrets.token_hex(12)}{SUFFIX}"
    try:
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=SUFFIX, dir=d)  # mode 0600
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(dumps_line(data))
            os.replace(tmp, target)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError as err:
        raise NotesError(f"not saved: {target}: {err.strerror or err}") from None
    book.file = target


def _fields(note: Note) -> dict[str, Any]:
    """``note`` as its notes file keeps it."""
    return {k: v for k, v in note.to_json().items() if k != "path"}


def _outside(d: Path, opened: Sequence[str]) -> bool:
    for root in opened:
        try:
            if inside(os.path.realpath(root), str(d)):
                return False
        except (OSError, ValueError):
            return False
    return True
