"""The report of ``tests.bench.run_bench``: every run's figures filed by measurement, then a
header (what was measured, on what, how), an aligned table and one line per measurement."""

from __future__ import annotations

import os
import platform
import statistics
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from tests.bench.capture_gen import Generated

SAMPLE_EVERY = 0.002
"""Seconds between two samples of private memory."""
SCREEN = 40
"""Rows of a first screen of the run list."""
MB = 1024 * 1024


@dataclass
class Results:
    """Every run's figures, by measurement name (``first``, ``full``, ``cold``, ``warm``)."""

    runs: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    cold_cache: dict[str, dict[str, Any]] = field(default_factory=dict)
    dropped_kb: int | None = None
    cache_bytes: int = 0

    def add(self, report: dict[str, Any], *, cold_cache: bool = False) -> None:
        """File a worker's report (each measurement with the worker's baseline)."""
        for name in MEASUREMENTS:
            if name not in report or not isinstance(report[name], dict):
                continue
            row = {**report[name], "baseline_kb": report["baseline_kb"]}
            if name == "full":
                row["retained_kb"] = report["retained_kb"]
            if not cold_cache:
                self.runs.setdefault(name, []).append(row)
            elif name != "warm":  # the scan just read the last record: the cache is warm
                self.cold_cache[name] = row


# -- report --------------------------------------------------------------------------------

MEASUREMENTS = {
    "first": ("first record", "time to first record (open -> entry(0) is a RunSummary)"),
    "full": ("full index", "time to full index (open -> scan finished)"),
    "cold": (
        "resolve step, cold",
        "resolve a step of the last record, COLD (fresh open -> resolve_streaming, which"
        " indexes the whole file -> run -> step)",
    ),
    "warm": (
        "resolve step, warm",
        "resolve a step of the last record, WARM (index complete -> workspace.resolve ->"
        " source.run -> step)",
    ),
    "screen": (
        "run list: first screen, 1st open",
        f"run list, first screen ({SCREEN} rows known), FIRST open (empty index cache)",
    ),
    "list": (
        "run list: every row, 1st open",
        "run list, every row summarised, FIRST open (scan + summaries)",
    ),
    "save": ("save index cache", "saving the index cache after the first open"),
    "screen_cached": (
        "run list: first screen, 2nd open",
        f"run list, first screen ({SCREEN} rows known), SECOND open (from the index cache)",
    ),
    "list_cached": (
        "run list: every row, 2nd open",
        "run list, every row known, SECOND open (from the index cache)",
    ),
}


def fmt_s(seconds: float) -> str:
    """Seconds, in the unit that reads best."""
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def fmt_mb(kb: float) -> str:
    """kB as MB with one decimal."""
    return f"{kb / 1024:.1f} MB"


def _median(rows: list[dict[str, Any]], key: str) -> float:
    return statistics.median(r[key] for r in rows)


def _growth(rows: list[dict[str, Any]], key: str = "peak_kb") -> float:
    """Median over the runs of ``key`` minus the run's baseline, in kB."""
    return statistics.median(r[key] - r["baseline_kb"] for r in rows)


def _row(label: str, rows: list[dict[str, Any]]) -> tuple[str, ...]:
    times = [r["s"] for r in rows]
    spread = (fmt_s(min(times)), fmt_s(max(times))) if len(rows) > 1 else ("", "")
    return (
        label,
        fmt_s(statistics.median(times)),
        *spread,
        f"+{fmt_mb(_growth(rows))}",
        fmt_mb(_median(rows, "peak_kb")),
    )


def table_lines(results: Results) -> Iterator[str]:
    """The aligned table: one row per measurement, then the cold-page-cache rows."""
    rows: list[tuple[str, ...]] = [
        ("measurement", "median", "min", "max", "peak - base", "peak RssAnon")
    ]
    rows += [_row(short, results.runs[name]) for name, (short, _) in MEASUREMENTS.items()]
    rows += [
        _row(f"{short} [cold page cache]", [results.cold_cache[name]])
        for name, (short, _) in MEASUREMENTS.items()
        if name in results.cold_cache
    ]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for k, row in enumerate(rows):
        cells = [row[0].ljust(widths[0])]
        cells += [c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)]
        yield "  ".join(cells).rstrip()
        if k == 0:
            yield "  ".join("-" * w for w in widths)


def summary_lines(results: Results, gen: Generated, runs: int) -> Iterator[str]:
    """One line per measurement."""
    for name, (_, label) in MEASUREMENTS.items():
        got = results.runs[name]
        t = _median(got, "s")
        peak, base = _median(got, "peak_kb"), _median(got, "baseline_kb")
        cold = results.cold_cache.get(name)
        line = f"{label}: {fmt_s(t)} median of {runs}"
        if cold:
            line += f" (cold page cache, 1 run: {fmt_s(cold['s'])})"
        line += (
            f"; peak private memory +{fmt_mb(_growth(got))} over a {fmt_mb(base)} baseline"
            f" ({fmt_mb(peak)} absolute)"
        )
        if name == "full":
            line += f"; {gen.size / MB / t:,.0f} MB/s; still held after the scan:"
            line += f" +{fmt_mb(_growth(got, 'retained_kb'))}"
        if name == "warm":
            line += " (the base is before open, so this includes the index)"
        if name == "save":
            line += f"; the entry takes {fmt_mb(results.cache_bytes / 1024)}"
        if name.endswith("_cached"):
            before = _median(results.runs[name.removesuffix("_cached")], "s")
            line += f"; {before / t:,.0f}x faster than the first open"
        yield line


def header_lines(
    results: Results, gen: Generated, ref: str, runs: int, gen_s: float
) -> Iterator[str]:
    """What was measured, on what, and how."""
    yield (
        f"file: {gen.size:,} bytes ({gen.size / MB:,.0f} MB), {gen.records:,} acp-harness"
        f" capture records (generated in {gen_s:.1f} s); step resolved: {ref}"
    )
    yield (
        f"machine: nproc {os.cpu_count()}, Python {platform.python_version()}"
        f" ({platform.python_implementation()}), {platform.system()} {platform.release()}"
        f" {platform.machine()}"
    )
    yield (
        f"method: median of {runs} run(s), each in a fresh subprocess; the OS page cache is"
        " WARM (file just written) except in rows marked [cold page cache]"
    )
    if results.dropped_kb is None:
        yield "cold page cache: posix_fadvise unavailable, not measured"
    else:
        yield (
            "cold page cache: 1 run after posix_fadvise(POSIX_FADV_DONTNEED), which shrank the"
            f" page cache by {fmt_mb(results.dropped_kb)}"
        )
    yield (
        f"memory: RssAnon (private; page cache not counted) sampled every"
        f" {SAMPLE_EVERY * 1000:.0f} ms; base = RssAnon after imports, before open"
    )


def print_report(results: Results, gen: Generated, ref: str, runs: int, gen_s: float) -> None:
    """Print the header, the table and the summary lines."""
    for part in (
        header_lines(results, gen, ref, runs, gen_s),
        table_lines(results),
        summary_lines(results, gen, runs),
    ):
        for line in part:
            print(line)
        print()
