"""``trajtui notes``: the bookmarks and notes kept on the opened sources (JSON Lines with
``--json``), or every source that has some (``--all``); exit codes like grep's.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click

from trajtui.cli.output import open_workspace, print_err, scan_all, silence_stdout
from trajtui.core import notes, notes_located
from trajtui.core.io import remote
from trajtui.core.io.jsonutil import dumps_line
from trajtui.core.io.text import visible

BOOKMARK = "★"
GONE = "(no longer found)"

EPILOG = """\b
Output: one line per entry, REF  MARK NOTE
  REF                the reference (what show and --goto open)
  ★                  bookmarked
  (no longer found)  the reference names nothing in the file as it is now
                     (it changed, or the run is gone); the entry is kept

\b
Examples:
  trajtui notes results.jsonl                 what was marked in this file
  trajtui notes outputs/ --json | jq -r .ref  JSON Lines for scripts
  trajtui notes --all                         every source with notes, and how many
  trajtui show results.jsonl websearch-2      open a bookmark's reference

\b
Marking from a script (what b and A do in the TUI):
  trajtui notes results.jsonl websearch-2 --bookmark
  trajtui notes results.jsonl websearch-2/step-3 --note "wrong tool input"
  trajtui notes results.jsonl websearch-2 --unbookmark --note ""

\b
In the TUI: b bookmarks the run, trial or step under the cursor, A writes its note,
' lists the bookmarks of every open source (enter goes there).
"""


def _warn() -> None:
    for line in notes.warnings():
        print_err(f"warning: {line}")


def line(loc: notes_located.Located) -> str:
    """One entry as ``notes`` prints it: ``REF  ★ NOTE  (no longer found)``."""
    parts = [visible(loc.ref, keep_newlines=False)]
    mark = (BOOKMARK + " " if loc.note.bookmarked else "") + visible(
        loc.note.text, keep_newlines=False
    )
    if mark.strip():
        parts.append(mark.strip())
    if loc.found is False:
        parts.append(GONE)
    return "  ".join(parts)


def run_notes(paths: Sequence[str], *, as_json: bool = False) -> int:
    """Print the notes of ``paths``; returns the exit code (0: some, 1: none, 2: an error)."""
    ws = open_workspace(paths)
    errors = bool(ws.problems)
    if not ws.sources:
        return 2
    out = sys.stdout
    count = 0
    try:
        scan_all(ws, sys.stderr.isatty())
        found = notes_located.of_workspace(ws)
        _warn()
        for loc in found:
            if as_json:
                obj = loc.note.to_json()
                obj.update(ref=loc.ref, source=ws.sources[loc.source].label, found=loc.found)
                out.write(dumps_line(obj) + "\n")
            else:
                out.write(line(loc) + "\n")
            count += 1
        out.flush()
    except BrokenPipeError:
        silence_stdout()
        return 0
    finally:
        ws.close()
    if not count:
        print_err("no bookmarks or notes on " + ", ".join(remote.shown(s.path) for s in ws.sources))
    if errors:
        return 2
    return 0 if count else 1


def run_all(*, as_json: bool = False) -> int:
    """Print every source with notes (path, count); 0 when there is one, else 1."""
    listed = notes.all_sources()
    _warn()
    try:
        for path, count in listed:
            if as_json:
                sys.stdout.write(dumps_line({"path": path, "count": count}) + "\n")
            else:
                sys.stdout.write(f"{visible(path, keep_newlines=False)}  {count}\n")
        sys.stdout.flush()
    except BrokenPipeError:
        silence_stdout()
        return 0
    if not listed:
        print_err(f"no bookmarks or notes yet (they are kept in {notes.directory()})")
    return 0 if listed else 1


def run_mark(
    paths: Sequence[str], ref: str, bookmark: bool | None, text: str | None, *, as_json: bool
) -> int:
    """Bookmark (or not) ``ref`` and/or set its note; print the entry as it is now.
    Returns the exit code (0 done, 1 the reference names nothing, 2 an error)."""
    from trajtui.cli.show import resolve_streaming
    from trajtui.core.refs import RefError
    from trajtui.core.source import LoadError

    ws = open_workspace(paths)
    if not ws.sources:
        return 2
    try:
        try:
            target = resolve_streaming(ws, ref)
        except (RefError, LoadError) as err:
            print_err(f"trajtui notes: {visible(str(err), keep_newlines=False)}")
            return 1
        source = target.source
        inner = target.ref  # the reference inside its source, as the TUI keeps it
        opened = list(paths)
        try:
            if bookmark is not None:
                notes.set_bookmark(source.path, inner, target.kind, bookmark, opened=opened)
            if text is not None:
                notes.set_note(source.path, inner, target.kind, text, opened=opened)
        except notes.NotesError as err:
            print_err(f"trajtui notes: {err}")
            return 2
        entry = notes.get(source.path, inner)
        _warn()
        loc = notes_located.Located(
            entry or notes.Note(inner, source.path, target.kind), 0, ws.ref(source, inner), True
        )
        if as_json:
            obj = loc.note.to_json()
            obj.update(ref=loc.ref, source=source.label, found=True)
            sys.stdout.write(dumps_line(obj) + "\n")
        else:
            sys.stdout.write(line(loc) + "\n")
    finally:
        ws.close()
    return 0


@click.command("notes", epilog=EPILOG)
@click.argument("paths", nargs=-1, metavar="PATH... [REF]", type=click.Path(readable=False))
@click.option(
    "--all", "every", is_flag=True, help="List every source that has notes, and how many."
)
@click.option("--json", "as_json", is_flag=True, help="JSON Lines: one object per entry.")
@click.option(
    "--bookmark/--unbookmark",
    "bookmark",
    default=None,
    help="Bookmark REF (the last word), or remove its bookmark.",
)
@click.option(
    "--note", "text", default=None, metavar="TEXT", help='Set REF\'s note ("" clears it).'
)
def notes_cmd(
    paths: tuple[str, ...], every: bool, as_json: bool, bookmark: bool | None, text: str | None
) -> None:
    """Print the bookmarks and notes kept on PATH... (files or directories), or, with
    --bookmark, --unbookmark or --note, mark REF (the last word) as the TUI's b and A do.

    Bookmarks and notes are made in the TUI and kept in trajtui's data directory, never
    beside the data, one file per source. A source is known by its path and by a
    fingerprint of its content, so a file that was renamed or moved keeps its notes (a copy
    does not). An entry whose reference no longer resolves is printed with "(no longer
    found)", never dropped.

    Exit status: 0 when there are entries (or REF was marked), 1 when there are none (or
    REF names nothing), 2 on an error (a path that cannot be opened, notes not saved).
    Several sessions and scripts may mark one source at once: each change is merged into
    the notes as they are then, none is lost.
    """
    if bookmark is not None or text is not None:
        if every or len(paths) < 2:
            raise click.UsageError("--bookmark, --unbookmark and --note take PATH... REF")
        sys.exit(run_mark(paths[:-1], paths[-1], bookmark, text, as_json=as_json))
    if every:
        if paths:
            raise click.UsageError("give PATH... or --all, not both")
        sys.exit(run_all(as_json=as_json))
    if not paths:
        raise click.UsageError("give a file or directory (or --all)")
    sys.exit(run_notes(paths, as_json=as_json))
