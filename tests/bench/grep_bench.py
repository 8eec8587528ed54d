"""The speed of search (``make bench``): ``trajtui grep`` on the generated 1 GB capture, in
MB/s, beside its floors measured in the same run on the same machine.

* search: :class:`trajtui.core.search.Search` over the indexed file (what ``grep`` and the
  TUI's search screen run once the file is indexed), for a plain string with few hits, the
  same ignoring case, a quoted string (JSON escapes) and a regular expression;
* ``trajtui grep`` in a fresh process, the index in the cache (a second grep of the file);
* floors: ``grep -c`` over the raw file, and re2 over the raw bytes in 16 MB blocks.

Usage::

    python -m tests.bench.grep_bench [--size-mb 1024] [--runs 3]

Not part of ``make test``. Target: >= 500 MB/s for a plain string with few hits.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import re2

from tests.bench.capture_gen import write_capture
from tests.helpers.workspace import open_paths
from trajtui.core.jsonl.source import JsonlSource
from trajtui.core.search import Hit, Search, compile_needle

TRAJTUI = str(Path(sys.executable).with_name("trajtui"))
RARE = "zqxjkv-nowhere"
"""A plain string the capture does not hold (few hits: the prefilter finds no record)."""
TARGET_MBS = 500.0


def best_of(runs: int, f: Callable[[], object]) -> float:
    """The median wall time of ``runs`` calls of ``f``, in seconds."""
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def re2_floor(path: str, pattern: bytes) -> int:
    """Blocks of the file holding ``pattern`` (re2 over the raw bytes, 16 MB at a time)."""
    compiled = re2.compile(pattern)
    found = 0
    with open(path, "rb") as f:
        while block := f.read(16 << 20):
            found += compiled.search(block) is not None
    return found


def search(ws_sources: list[JsonlSource], pattern: str, **kw: bool) -> int:
    """Hits of one in-process search."""
    needle = compile_needle(pattern, **kw)
    return sum(isinstance(e, Hit) for e in Search(ws_sources, needle).events())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size-mb", type=int, default=1024)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="trajtui-grep-") as tmp:
        big = os.path.join(tmp, "capture.jsonl")
        print(f"generating a {args.size_mb} MB capture ...", file=sys.stderr, flush=True)
        write_capture(big, args.size_mb * 1024 * 1024)
        size = os.path.getsize(big)
        mb = size / 1e6
        ws = open_paths([big])
        t = time.perf_counter()
        for _ in ws.scan():
            pass
        index_s = time.perf_counter() - t
        sources = [s for s in ws.sources if isinstance(s, JsonlSource)]
        subprocess.run(["cat", big], stdout=subprocess.DEVNULL, check=True)  # in the page cache
        grep_s = best_of(
            args.runs,
            lambda: subprocess.run(["grep", "-c", RARE, big], stdout=subprocess.DEVNULL),
        )
        re2_s = best_of(args.runs, lambda: re2_floor(big, RARE.encode()))
        rows = [
            ("floor: grep -c (raw file)", grep_s, None),
            ("floor: re2 over raw bytes", re2_s, None),
            ("index the file (first open)", index_s, None),
        ]
        cases: list[tuple[str, str, dict[str, bool]]] = [
            ("search: plain, few hits", RARE, {}),
            ("search: plain -i, few hits", RARE.upper(), {"ignore_case": True}),
            ('search: quoted "...", few hits', 'say "zqxjkv"', {}),
            ("search: regex, few hits", r"zqx\w+nowhere", {"regex": True}),
        ]
        for name, pattern, kw in cases:

            def one(p: str = pattern, k: dict[str, bool] = kw) -> int:
                return search(sources, p, **k)

            rows.append((name, best_of(args.runs, one), None))
        ws.close()
        subprocess.run([TRAJTUI, "grep", big, RARE], capture_output=True)  # index cached
        cli_s = best_of(
            args.runs, lambda: subprocess.run([TRAJTUI, "grep", big, RARE], capture_output=True)
        )
        rows.append(("trajtui grep (fresh process, index cached)", cli_s, None))
        print(f"\ngrep bench: {mb:,.0f} MB capture (target >= {TARGET_MBS:.0f} MB/s for plain)")
        for name, seconds, _ in rows:
            print(f"  {name:<44} {seconds:7.2f} s  {mb / seconds:8,.0f} MB/s")


if __name__ == "__main__":
    main()
