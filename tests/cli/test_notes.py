"""``trajtui notes``: REF  NOTE lines, JSON Lines, "no longer found", --all, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.formats.acp.builders import capture, step_message, write_jsonl
from tests.helpers import forked
from tests.helpers.ui import capture_fixture, hostile_fixture, trials_fixture
from trajtui.core import notes


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return forked.run(
        [sys.executable, "-m", "trajtui", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_lines_with_bookmarks_notes_and_targets_gone(tmp_path: Path) -> None:
    path = capture_fixture(tmp_path)
    notes.set_note(str(path), "websearch-2-step-3", "step", "the search that failed")
    notes.set_bookmark(str(path), "websearch-1", "run")
    notes.set_bookmark(str(path), "websearch-3", "run")
    write_jsonl(path, [capture("websearch-1", [step_message("hi", 1)])])  # rewritten
    out = run("notes", str(path))
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [
        "websearch-2-step-3  the search that failed  (no longer found)",
        "websearch-1  ★",
        "websearch-3  ★  (no longer found)",
    ]


def test_json_lines_name_the_reference_show_accepts(tmp_path: Path) -> None:
    capture_fixture(tmp_path)
    b = trials_fixture(tmp_path)
    notes.set_note(str(b), "search-1/trial-2", "trial", "flaky")
    out = run("notes", str(tmp_path), "--json")
    assert out.returncode == 0, out.stderr
    (obj,) = [json.loads(x) for x in out.stdout.splitlines()]
    assert obj["ref"] == "trials.jsonl::search-1/trial-2"
    assert (obj["note"], obj["bookmarked"], obj["found"], obj["kind"]) == (
        "flaky",
        False,
        True,
        "trial",
    )
    shown = run("show", str(tmp_path), obj["ref"])
    assert shown.returncode == 0
    assert shown.stdout.splitlines()[0] == "trials.jsonl::search-1/trial-2"


def test_none_is_exit_1_and_said_on_stderr(tmp_path: Path) -> None:
    path = capture_fixture(tmp_path)
    out = run("notes", str(path))
    assert (out.returncode, out.stdout) == (1, "")
    assert "no bookmarks or notes" in out.stderr


def test_errors_are_one_line_and_exit_2(tmp_path: Path) -> None:
    out = run("notes", str(tmp_path / "nope.jsonl"))
    assert out.returncode == 2
    assert out.stderr.strip() == f"{tmp_path / 'nope.jsonl'}: no such file or directory"


def test_all_lists_sources_with_counts(tmp_path: Path) -> None:
    assert run("notes", "--all").returncode == 1
    a = capture_fixture(tmp_path)
    b = trials_fixture(tmp_path)
    notes.set_bookmark(str(a), "websearch-1", "run")
    notes.set_bookmark(str(a), "websearch-2", "run")
    notes.set_note(str(b), "search-2", "run", "x")
    out = run("notes", "--all")
    assert out.returncode == 0
    assert out.stdout.splitlines() == [f"{a.resolve()}  2", f"{b.resolve()}  1"]
    js = [json.loads(x) for x in run("notes", "--all", "--json").stdout.splitlines()]
    assert js == [{"path": str(a.resolve()), "count": 2}, {"path": str(b.resolve()), "count": 1}]


def test_hostile_notes_and_refs_print_inert(tmp_path: Path) -> None:
    path = hostile_fixture(tmp_path)
    notes.set_note(str(path), "evil-[bold]1", "run", "\x1b]52;c;aGk=\x07 \x1b[31mred")
    out = run("notes", str(path))
    assert out.returncode == 0
    assert "\x1b" not in out.stdout and "\x07" not in out.stdout
    assert out.stdout.startswith("evil-[bold]1  ")


def test_corrupt_notes_file_is_a_warning_not_a_failure(tmp_path: Path) -> None:
    path = capture_fixture(tmp_path)
    notes.set_bookmark(str(path), "websearch-1", "run")
    (notes.directory() / "zz.json").write_bytes(b"\x00garbage")
    out = run("notes", str(path))
    assert out.returncode == 0
    assert out.stdout.splitlines() == ["websearch-1  ★"]
    (warning,) = out.stderr.splitlines()
    assert warning.startswith("warning: ") and "zz.json: not a notes file, ignored" in warning


def test_help_teaches() -> None:
    out = run("notes", "--help")
    assert out.returncode == 0
    for words in ("no longer found", "--all", "--json", "Exit status", "renamed"):
        assert words in out.stdout


def test_a_script_marks_runs_for_review(tmp_path: Path) -> None:
    path = capture_fixture(tmp_path)
    out = run("notes", str(path), "websearch-2", "--bookmark")
    assert (out.returncode, out.stdout) == (0, "websearch-2  ★\n"), out.stderr
    out = run("notes", str(path), "websearch-2-step-3", "--note", "the search that failed")
    assert out.returncode == 0 and out.stdout == "websearch-2-step-3  the search that failed\n"
    listed = [json.loads(x) for x in run("notes", str(path), "--json").stdout.splitlines()]
    assert [(o["ref"], o["kind"], o["bookmarked"], o["note"]) for o in listed] == [
        ("websearch-2", "run", True, ""),
        ("websearch-2-step-3", "step", False, "the search that failed"),
    ]
    cleared = run("notes", str(path), "websearch-2", "--unbookmark", "--note", "")
    assert cleared.returncode == 0
    assert run("notes", str(path)).stdout == "websearch-2-step-3  the search that failed\n"


def test_marking_a_reference_that_names_nothing_is_exit_1(tmp_path: Path) -> None:
    path = capture_fixture(tmp_path)
    out = run("notes", str(path), "websearch-99", "--bookmark")
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr.startswith("trajtui notes: ") and len(out.stderr.splitlines()) == 1
    assert run("notes", str(path)).returncode == 1  # nothing was kept


def test_six_scripts_marking_one_file_at_once_lose_nothing(tmp_path: Path) -> None:
    path = capture_fixture(tmp_path)
    refs = ["websearch-1", "websearch-2", "websearch-3", "websearch-4", "websearch-1-step-1"]
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "trajtui", "notes", str(path), ref, "--note", f"n {ref}"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        for ref in refs
    ]
    procs.append(
        subprocess.Popen(
            [sys.executable, "-m", "trajtui", "notes", str(path), "websearch-1", "--bookmark"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
    )
    for p in procs:
        assert p.wait(60) == 0, p.stderr.read() if p.stderr else ""
    listed = {
        o["ref"]: (o["bookmarked"], o["note"])
        for o in map(json.loads, run("notes", str(path), "--json").stdout.splitlines())
    }
    assert listed == {ref: (ref == "websearch-1", f"n {ref}") for ref in refs}


def test_entries_that_cannot_be_read_are_said_and_kept_as_they_are(tmp_path: Path) -> None:
    path = capture_fixture(tmp_path)
    for ref in ("websearch-1", "websearch-2", "websearch-3"):
        notes.set_bookmark(str(path), ref, "run")
    (file,) = notes.directory().glob("*.json")
    data = json.loads(file.read_text())
    data["written_by"] = "trajtui 9"  # a later version's field
    data["entries"][1]["note"] = 5  # a hand edit
    data["entries"][2]["colour"] = "red"  # a field this version does not know
    data["entries"].append({"ref": ["websearch-4"], "bookmarked": True})
    file.write_text(json.dumps(data))
    hand_edited = data["entries"][1:]

    out = run("notes", str(path))
    assert out.stdout.splitlines() == ["websearch-1  ★", "websearch-3  ★"]
    assert out.stderr.splitlines() == [
        f"warning: {file}: entry websearch-2: note is not text, kept as it is",
        f"warning: {file}: entry 4: ref is not text, kept as it is",
    ]
    out = run("notes", str(path), "websearch-1", "--note", "look again")
    assert out.returncode == 0, out.stderr
    kept = json.loads(file.read_text())
    assert kept["written_by"] == "trajtui 9"
    assert all(e in kept["entries"] for e in hand_edited)
    assert sorted(str(e.get("note")) for e in kept["entries"]) == ["", "5", "None", "look again"]
