"""``trajtui grep``: lines, JSON Lines, exit codes like grep's, one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.formats.acp.builders import capture, step_message, write_jsonl
from tests.helpers import forked


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return forked.run(
        [sys.executable, "-m", "trajtui", *args, "--no-cache"],
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.fixture
def cap(tmp_path: Path) -> Path:
    recs = [
        capture("r-1", output="the rate limit was hit", trajectory=[step_message("ok", 1)]),
        capture("r-2", output="fine", trajectory=[step_message("Rate limit again", 1)]),
    ]
    return write_jsonl(tmp_path / "cap.jsonl", recs, raw_lines={1: b'{"id": "x", "rate limit'})


def test_lines_are_ref_field_snippet_and_exit_0(cap: Path) -> None:
    out = run("grep", str(cap), "rate limit", "-i")
    assert out.returncode == 0
    assert out.stdout.splitlines() == [
        "r-1  output  the rate limit was hit",
        "r-2-step-1  message  Rate limit again",
    ]
    assert "\x1b" not in out.stdout  # plain in a pipe
    err = out.stderr.splitlines()
    assert f"{cap}:2: " in err[0] and "(not searched)" in err[0]  # the broken line
    assert err[-1] == "2 hits in 2 runs of 3 (2 parsed)"


def test_json_lines(cap: Path) -> None:
    out = run("grep", str(cap), "rate", "--json")
    (hit,) = [json.loads(line) for line in out.stdout.splitlines()]
    assert hit["ref"] == "r-1" and hit["field"] == "output" and hit["line"] == 1
    assert (hit["start"], hit["end"]) == (4, 8)
    assert hit["snippet"][hit["match"][0] : hit["match"][1]] == "rate"
    assert hit["path"] == str(cap)


def test_no_match_exits_1_and_errors_exit_2(cap: Path, tmp_path: Path) -> None:
    out = run("grep", str(cap), "nowhere to be found")
    assert out.returncode == 1 and out.stdout == ""
    bad = run("grep", str(cap), "-E", "(oops")
    assert bad.returncode == 2
    assert bad.stderr.strip() == "trajtui grep: invalid regular expression '(oops': missing )"
    missing = run("grep", str(tmp_path / "nope.jsonl"), "x")
    assert missing.returncode == 2 and "Traceback" not in missing.stderr
    kinds = run("grep", str(cap), "x", "--in", "bogus")
    assert kinds.returncode == 2 and "no field kind called bogus" in kinds.stderr


def test_in_max_count_and_regex(cap: Path) -> None:
    assert run("grep", str(cap), "-i", "rate", "--in", "message").stdout.splitlines() == [
        "r-2-step-1  message  Rate limit again"
    ]
    out = run("grep", str(cap), "-E", r"[Rr]ate\s+limit", "-m", "1")
    assert out.returncode == 0 and len(out.stdout.splitlines()) == 1
    assert "stopped at --max-count 1" in out.stderr


def test_help_teaches() -> None:
    out = run("grep", "--help")
    assert "Examples:" in out.stdout and "--in" in out.stdout and "Exit status" in out.stdout
