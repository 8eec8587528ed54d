"""``trajtui stats``: figures across runs (outcomes, scores, pass@k, durations, costs,
tokens, tool calls, the figures each format adds), grouped with ``--by``, as text or JSON."""

from __future__ import annotations

import sys
import time
from typing import Any

import click

from trajtui.cli.cache import no_cache_option, use_cache
from trajtui.cli.formats_help import FormatsHelp, help_lines
from trajtui.cli.output import open_workspace, print_err, report_problems, silence_stdout
from trajtui.cli.where import run_predicate, where_option
from trajtui.core.io.jsonutil import dumps_line
from trajtui.core.io.sanitize import visible
from trajtui.core.jsonl.index import ScanProgress
from trajtui.core.rows import KEEP_ALL, read_rows
from trajtui.core.source import Source
from trajtui.core.stats.collect import NO_VALUE, RunPredicate, collect, grouped
from trajtui.core.workspace import Workspace
from trajtui.formats.registry import figures

PROGRESS_AFTER = 1.0
"""Seconds of loading after which progress is shown on stderr."""


class _Progress:
    """``stats: reading runs 1,200/10,848`` on stderr, rewritten in place, once loading
    has taken over :data:`PROGRESS_AFTER` seconds (only on a terminal)."""

    def __init__(self) -> None:
        self.started = time.monotonic()
        self.shown = False
        self.tty = sys.stderr.isatty()

    def __call__(self, done: int, total: int) -> None:
        if time.monotonic() - self.started < PROGRESS_AFTER:
            return
        self.shown = True
        if self.tty:
            sys.stderr.write(f"\rstats: reading runs {done:,}/{total:,}")
        elif done == total or not done % 1000:
            sys.stderr.write(f"stats: reading runs {done:,}/{total:,}\n")
        sys.stderr.flush()

    def scanning(self, path: str, fraction: float) -> None:
        if time.monotonic() - self.started < PROGRESS_AFTER or not self.tty:
            return
        self.shown = True
        shown = visible(path[-40:], keep_newlines=False)
        sys.stderr.write(f"\rstats: indexing {shown} {fraction * 100:.0f}%   ")
        sys.stderr.flush()

    def end(self) -> None:
        if self.shown and self.tty:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


def stats_of(
    ws: Workspace, by: str | None, where: RunPredicate | None, progress: _Progress
) -> tuple[list[Any], list[Any]]:
    """Scan, read and count; returns (figures of each group, problems)."""

    def scanning(source: Source, p: ScanProgress) -> None:
        if p.total:
            progress.scanning(source.path, p.done / p.total)

    # the rows first (decoded on every core, kept), each run's step facts with its row
    # where its source can make them (else each run is then read whole to count it);
    # kept in the index cache with the rows, so a second stats reads no line
    for source in ws.sources:
        source.want_step_facts()
    rows = read_rows(
        ws.sources, keep=KEEP_ALL, save=True, skip_known=True, say=print_err, progress=scanning
    )
    for _ in rows:
        pass
    parts = figures()
    collected = collect(ws.sources, ws.ref, where=where, progress=progress, parts=parts)
    progress.end()
    return grouped(collected.runs, by, parts), collected.problems


def _figures_help() -> list[str]:
    """A line of ``stats --help`` for what each format adds."""
    return help_lines([p.about for p in figures() if p.about[0]])


@click.command("stats", cls=FormatsHelp, lines=lambda: _figures_help())
@click.argument("paths", nargs=-1, required=True, type=click.Path(readable=False))
@click.option(
    "--by",
    "by",
    metavar="FIELD",
    help="Group the figures by FIELD, side by side: a metadata key (agent, model, category, "
    "method...; metadata.KEY also works), format, source (the file), status or outcome.",
)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per group (JSON Lines).")
@click.option(
    "-f",
    "--format",
    "form",
    type=click.Choice(["text", "json", "markdown", "html"]),
    default="text",
    help="text (default), json (as --json), markdown (a table per section), or one "
    "self-contained html page (bars, and the runs behind each figure folded under it).",
)
@click.option("-q", "--quiet", is_flag=True, help="Report only errors on stderr, not warnings.")
@where_option
@no_cache_option
def stats_cmd(
    paths: tuple[str, ...],
    by: str | None,
    as_json: bool,
    form: str,
    quiet: bool,
    where: str | None,
    no_cache: bool,
) -> None:
    """Figures across the runs of PATH...: outcomes, scores, pass@k, time, cost, tools.

    \b
    What it prints, and how each figure is computed:
      outcomes     pass, fail, error, timeout, unknown: share of runs (n/N);
                   pass of graded: of the runs the file grades (timeouts too)
      score        mean per kind of score, 95% interval: Wilson at the
                   effective n (t quantile) for scores within [0, 1], never
                   leaving them; else t (n-1 df)
      trials       pass@k and pass^k for k = 1 .. trials per task, the unbiased
                   estimator of Chen et al. 2021 (pass@k = mean over tasks of
                   1 - C(n-c,k)/C(n,k); pass^k = mean of C(c,k)/C(n,k)); tasks
                   with fewer than k graded trials left out and counted; the
                   file's own passRate/passAtK/passExpK beside them; tasks whose
                   trials disagree, listed
      duration, cost, tokens
                   total, then p50, p90, max per run (percentiles by linear
                   interpolation between closest ranks), with n
      tool calls   in all and by tool: calls (as the run list counts them),
                   failures and failure rate (of the runs whose format tells),
                   median duration; runs the file flags toolErrors
    {formats}

    \b
    Examples:
      trajtui stats trials.jsonl                   pass@1, pass@k, pass^k
      trajtui stats outputs/ --by agent            agents side by side
      trajtui stats runs/ --by source --json | jq '.trials.estimates'
      trajtui stats out/ --where 'agent:codex -status:timeout'
      trajtui stats outputs/ --by model -f html > stats.html    a page to share

    With --json each line is one group (the first is "all"); every rate carries its
    counts (num, den) and every figure the refs of the runs behind it. Exit 1 when no
    run could be read.
    """
    predicate = run_predicate(where)  # a bad query: one line, exit 2, before any reading
    if as_json:
        form = "json"
    use_cache(no_cache)
    ws = open_workspace(paths)
    progress = _Progress()
    try:
        groups, problems = stats_of(ws, by, predicate, progress)
        runs = len(groups[0].runs)
        if form == "json":
            for g in groups:
                obj = dict(g.data)
                if by is not None and g.name != "all":
                    obj["by"] = by
                sys.stdout.write(dumps_line(obj) + "\n")
        elif runs and form in ("markdown", "html"):
            from trajtui.render.stats import stats_html, stats_markdown

            title = " ".join(paths) + (f" · where {where}" if where else "")
            render = stats_html if form == "html" else stats_markdown
            sys.stdout.write(render(groups, by, title))
        elif runs:
            from trajtui.render.stats import report_lines

            for line in report_lines(groups, by):
                sys.stdout.write(line + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        silence_stdout()
        ws.close()
        sys.exit(0)
    finally:
        progress.end()
        for source in ws.sources:
            report_problems(source.problems(), verbose=not quiet)
        ws.close()
    report_problems(problems, verbose=not quiet)
    if by is not None and runs and [g.name for g in groups[1:]] == [NO_VALUE]:
        keys = sorted({k for r in groups[0].runs for k, _ in r.metadata})
        known = ", ".join(["format", "source", "status", "outcome", *keys])
        print_err(f"no run has a value for {by!r} (fields: {known})")
    if runs == 0:
        print_err("no runs could be read" if ws.sources else "nothing to count")
        sys.exit(1)
