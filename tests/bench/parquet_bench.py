"""The Parquet tables and ``trajtui sql`` on a big generated capture (``make bench``, issue 27).

Generates an acp-harness capture (1 GB by default) under ``$TMPDIR``, then measures, each in
a fresh process with its own cache directory:

* ``trajtui export --parquet OUT FILE``: wall time and peak private memory (RssAnon summed
  over the process and its workers), the first time, then again with the file unchanged
  (only the manifest is checked: nothing is written);
* ``trajtui sql "<count and pass share>" --from OUT`` (the tables made), and ``trajtui sql``
  of the same query on FILE itself, a first time (its tables built into the cache) and a
  second (kept);
* beside the first export, ``trajtui stats --json FILE``, which reads every run whole too;
* beside them, the floor: DuckDB's ``read_json`` of the same file computing the same
  figures (count, graded, passes) in one process, and the figures each gives, which must
  agree.

Usage::

    python -m tests.bench.parquet_bench [--size-mb 1024]

Not part of ``make test``: nothing here is named ``test_*``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.bench.capture_gen import write_capture
from tests.bench.targets import run_command

TRAJTUI = str(Path(sys.executable).with_name("trajtui"))
QUERY = "SELECT count(*) AS runs, count(grade) AS graded, sum(grade::int) AS passes FROM runs"

_DUCK = """
import json, sys, time, duckdb
start = time.perf_counter()
con = duckdb.connect()
con.execute("SET enable_progress_bar = false")
row = con.execute(
    "SELECT count(*), count(score.pass), sum(score.pass::int) FROM read_json(?, "
    "format='newline_delimited', columns={'id': 'VARCHAR', 'score': 'STRUCT(pass BOOLEAN)'})",
    [sys.argv[1]],
).fetchone()
print(json.dumps({"seconds": time.perf_counter() - start, "row": list(row)}))
"""


def _figures(argv: list[str], env: dict[str, str]) -> list[int]:
    out = subprocess.run(argv, capture_output=True, text=True, env=env, check=False)
    if out.returncode != 0:
        raise RuntimeError(f"{argv} exited {out.returncode}: {out.stderr[-500:]}")
    row = json.loads(out.stdout.splitlines()[0])
    return [row["runs"], row["graded"], row["passes"]]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=int, default=1024)
    args = parser.parse_args(argv)
    tmp = tempfile.mkdtemp(prefix="trajtui-parquet-bench-")
    try:
        path = os.path.join(tmp, "capture.jsonl")
        print(f"generating {args.size_mb} MB capture in {tmp} ...", file=sys.stderr, flush=True)
        gen = write_capture(path, args.size_mb * (1 << 20))
        env = {**os.environ, "XDG_CACHE_HOME": os.path.join(tmp, "cache")}
        os.environ.update(XDG_CACHE_HOME=env["XDG_CACHE_HOME"])
        out = os.path.join(tmp, "tables")
        export = [TRAJTUI, "export", "--parquet", out, path]
        mb = gen.size / (1 << 20)
        print(f"\nParquet tables of a {mb:,.0f} MB capture ({gen.records:,} runs)", flush=True)
        first_s, first_kb = run_command(export)
        size = sum(p.stat().st_size for p in Path(out).rglob("*.parquet"))
        print(
            f"  export --parquet, first       {first_s:8.2f} s  peak {first_kb / 1024:8.1f} MB"
            f"  ({mb / first_s:,.1f} MB/s; tables {size / (1 << 20):,.1f} MB)",
            flush=True,
        )
        again_s, again_kb = run_command(export)
        print(
            f"  export --parquet, unchanged   {again_s:8.2f} s  peak {again_kb / 1024:8.1f} MB",
            flush=True,
        )
        sql_from = [TRAJTUI, "sql", QUERY, "--from", out, "--json"]
        from_s, from_kb = run_command(sql_from)
        print(
            f"  sql count/pass --from OUT     {from_s:8.2f} s  peak {from_kb / 1024:8.1f} MB",
            flush=True,
        )
        mine = _figures(sql_from, env)
        started = time.perf_counter()
        duck = subprocess.run(
            [sys.executable, "-c", _DUCK, path], capture_output=True, text=True, check=True
        )
        wall = time.perf_counter() - started
        floor = json.loads(duck.stdout.strip().splitlines()[-1])
        print(
            f"  floor: DuckDB read_json       {wall:8.2f} s  (a fresh process; the query alone"
            f" {floor['seconds']:.2f} s)",
            flush=True,
        )
        verdict = "agree" if mine == floor["row"] else "DIFFER"
        print(f"  figures: trajtui {mine}, DuckDB read_json {floor['row']} ({verdict})", flush=True)
        stats_s, stats_kb = run_command([TRAJTUI, "stats", "--json", path])
        print(
            f"  peer: stats --json FILE       {stats_s:8.2f} s  peak {stats_kb / 1024:8.1f} MB"
            "  (reads every run whole too)",
            flush=True,
        )
        sql_file = [TRAJTUI, "sql", QUERY, path, "--json"]
        build_s, build_kb = run_command(sql_file)  # builds its tables in the cache
        print(
            f"  sql count/pass FILE, first    {build_s:8.2f} s  peak {build_kb / 1024:8.1f} MB",
            flush=True,
        )
        file_s, file_kb = run_command(sql_file)
        print(
            f"  sql count/pass FILE (cached)  {file_s:8.2f} s  peak {file_kb / 1024:8.1f} MB",
            flush=True,
        )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
