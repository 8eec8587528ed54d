"""``trajtui ls``: one line per run (a table on a terminal, JSON Lines with ``--json``),
written while the sources are still being scanned.
"""

from __future__ import annotations

import shlex
import shutil
import sys
import time
from collections.abc import Sequence

import click

from trajtui.cli.cache import no_cache_option, use_cache
from trajtui.cli.output import (
    open_workspace,
    print_err,
    report_problems,
    silence_stdout,
    workspace_rows,
)
from trajtui.cli.where import parse_where
from trajtui.core.io import remote
from trajtui.core.io.jsonutil import dumps_line
from trajtui.core.io.text import visible
from trajtui.core.model import Problem, RunSummary
from trajtui.core.query import Facts, elsewhere, facts_of_run, facts_of_summary
from trajtui.core.source import LoadError, Source
from trajtui.core.workspace import Workspace
from trajtui.render import fmt
from trajtui.render.columns import BY_KEY, NUMBERS, PROJECT, Column, cut_start


def _facts(source: Source, entry: RunSummary, label: str, *, whole: bool) -> Facts:
    """What ``--where`` judges of a row: its summary, or (``whole``: the query has words or
    ``input:``, which look at the whole input, not just its first line) the whole run, read
    again; a run that cannot be read is judged by its row."""
    if whole:
        try:
            return facts_of_run(source.run(entry.index), label)
        except LoadError:
            pass
    return facts_of_summary(entry, label)


def _columns(summaries: Sequence[RunSummary], refs: Sequence[str], tty: bool) -> dict[str, int]:
    """Column widths from the first rows, as they are shown (made visible); on a terminal,
    status and refs are capped (and cut with an ellipsis) so titles keep some room; in a
    pipe nothing is cut."""
    ref_w = max([len("REF"), *(len(visible(r, keep_newlines=False)) for r in refs)])
    status_w = max(
        [
            len("STATUS"),
            *(
                len(visible(fmt.status(s.status, s.outcome), keep_newlines=False))
                for s in summaries
            ),
        ]
    )
    if tty:
        return {"ref": min(ref_w, 44), "status": min(status_w, 16)}
    return {"ref": min(ref_w, 64), "status": status_w}


def _shown_columns(with_cost: bool) -> tuple[Column, ...]:
    """The columns of counts and figures ``ls`` shows (cost only for a source that has
    costs), as the column table has them."""
    return tuple(c for c in NUMBERS if with_cost or c.key != "cost")


_PROJECT = BY_KEY[PROJECT]
"""The project a run is of (a coding agent's session): a column of ``ls``'s table when its
rows have it, as of the run list's."""


def _project(s: RunSummary) -> str:
    return _PROJECT.cell(s) if _PROJECT.cell is not None else ""


def _project_width(rows: Sequence[RunSummary], tty: bool) -> int:
    """The PROJECT column's width (0: none of ``rows`` says its project)."""
    longest = max((len(_project(s)) for s in rows), default=0)
    head = len(_PROJECT.ls_header)
    return min(max(longest, head), 32 if tty else _PROJECT.ls_width) if longest else 0


def _row(
    ws: Workspace,
    source: Source,
    s: RunSummary,
    widths: dict[str, int],
    width: int | None,
    with_cost: bool,
    project_w: int = 0,
) -> str:
    ref = visible(ws.ref(source, s.ref), keep_newlines=False)
    status = visible(fmt.status(s.status, s.outcome), keep_newlines=False)
    if width is not None and len(status) > widths["status"]:
        status = status[: widths["status"] - 1] + "…"
    cells = f"{ref:<{widths['ref']}}  {status:<{widths['status']}}  " + "  ".join(
        f"{c.cell(s) if c.cell else '':>{c.ls_width}}" for c in _shown_columns(with_cost)
    )
    if project_w:
        cells += f"  {cut_start(_project(s), project_w):<{project_w}}"
    title = s.title
    if width is not None:
        room = width - len(cells) - 2
        if room < 8:
            return cells
        if len(title) > room:
            title = title[: room - 1] + "…"
    return f"{cells}  {title}" if title else cells


def _section(ws: Workspace, source: Source) -> tuple[str, int | None]:
    """The table a source's rows are in: its own, or (its refs stand alone) its format's."""
    return (source.format.id, None) if ws.alone(source) else (source.format.id, id(source))


def _header(widths: dict[str, int], with_cost: bool, project_w: int = 0) -> str:
    head = f"{'REF':<{widths['ref']}}  {'STATUS':<{widths['status']}}  " + "  ".join(
        f"{c.ls_header:>{c.ls_width}}" for c in _shown_columns(with_cost)
    )
    if project_w:
        head += f"  {_PROJECT.ls_header:<{project_w}}"
    return head + "  TITLE"


@click.command("ls")
@click.argument("paths", nargs=-1, required=True, type=click.Path(readable=False))
@click.option("--json", "as_json", is_flag=True, help="JSON Lines: one object per run.")
@click.option(
    "-v", "--verbose", is_flag=True, help="Also list files that were looked at and not recognised."
)
@click.option("-q", "--quiet", is_flag=True, help="Report only errors on stderr, not warnings.")
@click.option(
    "--where",
    "where",
    metavar="QUERY",
    help="Only runs matching QUERY (the run-list filter's query language, above).",
)
@no_cache_option
def ls_cmd(
    paths: tuple[str, ...],
    as_json: bool,
    verbose: bool,
    quiet: bool,
    where: str | None,
    no_cache: bool,
) -> None:
    """List runs: ref, status, steps, tool calls, tool errors, duration and score.

    CALLS is the number of tool calls a run made, TOOL ERR how many of them failed (— where
    the format does not say; "flagged" when none did and the file flags its toolErrors). Rows appear while a big file is still being indexed. With
    --json each line is a JSON object with at least ref, format, status, steps, tool_calls,
    tool_errors and duration_ms; keys in the file's own camelCase (toolErrors, passRate,
    passAtK, passExpK) are the file's values, present only when the file has them.

    The index of each JSONL file is kept in trajtui's cache (see trajtui cache --help): the
    next ls, show or TUI of the same unchanged file starts from it instead of reading it.

    --where QUERY keeps the runs that match (exit 1 when none does, like grep; 2 when the
    query does not parse). Words and "phrases" are looked for in ref, title and input;
    field:value and comparisons (= != < <= > >=) on fields; -term, NOT, OR, ( ). Fields:
    status, score, steps, duration, cost, tokens, tool, tool_calls, tool_errors, trials,
    passes, format, ref, title, pass, the file's own toolErrors, passRate, passAtK and
    passExpK, and any metadata key (agent:codex, metadata.KEY:v).

    \b
    Examples:
      trajtui ls runs.jsonl --where 'status:timeout OR tool_errors>0'
      trajtui ls runs.jsonl --where 'score<0.5 duration>60s -tool:Bash'
      trajtui ls out/ --where 'agent:codex tokens>100k' --json
      trajtui ls trials.jsonl --where '(passes<3 OR "rate limit") metadata.category:ui'
    """
    query = parse_where(where, None) if where is not None else None
    use_cache(no_cache)
    ws = open_workspace(paths)
    out = sys.stdout
    width = shutil.get_terminal_size((100, 24)).columns if out.isatty() else None
    runs = 0
    pending: list[tuple[Source, RunSummary]] = []
    widths: dict[str, int] | None = None
    started = time.monotonic()

    lines: list[str] = []  # --json lines not written yet
    # per table: has it a COST column, how wide its PROJECT column is
    tables: dict[tuple[str, int | None], tuple[bool, int]] = {}
    # each table said by a `# ...` line: there are several
    headed = len({_section(ws, src) for src in ws.sources}) > 1
    last_section: tuple[str, int | None] | None = None

    def flush() -> None:
        nonlocal widths, last_section
        if lines:  # JSON Lines, written together (one write per line costs a row's time)
            lines.append("")
            out.write("\n".join(lines))
            lines.clear()
        if not pending:
            return
        if widths is None:
            widths = _columns(
                [s for _, s in pending],
                [ws.ref(src, s.ref) for src, s in pending],
                width is not None,
            )
        for src, s in pending:
            # sources whose refs stand alone (a folder of sessions) share one table
            section = _section(ws, src)
            if section not in tables:
                mine = [r for other, r in pending if _section(ws, other) == section]
                tables[section] = (
                    any(r.cost is not None for r in mine),
                    _project_width(mine, width is not None),
                )
            with_cost, project_w = tables[section]
            if section != last_section:
                if verbose or headed:
                    if last_section is not None:
                        out.write("\n")
                    said = remote.shown(src.path) if section[1] is not None else "one run a file"
                    out.write(f"# {visible(said, keep_newlines=False)} · {src.format.name}\n")
                out.write(_header(widths, with_cost, project_w) + "\n")
                last_section = section
            out.write(_row(ws, src, s, widths, width, with_cost, project_w) + "\n")
        pending.clear()

    last_flush = time.monotonic()
    keys: set[str] = set()
    try:
        for source, entry in workspace_rows(ws):
            if isinstance(entry, Problem):
                continue
            if query is not None:
                keys.update(k for k, _ in entry.metadata)
                label = "" if ws.alone(source) else source.label
                if not query.matches(_facts(source, entry, label, whole=query.reads_run)):
                    continue
            runs += 1
            if as_json:
                obj = entry.to_json()
                obj["ref"] = ws.ref(source, entry.ref)
                obj["source"] = remote.shown(source.path)
                obj["format_name"] = source.format.name
                lines.append(dumps_line(obj))
            else:
                pending.append((source, entry))
            now = time.monotonic()
            if widths is None and len(pending) < 2000 and now - started < 0.3:
                continue
            if len(pending) + len(lines) >= 256 or now - last_flush > 0.1:  # as they come
                flush()
                out.flush()
                last_flush = now
        flush()
        out.flush()
    except BrokenPipeError:
        # `trajtui ls x | head`: the reader has what it wanted; stop quietly, exit 0.
        silence_stdout()
        ws.close()
        sys.exit(0)
    finally:
        for source in ws.sources:
            report_problems(source.problems(), verbose=not quiet)
        if verbose:
            for path, reason in ws.ignored:
                print_err(f"{path}: {reason}")
        ws.close()
    if query is not None and where is not None:
        parse_where(where, keys)  # a metadata key no run has: named as the typo it likely is
        if runs == 0:
            words = [w.value for w, _ in query.searches if w.value.strip("*")]
            grep = " ".join(shlex.quote(p) for p in (*paths, words[0] if words else "PATTERN"))
            hint = elsewhere(query, f"trajtui grep {grep} searches every text")
            said = f" ({visible(hint, keep_newlines=False)})" if query.reads_run else ""
            print_err(f"no runs match: {visible(where, keep_newlines=False)}{said}")
            sys.exit(1)
    if runs == 0:
        if ws.sources:
            print_err("no runs could be read")
        sys.exit(1)
