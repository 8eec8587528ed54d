"""A big ATIF trajectory is read in memory bounded by what is shown: listed from one pass
over the file (each step kept as a small row), a step's body read again when shown."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

from tests.formats.atif import builders as b
from tests.formats.atif.test_atif import cli_run, show

STEPS = 800
OUTPUT = "drwxr-xr-x 2 root root 4096 Mar  1 10:00 some-directory\n" * 800  # 46 KB a step


def test_a_big_trajectory_is_listed_holding_far_less_than_the_file(tmp_path: Path) -> None:
    path = tmp_path / "trajectory.json"
    b.write_long(path, STEPS, OUTPUT)
    size = path.stat().st_size
    assert size > 32 << 20
    tracemalloc.start()
    try:
        out = cli_run("ls", "--json", "--no-cache", str(path))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert out.exit_code == 0, out.stderr
    row = json.loads(out.stdout)
    assert (row["steps"], row["tool_calls"], row["title"]) == (
        STEPS + 1,
        STEPS,
        "Make the suite pass",
    )
    # the whole document decoded took several times the file; the rows take a fraction
    assert peak < size / 4, f"{peak >> 20} MB at the peak for a {size >> 20} MB file"


def test_a_step_of_a_big_trajectory_is_shown_whole(tmp_path: Path) -> None:
    path = tmp_path / "trajectory.json"
    b.write_long(path, 300, "ok 🚀 é\n" * 1000)
    out = show(path, "trajectory/step-250")
    assert out.exit_code == 0, out.stderr
    assert "step 250: run it" in out.stdout
    assert "make test-250" in out.stdout
    assert "output of step 250" in out.stdout and "ok 🚀 é" in out.stdout
    assert "output of step 249" not in out.stdout
