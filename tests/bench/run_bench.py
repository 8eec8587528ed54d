"""Benchmark trajtui's core on a big generated acp-harness capture file (``make bench``).

Generates a capture JSONL (1 GB by default) in a temporary directory (``$TMPDIR``), then
measures, each as the median of several runs, every run in a fresh subprocess:

* time to the first record: ``open_paths`` -> scan started -> ``source.entry(0)`` is a
  RunSummary;
* time to a full index: ``open_paths`` -> the scan has reached the end of the file;
* resolving a step of the last record (``bench-NNNNNN-step-7``), cold: ``open_paths`` ->
  ``trajtui.cli.show.resolve_streaming`` (what ``trajtui show`` does, so it includes indexing the
  whole file) -> ``source.run(i)`` -> the step; and warm: with the index already complete,
  ``workspace.resolve`` -> ``source.run(i)`` -> the step;
* the run list, as the TUI's loader builds it: ``open_paths`` -> the first screen of rows
  (:data:`SCREEN` entries known) -> every entry known, on a first open (empty index cache;
  the index cache is then saved, timed apart) and on a second open of the unchanged file in a
  fresh process (from the index cache);
* peak private memory of each of those: RssAnon from /proc/self/status (file pages of the
  page cache or of an mmap are not counted), sampled every few ms by a thread.

Every subprocess gets its own index cache directory (``XDG_CACHE_HOME`` in the temporary
directory): the user's is never touched, and only the run-list case uses one (the others run
with ``TRAJTUI_CACHE_MAX_MB=0``, so they measure a first open every time).

The page cache is warm (the file was just written); one extra run of each kind is made after
dropping the file's pages with ``posix_fadvise(POSIX_FADV_DONTNEED)``.

Usage::

    python -m tests.bench.run_bench [--size-mb 1024] [--runs 3]

Not part of ``make test``: nothing here is named ``test_*``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.bench.bench_report import MB, SAMPLE_EVERY, SCREEN, Results, print_report
from tests.bench.capture_gen import Generated, write_capture

ROOT = Path(__file__).resolve().parents[2]
STEP = 7
"""The step of the last record resolved."""

# -- in the measured subprocess ------------------------------------------------------------


def rss_anon_kb() -> int:
    """This process's private resident memory (RssAnon), in kB."""
    with open("/proc/self/status", "rb") as f:
        for line in f:
            if line.startswith(b"RssAnon:"):
                return int(line.split()[1])
    raise RuntimeError("no RssAnon in /proc/self/status (Linux only)")


class PeakSampler:
    """Samples RssAnon every ``interval`` seconds in a thread and keeps the peak."""

    def __init__(self, interval: float = SAMPLE_EVERY) -> None:
        self.interval = interval
        self.peak_kb = rss_anon_kb()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self.sample()

    def sample(self) -> int:
        """Take one sample now; return the peak so far."""
        self.peak_kb = max(self.peak_kb, rss_anon_kb())
        return self.peak_kb

    def __enter__(self) -> PeakSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.sample()


@dataclass
class Clock:
    """One measurement: seconds from its start, and the memory peak while it ran."""

    started: float = field(default_factory=time.perf_counter)

    def lap(self, sampler: PeakSampler) -> dict[str, float]:
        """Seconds since the start and the peak RssAnon (kB) so far."""
        return {"s": time.perf_counter() - self.started, "peak_kb": sampler.sample()}


def _step_of(source: Any, target: Any, ref: str) -> Any:
    """Load the target's run and return its step (checked, so a wrong resolve fails)."""
    run = source.run(target.index)
    step = run.steps[target.step - 1]
    if step.ref != ref or target.index != len(source) - 1:
        raise RuntimeError(f"resolved {ref} to {step.ref} in run {target.index}")
    return step


def measure_index(path: str, ref: str) -> dict[str, Any]:
    """First record, full index and a warm resolve, in this process."""
    from tests.helpers.workspace import open_paths
    from trajtui.core.model import RunSummary

    out: dict[str, Any] = {"baseline_kb": rss_anon_kb()}
    with PeakSampler() as sampler:
        clock = Clock()
        ws = open_paths([path])
        source = ws.sources[0]
        scan = source.scan()
        for _ in scan:
            if len(source) > 0:
                break
        if not isinstance(source.entry(0), RunSummary):
            raise RuntimeError(f"record 0 is not a run: {source.entry(0)}")
        out["first"] = clock.lap(sampler)
        for _ in scan:
            pass
        out["full"] = clock.lap(sampler)
    out["retained_kb"] = rss_anon_kb()
    out["records"] = len(source)
    with PeakSampler() as sampler:
        clock = Clock()
        _step_of(source, ws.resolve(ref), ref)
        out["warm"] = clock.lap(sampler)
    ws.close()
    return out


def measure_cold_resolve(path: str, ref: str) -> dict[str, Any]:
    """Fresh open -> step resolved, as ``trajtui show PATH REF`` does it."""
    from tests.helpers.workspace import open_paths
    from trajtui.cli.show import resolve_streaming

    out: dict[str, Any] = {"baseline_kb": rss_anon_kb()}
    with PeakSampler() as sampler:
        clock = Clock()
        ws = open_paths([path])
        _step_of(ws.sources[0], resolve_streaming(ws, ref), ref)
        out["cold"] = clock.lap(sampler)
    ws.close()
    return out


def _known(source: Any, read: int, upto: int) -> int:
    """Summarise entries ``read`` up to ``upto`` (those restored from the index cache are
    skipped, as the TUI's loader does); return how far they are known."""
    read = max(read, source.known_prefix())
    while read < upto:
        source.entry(read)
        read += 1
    return read


def measure_list(path: str, ref: str) -> dict[str, Any]:
    """Open -> a first screen of rows -> every row, as the TUI's loader does (rows on screen
    first, then the rest as the scan goes); then the index cache is saved (timed apart)."""
    from tests.helpers.workspace import open_paths

    out: dict[str, Any] = {"baseline_kb": rss_anon_kb()}
    with PeakSampler() as sampler:
        clock = Clock()
        ws = open_paths([path])
        source = ws.sources[0]
        read = 0
        for _ in source.scan():
            if "screen" not in out and len(source):
                read = _known(source, read, min(len(source), SCREEN))
                if read >= SCREEN:
                    out["screen"] = clock.lap(sampler)
            read = _known(source, read, len(source))
        read = _known(source, read, len(source))
        out.setdefault("screen", clock.lap(sampler))
        out["list"] = clock.lap(sampler)
    out["records"] = len(source)
    out["from_cache"] = getattr(source, "cache_mark", None) is not None
    with PeakSampler() as sampler:
        clock = Clock()
        out["saved"] = source.save_index()
        out["save"] = clock.lap(sampler)
    ws.close()
    return out


WORKERS: dict[str, Callable[[str, str], dict[str, Any]]] = {
    "index": measure_index,
    "cold": measure_cold_resolve,
    "list": measure_list,
}


# -- in the driver -------------------------------------------------------------------------


def run_worker(kind: str, path: str, ref: str) -> dict[str, Any]:
    """Run one measurement in a fresh interpreter and return what it reported. Its index
    cache is beside the data file, in the temporary directory (only ``list`` uses one)."""
    cmd = [sys.executable, "-m", "tests.bench.run_bench", "--worker", kind, path, ref]
    env = {**os.environ, "XDG_CACHE_HOME": cache_home(path)}
    if kind != "list":
        env["TRAJTUI_CACHE_MAX_MB"] = "0"
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False, env=env)
    if done.returncode != 0:
        raise RuntimeError(f"{kind} worker failed:\n{done.stderr}")
    return json.loads(done.stdout)


def cache_home(path: str) -> str:
    """The ``XDG_CACHE_HOME`` of the measured subprocesses (in the temporary directory)."""
    return os.path.join(os.path.dirname(path), "xdg-cache")


def list_runs(path: str, ref: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The run-list measurement on a first open (the index cache emptied first), then on
    a second open of the unchanged file (from the cache the first one saved)."""
    shutil.rmtree(cache_home(path), ignore_errors=True)
    first = run_worker("list", path, ref)
    second = run_worker("list", path, ref)
    if first["from_cache"] or not first["saved"] or not second["from_cache"]:
        raise RuntimeError(f"the index cache was not used as expected: {first}, {second}")
    return first, second


def cache_size(path: str) -> int:
    """Bytes of the index cache's entries."""
    root = Path(cache_home(path))
    return sum(p.stat().st_size for p in root.rglob("*.idx"))


def page_cache_kb() -> int:
    """The system's page cache size (``Cached`` in /proc/meminfo), in kB."""
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("Cached:"):
                return int(line.split()[1])
    return 0


def drop_file_cache(path: str) -> int | None:
    """Evict the file's pages from the page cache; return how many kB the cache shrank by
    (None when ``posix_fadvise`` is not available)."""
    if not hasattr(os, "posix_fadvise"):
        return None
    before = page_cache_kb()
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)
    return before - page_cache_kb()


def checked(report: dict[str, Any], gen: Generated) -> dict[str, Any]:
    """The report, after checking the scan found every record written."""
    if report.get("records", gen.records) != gen.records:
        raise RuntimeError(f"indexed {report['records']} records, wrote {gen.records}")
    return report


def collect(gen: Generated, ref: str, runs: int) -> Results:
    """Run every measurement ``runs`` times, plus once with the file out of the page cache."""
    results = Results()
    for n in range(1, runs + 1):
        print(f"  run {n}/{runs} ...", file=sys.stderr, flush=True)
        results.add(checked(run_worker("index", gen.path, ref), gen))
        results.add(run_worker("cold", gen.path, ref))
        first, second = list_runs(gen.path, ref)
        results.add(checked(first, gen))
        results.add(cached(checked(second, gen)))
        results.cache_bytes = cache_size(gen.path)
    print("  cold page cache run ...", file=sys.stderr, flush=True)
    results.dropped_kb = drop_file_cache(gen.path)
    if results.dropped_kb is not None:
        results.add(checked(run_worker("index", gen.path, ref), gen), cold_cache=True)
        drop_file_cache(gen.path)
        results.add(run_worker("cold", gen.path, ref), cold_cache=True)
        drop_file_cache(gen.path)  # the data file only: the cache entry is read as it is
        results.add(cached(checked(run_worker("list", gen.path, ref), gen)), cold_cache=True)
    return results


def cached(report: dict[str, Any]) -> dict[str, Any]:
    """A second open's report, its measurements renamed (``screen`` -> ``screen_cached``)."""
    return {
        **{k: v for k, v in report.items() if k not in ("screen", "list", "save")},
        "screen_cached": report["screen"],
        "list_cached": report["list"],
    }


# -- entry point ---------------------------------------------------------------------------


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options (``--worker`` is internal: one measurement in this process)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=int, default=1024, help="file size (default 1024)")
    parser.add_argument("--runs", type=int, default=3, help="repetitions (default 3)")
    parser.add_argument(
        "--worker", nargs=3, metavar=("KIND", "PATH", "REF"), help=argparse.SUPPRESS
    )
    args = parser.parse_args(argv)
    if args.size_mb < 1 or args.runs < 1:
        parser.error("--size-mb and --runs must be at least 1")
    return args


@contextmanager
def temp_dir() -> Iterator[str]:
    """A temporary directory, removed at the end whatever happens."""
    path = tempfile.mkdtemp(prefix="trajtui-bench-")
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def main(argv: list[str] | None = None) -> None:
    """Generate the file, run every measurement, print the report."""
    args = parse_args(argv)
    if args.worker:
        kind, path, ref = args.worker
        print(json.dumps(WORKERS[kind](path, ref)))
        return
    with temp_dir() as tmp:
        print(f"generating {args.size_mb} MB capture in {tmp} ...", file=sys.stderr, flush=True)
        started = time.perf_counter()
        gen = write_capture(os.path.join(tmp, "capture.jsonl"), args.size_mb * MB)
        gen_s = time.perf_counter() - started
        ref = f"{gen.last_id}-step-{STEP}"
        results = collect(gen, ref, args.runs)
    print_report(results, gen, ref, args.runs, gen_s)


if __name__ == "__main__":
    main()
