"""mini-swe-agent and SWE-agent outputs of a realistic size (``python -m
tests.bench.traj_bench``): ``trajtui ls`` on a SWE-agent 1.1 trajectory whose steps each
repeat the conversation (``query``: the file grows with the square of its steps), and on
a SWE-bench batch of mini-swe-agent trajectories (each model call's whole API response
kept, as mini writes it); wall time and peak private memory (RssAnon over the process
tree), medians of 3, beside jq reading the same JSON (the floor: it only parses) and
Python's json.load. With ``--size-gb``: one mini-swe-agent trajectory and one SWE-agent
trajectory of that size each (issue 26: a big single document) beside a 10 MB one of each:
``ls --json`` and ``show`` of the last tool call, each timed once with its peak private
memory, and the TUI's first screen (a run shown; medians of 3, launched alternately, the
cache off). Targets: under 250 MB private, the first screen within 2x the small file's.
Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.bench.targets import _rss_anon_kb, _tree, median_of, run_command
from tests.formats.mini_swe_agent import builders as bm
from tests.formats.swe_agent import builders as bs

TRAJTUI = str(Path(sys.executable).with_name("trajtui"))
OBSERVATION = "line of a file the agent read\n" * 100  # 3 kB


def write_swe(path: str, steps: int) -> None:
    """A 1.1 trajectory of ``steps`` steps, written piece by piece (never held whole)."""
    doc = bs.v11_run()
    with open(path, "w") as f:
        f.write('{\n  "trajectory": [\n')
        conv: list[dict[str, object]] = []
        for n in range(steps):
            conv.append({"role": "assistant", "content": f"THOUGHT: step {n}", "agent": "main"})
            conv.append({"role": "tool", "content": [{"type": "text", "text": OBSERVATION}]})
            item = bs.item(f"cat src/module_{n}.py", OBSERVATION, f"THOUGHT: step {n}", 0.2)
            item["query"] = conv
            f.write(("    " if n == 0 else ",\n    ") + json.dumps(item, indent=2))
        f.write("\n  ],\n")
        rest = {k: doc[k] for k in ("history", "info", "replay_config", "environment")}
        f.write(json.dumps(rest, indent=2)[2:])


def write_swe_sized(path: str, size: int) -> int:
    """A 1.1 trajectory of about ``size`` bytes (steps added until it is): its steps."""
    doc = bs.v11_run()
    steps = 0
    with open(path, "w") as f:
        f.write('{\n  "trajectory": [\n')
        conv: list[dict[str, object]] = []
        while f.tell() < size:
            n = steps
            conv.append({"role": "assistant", "content": f"THOUGHT: step {n}", "agent": "main"})
            conv.append({"role": "tool", "content": [{"type": "text", "text": OBSERVATION}]})
            item = bs.item(f"cat src/module_{n}.py", OBSERVATION, f"THOUGHT: step {n}", 0.2)
            item["query"] = conv
            f.write(("    " if n == 0 else ",\n    ") + json.dumps(item, indent=2))
            steps += 1
        f.write("\n  ],\n")
        rest = {k: doc[k] for k in ("history", "info", "replay_config", "environment")}
        f.write(json.dumps(rest, indent=2)[2:])
    return steps


def write_mini_sized(path: str, size: int) -> int:
    """One mini trajectory of about ``size`` bytes (model calls added until it is, each
    with its whole API response, as mini writes it): its model calls."""
    run = bm.toolcall_run()
    call0, result0 = run["messages"][2:4]
    calls = 0
    with open(path, "w") as f:
        f.write('{\n  "info": ' + json.dumps(run["info"], indent=2) + ',\n  "messages": [\n')
        f.write(",\n".join(json.dumps(m, indent=2) for m in run["messages"][:2]))
        while f.tell() < size:
            call, result = json.loads(json.dumps([call0, result0]))
            call["extra"]["response"]["choices"][0]["message"]["content"] = OBSERVATION[:1500]
            call["tool_calls"][0]["id"] = call["extra"]["actions"][0]["tool_call_id"] = f"c{calls}"
            result["tool_call_id"] = f"c{calls}"
            result["extra"]["raw_output"] = OBSERVATION
            f.write(",\n" + json.dumps(call, indent=2) + ",\n" + json.dumps(result, indent=2))
            calls += 1
        f.write(",\n" + json.dumps(run["messages"][-1], indent=2) + "\n  ],\n")
        f.write('  "trajectory_format": ' + json.dumps(run["trajectory_format"]) + "\n}\n")
    return calls


def ls_json(path: str) -> tuple[float, int, str, dict[str, Any]]:
    """Wall seconds, peak RssAnon (kB, over the process tree) of ``ls --json path``, and
    what it listed (the row's steps, or its first problem)."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        proc = subprocess.Popen(
            [TRAJTUI, "ls", "--json", "--no-cache", path], stdout=out, stderr=err
        )
        peak = 0
        while proc.poll() is None:
            peak = max(peak, sum(_rss_anon_kb(p) for p in _tree(proc.pid)))
            time.sleep(0.005)
        wall = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        row = json.loads(out.readline() or "{}")
        problem = err.readline().strip()
    said = f"{row.get('steps')} steps listed" if row.get("steps") else problem[-60:] or "?"
    return wall, peak, said, row


_FIRST_SCREEN = """
import asyncio, sys, time
from trajtui.ui.app import make_app
from trajtui.ui.screens.main import MainScreen

async def first(path):
    from tests.bench.tui_bench import as_the_command
    start = time.perf_counter()
    as_the_command([path])
    app = make_app([path])
    async with app.run_test(size=(120, 40)):
        while time.perf_counter() - start < 900:
            await asyncio.sleep(0.005)
            if isinstance(app.screen, MainScreen) and app.screen.run is not None:
                return time.perf_counter() - start
    raise SystemExit("no run shown")

print(asyncio.run(first(sys.argv[1])))
"""


def watched(argv: list[str]) -> tuple[float, int, str]:
    """Wall seconds, peak RssAnon (kB, over the process tree) and stdout of ``argv``."""
    env = {**os.environ, "TRAJTUI_CACHE_MAX_MB": "0", "PYTHONPATH": os.getcwd()}
    with tempfile.TemporaryFile("w+") as out:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.DEVNULL, env=env)
        peak = 0
        while proc.poll() is None:
            peak = max(peak, sum(_rss_anon_kb(p) for p in _tree(proc.pid)))
            time.sleep(0.005)
        wall = time.perf_counter() - start
        out.seek(0)
        return wall, peak, out.read()


def first_screens(small: str, big: str, runs: int) -> tuple[float, float, int]:
    """Medians of ``runs`` first screens of each (launched alternately), and the big
    one's peak RssAnon (kB)."""
    times: dict[str, list[float]] = {small: [], big: []}
    peak = 0
    for _ in range(runs):
        for path in (small, big):
            wall, kb, out = watched([sys.executable, "-c", _FIRST_SCREEN, path])
            times[path].append(float(out.strip().splitlines()[-1]) if out.strip() else float("nan"))
            if path == big:
                peak = max(peak, kb)
    return statistics.median(times[small]), statistics.median(times[big]), peak


def measure_sized(gb: float, tmp: str, runs: int) -> None:
    """A big mini and SWE-agent trajectory beside a 10 MB one of each."""
    print(f"\n| case | {gb:g} GB | 10 MB | target |")
    print("|---|---|---|---|")
    for name, write, suffix, unit in (
        ("mini-swe-agent `.traj.json`", write_mini_sized, ".traj.json", "model calls"),
        ("SWE-agent `.traj`", write_swe_sized, ".traj", "steps"),
    ):
        paths, ls, show = [], [], []
        for size in (int(gb * 1024**3), 10 * 1024**2):
            path = os.path.join(tmp, f"run-{size}{suffix}")
            n = write(path, size)
            paths.append(path)
            wall, kb, said, row = ls_json(path)
            ls.append(f"{wall:.1f} s, {kb / 1024:.0f} MB ({n:,} {unit}: {said})")
            last = f"{row.get('ref')}/step-{(row.get('steps') or 2) - 1}"
            wall, kb, out = watched([TRAJTUI, "show", "--no-cache", path, last])
            show.append(f"{wall:.1f} s, {kb / 1024:.0f} MB ({len(out):,} chars shown)")
        print(f"| {name} `ls --json`: time, peak private | {ls[0]} | {ls[1]} | < 250 MB |")
        print(f"| {name} `show` last call: time, peak private | {show[0]} | {show[1]} | < 250 MB |")
        small_s, big_s, big_kb = first_screens(paths[1], paths[0], runs)
        print(
            f"| {name} TUI first screen, median of {runs} | {big_s:.2f} s, {big_kb / 1024:.0f} MB "
            f"({big_s / small_s:.1f}x) | {small_s:.2f} s | <= 2x, < 250 MB |",
            flush=True,
        )
        for path in paths:
            os.unlink(path)


def write_mini_batch(root: str, instances: int, calls: int) -> None:
    """A batch of ``instances`` trajectories of ``calls`` model calls each."""
    for i in range(instances):
        run = bm.toolcall_run()
        body = run["messages"][2:4]
        messages = run["messages"][:2]
        for n in range(calls):
            call, result = json.loads(json.dumps(body))
            call["extra"]["response"]["choices"][0]["message"]["content"] = OBSERVATION[:1500]
            call["tool_calls"][0]["id"] = call["extra"]["actions"][0]["tool_call_id"] = f"c{n}"
            result["tool_call_id"] = f"c{n}"
            result["extra"]["raw_output"] = OBSERVATION
            messages += [call, result]
        run["messages"] = messages + run["messages"][-1:]
        run["instance_id"] = name = f"proj__proj-{i:04d}"
        os.makedirs(os.path.join(root, name))
        with open(os.path.join(root, name, name + ".traj.json"), "w") as f:
            json.dump(run, f, indent=2)


def measure(name: str, path: str, files: list[str]) -> None:
    size = sum(os.path.getsize(f) for f in files)
    ls = median_of(3, lambda: run_command([TRAJTUI, "ls", "--json", path]))
    jq = shutil.which("jq")
    loop = "; ".join(f"jq -e 'length' {f} >/dev/null" for f in files[:2000])
    floor = median_of(3, lambda: run_command(["sh", "-c", loop])) if jq else None
    load = "import json, sys\nfor f in sys.argv[1:]: json.load(open(f))"
    py = median_of(3, lambda: run_command([sys.executable, "-c", load, *files]))
    print(f"{name}: {len(files)} file(s), {size / 1e6:.0f} MB")
    print(f"  trajtui ls --json   {ls[0]:6.2f} s  {ls[1] / 1024:6.0f} MB peak private")
    if floor:
        print(f"  jq (floor: parse)   {floor[0]:6.2f} s  {floor[1] / 1024:6.0f} MB")
    print(f"  python json.load    {py[0]:6.2f} s  {py[1] / 1024:6.0f} MB")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=200, help="SWE-agent steps (~160 MB)")
    parser.add_argument("--instances", type=int, default=300, help="mini batch instances")
    parser.add_argument("--calls", type=int, default=70, help="model calls per instance")
    parser.add_argument("--size-gb", type=float, help="one trajectory of each of this size")
    parser.add_argument("--runs", type=int, default=3, help="TUI first screens of each")
    args = parser.parse_args(argv)
    if args.size_gb:
        with tempfile.TemporaryDirectory(prefix="trajtui-traj-") as tmp:
            measure_sized(args.size_gb, tmp, args.runs)
        return
    with tempfile.TemporaryDirectory() as tmp:
        swe = os.path.join(tmp, "big.traj")
        write_swe(swe, args.steps)
        measure("SWE-agent 1.1 trajectory", swe, [swe])
        out = os.path.join(tmp, "batch")
        write_mini_batch(out, args.instances, args.calls)
        files = sorted(os.path.join(out, d, d + ".traj.json") for d in os.listdir(out))
        measure("mini-swe-agent batch", out, files)


if __name__ == "__main__":
    main()
