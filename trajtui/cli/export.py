"""``trajtui export``: the run table, a run or a step, as CSV, JSON Lines, Markdown or HTML."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from typing import Any

import click

from trajtui.cli.args import names_a_run, split_args
from trajtui.cli.cache import no_cache_option, use_cache
from trajtui.cli.output import open_workspace, print_err, workspace_rows
from trajtui.cli.show import resolve_streaming
from trajtui.cli.where import row_predicate, where_option
from trajtui.core.io.jsonutil import dumps_line
from trajtui.core.io.sanitize import file_bytes, json_text
from trajtui.core.model import RunSummary
from trajtui.core.notes import notes_for
from trajtui.core.refs import RefError
from trajtui.core.source import LoadError, Target
from trajtui.core.workspace import Workspace
from trajtui.render import export

FORMATS = ("jsonl", "csv", "markdown", "html")


def marks_of(path: str) -> export.Marks:
    """The user's bookmarks and notes of the source at ``path`` (``trajtui notes``)."""
    return {n.ref: (n.bookmarked, n.text) for n in notes_for(path)}


def _table(ws: Workspace, keep: Callable[[RunSummary], bool] | None) -> Iterator[dict[str, Any]]:
    marks: dict[str, export.Marks] = {}
    for source, entry in workspace_rows(ws):
        if isinstance(entry, RunSummary) and (keep is None or keep(entry)):
            if source.path not in marks:
                marks[source.path] = marks_of(source.path)
            yield export.table_record(entry, ws.ref(source, entry.ref), marks[source.path])


def _target_text(ws: Workspace, target: Target, form: str) -> str:
    source = target.source
    run = source.run(target.index)
    shown = ws.ref(source, target.ref)
    marks = marks_of(source.path)
    attempt = run.attempt(target.attempt) if target.attempt is not None else None
    if target.step is not None:
        step = run.timeline(target.attempt)[target.step - 1]
        if form == "jsonl":
            return dumps_line(step.raw) + "\n"
        if form == "html":
            return export.step_html(step)
        if form == "markdown":
            return export.step_markdown(step)
    elif form == "jsonl":
        if attempt is not None:
            return dumps_line(attempt.raw) + "\n"
        return export.record_jsonl(source, target.index, run)
    elif form == "html":
        return export.run_html(run, shown, attempt, marks)
    elif form == "markdown":
        return export.run_markdown(run, shown, attempt, marks)
    raise click.UsageError(
        f"--format {form} is for the run table; a run or a step takes jsonl, markdown or html"
    )


@click.command("export")
@click.argument("args", nargs=-1, required=True, metavar="PATH... [REF]")
@click.option(
    "-f",
    "--format",
    "form",
    type=click.Choice(FORMATS),
    default=None,
    help="jsonl, csv, markdown or html (default: from -o's extension, else jsonl).",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Write here instead of to standard output.",
)
@click.option(
    "--parquet",
    "parquet",
    metavar="OUT/",
    type=click.Path(file_okay=False),
    default=None,
    help="Write the runs, steps, tool_calls and trials tables of PATH... as Parquet into "
    "the directory OUT/ (again: only sources that changed are rewritten).",
)
@where_option
@no_cache_option
def export_cmd(
    args: tuple[str, ...],
    form: str | None,
    output: str | None,
    parquet: str | None,
    where: str | None,
    no_cache: bool,
) -> None:
    """Take the run table, a run or a step out of trajtui.

    \b
    Without REF: the run table of PATH... (every run, the run list's columns) as CSV,
    JSON Lines or a Markdown table; with --parquet OUT/, the tables runs, steps,
    tool_calls and trials as Parquet, one file per source under OUT/TABLE/ (schema in
    the README; query them with trajtui sql --from OUT/, DuckDB, Spark or pandas).
    With REF (a run, trial or step as ls prints it):
      jsonl     the object exactly as it is in the file
      markdown  acp-harness's evaluation-record layout ([→RUN-step-N] step ids)
      html      one self-contained page: no script, no network, every value escaped,
                long values folded; opens offline in any browser

    \b
    Examples:
      trajtui export results.jsonl -o runs.csv
      trajtui export results.jsonl websearch-17 -f markdown > judge.md
      trajtui export outputs/ websearch-17 -o websearch-17.html
      trajtui export runs/ --where 'status:fail tool:Bash' -o failing.csv
      trajtui export --parquet tables/ outputs/    then: duckdb, spark, trajtui sql

    Nothing is written anywhere but to standard output, to -o's file or under OUT/.
    """
    if parquet is not None:
        _parquet(args, parquet, form, output, where, no_cache)
        return
    split = split_args("export", args, names_a_run)
    paths, refs = split.paths, split.refs
    for note in split.notes:
        print_err(note)
    if not paths or len(refs) > 1:
        print_err(
            "trajtui export: give the files or directories, then at most one reference "
            f"(got {len(paths)} path(s) and {len(refs)} reference(s))"
        )
        sys.exit(2)
    if form is None:
        ext = os.path.splitext(output or "")[1].lower()
        form = {".csv": "csv", ".md": "markdown", ".html": "html", ".htm": "html"}.get(ext, "jsonl")
    if where is not None and refs:
        print_err("trajtui export: --where selects runs of the table; not with a REF")
        sys.exit(2)
    keep = row_predicate(where)
    use_cache(no_cache)
    ws = open_workspace(paths)
    if not ws.sources:
        sys.exit(2)
    try:
        if refs:
            try:
                text = _target_text(ws, resolve_streaming(ws, refs[0]), form)
            except RefError as err:
                print_err(f"trajtui export: {err}")
                sys.exit(2)
            except LoadError as err:
                print_err(str(err.problem))
                sys.exit(2)
        else:
            rows = list(_table(ws, keep))
            if form == "csv":
                text = export.table_csv(rows)
            elif form == "markdown":
                text = export.table_markdown(rows)
            elif form == "jsonl":
                text = export.table_jsonl(rows)
            else:
                raise click.UsageError("the run table is exported as csv, jsonl or markdown")
    finally:
        ws.close()
    if output is None:  # text: a byte that is not UTF-8 spelled \udcXX
        sys.stdout.write(json_text(text))
        return
    data = file_bytes(text)  # a file: such a byte written back as it was
    try:
        with open(output, "wb") as f:
            f.write(data)
    except OSError as err:
        print_err(f"{output}: {err.strerror or err}")
        sys.exit(2)
    print_err(f"{output}: written ({len(data):,} bytes)")


def _parquet(
    args: tuple[str, ...],
    out: str,
    form: str | None,
    output: str | None,
    where: str | None,
    no_cache: bool,
) -> None:
    """``export --parquet OUT/ PATH...``: the tables of every run of PATH..., written (or
    brought up to date) in OUT/; a line on stderr says what was written."""
    from pathlib import Path

    from trajtui.cli import tables
    from trajtui.cli.output import report_problems

    if form is not None or output is not None or where is not None:
        print_err("trajtui export: --parquet writes every run's tables: not with -f, -o or --where")
        sys.exit(2)
    use_cache(no_cache)
    ws = open_workspace(args)
    if not ws.sources:
        sys.exit(2)
    try:
        done = tables.write(ws, Path(out), args, "export")
    finally:
        for source in ws.sources:
            report_problems(source.problems())
        ws.close()
    report_problems(done.problems)
    counts = ", ".join(f"{n:,} {t}" for t, n in done.rows.items())
    parts = [f"{len(done.written):,} sources written"]
    if done.kept:
        parts.append(f"{len(done.kept):,} unchanged, kept")
    if done.removed:
        parts.append(f"{done.removed:,} no longer given, removed")
    print_err(f"{out}: {counts} ({'; '.join(parts)})")
    if not done.rows["runs"]:
        sys.exit(1)
