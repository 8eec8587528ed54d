"""``trajtui sql "SELECT …" PATH...``: DuckDB over the runs, steps, tool_calls and trials
tables of PATH... (written on the fly into a cache directory, brought up to date on each
run) or of an export (``--from OUT/``), printed as a table, JSON Lines or CSV.

Exit codes as grep's: 0 rows found, 1 no rows, 2 an error (one line: a column or table
that does not exist is named). duckdb and pyarrow are imported only when the command runs.
"""

from __future__ import annotations

import csv
import io
import sys
import tempfile
from pathlib import Path
from typing import Any

import click

from trajtui.cli.cache import no_cache_option, use_cache
from trajtui.cli.output import open_workspace, print_err, report_problems, silence_stdout
from trajtui.core.io.jsonutil import dumps_line
from trajtui.core.io.sanitize import csv_cell, json_text, visible
from trajtui.core.jsonl import indexcache, rowpool

HELP = """Run SQL over the tables of PATH...: runs, steps, tool_calls, trials.

\b
DuckDB's SQL, embedded (no server). The tables are made from PATH... on the fly
(kept in the cache and brought up to date: only changed sources are read again),
or taken from an export with --from OUT/ (trajtui export --parquet OUT/ PATH...).
Each row carries its ref (trajtui show PATH... REF opens it), source and format;
unknown values are NULL, never 0. The columns are in the README, and below.

\b
Questions people ask:
  how many runs, and the pass share of the graded ones
    trajtui sql "SELECT count(*) AS runs, avg(grade::int) AS pass_share FROM runs" out/
  tool failure rate by model (failed is NULL where the format does not tell)
    trajtui sql "SELECT r.metadata['model'] AS model, count(*) AS calls,
      avg(t.failed::int) AS failure_rate FROM tool_calls t JOIN runs r
      ON t.run_ref = r.ref GROUP BY ALL ORDER BY calls DESC" out/
  pass@k by task (the unbiased estimator; here k = 2)
    trajtui sql "SELECT task, count(*) AS n, sum(grade::int) AS c,
      1 - CASE WHEN n - c < 2 THEN 0 ELSE comb(n - c, 2) / comb(n, 2) END
      AS pass_at_2 FROM (SELECT coalesce(task, title) AS task, grade FROM runs
      WHERE grade IS NOT NULL) GROUP BY task" out/
  slowest tools
    trajtui sql "SELECT tool, count(*) AS calls, median(duration_s) AS p50_s,
      max(duration_s) AS max_s FROM tool_calls GROUP BY tool
      ORDER BY p50_s DESC NULLS LAST LIMIT 10" out/
  cost per day
    trajtui sql "SELECT coalesce(metadata['date'], started::date::text) AS day,
      sum(cost) AS cost, count(cost) AS runs_with_cost FROM runs
      GROUP BY day ORDER BY day" out/

\b
Exit 0 when the query gave rows, 1 when it gave none, 2 on an error.

\b
{columns}
"""


def _help() -> str:
    # the columns come from the schema, which imports pyarrow: read only for --help
    try:
        from trajtui.core.tables.sql import columns_help

        columns = "\n".join(f"  {line}" for line in columns_help())
    except ImportError:  # pragma: no cover
        columns = ""
    return HELP.format(columns="Columns:\n" + columns if columns else "")


class _SqlCommand(click.Command):
    def get_help(self, ctx: click.Context) -> str:
        self.help = _help()
        return super().get_help(ctx)


@click.command("sql", cls=_SqlCommand, help=HELP.format(columns=""))
@click.argument("query", metavar='"SELECT …"')
@click.argument("paths", nargs=-1, type=click.Path(readable=False))
@click.option(
    "--from",
    "source",
    metavar="OUT/",
    type=click.Path(file_okay=False, exists=True),
    help="Query the tables of an export (trajtui export --parquet OUT/) instead of PATH...",
)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per row (JSON Lines).")
@click.option("--csv", "as_csv", is_flag=True, help="CSV with a header row.")
@no_cache_option
def sql_cmd(
    query: str,
    paths: tuple[str, ...],
    source: str | None,
    as_json: bool,
    as_csv: bool,
    no_cache: bool,
) -> None:
    if as_json and as_csv:
        print_err("trajtui sql: --json or --csv, not both")
        sys.exit(2)
    if bool(paths) == bool(source):
        print_err("trajtui sql: give PATH... to query, or --from OUT/ (an export), not both")
        sys.exit(2)
    use_cache(no_cache)
    # duckdb runs threads once imported: a big file's row workers are forked before it
    rowpool.start_early(paths)
    from trajtui.core.tables.sql import SqlError, connect
    from trajtui.core.tables.sql import query as run_query
    from trajtui.core.tables.writer import read_manifest

    tmp: tempfile.TemporaryDirectory[str] | None = None
    try:
        out: Path | None
        if source is not None:
            out = Path(source)
            if read_manifest(out) is None:
                print_err(f"trajtui sql: {source}: not an export of trajtui (no manifest.json)")
                sys.exit(2)
        else:
            out = _build(paths)
            if out is None:
                tmp = tempfile.TemporaryDirectory(prefix="trajtui-sql-")
                out = _build(paths, Path(tmp.name))
        if out is None:  # pragma: no cover - _build with a directory always gives it
            sys.exit(2)
        try:
            con = connect(out)
            result = run_query(con, query)
            if as_json:
                n = _print_json(result.columns, result.rows)
            elif as_csv:
                n = _print_csv(result.columns, result.rows)
            else:
                n = _print_table(result.columns, result.types, result.rows)
        except SqlError as err:
            print_err(f"trajtui sql: {err}")
            sys.exit(2)
        except BrokenPipeError:
            silence_stdout()
            sys.exit(0)
    finally:
        if tmp is not None:
            tmp.cleanup()
    sys.exit(0 if n else 1)


def _build(paths: tuple[str, ...], into: Path | None = None) -> Path | None:
    """The tables of ``paths``, brought up to date in the cache (or ``into``); None when
    the cache cannot be used (off, or not ours)."""
    from trajtui.cli import tables

    if into is None:
        if not indexcache.enabled():
            return None
        into = tables.cache_dir(paths)
        if into is None:
            return None
    ws = open_workspace(paths)
    if not ws.sources:
        sys.exit(2)
    try:
        done = tables.write(ws, into, paths, "sql")
    finally:
        for s in ws.sources:
            report_problems(s.problems(), verbose=False)
        ws.close()
    report_problems(done.problems)
    return into


def _print_json(columns: list[str], rows: Any) -> int:
    from trajtui.core.tables.sql import plain

    n = 0
    out = sys.stdout
    for row in rows:
        out.write(json_text(dumps_line(dict(zip(columns, map(plain, row), strict=True)))) + "\n")
        n += 1
    out.flush()
    return n


def _print_csv(columns: list[str], rows: Any) -> int:
    from trajtui.core.tables.sql import cell_value

    n = 0
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow([csv_cell(c) for c in columns])
    for row in rows:
        writer.writerow([csv_cell(cell_value(v)) for v in row])
        n += 1
        if buf.tell() > 1 << 20:
            sys.stdout.write(json_text(buf.getvalue()))
            buf.seek(0)
            buf.truncate()
    sys.stdout.write(json_text(buf.getvalue()))
    sys.stdout.flush()
    return n


def _print_table(columns: list[str], types: list[str], rows: Any) -> int:
    """The rows as a Rich table, every cell plain text (nothing in it read as markup or
    sent to the terminal as a control)."""
    from rich import box
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from trajtui.core.tables.sql import cell_text, numeric_type

    console = Console(highlight=False, soft_wrap=False)
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for name, kind in zip(columns, types, strict=True):
        numeric = numeric_type(kind)
        table.add_column(
            Text(visible(name, keep_newlines=False)),
            justify="right" if numeric else "left",
            overflow="fold",
        )
    n = 0
    for row in rows:
        table.add_row(*(Text(cell_text(v)) for v in row))
        n += 1
    if n:
        console.print(table)
    else:
        print_err("trajtui sql: no rows")
    return n
