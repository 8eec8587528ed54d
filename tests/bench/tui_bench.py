"""The TUI on a big file: time to the first screen with runs, and how long key presses
wait while the rest is indexed and summarised in the background.

Run by ``make bench`` after the core benchmark (``python -m tests.bench.tui_bench
[--size-mb N]``); each figure is the median of 3 runs, each in a fresh interpreter,
headless at 120x40. The runs open the file with the index cache off (each is a first open),
then again with it on, after one session saved it (each is a second open of the unchanged
file); the cache lives in the temporary directory, never in the user's.
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
from pathlib import Path


def as_the_command(paths: list[str]) -> None:
    """What ``trajtui PATH`` does before its app starts: fork the row workers when a file
    needs them, and hand the interpreter over every millisecond (as ``run_app``)."""
    from trajtui.core.jsonl import rowpool

    rowpool.start_early(paths)
    sys.setswitchinterval(0.001)


async def measure_goto(path: str, ref: str) -> dict[str, float]:
    """One run of ``--goto REF`` (a step of the last record): seconds to that step in the
    detail pane."""
    from trajtui.ui.app import make_app
    from trajtui.ui.screens.main import MainScreen
    from trajtui.ui.subjects import StepSubject

    run_ref, _, number = ref.rpartition("-step-")
    start = time.perf_counter()
    as_the_command([path])
    app = make_app([path], goto=ref)
    async with app.run_test(size=(120, 40)):
        while time.perf_counter() - start < 120:
            await asyncio.sleep(0.001)
            shown = app.screen
            if (
                isinstance(shown, MainScreen)
                and shown.run is not None
                and shown.run.summary.ref == run_ref
                and isinstance(shown.subject, StepSubject)
                and shown.subject.first == int(number) - 1
            ):
                return {"goto": time.perf_counter() - start}
    raise AssertionError(f"{ref} not shown within 120 s")


def last_step_ref(path: str) -> str:
    """The reference of the 5th step of the file's last record (read from its tail)."""
    with open(path, "rb") as f:
        f.seek(max(0, os.path.getsize(path) - (1 << 21)))
        last = f.read().rstrip(b"\n").rsplit(b"\n", 1)[-1]
    return f"{json.loads(last)['id']}-step-5"


async def measure(path: str) -> dict[str, float]:
    """One run: seconds to the first screen with a run, key latencies while loading."""
    from textual import events

    from trajtui.ui.app import make_app
    from trajtui.ui.screens.main import MainScreen

    start = time.perf_counter()
    as_the_command([path])
    app = make_app([path])
    first_screen = None
    latencies: list[float] = []
    async with app.run_test(size=(120, 40)):
        screen = None
        while time.perf_counter() - start < 60:
            await asyncio.sleep(0.001)
            shown = app.screen
            if isinstance(shown, MainScreen) and shown.run is not None:
                screen = shown
                first_screen = time.perf_counter() - start
                break
        assert screen is not None and first_screen is not None, "no run shown within 60 s"
        main_screen = screen

        async def watch_loading() -> float:
            while not main_screen.state.loading_done and time.perf_counter() - start < 600:
                await asyncio.sleep(0.005)
            return time.perf_counter() - start

        loading = asyncio.create_task(watch_loading())
        # Keys as the terminal sends them (Pilot.press would also wait for the app to be
        # idle, which it never is while loading): time from the key to the moved cursor.
        for key in ["j", "k"] * 15:
            before = screen.run_list.cursor
            t = time.perf_counter()
            app.post_message(events.Key(key, key))
            while screen.run_list.cursor == before and time.perf_counter() - t < 5:
                await asyncio.sleep(0.0005)
            latencies.append(time.perf_counter() - t)
            await asyncio.sleep(0.05)
        loaded = await loading
    return {
        "first_screen": first_screen,
        "key_median": statistics.median(latencies),
        "key_max": max(latencies),
        "all_read": loaded,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size-mb", type=int, default=1024)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--worker", metavar="PATH", help=argparse.SUPPRESS)
    parser.add_argument("--goto", metavar="REF", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker and args.goto:
        print(json.dumps(asyncio.run(measure_goto(args.worker, args.goto))))
        return
    if args.worker:
        print(json.dumps(asyncio.run(measure(args.worker))))
        return
    from tests.bench.capture_gen import write_capture

    with tempfile.TemporaryDirectory(prefix="trajtui-tui-bench-") as tmp:
        path = str(Path(tmp) / "capture.jsonl")
        write_capture(path, args.size_mb * 1024 * 1024)
        off = {**os.environ, "XDG_CACHE_HOME": str(Path(tmp) / "xdg"), "TRAJTUI_CACHE_MAX_MB": "0"}
        on = {**off, "TRAJTUI_CACHE_MAX_MB": "512"}

        def session(env: dict[str, str], *more: str) -> dict[str, float]:
            out = subprocess.run(
                [sys.executable, "-m", "tests.bench.tui_bench", "--worker", path, *more],
                capture_output=True,
                text=True,
                check=True,
                env=env,
            )
            result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
            return result

        results = [session(off) for _ in range(args.runs)]
        goto_ref = last_step_ref(path)
        gotos = [session(off, "--goto", goto_ref) for _ in range(args.runs)]
        session(on)  # saves the index cache
        cached = [session(on) for _ in range(args.runs)]

    def med(key: str, of: list[dict[str, float]] | None = None) -> float:
        return statistics.median(r[key] for r in (results if of is None else of))

    print(
        f"TUI on a {args.size_mb:,} MB capture file, headless 120x40, median of {args.runs} fresh runs:"
    )
    print(f"  first screen with a run shown:            {med('first_screen') * 1000:8.0f} ms")
    print(
        f"  key press to cursor moved, while loading:  {med('key_median') * 1000:8.1f} ms median, "
        f"{max(r['key_max'] for r in results) * 1000:.0f} ms worst"
    )
    print(f"  every run indexed and summarised:          {med('all_read'):8.2f} s")
    goto_s = med("goto", gotos)
    print(
        f"  --goto a step of the last record, shown:   {goto_s * 1000:8.0f} ms "
        f"({(goto_s - med('first_screen')) * 1000:.0f} ms after the first screen; target 500)"
    )
    print("second open of the unchanged file, from the index cache:")
    print(
        f"  first screen with a run shown:            {med('first_screen', cached) * 1000:8.0f} ms"
    )
    print(f"  every run known (the whole run list):      {med('all_read', cached):8.2f} s")


if __name__ == "__main__":
    main()
