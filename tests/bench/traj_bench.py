"""mini-swe-agent and SWE-agent outputs of a realistic size (``python -m
tests.bench.traj_bench``): ``trajtui ls`` on a SWE-agent 1.1 trajectory whose steps each
repeat the conversation (``query``: the file grows with the square of its steps), and on
a SWE-bench batch of mini-swe-agent trajectories (each model call's whole API response
kept, as mini writes it); wall time and peak private memory (RssAnon over the process
tree), medians of 3, beside jq reading the same JSON (the floor: it only parses) and
Python's json.load. Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

from tests.bench.targets import median_of, run_command
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
    args = parser.parse_args(argv)
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
