"""A big ATIF trajectory (one JSON document) beside the same-size acp capture (JSONL) and a
small trajectory (``python -m tests.bench.atif_bench --size-gb 1``): ``ls --json``'s time and
peak private memory (RssAnon over the process tree), the TUI's first screen, and one step in
the middle of the trajectory shown (``--goto RUN/step-N``: seconds and peak RssAnon), the
index cache off. Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta

from tests.bench.capture_gen import write_capture
from tests.bench.huge_bench import first_screens
from tests.bench.targets import _rss_anon_kb, _tree, first_ls_line
from tests.formats.atif import builders as b

_OUTPUT = "\n".join(
    f"drwxr-xr-x 2 root root 4096 Mar  1 10:{i % 60:02d} dir-{i}" for i in range(60)
)
_THOUGHT = "Analysis: the build fails on the second test; look at the fixture first. " * 30


def _at(seconds: float) -> str:
    moment = datetime(2026, 3, 1, 10, tzinfo=UTC) + timedelta(seconds=seconds)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def write_trajectory(path: str, size: int) -> int:
    """An ATIF-v1.6 trajectory of about ``size`` bytes in the shape Harbor's terminus-2
    writes (indented, a task, then agent steps each with its analysis, one or two tool
    calls, their terminal output and metrics), ``final_metrics`` last. Returns its steps."""
    head = b.trajectory([], version="ATIF-v1.6")
    del head["steps"]
    with open(path, "w") as f:
        f.write(json.dumps(head, indent=2)[:-2] + ',\n  "steps": [\n')
        first = b.user(1, "Make the test suite of the repository pass; do not edit tests.", at=0)
        f.write(json.dumps(first, indent=2) + ",\n")
        n = 1
        prompt = 0
        while f.tell() < size:
            n += 1
            calls = [b.call(f"call_{n}_1", "bash_command", keystrokes=f"ls -la dir-{n}\n")]
            results = [b.result(f"call_{n}_1", f"$ ls -la dir-{n}\n{_OUTPUT}")]
            if n % 3 == 0:
                calls.append(b.call(f"call_{n}_2", "bash_command", keystrokes="pytest -q\n"))
                results.append(b.result(f"call_{n}_2", "3 failed, 40 passed", is_error=True))
            prompt += 50
            step = b.agent(
                n,
                _THOUGHT,
                calls=calls,
                results=results,
                usage=b.metrics(prompt, 120, prompt // 2, 0.0004),
                timestamp=_at(n * 1.5),
            )
            f.write(json.dumps(step, indent=2) + ",\n")
        last = b.agent(n + 1, "Done: the suite passes.", timestamp=_at(n * 1.5 + 1))
        f.write(json.dumps(last, indent=2) + "\n  ],\n")
        final = {"total_prompt_tokens": prompt * 2, "total_completion_tokens": 120 * n}
        f.write(f'  "final_metrics": {json.dumps(final)}\n}}\n')
    return n + 1


_STEP_SHOWN = """
import asyncio, sys, time
from tests.bench.tui_bench import as_the_command

async def shown(path, ref, index):
    start = time.perf_counter()
    as_the_command([path])
    from trajtui.ui.app import make_app
    from trajtui.ui.screens.main import MainScreen
    from trajtui.ui.subjects import StepSubject
    app = make_app([path], goto=ref)
    async with app.run_test(size=(120, 40)):
        while time.perf_counter() - start < 600:
            await asyncio.sleep(0.005)
            s = app.screen
            if isinstance(s, MainScreen) and isinstance(s.subject, StepSubject) and s.subject.first == index:
                return time.perf_counter() - start
    raise SystemExit("step not shown")

print(asyncio.run(shown(sys.argv[1], sys.argv[2], int(sys.argv[3]))))
"""


def step_shown(path: str, number: int) -> tuple[float, int]:
    """Seconds to step ``number`` shown in the detail (``--goto``) and peak RssAnon (kB)."""
    ref = f"{os.path.basename(path)[: -len('.json')]}/step-{number}"
    env = {**os.environ, "TRAJTUI_CACHE_MAX_MB": "0", "PYTHONPATH": os.getcwd()}
    proc = subprocess.Popen(
        [sys.executable, "-c", _STEP_SHOWN, path, ref, str(number - 1)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    peak = 0
    while proc.poll() is None:
        peak = max(peak, sum(_rss_anon_kb(p) for p in _tree(proc.pid)))
        time.sleep(0.01)
    assert proc.stdout is not None
    out = proc.stdout.read().decode().strip().splitlines()
    return (float(out[-1]) if proc.returncode == 0 and out else float("nan")), peak


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size-gb", type=float, nargs="+", default=[0.125, 1.0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="trajtui-atif-") as tmp:
        small = os.path.join(tmp, "small.json")
        small_steps = write_trajectory(small, 10 * 1024 * 1024)
        print("\n| case | ATIF trajectory | acp capture, same size | 10 MB trajectory |")
        print("|---|---|---|---|")
        s_first, s_end, s_kb = first_ls_line(small)
        s_step, s_step_kb = step_shown(small, small_steps // 2)
        for gb in args.size_gb:
            size = int(gb * 1024**3)
            big = os.path.join(tmp, f"big-{gb:g}.json")
            capture = os.path.join(tmp, f"capture-{gb:g}.jsonl")
            print(f"generating a {gb:g} GB trajectory and capture ...", file=sys.stderr, flush=True)
            steps = write_trajectory(big, size)
            write_capture(capture, size)
            _, t_end, t_kb = first_ls_line(big)
            _, c_end, c_kb = first_ls_line(capture)
            try:
                small_tui, big_tui = first_screens(small, big, args.runs)
                _, cap_tui = first_screens(small, capture, args.runs)
            except subprocess.CalledProcessError:  # no run shown within its 60 s
                small_tui = big_tui = cap_tui = float("nan")
            t_step, t_step_kb = step_shown(big, steps // 2)
            what = f"{gb:g} GB, {steps:,} steps"
            print(f"| `ls --json` ({what}) | {t_end:.2f} s | {c_end:.2f} s | {s_end:.2f} s |")
            print(
                f"| `ls --json` peak private memory ({what}) | {t_kb / 1024:.0f} MB | "
                f"{c_kb / 1024:.0f} MB | {s_kb / 1024:.0f} MB |"
            )
            print(
                f"| TUI first screen, run shown, median of {args.runs} ({what}) | "
                f"{big_tui:.2f} s ({big_tui / small_tui:.1f}x the 10 MB one) | {cap_tui:.2f} s | "
                f"{small_tui:.2f} s |"
            )
            print(
                f"| TUI `--goto` a middle step shown: time, peak private memory ({what}) | "
                f"{t_step:.2f} s, {t_step_kb / 1024:.0f} MB | | "
                f"{s_step:.2f} s, {s_step_kb / 1024:.0f} MB |"
            )
            os.unlink(big)
            os.unlink(capture)


if __name__ == "__main__":
    main()
