"""Logs where they lie: a capture and an ``.eval`` log read over HTTP and S3 beside the same
files read locally (``make bench``; ``python -m tests.bench.remote_bench [--size-mb N]``).

The servers run on 127.0.0.1 (a local link), started here: the HTTP server of the remote
tests (honours ``Range``, counts the body bytes it sends) and moto's S3 server. Each figure
is the median of ``--runs`` fresh processes; a remote *first* open starts with an empty
mirror cache (its own ``XDG_CACHE_HOME``), a *second* open with the mirror the first left.

* the TUI's first screen with a run shown: local, then over HTTP (target: at most 2x the
  local one), and the bytes the server had sent by the time that session ended;
* ``ls --json`` of the whole capture: local, HTTP and S3 times, the bytes fetched (each byte
  once: the file's size), then a second ``ls`` of the unchanged object: the bytes fetched
  (0: only the HEAD);
* an ``.eval`` log listed over HTTP: the bytes read beside the archive's size.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.helpers.servers import HTTP, moto_s3

_FIRST_SCREEN = """
import asyncio, sys, time
start = time.perf_counter()
from tests.bench.tui_bench import as_the_command
from trajtui.ui.app import make_app
from trajtui.ui.screens.main import MainScreen

async def first(path):
    as_the_command([path])
    app = make_app([path])
    async with app.run_test(size=(120, 40)):
        while time.perf_counter() - start < 120:
            await asyncio.sleep(0.002)
            if isinstance(app.screen, MainScreen) and app.screen.run is not None:
                return time.perf_counter() - start
    raise SystemExit("no run shown")

print(asyncio.run(first(sys.argv[1])))
"""


def run_env(cache: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    return {
        **os.environ,
        "XDG_CACHE_HOME": str(cache),
        "TRAJTUI_CACHE_MAX_MB": "0",
        "PYTHONPATH": os.getcwd(),
        **(extra or {}),
    }


def first_screen(path: str, env: dict[str, str]) -> float:
    out = subprocess.run(
        [sys.executable, "-c", _FIRST_SCREEN, path], capture_output=True, text=True, env=env
    )
    if out.returncode != 0:
        print(out.stderr[-2000:], file=sys.stderr)
        return float("nan")
    return float(out.stdout.strip().splitlines()[-1])


def ls_time(path: str, env: dict[str, str]) -> float:
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-m", "trajtui", "ls", "--json", "--no-cache", path],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    if out.returncode != 0:
        print(out.stderr[-2000:], file=sys.stderr)
    return time.perf_counter() - start


def mb(n: int) -> str:
    return f"{n / (1 << 20):,.1f} MB"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size-mb", type=int, default=1024)
    parser.add_argument("--eval-mb", type=int, default=256)
    parser.add_argument("--runs", type=int, default=3)
    # moto reads a whole object for each range asked of it (its time grows as the square of
    # the size: 1 GB took 337 s to list, 128 requests of 8 MB): S3 is measured on a smaller
    # capture, beside the same file read locally.
    parser.add_argument("--s3-mb", type=int, default=128)
    args = parser.parse_args(argv)
    from tests.bench.capture_gen import write_capture
    from tests.bench.inspect_bench import write_eval_log

    with tempfile.TemporaryDirectory(prefix="trajtui-remote-bench-") as tmp:
        root = Path(tmp)
        www = root / "www"
        www.mkdir()
        capture = str(www / "capture.jsonl")
        size = write_capture(capture, args.size_mb << 20).size
        log = str(www / "task.eval")
        samples = write_eval_log(log, args.eval_mb << 20)
        log_size = os.path.getsize(log)
        caches = iter(range(1_000_000))

        def fresh(extra: dict[str, str] | None = None) -> dict[str, str]:
            return run_env(root / f"cache-{next(caches)}", extra)

        print(
            f"remote: a {mb(size)} capture and a {mb(log_size)} .eval ({samples:,} samples) on 127.0.0.1, median of {args.runs}:",
            flush=True,
        )
        local = statistics.median(first_screen(capture, fresh()) for _ in range(args.runs))
        with HTTP(str(www)) as http:
            url = f"{http.url}/capture.jsonl"
            screens, sent = [], []
            for _ in range(args.runs):
                http.reset()
                screens.append(first_screen(url, fresh()))
                sent.append(http.sent)
            remote = statistics.median(screens)
            print(
                f"  TUI first screen:  local {local * 1000:6.0f} ms   HTTP {remote * 1000:6.0f} ms  "
                f"({remote / local:.2f}x; target <= 2x), fetched by then and until the session ended: "
                f"{mb(int(statistics.median(sent)))}",
                flush=True,
            )
            ls_local = statistics.median(ls_time(capture, fresh()) for _ in range(args.runs))
            times, firsts = [], []
            for _ in range(args.runs):
                http.reset()
                env = fresh()
                times.append(ls_time(url, env))
                firsts.append(http.sent)
                http.reset()
                again = ls_time(url, env)
            ls_http = statistics.median(times)
            print(
                f"  ls --json, whole:  local {ls_local:6.2f} s    HTTP {ls_http:6.2f} s   ({ls_http / ls_local:.2f}x); "
                f"fetched {mb(int(statistics.median(firsts)))} of {mb(size)}; a second ls: "
                f"{http.sent:,} bytes, {http.heads} HEAD, {again:.2f} s",
                flush=True,
            )
            http.reset()
            ls_time(f"{http.url}/task.eval", fresh())
            print(
                f"  .eval listed over HTTP: {http.sent:,} bytes read of {log_size:,} "
                f"({http.sent / log_size:.3%}): the central directory, header and summaries",
                flush=True,
            )
        s3_env = {
            "AWS_ACCESS_KEY_ID": "bench",
            "AWS_SECRET_ACCESS_KEY": "bench",
            "AWS_DEFAULT_REGION": "us-east-1",
            "AWS_CONFIG_FILE": str(root / "none"),
            "AWS_SHARED_CREDENTIALS_FILE": str(root / "none"),
        }
        os.environ.update(s3_env)
        with moto_s3() as endpoint:
            import boto3

            os.environ["AWS_ENDPOINT_URL"] = endpoint
            client = boto3.client("s3", endpoint_url=endpoint)
            client.create_bucket(Bucket="bench")
            small = str(root / "s3.jsonl")
            write_capture(small, args.s3_mb << 20)
            client.upload_file(small, "bench", "runs/capture.jsonl")
            local_ls = statistics.median(ls_time(small, fresh()) for _ in range(args.runs))
            local_screen = statistics.median(first_screen(small, fresh()) for _ in range(args.runs))
            url = "s3://bench/runs/capture.jsonl"
            at = {"AWS_ENDPOINT_URL": endpoint}
            screen_s3 = statistics.median(first_screen(url, fresh(at)) for _ in range(args.runs))
            env = fresh(at)
            ls_s3, ls_again = ls_time(url, env), ls_time(url, env)
            print(
                f"  S3 (moto), a {args.s3_mb:,} MB capture: TUI first screen local "
                f"{local_screen * 1000:.0f} ms, S3 {screen_s3 * 1000:.0f} ms "
                f"({screen_s3 / local_screen:.2f}x); ls --json local {local_ls:.2f} s, S3 "
                f"{ls_s3:.2f} s, a second ls {ls_again:.2f} s",
                flush=True,
            )


if __name__ == "__main__":
    main()
