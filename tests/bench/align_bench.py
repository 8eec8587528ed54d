"""Comparing two 2,000-step runs: the alignment alone, and in the TUI from the key to the
aligned rows on screen.

Two acp-harness capture records of ``--steps`` steps each (thoughts, tool calls of a few
tools with varied inputs, messages), the second the first with every 50th step changed
(another input), every 70th dropped and a step inserted every 90: a realistic mix of
``=``, ``~``, ``-`` and ``+``. Figures:

* ``align``: :func:`trajtui.core.compare.align.align` on the two timelines (median of ``--runs``);
* ``tui``: headless at 120x40, ``c`` on the first run, cursor to the second, ``c``: seconds
  from the second key press to the compare screen's rows drawn (both runs read again from
  the file, the runs kept in memory forgotten first, and aligned in its worker; median of
  ``--runs`` app sessions).

Usage::

    python -m tests.bench.align_bench [--steps 2000] [--runs 5]

Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.formats.acp.builders import capture, step_message, step_thought, step_tool, write_jsonl

TOOLS = ("Read", "Bash", "WebSearch", "Edit", "Grep")


def timeline(n: int, *, changed: bool) -> list[dict[str, Any]]:
    """``n`` steps of an agent at work; ``changed``: the second run's variations."""
    steps: list[dict[str, Any]] = []
    for k in range(n):
        if changed and k % 70 == 69:
            continue  # dropped
        if changed and k % 90 == 89:
            steps.append(step_tool("Bash", "completed", k, input={"command": f"ls extra {k}"}))
        ts = 1000 + 10 * k
        if k % 5 == 0:
            steps.append(step_thought(f"step {k}: next I should look at module {k % 37} again", ts))
        elif k % 5 == 4:
            steps.append(step_message(f"Done with part {k}; the result of {k * 7} is fine.", ts))
        else:
            tool = TOOLS[k % len(TOOLS)]
            arg = f"src/mod_{k}.py" + (" --changed" if changed and k % 50 == 1 else "")
            steps.append(
                step_tool(tool, "completed", ts, input={"path": arg}, output=f"out {k} " * 20)
            )
    return steps


def write_pair(directory: Path, n: int) -> Path:
    """A capture file with the two runs (``one`` and ``two``)."""
    return write_jsonl(
        directory / "pair.jsonl",
        [
            capture("one", timeline(n, changed=False)),
            capture("two", timeline(n, changed=True)),
        ],
    )


def core_seconds(path: Path, runs: int) -> tuple[float, int]:
    """Median seconds of :func:`align` on the two timelines, and the rows it gives."""
    from tests.helpers.workspace import open_paths
    from trajtui.core.compare.align import align

    ws = open_paths([str(path)])
    source = ws.sources[0]
    for _ in source.scan():
        pass
    a, b = source.run(0).steps, source.run(1).steps
    times, rows = [], 0
    for _ in range(runs):
        start = time.perf_counter()
        rows = len(align(a, b).pairs)
        times.append(time.perf_counter() - start)
    ws.close()
    return statistics.median(times), rows


async def tui_seconds(path: Path) -> tuple[float, float]:
    """Seconds from the ``c`` that opens the compare to the screen up (saying it is
    aligning), and to its rows on screen."""
    from tests.helpers.ui import settle
    from trajtui.ui.app import make_app
    from trajtui.ui.screens.compare import CompareScreen

    app = make_app([str(path)])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen: Any = app.screen
        await pilot.press("c")
        await settle(pilot)
        screen.run_list.set_cursor(1)
        await settle(pilot)
        screen.ws.sources[0]._runs.forget()  # both runs read again: a cold compare
        start = time.perf_counter()
        await pilot.press("c")
        up = float("inf")
        while time.perf_counter() - start < 30:
            shown = app.screen
            if isinstance(shown, CompareScreen):
                up = min(up, time.perf_counter() - start)
                if shown.pair_list.row_count:
                    await pilot.pause()  # drawn
                    return up, time.perf_counter() - start
            await asyncio.sleep(0.001)
    return up, float("inf")


def main() -> None:
    """Measure, then print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    sys.setswitchinterval(0.001)  # as trajtui's run_app: the UI thread gets its turns
    with tempfile.TemporaryDirectory(prefix="trajtui-align-") as tmp:
        path = write_pair(Path(tmp), args.steps)
        core, rows = core_seconds(path, args.runs)
        tui = [asyncio.run(tui_seconds(path)) for _ in range(args.runs)]
    up = statistics.median(t[0] for t in tui)
    rows_up = statistics.median(t[1] for t in tui)
    print(f"compare of two {args.steps:,}-step runs ({rows:,} aligned rows):")
    print(f"  align (core)                            {core:.3f} s")
    print(f"  TUI, key to the compare screen up       {up:.3f} s")
    print(f"  TUI, key to the aligned rows on screen  {rows_up:.3f} s (runs read cold)")


if __name__ == "__main__":
    main()
