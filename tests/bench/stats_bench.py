"""``trajtui stats`` beside DuckDB on a big generated capture (``make bench``, issue 27 §3).

Generates an acp-harness capture (1 GB by default) under ``$TMPDIR``, then measures, side by
side in this one run, each command in a fresh process (wall time, peak private memory summed
over the process and its workers):

* ``trajtui stats --json FILE``, cold (its own empty index cache: ``XDG_CACHE_HOME`` a fresh
  temporary directory) and warm (a second run, the file unchanged);
* the peer: DuckDB's ``read_json`` of the same file computing the same figures (run count,
  pass share, tool calls in all and by tool, p50 run duration) in one process; the figures
  of both are printed and must agree;
* the floor: an orjson parse of every line, in one process;
* ``trajtui ls --json FILE`` (every row), cold and warm;
* the TUI: a second open of the unchanged file until the complete run count is known
  (``loading_done``), beside a small file's first screen (each the median of 3 headless
  runs of :mod:`tests.bench.tui_bench`'s worker).

Targets (issue 27): cold stats at most 0.5x DuckDB's; ``ls --json`` at most 0.6x the orjson
parse; the second open's complete count within 1.3x the small file's first screen.

Usage::

    python -m tests.bench.stats_bench [--size-mb 1024] [--small-mb 4]

Not part of ``make test``: nothing here is named ``test_*``.
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

from tests.bench.capture_gen import write_capture
from tests.bench.targets import _rss_anon_kb, _tree

ROOT = Path(__file__).resolve().parents[2]
TRAJTUI = str(Path(sys.executable).with_name("trajtui"))

# The generator writes each call as a pending half naming its tool and a completing half
# named by its call id: a call is its pending half, as the timeline pairs them.
_DUCK = """
import json, sys, time, duckdb
start = time.perf_counter()
con = duckdb.connect()
con.execute("SET enable_progress_bar = false")
con.execute(
    "CREATE TEMP TABLE t AS SELECT * FROM read_json(?, format='newline_delimited', columns={"
    "'id': 'VARCHAR', 'score': 'STRUCT(pass BOOLEAN)', 'timing': 'STRUCT(total DOUBLE)', "
    "'trajectory': 'STRUCT(type VARCHAR, name VARCHAR, status VARCHAR)[]'})",
    [sys.argv[1]],
)
runs, passes, p50 = con.execute(
    "SELECT count(*), count(*) FILTER (WHERE score.pass), "
    "quantile_cont(timing.total, 0.5) FROM t"
).fetchone()
by_tool = dict(con.execute(
    "SELECT s.name, count(*) FROM (SELECT unnest(trajectory) AS s FROM t) "
    "WHERE s.type = 'tool_call' AND s.status = 'pending' GROUP BY 1"
).fetchall())
print(json.dumps({"seconds": time.perf_counter() - start, "figures": {
    "runs": runs, "pass_share": round(passes / runs, 6), "tool_calls": sum(by_tool.values()),
    "by_tool": dict(sorted(by_tool.items())), "p50_duration_ms": p50}}))
"""

_ORJSON = """
import orjson, sys, time
start = time.perf_counter()
n = 0
with open(sys.argv[1], "rb") as f:
    for line in f:
        orjson.loads(line)
        n += 1
print(n)
"""


def timed(argv: list[str], env: dict[str, str]) -> tuple[float, int, str]:
    """Wall seconds, peak RssAnon (kB, the process tree) and stdout of ``argv``."""
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.DEVNULL, env=env, cwd=ROOT)
        peak = 0
        while proc.poll() is None:
            peak = max(peak, sum(_rss_anon_kb(p) for p in _tree(proc.pid)))
            time.sleep(0.005)
        wall = time.perf_counter() - start
        if proc.returncode != 0:
            raise RuntimeError(f"{argv} exited {proc.returncode}")
        out.seek(0)
        return wall, peak, out.read().decode()


def stats_figures(text: str) -> dict[str, Any]:
    """The figures DuckDB computes, from ``stats --json``'s first line (the "all" group)."""
    all_ = json.loads(text.splitlines()[0])
    by_tool = {name: t["calls"] for name, t in all_["tools"]["by_tool"].items()}
    return {
        "runs": all_["runs"],
        "pass_share": round(all_["outcomes"]["pass"]["value"], 6),
        "tool_calls": all_["tools"]["all"]["calls"],
        "by_tool": dict(sorted(by_tool.items())),
        "p50_duration_ms": all_["measures"]["duration"]["p50"],
    }


def tui(path: str, env: dict[str, str], runs: int) -> list[dict[str, float]]:
    """``runs`` headless TUI sessions on ``path`` (tui_bench's worker), their reports."""
    out = []
    for _ in range(runs):
        done = subprocess.run(
            [sys.executable, "-m", "tests.bench.tui_bench", "--worker", path],
            capture_output=True,
            text=True,
            check=True,
            env=env,
            cwd=ROOT,
        )
        out.append(json.loads(done.stdout.strip().splitlines()[-1]))
    return out


def line(label: str, seconds: float, kb: int | None = None, note: str = "") -> None:
    peak = f"  peak {kb / 1024:8.1f} MB" if kb is not None else " " * 19
    print(f"  {label:<34}{seconds:8.2f} s{peak}  {note}".rstrip(), flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=int, default=1024)
    parser.add_argument("--small-mb", type=int, default=4)
    parser.add_argument("--runs", type=int, default=3, help="TUI sessions per median")
    parser.add_argument("--path", help="measure this capture (made by capture_gen) instead")
    args = parser.parse_args(argv)
    tmp = tempfile.mkdtemp(prefix="trajtui-stats-bench-")
    try:
        path = args.path or os.path.join(tmp, "capture.jsonl")
        if not args.path:
            print(f"generating {args.size_mb} MB capture in {tmp} ...", file=sys.stderr)
            write_capture(path, args.size_mb * (1 << 20))
        small = os.path.join(tmp, "small.jsonl")
        write_capture(small, args.small_mb * (1 << 20))
        mb = os.path.getsize(path) / (1 << 20)
        print(f"\nstats of a {mb:,.0f} MB capture, side by side", flush=True)
        env = {**os.environ, "XDG_CACHE_HOME": os.path.join(tmp, "cache-stats")}
        cold_s, cold_kb, cold_out = timed([TRAJTUI, "stats", "--json", path], env)
        warm_s, warm_kb, warm_out = timed([TRAJTUI, "stats", "--json", path], env)
        duck_s, duck_kb, duck_out = timed([sys.executable, "-c", _DUCK, path], dict(os.environ))
        orj_s, orj_kb, _ = timed([sys.executable, "-c", _ORJSON, path], dict(os.environ))
        env_ls = {**os.environ, "XDG_CACHE_HOME": os.path.join(tmp, "cache-ls")}
        ls_s, ls_kb, _ = timed([TRAJTUI, "ls", "--json", path], env_ls)
        ls2_s, ls2_kb, _ = timed([TRAJTUI, "ls", "--json", path], env_ls)
        duck = json.loads(duck_out.strip().splitlines()[-1])
        line("stats --json, cold", cold_s, cold_kb, f"{cold_s / duck_s:.2f}x DuckDB (target 0.5)")
        line("stats --json, warm (unchanged)", warm_s, warm_kb, f"{warm_s / duck_s:.2f}x DuckDB")
        line(
            "peer: DuckDB read_json", duck_s, duck_kb, f"(the query alone {duck['seconds']:.2f} s)"
        )
        line("floor: orjson parse of every line", orj_s, orj_kb)
        line("ls --json, cold", ls_s, ls_kb, f"{ls_s / orj_s:.2f}x orjson (target 0.6)")
        line("ls --json, warm", ls2_s, ls2_kb, f"{ls2_s / orj_s:.2f}x orjson")
        mine, cached = stats_figures(cold_out), stats_figures(warm_out)
        theirs = duck["figures"]
        verdict = "agree" if mine == theirs == cached else "DIFFER"
        print(f"  figures ({verdict}):\n    trajtui {mine}\n    DuckDB  {theirs}", flush=True)
        if cached != mine:
            print(f"    warm    {cached}", flush=True)
        tui_env = {**os.environ, "XDG_CACHE_HOME": os.path.join(tmp, "cache-tui")}
        tui(path, tui_env, 1)  # the first open saves the index cache
        second = statistics.median(r["all_read"] for r in tui(path, tui_env, args.runs))
        off = {**tui_env, "TRAJTUI_CACHE_MAX_MB": "0"}
        first = statistics.median(r["first_screen"] for r in tui(small, off, args.runs))
        print(f"TUI, headless 120x40, median of {args.runs}:", flush=True)
        line("second open, complete run count", second, None, f"{second / first:.2f}x (target 1.3)")
        line(f"floor: first screen of {args.small_mb} MB", first)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
