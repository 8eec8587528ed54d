"""``export`` and ``diff`` tell a reference from a path by how it is given, not by what
happens to be in the current directory (issue 23, item 11: a directory named like a run in
the working directory made ``export`` write the whole run table, exit 0)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.formats.acp.builders import capture, step_message, step_tool, write_jsonl
from tests.helpers import forked


def trajtui(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return forked.run(
        [sys.executable, "-m", "trajtui", *args, "--no-cache"],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
    )


def runs_file(where: Path) -> Path:
    return write_jsonl(
        where / "runs.jsonl",
        [
            capture("websearch-17", [step_tool("WebSearch", "completed", 10)]),
            capture("websearch-18", [step_tool("WebFetch", "failed", 10), step_message("x", 20)]),
            capture("other", [step_message("hello", 10)]),
        ],
    )


def test_export_of_a_run_named_like_a_directory_here_exports_the_run(tmp_path: Path) -> None:
    runs_file(tmp_path)
    (tmp_path / "websearch-17").mkdir()  # e.g. the run's own output directory
    ran = trajtui(tmp_path, "export", "runs.jsonl", "websearch-17", "-f", "jsonl")
    assert ran.returncode == 0, ran.stderr
    records = [json.loads(line) for line in ran.stdout.splitlines()]
    assert [r["id"] for r in records] == ["websearch-17"]  # the run, not the run table
    # ... and the user is told how to mean the directory instead
    assert "./websearch-17" in ran.stderr and len(ran.stderr.splitlines()) == 1


def test_a_word_written_as_a_path_is_a_path(tmp_path: Path) -> None:
    runs_file(tmp_path)
    (tmp_path / "websearch-17").mkdir()
    write_jsonl(tmp_path / "websearch-17" / "more.jsonl", [capture("more-1")])
    ran = trajtui(tmp_path, "export", "runs.jsonl", "./websearch-17", "-f", "jsonl")
    assert ran.returncode == 0, ran.stderr
    refs = [json.loads(line)["ref"] for line in ran.stdout.splitlines()]
    assert len(refs) == 4 and any(r.endswith("more-1") for r in refs), refs  # both sources


def test_diff_of_two_runs_named_like_files_here_compares_the_runs(tmp_path: Path) -> None:
    runs_file(tmp_path)
    (tmp_path / "websearch-17").write_text("not data\n")
    (tmp_path / "websearch-18").mkdir()
    ran = trajtui(tmp_path, "diff", "runs.jsonl", "websearch-17", "websearch-18", "--json")
    assert ran.returncode == 1, ran.stderr  # the runs differ
    out = json.loads(ran.stdout)
    assert (out["a"]["ref"], out["b"]["ref"]) == ("websearch-17", "websearch-18")


def test_two_data_files_are_still_two_sources(tmp_path: Path) -> None:
    runs_file(tmp_path)
    write_jsonl(tmp_path / "after.jsonl", [capture("websearch-17"), capture("other")])
    ran = trajtui(tmp_path, "diff", "runs.jsonl", "after.jsonl", "--json")
    assert ran.returncode in (0, 1), ran.stderr
    assert "rows" in json.loads(ran.stdout) and ran.stderr == ""
