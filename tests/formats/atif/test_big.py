"""A big ATIF trajectory is read in memory bounded by what is shown: listed from one pass
over the file (each step kept as a small row), a step's body read again when shown."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

from tests.formats.atif import builders as b
from tests.formats.atif.test_atif import cli_run, show
from trajtui.formats.atif.facts import pair_results
from trajtui.formats.atif.lazy import read_trajectory

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


def test_pairing_a_run_of_many_tool_calls_holds_a_few_bytes_a_call(tmp_path: Path) -> None:
    """The pairing of calls and results stays while the run is shown: a 1 GB trajectory
    has some 300,000 calls, so it is arrays of numbers, not objects per call."""
    calls = 30_000
    steps = [b.user(1, "go")]
    for n in range(2, calls // 2 + 2):  # two calls a step, one answered in the next step
        steps.append(
            b.agent(
                n,
                "t",
                calls=[b.call(f"a{n}", "bash"), b.call(f"b{n}", "bash")],
                results=[b.result(f"a{n}", "ok"), b.result(f"b{n - 1}", "late")],
            )
        )
    path = b.write_json(tmp_path / "t.json", b.trajectory(steps), indent=None)
    trajectory = read_trajectory(str(path))
    tracemalloc.start()
    try:
        pairing = pair_results(trajectory.steps)
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert pairing.call_of(3, 1) == (2, 1)  # a result answering the step before's call
    assert [a.step for a in pairing.results_of(2, 1)] == [3]
    assert held < 64 * calls, f"{held / calls:.0f} bytes a call"
