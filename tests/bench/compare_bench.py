"""trajtui beside the terminal log viewers people already use on big JSONL files.

Each viewer is started the way a person starts it, in a fresh tmux server at 120x40
(``tmux new-session -d -x 120 -y 40``), on the same two files, and the time is taken from
the launch to the first capture of the pane (``capture-pane -p``, polled every 10 ms) that
shows a record's whole id:

* a 1 GB capture of big records (``tests.bench.capture_gen``: 3 KB to 400 KB each);
* a 1 GB JSONL of short lines (acp-harness capture records of about 200 bytes: millions
  of lines), which every viewer can show.

Then trajtui's ``--goto`` of a step of the capture's last record, to its detail on screen.

Viewers: trajtui (index cache off: a first open), toolong (``tl``, from PyPI, installed by
``make bench`` into its own ``.venv-bench``: it pins its own Textual), and lnav (the Debian
package; not measured when it is not installed, which the table says). Each figure is the
median of ``--runs`` launches, with the page cache warm (every viewer reads the same bytes).

Usage::

    python -m tests.bench.compare_bench [--size-mb 1024] [--runs 3] [--tl PATH]

Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.bench.capture_gen import ID_DIGITS, ID_PREFIX, write_capture

ROOT = Path(__file__).resolve().parents[2]
TRAJTUI = str(Path(sys.executable).with_name("trajtui"))
TL_DEFAULT = str(ROOT / ".venv-bench" / "bin" / "tl")
TIMEOUT = 60.0
CAPTURE_IDS = re.escape(ID_PREFIX) + rf"\d{{{ID_DIGITS}}}"


def write_short_lines(path: str, size: int) -> str:
    """Write capture records of about 200 bytes each until ``path`` holds ``size`` bytes;
    returns a pattern of their ids."""
    block = bytearray()
    n = 0
    written = 0
    with open(path, "wb") as f:
        while written + len(block) < size:
            n += 1
            block += (
                b'{"id":"short-%08d","input":"question %d","output":"answer %d",'
                b'"trajectory":[{"type":"message","content":"answer %d","timestamp":%d}],'
                b'"toolErrors":false,"timing":{"start":1769000000000,"end":1769000001234}}\n'
                % (n, n, n, n, n)
            )
            if len(block) >= 1 << 24:
                f.write(block)
                written += len(block)
                block.clear()
        f.write(block)
    return r"short-\d{8}"


def first_screen(argv: list[str], marker: str, home: str) -> float | None:
    """Seconds from launching ``argv`` in a fresh 120x40 tmux server to a pane showing a
    record's whole id (``marker``, a pattern: lnav opens at the end of a file, trajtui and
    toolong at its start); None when it did not within :data:`TIMEOUT`."""
    shown = re.compile(marker)
    sock = f"trajtui-compare-{os.getpid()}-{time.monotonic_ns()}"
    env = dict(os.environ, HOME=home, XDG_CACHE_HOME=f"{home}/cache", TERM="xterm-256color")
    env.pop("TMUX", None)
    tmux = ["tmux", "-L", sock, "-f", "/dev/null"]
    start = time.perf_counter()
    subprocess.run(
        [*tmux, "new-session", "-d", "-x", "120", "-y", "40", shlex.join(argv)],
        env=env,
        check=True,
    )
    seen = None
    try:
        while time.perf_counter() - start < TIMEOUT:
            pane = subprocess.run(
                [*tmux, "capture-pane", "-p"], capture_output=True, text=True, env=env
            ).stdout
            if shown.search(pane):
                seen = time.perf_counter() - start
                break
            time.sleep(0.01)
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True, env=env)
    return seen


def median_of(argv: list[str], marker: str, runs: int, home: str) -> float | None:
    """The median first screen of ``runs`` launches (None when one did not show)."""
    times = []
    for _ in range(runs):
        shutil.rmtree(f"{home}/cache", ignore_errors=True)  # trajtui's index cache: off
        t = first_screen(argv, marker, home)
        if t is None:
            return None
        times.append(t)
    return statistics.median(times)


def main() -> None:
    """Measure, then print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size-mb", type=int, default=1024)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--tl", default=TL_DEFAULT, help="the toolong command")
    args = parser.parse_args()
    if shutil.which("tmux") is None:
        print("compare_bench: tmux is not installed: nothing measured")
        return
    viewers: dict[str, list[str] | None] = {
        "trajtui": [TRAJTUI, "--no-cache"],
        "toolong (tl)": [args.tl] if os.access(args.tl, os.X_OK) else None,
        "lnav": [lnav] if (lnav := shutil.which("lnav")) else None,
    }
    size = args.size_mb << 20
    with tempfile.TemporaryDirectory(prefix="trajtui-compare-") as tmp:
        home = f"{tmp}/home"
        os.makedirs(home)
        capture = f"{tmp}/capture.jsonl"
        short = f"{tmp}/short.jsonl"
        gen = write_capture(capture, size)
        short_first = write_short_lines(short, size)
        files = [
            (f"capture {os.path.getsize(capture) / 1e9:.2f} GB", capture, CAPTURE_IDS),
            (f"short lines {os.path.getsize(short) / 1e9:.2f} GB", short, short_first),
        ]
        for _, path, _ in files:  # warm the page cache for everyone
            with open(path, "rb") as f:
                while f.read(1 << 24):
                    pass
        results: dict[tuple[str, str], float | str | None] = {}
        for name, argv in viewers.items():
            for label, path, marker in files:
                if argv is None:
                    results[name, label] = "not installed"
                    continue
                results[name, label] = median_of([*argv, path], marker, args.runs, home)
        # trajtui's --goto in the same terminal: a step of the last record, until its
        # detail (headed by the step's reference) is on screen
        last_step = f"{ID_PREFIX}{gen.records:0{ID_DIGITS}d}-step-3"
        goto = median_of(
            [TRAJTUI, "--no-cache", "--goto", last_step, capture],
            re.escape(last_step) + " +▸",
            args.runs,
            home,
        )
    print()
    print(
        f"First screen in tmux 120x40, median of {args.runs} launches "
        f"({platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()})"
    )
    labels = [label for label, _, _ in files]
    print(f"  {'viewer':<14}" + "".join(f"{label:>26}" for label in labels))
    for name in viewers:
        cells = []
        for label in labels:
            value = results[name, label]
            if isinstance(value, str):
                cells.append(value)
            elif value is None:
                cells.append(f"> {TIMEOUT:.0f} s")
            else:
                base = results["trajtui", label]
                ratio = f" ({value / base:.1f}x)" if isinstance(base, float) and base else ""
                cells.append(f"{value:.2f} s{ratio}")
        print(f"  {name:<14}" + "".join(f"{c:>26}" for c in cells))
    first = results["trajtui", labels[0]]
    if goto is None:
        print(f"\n  trajtui --goto a step of the last record: not shown within {TIMEOUT:.0f} s")
    elif isinstance(first, float):
        print(
            f"\n  trajtui --goto a step of the last record ({labels[0]}): {goto:.2f} s, "
            f"{goto - first:.2f} s after the first screen"
        )


if __name__ == "__main__":
    main()
