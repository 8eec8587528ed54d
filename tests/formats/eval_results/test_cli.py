"""Eval results: ``ls``, ``ls --json`` and ``show`` on a fixture tree, and a broken file
reported with its line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.formats.eval_results import builders as b
from tests.helpers import forked

# -- CLI ----------------------------------------------------------------------------------------------------


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return forked.run(
        [sys.executable, "-m", "trajtui", *args], capture_output=True, text=True, timeout=60
    )


def test_cli_ls_and_json(tree: Path) -> None:
    out = cli("ls", str(tree))
    assert out.returncode == 0, out.stderr
    rows = {line.split()[0]: line for line in out.stdout.splitlines()[1:]}
    assert "• graded" in rows[b.DEV_DIRECT] and "0.6667" in rows[b.DEV_DIRECT]
    assert "! error" not in rows[b.DEV_DIRECT] and "◐ partial" in rows[b.DEV_FAILED]
    assert "no results file" in out.stderr and "Traceback" not in out.stderr
    objs = [json.loads(line) for line in cli("ls", str(tree), "--json").stdout.splitlines()]
    assert len(objs) == 8
    for key in ("ref", "format", "status", "steps", "tool_errors"):
        assert all(key in o for o in objs)
    by_ref = {o["ref"]: o for o in objs}
    assert by_ref[b.DEV_FAILED]["status"] == "partial" and by_ref[b.DEV_FAILED]["steps"] == 2
    assert by_ref[b.DEV_DIRECT]["score_label"] == "accuracy"
    assert {o["format"] for o in objs} == {"eval-results"}


def test_cli_show_run_and_sample(tree: Path) -> None:
    out = cli("show", str(tree), b.DEV_DIRECT)
    assert out.returncode == 0, out.stderr
    assert f"{b.DEV_DIRECT}/bizA" in out.stdout and "✗ wrong" in out.stdout
    assert "confusion" in out.stdout
    sample = cli("show", str(tree), f"{b.DEV_FAILED}/bizA")
    assert sample.returncode == 0 and "Error code: 400" in sample.stdout
    js = json.loads(cli("show", str(tree), f"{b.DEV_PARSE}/bizA", "--json").stdout)
    assert js["ref"] == f"{b.DEV_PARSE}/bizA" and js["parsed"] == {
        "parse_error": "Could not parse result"
    }
    missing = cli("show", str(tree), f"{b.DEV_DIRECT}/nope")
    assert missing.returncode == 1 and "no item 'nope'" in missing.stderr


def test_cli_reports_a_broken_file_with_its_line(tree: Path) -> None:
    path = tree / "dev" / b.DEV_RAG / "results.json"
    path.write_bytes(path.read_bytes()[:200])
    out = cli("ls", str(tree))
    assert out.returncode == 0
    line = 1 + path.read_bytes().rstrip(b"\n").count(b"\n")
    assert f"{path}:{line}: invalid JSON: ends early" in out.stderr
