"""The scriptable CLI: ls, show, exit codes, problem lines, no tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.formats.acp.builders import capture, step_tool, trials, write_jsonl
from tests.helpers import forked


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return forked.run(
        [sys.executable, "-m", "trajtui", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=60,
    )


@pytest.fixture
def capture_file(tmp_path: Path) -> Path:
    recs = [
        capture("websearch-1", score={"pass": True, "score": 0.92}),
        capture("websearch-2", tool_errors=True, trajectory=[step_tool("Read", "failed", 5)]),
        capture(
            "websearch-3", output="", trajectory=[], errors=["Request timed out after 60000ms"]
        ),
    ]
    return write_jsonl(tmp_path / "results.jsonl", recs, raw_lines={2: b"{oops"})


def test_ls_prints_one_row_per_run_and_problems_on_stderr(capture_file: Path) -> None:
    out = run("ls", str(capture_file))
    assert out.returncode == 0
    lines = out.stdout.splitlines()
    assert lines[0].split()[:6] == ["REF", "STATUS", "STEPS", "CALLS", "TOOL", "ERR"]
    rows = {line.split()[0]: line for line in lines[1:]}
    assert set(rows) == {"websearch-1", "websearch-2", "websearch-3"}
    assert "✓ pass" in rows["websearch-1"] and "0.92" in rows["websearch-1"]
    assert "◷ timeout" in rows["websearch-3"]
    assert out.stderr.startswith(f"{capture_file}:3: invalid JSON at column 2: ")
    assert len(out.stderr.splitlines()) == 1


def test_ls_json_lines(capture_file: Path) -> None:
    out = run("ls", str(capture_file), "--json")
    objs = [json.loads(line) for line in out.stdout.splitlines()]
    assert [o["ref"] for o in objs] == ["websearch-1", "websearch-2", "websearch-3"]
    for key in ("ref", "format", "status", "steps", "tool_calls", "tool_errors"):
        assert all(key in o for o in objs)
    # "tool_errors" is how many tool calls failed; the file's own flag keeps its name.
    assert objs[1]["tool_errors"] == 1 and objs[1]["toolErrors"] is True
    assert objs[1]["tool_calls"] == 1
    assert objs[0]["format"] == "acp-capture"


def test_show_step_and_json(capture_file: Path) -> None:
    out = run("show", str(capture_file), "websearch-1-step-2")
    assert out.returncode == 0, out.stderr
    assert "websearch-1-step-2" in out.stdout and "WebSearch" in out.stdout
    assert "anthropic ceo" in out.stdout
    js = json.loads(run("show", str(capture_file), "websearch-1-step-2", "--json").stdout)
    assert js == {
        "ref": "websearch-1-step-2",
        "type": "tool_call",
        "name": "WebSearch",
        "status": "completed",
        "timestamp": 150,
        "input": {"query": "anthropic ceo"},
        "output": "Dario",
        "duration": 234,
    }
    run_json = json.loads(run("show", str(capture_file), "websearch-2", "--json").stdout)
    assert run_json["ref"] == "websearch-2" and run_json["toolErrors"] is True


def test_show_trial(tmp_path: Path) -> None:
    p = write_jsonl(tmp_path / "t.jsonl", [trials("q-1", [True, False])])
    out = run("show", str(p), "q-1/trial-2")
    assert out.returncode == 0
    assert (
        "q-1/trial-2" in out.stdout
        and "✗ fail" in out.stdout
        and "q-1/trial-2/step-1" in out.stdout
    )


def test_missing_ref_exits_1_and_names_neighbours(capture_file: Path) -> None:
    out = run("show", str(capture_file), "websearch-9")
    assert out.returncode == 1
    assert "nearby: " in out.stderr and "websearch-1" in out.stderr.split("nearby: ")[1]
    assert "Traceback" not in out.stderr


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "empty file"),
        (b"\x00\x01\x02\x03" * 100, "binary data"),
        (b'{"id":"x","rankings":[]}\n', "not a format trajtui reads"),
        (b"hello world\n", "not JSON"),
    ],
)
def test_unreadable_inputs_exit_1_with_one_line(
    tmp_path: Path, content: bytes, message: str
) -> None:
    p = tmp_path / "input.jsonl"
    p.write_bytes(content)
    out = run("ls", str(p))
    assert out.returncode == 1
    assert message in out.stderr
    assert out.stderr.startswith(f"{p}: ")
    assert "Traceback" not in out.stderr


def test_missing_path_and_usage_errors(tmp_path: Path) -> None:
    out = run("ls", str(tmp_path / "nope.jsonl"))
    assert out.returncode == 1
    assert out.stderr.strip().endswith("nope.jsonl: no such file or directory")
    assert run("ls").returncode == 2
    assert run("show", "x").returncode == 2
    assert run("ls", "--bogus", "x").returncode == 2


def test_help_teaches_references() -> None:
    out = run("--help")
    assert out.returncode == 0
    for word in ("RUN-step-N", "RUN/trial-T/step-N", "ls", "show", "--goto", "--demo"):
        assert word in out.stdout


def test_all_broken_file_exits_1(tmp_path: Path) -> None:
    p = tmp_path / "x.jsonl"
    p.write_bytes(b'{"input":"no id","trajectory":[],"timing":{}}\n{also bad\n')
    out = run("ls", str(p))
    assert out.returncode == 1
    assert f"{p}:1: " in out.stderr and f"{p}:2: " in out.stderr
