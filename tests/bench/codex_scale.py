"""A 20 GB Codex CLI rollout opens and lists in constant memory (``make scale-check``;
``python -m tests.bench.codex_scale --size-gb 20``).

Writes a rollout of the real 0.60 shape (:mod:`tests.bench.codex_gen`) to a scratch folder
under ``TMPDIR`` (free disk checked first: the size is scaled down, and the report says
so, when the disk cannot hold it with room to spare), then measures beside ``wc -l`` on
the same file (the floor: one read of every byte):

* ``trajtui ls --json --no-cache``: seconds to its row and peak private memory (RssAnon
  over the process tree);
* the TUI: seconds to its first screen with the run shown (listed at once as a partial
  row, ``reading``, revised as the fold goes on), and peak private memory over the first
  ``--browse`` seconds of browsing while the fold reads on (the timeline's last and first
  steps opened every few seconds).

The file is deleted at the end. Not part of ``make test`` or ``make bench``.
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

from tests.bench.codex_gen import write_rollout
from tests.bench.targets import _rss_anon_kb, _tree, first_ls_line

SPARE = 4 * 1024**3
"""Free disk left after the file is written."""

_TUI = """
import asyncio, json, sys, time
from tests.bench.tui_bench import as_the_command
from trajtui.ui.app import make_app
from trajtui.ui.screens.main import MainScreen

async def main(path, browse):
    start = time.perf_counter()
    as_the_command([path])
    app = make_app([path])
    async with app.run_test(size=(120, 40)) as pilot:
        while time.perf_counter() - start < 600:
            await asyncio.sleep(0.002)
            if isinstance(app.screen, MainScreen) and app.screen.run is not None:
                break
        else:
            raise SystemExit("no run shown")
        first = time.perf_counter() - start
        row = app.screen.run.summary
        print(json.dumps({"first_screen": first, "status": row.status, "steps": row.steps}),
              flush=True)
        until = time.perf_counter() + browse
        keys = ["G", "g"]
        while time.perf_counter() < until:
            await pilot.press(keys[0])
            keys.reverse()
            await pilot.pause(2.0)
        row = app.screen.ws.sources[0].entry(0)  # the list's row (the run shown stays)
        print(json.dumps({"status": row.status, "steps": row.steps}), flush=True)

asyncio.run(main(sys.argv[1], float(sys.argv[2])))
"""


def tui(path: str, browse: float) -> tuple[dict[str, object], dict[str, object], int]:
    """The TUI on ``path`` in a fresh process: what it showed first, what it showed after
    ``browse`` seconds, and its peak RssAnon (kB) over all of it."""
    env = {**os.environ, "TRAJTUI_CACHE_MAX_MB": "0", "PYTHONPATH": os.getcwd()}
    proc = subprocess.Popen(
        [sys.executable, "-c", _TUI, path, str(browse)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    peak = 0
    while proc.poll() is None:
        peak = max(peak, sum(_rss_anon_kb(p) for p in _tree(proc.pid)))
        time.sleep(0.02)
    assert proc.stdout is not None
    lines = [json.loads(x) for x in proc.stdout.read().splitlines() if x.startswith("{")]
    if len(lines) < 2:
        return {}, {}, peak
    return lines[0], lines[1], peak


def wc_lines(path: str) -> tuple[float, int]:
    """Seconds ``wc -l`` takes on ``path``, and its count."""
    start = time.perf_counter()
    out = subprocess.run(["wc", "-l", path], capture_output=True, text=True, check=True)
    return time.perf_counter() - start, int(out.stdout.split()[0])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size-gb", type=float, default=20.0)
    parser.add_argument("--browse", type=float, default=60.0)
    args = parser.parse_args(argv)
    want = int(args.size_gb * 1024**3)
    scratch = tempfile.mkdtemp(prefix="trajtui-codex-scale-")
    try:
        free = shutil.disk_usage(scratch).free
        size = min(want, free - SPARE)
        if size < want:
            print(
                f"NOTE: {free / 1e9:.1f} GB free under {scratch}: the rollout is scaled down "
                f"from {want / 1e9:.1f} GB to {max(size, 0) / 1e9:.1f} GB",
                flush=True,
            )
        if size <= 0:
            return
        path = os.path.join(scratch, "rollout-2026-11-26T10-00-00-scale.jsonl")
        print(f"writing a {size / 1e9:.1f} GB rollout ...", file=sys.stderr, flush=True)
        gen = write_rollout(path, size)
        wc_s, wc_n = wc_lines(path)
        ls_first, ls_end, ls_kb = first_ls_line(path)
        shown, later, tui_kb = tui(path, args.browse)
        print(
            f"\nrollout {gen.size / 1e9:.1f} GB, {gen.lines:,} lines ({wc_n:,} by wc -l), "
            f"{gen.turns:,} turns, {gen.calls:,} calls, under {scratch}"
        )
        print("\n| case | time | peak private memory |\n|---|---|---|")
        print(f"| `wc -l` (floor) | {wc_s:.1f} s | |")
        print(
            f"| `trajtui ls --json`: its row | {ls_first:.1f} s ({ls_first / wc_s:.1f}x wc) "
            f"| {ls_kb / 1024:.0f} MB |"
        )
        if shown:
            print(
                f"| TUI first screen, run shown ({shown['status']}, {shown['steps']:,} steps "
                f"so far) | {float(str(shown['first_screen'])):.2f} s | |"
            )
            print(
                f"| TUI browsing for {args.browse:g} s while the fold reads on (then "
                f"{later['status']}, {later['steps']:,} steps) | | {tui_kb / 1024:.0f} MB |"
            )
        else:
            print(f"| TUI: no run shown | | {tui_kb / 1024:.0f} MB |")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
