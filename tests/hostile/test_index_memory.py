"""Memory of the index (issue 8, item 23): millions of blank lines reported as ranges, an index
of a million records that stays compact, a huge string folded and named. Scaled down from the
full-size cases ``make bench`` measures (``tests/bench/hostile_bench.py``); each still fails on
the behaviour the issue reported."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from tests.formats.acp.builders import capture, step_tool, write_jsonl
from tests.hostile.fresh import ROOT, refs_of, run

# -- 23. memory: blank lines, many tiny records, one huge string -----------------------------


def test_millions_of_blank_lines_are_reported_as_ranges(tmp_path: Path) -> None:
    # Held to: the index keeps a count and bounded ranges, not a list of line numbers
    # (20 million blank lines took 2.70 GB); they are reported in a few lines.
    p = tmp_path / "blank.jsonl"
    with p.open("wb") as f:
        f.write(json.dumps(capture("a")).encode() + b"\n")
        f.write(b"\n" * 2_000_000)
        f.write(json.dumps(capture("b")).encode() + b"\n")
        f.write(b"   \n\n")
        f.write(json.dumps(capture("c")).encode() + b"\n")
    out = run("ls", str(p), "--json")
    assert out.returncode == 0, out.stderr
    assert refs_of(out.stdout) == ["a", "b", "c"]
    lines = [json.loads(line)["line"] for line in out.stdout.splitlines()]
    assert lines == [1, 2_000_002, 2_000_005]
    warnings = out.stderr.splitlines()
    assert warnings == [
        f"{p}:2: warning: 2,000,000 blank lines (skipped), lines 2-2,000,001",
        f"{p}:2000003: warning: 2 blank lines (skipped), lines 2,000,003-2,000,004",
    ]


PEAK_RSS = """
import sys
from trajtui.core.workspace import open_paths
from trajtui.formats.registry import formats
ws = open_paths([sys.argv[1]], formats())
source = ws.sources[0]
for _ in source.scan():
    pass
with open("/proc/self/status") as f:  # VmHWM: this process's peak (ru_maxrss counts the parent's)
    peak = next(int(line.split()[1]) for line in f if line.startswith("VmHWM:"))
print(len(source), source.find(sys.argv[2]), peak // 1024)
"""


def peak_after_scan(path: Path, ref: str) -> tuple[int, int | None, int]:
    out = subprocess.run(
        [sys.executable, "-c", PEAK_RSS, str(path), ref],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert out.returncode == 0, out.stderr
    count, found, peak = out.stdout.split()
    return int(count), None if found == "None" else int(found), int(peak)


def test_an_index_of_a_million_records_stays_compact(tmp_path: Path) -> None:
    # Held to: about 40 bytes per record plus its id (a list of str per record and a dict
    # of refs took 608 MB for 3 million); the baseline interpreter is ~40 MB.
    n = 1_000_000
    p = tmp_path / "tiny.jsonl"
    with p.open("w") as f:
        for i in range(0, n, 10_000):
            f.write(
                "".join(
                    f'{{"id":"r{k}","trajectory":[],"timing":{{}}}}\n' for k in range(i, i + 10_000)
                )
            )
    count, found, peak_mb = peak_after_scan(p, f"r{n - 1}")
    assert (count, found) == (n, n - 1)
    assert peak_mb < 150, f"{peak_mb} MB to index {n:,} records"


def test_a_blank_file_of_millions_of_lines_stays_small(tmp_path: Path) -> None:
    p = tmp_path / "blank.jsonl"
    with p.open("wb") as f:
        f.write(json.dumps(capture("a")).encode() + b"\n")
        f.write(b"\n" * 5_000_000)
    count, found, peak_mb = peak_after_scan(p, "a")
    assert (count, found) == (1, 0)
    assert peak_mb < 100, f"{peak_mb} MB for 5,000,000 blank lines"


def test_show_folds_a_huge_string_and_names_it(tmp_path: Path) -> None:
    # Held to: `show` prints a bounded part of an oversized value with a note naming it
    # (a 500 MB string took 86 s and 5.66 GB); --json still prints it whole.
    huge = "x" * (8 * 1024 * 1024)
    p = write_jsonl(
        tmp_path / "huge.jsonl",
        [capture("h", [step_tool("Read", "completed", 1, output=huge, input={"q": huge})])],
    )
    out = run("show", str(p), "h-step-1")
    assert out.returncode == 0, out.stderr
    assert len(out.stdout) < 3_000_000  # two values of 8 MB: at most 1,000,000 characters each
    assert re.search(r"output: 8,388,608 characters, .*folded", out.stdout)
    assert re.search(r"input: .*folded", out.stdout)
    whole = run("show", str(p), "h-step-1", "--json")
    assert json.loads(whole.stdout)["output"] == huge
