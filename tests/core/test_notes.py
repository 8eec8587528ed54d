"""Bookmarks and notes (trajtui.core.notes): kept under the data dir, keyed by the source's
identity, never trusted, never dropped when their target goes."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest

from tests.formats.acp.builders import capture, step_message, write_jsonl
from tests.helpers.ui import capture_fixture, trials_fixture
from tests.helpers.workspace import open_paths
from trajtui.core import notes, notes_located


def test_bookmark_and_note_are_listed_and_removed(tmp_path: Path) -> None:
    path = str(capture_fixture(tmp_path))
    assert notes.notes_for(path) == []
    assert notes.toggle_bookmark(path, "websearch-2", "run") is True
    notes.set_note(path, "websearch-2-step-3", "step", "  the search\nthat\tfailed  ")
    listed = notes.notes_for(path)
    assert [(n.ref, n.bookmarked, n.text) for n in listed] == [
        ("websearch-2", True, ""),
        ("websearch-2-step-3", False, "the search that failed"),
    ]
    assert listed[0].path == path and listed[0].created > 0
    # the bookmark goes; a note stays until it is cleared
    assert notes.toggle_bookmark(path, "websearch-2", "run") is False
    notes.set_bookmark(path, "websearch-2-step-3", "step")
    notes.set_note(path, "websearch-2-step-3", "step", "")
    assert [(n.ref, n.bookmarked, n.text) for n in notes.notes_for(path)] == [
        ("websearch-2-step-3", True, "")
    ]
    notes.set_bookmark(path, "websearch-2-step-3", "step", on=False)
    assert notes.notes_for(path) == []
    assert notes.all_sources() == []


def test_note_is_one_line_and_capped(tmp_path: Path) -> None:
    path = str(capture_fixture(tmp_path))
    note = notes.set_note(path, "websearch-1", "run", "x" * 5000)
    assert len(note.text) == notes.MAX_NOTE and note.text.endswith("…")


def test_files_are_private_under_the_data_dir_and_nothing_is_written_beside_the_data(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    path = str(capture_fixture(data))
    before = sorted(os.listdir(data))
    notes.toggle_bookmark(path, "websearch-1", "run")
    assert sorted(os.listdir(data)) == before
    d = Path(os.environ["XDG_DATA_HOME"]) / "trajtui" / "notes"
    assert notes.directory() == d  # the test's isolated data dir, never the user's
    files = sorted(d.iterdir())
    assert [f.name for f in files][:1] == [".lock"] and len(files) == 2  # the lock, one notes file
    assert stat.S_IMODE(d.stat().st_mode) == 0o700
    assert all(stat.S_IMODE(f.stat().st_mode) == 0o600 for f in files)


def test_not_saved_when_the_data_dir_is_inside_an_opened_path(tmp_path: Path) -> None:
    path = str(capture_fixture(tmp_path))
    home = Path(os.environ["XDG_DATA_HOME"]).parent
    with pytest.raises(notes.NotesError, match="inside an opened path"):
        notes.toggle_bookmark(path, "websearch-1", "run", opened=[str(home)])
    assert notes.notes_for(path) == []


def test_a_renamed_or_moved_file_keeps_its_notes_a_copy_does_not(tmp_path: Path) -> None:
    path = capture_fixture(tmp_path)
    notes.set_note(str(path), "websearch-2", "run", "look here")
    copy = tmp_path / "copy.jsonl"
    copy.write_bytes(path.read_bytes())
    assert notes.notes_for(str(copy)) == []  # the original is still in place
    moved = tmp_path / "sub" / "renamed.jsonl"
    moved.parent.mkdir()
    path.rename(moved)
    (note,) = notes.notes_for(str(moved))
    assert (note.ref, note.text, note.path) == ("websearch-2", "look here", str(moved))
    # saving again records the new path; the notes stay in one file
    notes.set_bookmark(str(moved), "websearch-1", "run")
    assert notes.all_sources() == [(os.path.realpath(moved), 2)]


def test_a_moved_file_that_grew_keeps_its_notes(tmp_path: Path) -> None:
    path = capture_fixture(tmp_path)
    notes.set_bookmark(str(path), "websearch-1", "run")
    moved = tmp_path / "moved.jsonl"
    path.rename(moved)
    with moved.open("a") as f:
        f.write('{"id": "late", "steps": []}\n')
    assert [n.ref for n in notes.notes_for(str(moved))] == ["websearch-1"]


def test_a_file_that_changed_in_place_keeps_its_notes(tmp_path: Path) -> None:
    path = capture_fixture(tmp_path)
    notes.set_bookmark(str(path), "websearch-1", "run")
    write_jsonl(path, [capture("other", [step_message("hi", 1)])])
    assert [n.ref for n in notes.notes_for(str(path))] == ["websearch-1"]


def test_targets_that_no_longer_resolve_are_kept_and_said(tmp_path: Path) -> None:
    path = capture_fixture(tmp_path)
    notes.set_bookmark(str(path), "websearch-1", "run")
    notes.set_note(str(path), "websearch-2-step-3", "step", "why?")
    write_jsonl(path, [capture("websearch-1", [step_message("hi", 1)])])
    ws = open_paths([str(path)])
    for _ in ws.scan():
        pass
    found = {loc.ref: loc.found for loc in notes_located.of_workspace(ws)}
    ws.close()
    assert found == {"websearch-1": True, "websearch-2-step-3": False}
    assert len(notes.notes_for(str(path))) == 2


def test_several_sources_give_qualified_references(tmp_path: Path) -> None:
    a = capture_fixture(tmp_path)
    b = trials_fixture(tmp_path)
    notes.set_bookmark(str(b), "search-1/trial-2", "trial")
    ws = open_paths([str(a), str(b)])
    for _ in ws.scan():
        pass
    (loc,) = notes_located.of_workspace(ws)
    assert (loc.ref, loc.found, loc.source) == ("trials.jsonl::search-1/trial-2", True, 1)
    assert ws.resolve(loc.ref).kind == "trial"
    ws.close()


@pytest.mark.parametrize(
    "content",
    [
        b"not json at all {",
        b'{"version": 1, "path": 3, "entries": []}',
        b'{"version": 99, "path": "/x", "entries": []}',
        b"[" * 100_000,
        b"\x00\xff\xfe" * 10,
    ],
)
def test_corrupt_or_hostile_notes_files_are_ignored_with_a_warning(
    tmp_path: Path, content: bytes
) -> None:
    path = str(capture_fixture(tmp_path))
    notes.toggle_bookmark(path, "websearch-1", "run")
    d = notes.directory()
    bad = d / "bad.json"
    bad.write_bytes(content)
    assert [n.ref for n in notes.notes_for(path)] == ["websearch-1"]
    (warning,) = notes.warnings()
    assert warning.startswith(f"{bad}: not a notes file, ignored")
    assert "\n" not in warning


def test_bad_entries_are_skipped_and_links_not_followed(tmp_path: Path) -> None:
    path = str(capture_fixture(tmp_path))
    notes.toggle_bookmark(path, "websearch-1", "run")
    d = notes.directory()
    real = os.path.realpath(path)
    entries = [
        {"ref": 5},
        {"ref": "x", "bookmarked": "yes"},
        {"ref": "websearch-2", "note": "[bold]hi[/bold]\x1b[31m", "created": 1},
    ]
    (d / "odd.json").write_text(json.dumps({"version": 1, "path": real, "entries": entries}))
    secret = tmp_path / "secret.json"
    secret.write_text(json.dumps({"version": 1, "path": real, "entries": [{"ref": "leak"}]}))
    (d / "link.json").symlink_to(secret)
    shelf = notes.books()
    assert sorted(len(b.entries) for b in shelf) == [1, 1]
    odd = next(b for b in shelf if b.file and b.file.name == "odd.json")
    assert odd.entries["websearch-2"].text == "[bold]hi[/bold]\x1b[31m"  # kept as data
    assert any("link.json" in w for w in notes.warnings())


def test_a_notes_dir_that_is_not_ours_is_not_used(tmp_path: Path) -> None:
    path = str(capture_fixture(tmp_path))
    d = notes.directory()
    d.parent.mkdir(parents=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    d.symlink_to(elsewhere)
    with pytest.raises(notes.NotesError, match="not a private directory"):
        notes.toggle_bookmark(path, "websearch-1", "run")
    assert list(elsewhere.iterdir()) == []


def _bookmark_at_once(path: str, ref: str, start: Any) -> None:
    start.wait()
    notes.set_bookmark(path, ref, "run")


def test_six_sessions_bookmarking_one_source_at_once_keep_every_bookmark_in_one_file(
    tmp_path: Path,
) -> None:
    """Seen: six processes bookmarking one source at the same moment kept 2 of the 6
    bookmarks, in 4 notes files for the one source."""
    import multiprocessing

    path = capture_fixture(tmp_path)
    ctx = multiprocessing.get_context("fork")
    start = ctx.Event()
    refs = [f"websearch-{i}" for i in range(1, 7)]
    procs = [ctx.Process(target=_bookmark_at_once, args=(str(path), r, start)) for r in refs]
    for p in procs:
        p.start()
    start.set()  # all at once
    for p in procs:
        p.join(30)
        assert p.exitcode == 0
    assert sorted(n.ref for n in notes.notes_for(str(path)) if n.bookmarked) == refs
    assert len([f for f in os.listdir(notes.directory()) if f.endswith(".json")]) == 1


def test_files_left_by_sessions_that_raced_are_merged_at_the_next_change(tmp_path: Path) -> None:
    """Several notes files for one source (written by an older trajtui that raced): the
    next change merges them into one, the newest change of each entry kept, none lost."""
    path = capture_fixture(tmp_path)
    notes.set_bookmark(str(path), "websearch-1", "run")
    (first,) = [f for f in notes.directory().iterdir() if f.suffix == ".json"]
    data = json.loads(first.read_text())
    data["entries"] = [{"ref": "websearch-2", "kind": "run", "note": "older", "updated": 1.0}]
    (notes.directory() / "0123456789abcdef01234567.json").write_text(json.dumps(data))
    notes.set_note(str(path), "websearch-3", "run", "third")
    got = {n.ref: (n.bookmarked, n.text) for n in notes.notes_for(str(path))}
    assert got == {
        "websearch-1": (True, ""),
        "websearch-2": (False, "older"),
        "websearch-3": (False, "third"),
    }
    assert len([f for f in notes.directory().iterdir() if f.suffix == ".json"]) == 1


def test_what_this_version_does_not_read_is_written_back_as_it_was(tmp_path: Path) -> None:
    path = str(capture_fixture(tmp_path))
    notes.set_bookmark(path, "websearch-1", "run")
    (file,) = notes.directory().glob("*.json")
    data = json.loads(file.read_text())
    long_note = "line one\n" + "y" * 600  # written by hand: longer than a note made here
    data["entries"].append({"ref": "websearch-2", "note": long_note, "created": 3})
    file.write_text(json.dumps(data))
    notes.set_bookmark(path, "websearch-3", "run")
    entries = json.loads(file.read_text())["entries"]
    assert {"ref": "websearch-2", "note": long_note, "created": 3} in entries
    assert [n.ref for n in notes.notes_for(path)] == ["websearch-1", "websearch-2", "websearch-3"]


def test_a_notes_file_of_another_version_is_never_replaced(tmp_path: Path) -> None:
    path = str(capture_fixture(tmp_path))
    notes.set_bookmark(path, "websearch-1", "run")
    (file,) = notes.directory().glob("*.json")
    later = json.dumps({"version": 2, "path": os.path.realpath(path), "entries": ["..."]})
    file.write_text(later)
    notes.set_bookmark(path, "websearch-2", "run")
    assert file.read_text() == later
    assert [n.ref for n in notes.notes_for(path)] == ["websearch-2"]
    assert any(w.startswith(f"{file}: not a notes file") for w in notes.warnings())
