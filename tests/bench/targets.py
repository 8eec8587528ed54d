"""The speed targets of the run list (``make bench``): each figure beside the floor it is
compared with, measured in the same run on the same machine.

* every row of a big capture: ``trajtui ls --json FILE > /dev/null`` in a fresh process,
  wall time and peak private memory (RssAnon summed over the process and its workers);
  floors: reading the file (``cat``), and decoding just the fields a row needs with msgspec
  in one process (what the issue calls "about the cost of decoding those fields");
* filtering and sorting 150,000 runs: :meth:`RunStore.plan` (what the TUI's worker runs)
  for a text filter and a score sort; floors: a substring test of every title, and
  ``sorted`` of every score, in plain Python.

Usage::

    python -m tests.bench.targets [--size-mb 1024] [--runs 3] [--runs-count 150000]

Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.bench.capture_gen import write_capture

ROOT = Path(__file__).resolve().parents[2]
TRAJTUI = str(Path(sys.executable).with_name("trajtui"))


# -- measuring a command -------------------------------------------------------------------


def _tree(pid: int) -> list[int]:
    """``pid`` and its descendants."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    todo.extend(int(c) for c in f.read().split())
        except OSError:
            continue
    return out


def _rss_anon_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status", "rb") as f:
            for line in f:
                if line.startswith(b"RssAnon:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def run_command(argv: list[str]) -> tuple[float, int]:
    """Wall seconds and peak RssAnon (kB, summed over the process tree) of ``argv``, its
    output thrown away."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = 0
    while proc.poll() is None:
        peak = max(peak, sum(_rss_anon_kb(p) for p in _tree(proc.pid)))
        time.sleep(0.005)
    wall = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"{argv} exited {proc.returncode}")
    return wall, peak


def median_of(runs: int, measure: Callable[[], tuple[float, int]]) -> tuple[float, int]:
    results = [measure() for _ in range(runs)]
    return statistics.median(r[0] for r in results), int(statistics.median(r[1] for r in results))


# -- floors, in a fresh process -----------------------------------------------------------

_DECODE = """
import sys, time, msgspec
from trajtui.formats.acp import RECORDS
decode = msgspec.json.Decoder(RECORDS["acp-capture"].lite).decode
start = time.perf_counter()
n = 0
with open(sys.argv[1], "rb") as f:
    for line in f:
        if line.strip():
            decode(line)
            n += 1
print(time.perf_counter() - start)
"""


def decode_floor(path: str) -> tuple[float, int]:
    """msgspec decoding of the fields a row needs, every line, one process (reading
    included)."""
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", _DECODE, path], capture_output=True, text=True, check=True
    )
    del out
    return time.perf_counter() - start, 0


# -- filter and sort over many runs -------------------------------------------------------

_ARRANGE = """
import json, sys, time
from trajtui.core.workspace import open_paths
from trajtui.formats.registry import formats
from trajtui.ui.store import Filter, RunStore

ws = open_paths([sys.argv[1]], formats())
source = ws.sources[0]
for _ in source.scan():
    pass
filler = source.filler()
for first, rows in filler.fill(len(source)):
    for k, row in enumerate(rows):
        source.take(first + k, row)
filler.close()
store = RunStore(ws)
store.count_new()
titles = [source.row_value(i, "title") for i in range(len(source))]
scores = [source.row_value(i, "score") for i in range(len(source))]
out = {"runs": len(source)}
QUERY = "(score<0.5 OR steps>3) -status:timeout tool:Read bench-00*"

def best(f, n=3):
    times = []
    for _ in range(n):
        t = time.perf_counter(); f(); times.append(time.perf_counter() - t)
    return min(times)

out["filter"] = best(lambda: store.plan(None, False, Filter.parse("bench-0001")))
out["sort"] = best(lambda: store.plan("score", False, Filter()))
if "query" in getattr(Filter, "__dataclass_fields__", {}):  # the query language (issue 11)
    out["query"] = best(lambda: store.plan(None, False, Filter.parse(QUERY)))
out["filter_floor"] = best(lambda: [t for t in titles if "bench-0001" in t.casefold()])
out["sort_floor"] = best(lambda: sorted((s for s in scores if s is not None)))
print(json.dumps(out))
"""


def tiny_capture(path: str, count: int) -> None:
    """``count`` small capture records with scores and titles."""
    with open(path, "w") as f:
        for i in range(count):
            rec = {
                "id": f"bench-{i:06d}",
                "input": f"question bench-{i:06d} about the table layout",
                "output": "",
                "trajectory": [{"type": "tool_call", "name": "Read", "status": "completed"}],
                "timing": {"start": 0, "end": 5 + i % 97},
                "toolErrors": False,
                "score": {"pass": i % 3 != 0, "score": (i * 7919 % 1000) / 1000},
            }
            f.write(json.dumps(rec) + "\n")


def arrange(path: str) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-c", _ARRANGE, path], capture_output=True, text=True, check=True
    )
    result: dict[str, Any] = json.loads(out.stdout)
    return result


# -- report -------------------------------------------------------------------------------


def row(name: str, figure: str, floor: str, ratio: float, target: str) -> str:
    return f"| {name} | {figure} | {floor} | {ratio:.2f}x | {target} |"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size-mb", type=int, default=1024)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--runs-count", type=int, default=150_000)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="trajtui-targets-") as tmp:
        big = os.path.join(tmp, "capture.jsonl")
        print(f"generating a {args.size_mb} MB capture ...", file=sys.stderr, flush=True)
        gen = write_capture(big, args.size_mb * 1024 * 1024)
        env_cache = ["--no-cache"] if "--no-cache" in _ls_help() else []
        print("measuring ls, cat and the decode floor ...", file=sys.stderr, flush=True)
        ls_s, ls_kb = median_of(
            args.runs, lambda: run_command([TRAJTUI, "ls", "--json", *env_cache, big])
        )
        cat_s, _ = median_of(args.runs, lambda: run_command(["cat", big]))
        dec_s, _ = median_of(args.runs, lambda: decode_floor(big))
        many = os.path.join(tmp, "many.jsonl")
        tiny_capture(many, args.runs_count)
        print(f"measuring filter and sort over {args.runs_count:,} runs ...", file=sys.stderr)
        ar = arrange(many)
    cpus = len(os.sched_getaffinity(0))
    print(
        f"\nmachine: {platform.machine()}, {cpus} cores, Python {platform.python_version()}; "
        f"capture {gen.size / 1e9:.2f} GB, {gen.records:,} records; median of {args.runs}"
    )
    print("\n| case | trajtui | floor | ratio | target |\n|---|---|---|---|---|")
    print(
        row(
            "every row of the capture (`ls --json`, fresh process)",
            f"{ls_s:.2f} s",
            f"{dec_s:.2f} s (msgspec, just those fields, 1 process)",
            ls_s / dec_s,
            "<= 2 s per GB",
        )
    )
    print(
        row(
            "reading the capture (`cat`)",
            f"{cat_s:.2f} s",
            f"{cat_s:.2f} s",
            1.0,
            "the floor of it all",
        )
    )
    print(
        row(
            "peak private memory of `ls --json` (RssAnon, with its workers)",
            f"{ls_kb / 1024:.0f} MB",
            "—",
            1.0,
            "<= 150 MB per GB",
        )
    )
    print(
        row(
            f"filter {ar['runs']:,} runs by text (`RunStore.plan`)",
            f"{ar['filter'] * 1000:.0f} ms",
            f"{ar['filter_floor'] * 1000:.0f} ms (substring of each title)",
            ar["filter"] / ar["filter_floor"],
            "<= 200 ms after the last key",
        )
    )
    if "query" in ar:
        print(
            row(
                f"filter {ar['runs']:,} runs by a query (numbers, status, tool, glob)",
                f"{ar['query'] * 1000:.0f} ms",
                f"{ar['filter_floor'] * 1000:.0f} ms (substring of each title)",
                ar["query"] / ar["filter_floor"],
                "<= 200 ms after the last key",
            )
        )
    print(
        row(
            f"sort {ar['runs']:,} runs by score (`RunStore.plan`)",
            f"{ar['sort'] * 1000:.0f} ms",
            f"{ar['sort_floor'] * 1000:.0f} ms (`sorted` of the scores)",
            ar["sort"] / ar["sort_floor"],
            "<= 200 ms after the key",
        )
    )


def _ls_help() -> str:
    return subprocess.run([TRAJTUI, "ls", "--help"], capture_output=True, text=True).stdout


def first_ls_line(path: str) -> tuple[float, float, int]:
    """Seconds to the first line of ``ls --json``, to its end, and peak RssAnon (kB)."""
    env = {**os.environ, "TRAJTUI_CACHE_MAX_MB": "0"}
    start = time.perf_counter()
    proc = subprocess.Popen(
        [TRAJTUI, "ls", "--json", "--no-cache", path],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    assert proc.stdout is not None
    os.set_blocking(proc.stdout.fileno(), False)
    first = None
    peak = 0
    while proc.poll() is None:
        got = proc.stdout.read(1 << 20)  # drained: a full pipe would stop ls
        if first is None and got:
            first = time.perf_counter() - start
        peak = max(peak, sum(_rss_anon_kb(p) for p in _tree(proc.pid)))
        time.sleep(0.005)
    end = time.perf_counter() - start
    return (first if first is not None else end), end, peak


if __name__ == "__main__":
    main()
