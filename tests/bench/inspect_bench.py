"""Inspect AI logs of a gigabyte beside the same-size acp capture
(``python -m tests.bench.inspect_bench --size-gb 1``): a ``.json`` log (streamed: one sample
in memory at a time) and an ``.eval`` log of the same samples (listed from its summaries,
no sample read), each timed to ``ls --json``'s first line and end with its peak private
memory (RssAnon over the process tree), and ``show`` of the last sample's tool call; the
TUI's first screen (a run shown) beside a 10 MB log's. The index cache off. Not part of
``make test``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Iterator
from typing import Any

from tests.bench.capture_gen import write_capture
from tests.bench.codex_bench import median_screen
from tests.bench.targets import _rss_anon_kb, _tree, first_ls_line
from tests.formats.inspect import builders as b

_WORDS = [
    "the",
    "model",
    "calls",
    "a",
    "tool",
    "reads",
    "the",
    "file",
    "and",
    "answers",
    "with",
    "a",
    "short",
    "text",
    "about",
    "it",
]


def _samples(size: int, per: int, seed: int = 7) -> Iterator[dict[str, Any]]:
    """Samples of about ``per`` bytes each (a long answer of words), ``size`` bytes in all."""
    rng = random.Random(seed)
    made = 0
    n = 0
    while made < size:
        words = " ".join(rng.choice(_WORDS) for _ in range(per // 6))
        s = b.sample(f"s{n}", 1, answer=f"The answer is 2. {words}", tool_error=n % 5 == 0)
        made += len(json.dumps(s))
        n += 1
        yield s


def write_json_log(path: str, size: int, per: int = 200_000) -> int:
    """A ``.json`` log of about ``size`` bytes, written sample by sample (indented as
    inspect_ai writes); the number of samples."""
    count = 0
    with open(path, "w") as f:
        f.write(json.dumps(b.header(), indent=2)[:-2] + ',\n  "samples": [\n')
        for count, s in enumerate(_samples(size, per), 1):
            f.write((",\n" if count > 1 else "") + json.dumps(s, indent=2))
        f.write('\n  ],\n  "reductions": []\n}\n')
    return count


def write_eval_log(path: str, size: int, per: int = 200_000) -> int:
    """An ``.eval`` log of the same samples (deflated members, the journal flushed every 50
    samples, then summaries.json and header.json); the number of samples."""
    summaries: list[dict[str, Any]] = []
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        head = b.header()
        zf.writestr(
            "_journal/start.json",
            json.dumps({"version": 2, "eval": head["eval"], "plan": head["plan"]}),
        )
        flushed = 0
        for s in _samples(size, per):
            zf.writestr(f"samples/{s['id']}_epoch_1.json", json.dumps(s))
            summary = b.summary_of(s)
            summary["scores"] = {k: {"value": v["value"]} for k, v in summary["scores"].items()}
            summaries.append(summary)
            if len(summaries) % 50 == 0:
                flushed += 1
                zf.writestr(f"_journal/summaries/{flushed}.json", json.dumps(summaries[-50:]))
        zf.writestr("summaries.json", json.dumps(summaries))
        zf.writestr("header.json", json.dumps(head))
    return len(summaries)


def show_step(path: str, ref: str) -> tuple[float, int]:
    """Seconds and peak private memory (kB) of ``show PATH REF``, the cache off."""
    env = {**os.environ, "TRAJTUI_CACHE_MAX_MB": "0"}
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "trajtui", "show", path, ref, "--no-cache"],
        stdout=subprocess.DEVNULL,
        env=env,
    )
    peak = 0
    while proc.poll() is None:
        peak = max(peak, sum(_rss_anon_kb(p) for p in _tree(proc.pid)))
        time.sleep(0.01)
    return time.perf_counter() - start, peak


def say(line: str) -> None:
    print(line, flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size-gb", type=float, default=1.0)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    size = int(args.size_gb * 1024**3)
    with tempfile.TemporaryDirectory(prefix="trajtui-inspect-") as tmp:
        paths = {k: os.path.join(tmp, k, f"log.{k}") for k in ("json", "eval")}
        small = {k: os.path.join(tmp, "small", f"log.{k}") for k in ("json", "eval")}
        for p in (*paths.values(), *small.values()):
            os.makedirs(os.path.dirname(p), exist_ok=True)
        capture = os.path.join(tmp, "capture.jsonl")
        print(f"generating {args.size_gb:g} GB Inspect logs and capture ...", file=sys.stderr)
        n = write_json_log(paths["json"], size)
        write_eval_log(paths["eval"], size)
        write_json_log(small["json"], 10 << 20)
        write_eval_log(small["eval"], 10 << 20)
        write_capture(capture, size)
        say(
            f"\n.json log {os.path.getsize(paths['json']) / 1e9:.2f} GB and .eval log "
            f"{os.path.getsize(paths['eval']) / 1e9:.2f} GB ({n:,} samples of "
            f"{os.path.getsize(paths['json']) / n / 1e6:.1f} MB, "
            "the same samples); acp capture of the json log's size; 10 MB logs"
        )
        say("\n| case | .json log | .eval log | capture |\n|---|---|---|---|")
        c_first, c_end, c_kb = first_ls_line(capture)
        figures = {k: first_ls_line(p) for k, p in paths.items()}
        say(
            "| `ls --json`: first line | "
            + " | ".join(f"{figures[k][0]:.2f} s" for k in paths)
            + f" | {c_first:.2f} s |"
        )
        say(
            "| `ls --json`: done | "
            + " | ".join(f"{figures[k][1]:.2f} s" for k in paths)
            + f" | {c_end:.2f} s |"
        )
        say(
            "| `ls --json`: peak private memory | "
            + " | ".join(f"{figures[k][2] / 1024:.0f} MB" for k in paths)
            + f" | {c_kb / 1024:.0f} MB |"
        )
        last = f"s{n - 1}/epoch-1/step-3"
        shown = {k: show_step(p, last) for k, p in paths.items()}
        say(
            "| `show` the last sample's tool call: time, peak private memory | "
            + " | ".join(f"{shown[k][0]:.2f} s, {shown[k][1] / 1024:.0f} MB" for k in paths)
            + " | |"
        )
        screens = {k: median_screen(p, args.runs) for k, p in paths.items()}
        smalls = {k: median_screen(p, args.runs) for k, p in small.items()}
        say(
            f"| TUI first screen, run shown (median of {args.runs}) | "
            + " | ".join(
                f"{screens[k]:.2f} s (10 MB log: {smalls[k]:.2f} s, {screens[k] / smalls[k]:.1f}x)"
                for k in paths
            )
            + f" | {median_screen(capture, args.runs):.2f} s |"
        )


if __name__ == "__main__":
    main()
