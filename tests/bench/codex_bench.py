"""A Codex CLI rollout of many gigabytes beside the same-size acp capture
(``python -m tests.bench.codex_bench --size-gb 2``): time to the first ``ls --json`` line
(the whole rollout folded: its row) and ``ls``'s peak private memory (RssAnon over the
process tree); the TUI's first screen (the rollout's run shown) beside a 10 MB rollout's
and the capture's, and its peak private memory while browsing (the timeline's first and
last steps opened); the index cache off. ``--also-gb 20`` lists a second, bigger rollout
too, to show ``ls``'s memory does not grow with the file. Not part of ``make test``.
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
from tests.bench.codex_gen import write_rollout
from tests.bench.targets import _rss_anon_kb, _tree, first_ls_line


async def browse(path: str) -> dict[str, float]:
    """In the measured process: the TUI on ``path``, headless: the run shown, the whole
    file read, the timeline's last step and first step opened."""
    from tests.bench.tui_bench import as_the_command

    as_the_command([path])
    from trajtui.ui.app import make_app
    from trajtui.ui.screens.main import MainScreen

    start = time.perf_counter()
    app = make_app([path])
    out: dict[str, float] = {}
    async with app.run_test(size=(120, 40)) as pilot:
        screen = None
        while time.perf_counter() - start < 600:
            await asyncio.sleep(0.002)
            if isinstance(app.screen, MainScreen) and app.screen.run is not None:
                screen = app.screen
                break
        assert screen is not None, "no run shown"
        out["first_screen"] = time.perf_counter() - start
        for keys in (["enter"], ["G"], ["g"], ["G"]):
            await pilot.press(*keys)
            await pilot.pause(0.3)
            await app.settled()  # (a worker whose work was overtaken is cancelled)
        run = screen.run
        out["steps"] = float(len(run.steps)) if run is not None else -1.0
        out["browsed"] = time.perf_counter() - start
    return out


def tui_memory(path: str) -> tuple[dict[str, float], int]:
    """A browsing session on ``path`` in a fresh process: its figures and peak RssAnon (kB)."""
    code = (
        "import asyncio, json, sys\n"
        "from tests.bench.codex_bench import browse\n"
        "print(json.dumps(asyncio.run(browse(sys.argv[1]))))\n"
    )
    env = {**os.environ, "TRAJTUI_CACHE_MAX_MB": "0", "PYTHONPATH": os.getcwd()}
    proc = subprocess.Popen(
        [sys.executable, "-c", code, path], stdout=subprocess.PIPE, text=True, env=env
    )
    peak = 0
    while proc.poll() is None:
        peak = max(peak, sum(_rss_anon_kb(p) for p in _tree(proc.pid)))
        time.sleep(0.01)
    assert proc.stdout is not None
    figures: dict[str, float] = json.loads(proc.stdout.read().strip().splitlines()[-1])
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
        while time.perf_counter() - start < 1800:
            await asyncio.sleep(0.002)
            if isinstance(app.screen, MainScreen) and app.screen.run is not None:
                return time.perf_counter() - start
    raise SystemExit("no run shown")

print(asyncio.run(first(sys.argv[1])))
"""


def first_screen(path: str) -> float:
    """Seconds to the TUI's first screen with the run shown (a fresh process, cache off)."""
    env = {**os.environ, "TRAJTUI_CACHE_MAX_MB": "0", "PYTHONPATH": os.getcwd()}
    out = subprocess.run(
        [sys.executable, "-c", _FIRST_SCREEN, path], capture_output=True, text=True, env=env
    )
    if out.returncode != 0:
        return float("nan")
    return float(out.stdout.strip().splitlines()[-1])


def median_screen(path: str, runs: int) -> float:
    return statistics.median(first_screen(path) for _ in range(runs))


def say(line: str) -> None:
    print(line, flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size-gb", type=float, default=2.0)
    parser.add_argument("--also-gb", type=float, default=0.0)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    size = int(args.size_gb * 1024**3)
    with tempfile.TemporaryDirectory(prefix="trajtui-codex-") as tmp:
        small = os.path.join(tmp, "small", "rollout-small.jsonl")
        big = os.path.join(tmp, "big", "rollout-big.jsonl")
        capture = os.path.join(tmp, "capture.jsonl")
        os.makedirs(os.path.dirname(small))
        os.makedirs(os.path.dirname(big))
        write_rollout(small, 10 * 1024 * 1024)
        print(f"generating a {args.size_gb:g} GB rollout and capture ...", file=sys.stderr)
        gen = write_rollout(big, size)
        write_capture(capture, size)
        say(
            f"\nrollout {gen.size / 1e9:.1f} GB, {gen.lines:,} lines, {gen.turns:,} turns, "
            f"{gen.calls:,} calls; acp capture of the same size; 10 MB rollout"
        )
        say("\n| case | rollout | capture | ratio |\n|---|---|---|---|")
        r_first, r_end, r_kb = first_ls_line(big)
        c_first, c_end, c_kb = first_ls_line(capture)
        say(
            f"| `ls --json`: first line | {r_first:.2f} s | {c_first:.2f} s | {r_first / c_first:.1f}x |"
        )
        say(f"| `ls --json`: done | {r_end:.2f} s | {c_end:.2f} s | {r_end / c_end:.1f}x |")
        say(f"| `ls --json`: peak private memory | {r_kb / 1024:.0f} MB | {c_kb / 1024:.0f} MB | |")
        small_tui = median_screen(small, args.runs)
        big_tui = median_screen(big, args.runs)
        cap_tui = median_screen(capture, args.runs)
        say(
            f"| TUI first screen, run shown (median of {args.runs}) | {big_tui:.2f} s | "
            f"{cap_tui:.2f} s | 10 MB rollout: {small_tui:.2f} s ({big_tui / small_tui:.2f}x) |"
        )
        os.unlink(capture)
        browsed, tui_kb = tui_memory(big)
        say(
            f"| TUI browsing (first screen, read whole, last and first steps): peak private "
            f"memory | {tui_kb / 1024:.0f} MB | | floor 150 MB; {int(browsed['steps']):,} steps |"
        )
        if args.also_gb:
            print(f"generating a {args.also_gb:g} GB rollout ...", file=sys.stderr)
            huge = os.path.join(tmp, "big", "rollout-huge.jsonl")
            os.unlink(big)
            hgen = write_rollout(huge, int(args.also_gb * 1024**3))
            h_first, _, h_kb = first_ls_line(huge)
            say(
                f"| `ls --json` on a {hgen.size / 1e9:.1f} GB rollout: first line, peak private "
                f"memory | {h_first:.1f} s, {h_kb / 1024:.0f} MB | | |"
            )


if __name__ == "__main__":
    main()
