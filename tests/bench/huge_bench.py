"""A capture of many gigabytes (``python -m tests.bench.huge_bench --size-gb 10``): the
first screen against a 10 MB file's, and peak private memory (RssAnon, summed over the
process and its row workers) of ``ls --json`` and of a TUI session that loads every run,
sorts by score and filters, the index cache off.

Not part of ``make test``; ``make bench`` runs it at 2 GB (``--size-gb`` for more).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from tests.bench.capture_gen import write_capture
from tests.bench.targets import TRAJTUI, run_command


async def session(path: str) -> dict[str, float]:
    """In the measured process: the TUI on ``path``, headless: first screen, every run
    read, a sort by score, a filter."""
    from tests.bench.tui_bench import as_the_command

    as_the_command([path])  # before Textual is imported, as the command does
    from trajtui.ui.app import make_app
    from trajtui.ui.screens.main import MainScreen

    start = time.perf_counter()
    app = make_app([path])
    out: dict[str, float] = {}
    async with app.run_test(size=(120, 40)) as pilot:
        screen = None
        while time.perf_counter() - start < 120:
            await asyncio.sleep(0.002)
            if isinstance(app.screen, MainScreen) and app.screen.run is not None:
                screen = app.screen
                break
        assert screen is not None, "no run shown"
        out["first_screen"] = time.perf_counter() - start
        while not screen.state.loading_done and time.perf_counter() - start < 3600:
            await asyncio.sleep(0.05)
        out["all_read"] = time.perf_counter() - start
        for keys in (["O", "7"], ["f", *"bench-00001", "enter"]):
            await pilot.press(*keys)
            await pilot.pause(0.5)
            await app.workers.wait_for_complete()
        out["rows_shown"] = float(screen.store.shown)
    return out


def tui(path: str) -> tuple[dict[str, float], int]:
    """A TUI session on ``path`` in a fresh process: its figures and peak RssAnon (kB)."""
    code = (
        "import asyncio, json, sys\n"
        "from tests.bench.huge_bench import session\n"
        "if __name__ == '__main__':\n"
        "    print(json.dumps(asyncio.run(session(sys.argv[1]))))\n"
    )
    script = os.path.join(tempfile.gettempdir(), f"trajtui-huge-{os.getpid()}.py")
    with open(script, "w") as f:
        f.write(code)
    env = {**os.environ, "TRAJTUI_CACHE_MAX_MB": "0", "PYTHONPATH": os.getcwd()}
    out_path = script + ".out"
    with open(out_path, "w") as out:
        proc = subprocess.Popen([sys.executable, script, path], stdout=out, env=env)
        from tests.bench.targets import _rss_anon_kb, _tree

        peak = 0
        while proc.poll() is None:
            peak = max(peak, sum(_rss_anon_kb(p) for p in _tree(proc.pid)))
            time.sleep(0.01)
    with open(out_path) as f:
        figures: dict[str, float] = json.loads(f.read().strip().splitlines()[-1])
    os.unlink(script)
    os.unlink(out_path)
    return figures, peak


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
        while time.perf_counter() - start < 60:
            await asyncio.sleep(0.002)
            if isinstance(app.screen, MainScreen) and app.screen.run is not None:
                return time.perf_counter() - start
    raise SystemExit("no run shown")

print(asyncio.run(first(sys.argv[1])))
"""


def first_screens(small: str, big: str, runs: int) -> tuple[float, float]:
    """Medians of ``runs`` first screens of each file, launched alternately (fresh
    processes, the cache off): what a machine's moods do to one, they do to the other."""
    env = {**os.environ, "TRAJTUI_CACHE_MAX_MB": "0", "PYTHONPATH": os.getcwd()}
    times: dict[str, list[float]] = {small: [], big: []}
    for _ in range(runs):
        for path in (small, big):
            out = subprocess.run(
                [sys.executable, "-c", _FIRST_SCREEN, path],
                capture_output=True,
                text=True,
                check=True,
                env=env,
            )
            times[path].append(float(out.stdout.strip().splitlines()[-1]))
    return statistics.median(times[small]), statistics.median(times[big])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size-gb", type=float, default=2.0)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="trajtui-huge-") as tmp:
        small, big = os.path.join(tmp, "small.jsonl"), os.path.join(tmp, "huge.jsonl")
        write_capture(small, 10 * 1024 * 1024)
        print(f"generating a {args.size_gb:g} GB capture ...", file=sys.stderr, flush=True)
        gen = write_capture(big, int(args.size_gb * 1024**3))
        ls_s, ls_kb = run_command([TRAJTUI, "ls", "--json", "--no-cache", big])
        small_first, big_first = first_screens(small, big, 7)
        big_tui, big_kb = tui(big)
    print(f"\ncapture {gen.size / 1e9:.1f} GB, {gen.records:,} records; 10 MB file for comparison")
    print("\n| case | figure | compared with | target |\n|---|---|---|---|")
    print(
        f"| TUI first screen (median of 7, launched alternately) | {big_first:.2f} s | "
        f"{small_first:.2f} s on 10 MB ({big_first / small_first:.2f}x) | <= 1.2x |"
    )
    print(
        f"| TUI peak RssAnon: load every run ({big_tui['all_read']:.0f} s), sort, filter | "
        f"{big_kb / 1024:.0f} MB | | <= 250 MB |"
    )
    print(f"| `ls --json` every row | {ls_s:.1f} s, {ls_kb / 1024:.0f} MB RssAnon | | |")


if __name__ == "__main__":
    main()
