"""``trajtui grep``: search every text of every run, one line per hit (JSON Lines with
``--json``), exit codes like grep's.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence

import click

from trajtui.cli.cache import no_cache_option, size_text, use_cache
from trajtui.cli.output import open_workspace, print_err, report_problems, scan_all, silence_stdout
from trajtui.cli.where import run_predicate, where_option
from trajtui.core.io.jsonutil import dumps_line
from trajtui.core.io.text import visible
from trajtui.core.model import Problem
from trajtui.core.search import (
    KINDS,
    Hit,
    PatternError,
    Progress,
    RunPredicate,
    Search,
    compile_needle,
)

EPILOG = """\b
Fields (--in): {kinds}

\b
Examples:
  trajtui grep results.jsonl "rate limit"          every mention, in any field
  trajtui grep outputs/ -i timeout --in tool       tool calls that mention a timeout
  trajtui grep a.jsonl b.jsonl -E 'HTTP [45]\\d\\d'  a regular expression (RE2 syntax)
  trajtui grep results.jsonl 'say "hi"'            quotes, backslashes, unicode: as typed
  trajtui grep results.jsonl error --json | jq -r .ref | sort -u
  trajtui show results.jsonl websearch-17-step-5   open a hit's reference
""".format(kinds=", ".join(KINDS))


def parse_kinds(text: str | None) -> frozenset[str] | None:
    """The kinds of ``--in`` (comma-separated), or None for every field.

    Raises:
        click.BadParameter: A name that is not a kind (the message lists them).
    """
    if text is None:
        return None
    names = frozenset(n.strip().lower() for n in text.split(",") if n.strip())
    unknown = sorted(names - set(KINDS))
    if unknown or not names:
        raise click.BadParameter(
            f"no field kind called {', '.join(unknown) or repr(text)}; use {', '.join(KINDS)}",
            param_hint="--in",
        )
    return names


def _line(hit: Hit, color: bool) -> str:
    ref = visible(hit.ref, keep_newlines=False)
    field = visible(hit.field, keep_newlines=False)
    snip = hit.snippet
    if color:
        text = (
            snip.text[: snip.start]
            + click.style(snip.match, fg="red", bold=True)
            + snip.text[snip.end :]
        )
        return f"{click.style(ref, fg='cyan')}  {click.style(field, fg='yellow')}  {text}"
    return f"{ref}  {field}  {snip.text}"


def run_grep(
    paths: Sequence[str],
    pattern: str,
    *,
    regex: bool = False,
    ignore_case: bool = False,
    kinds: frozenset[str] | None = None,
    where: RunPredicate | None = None,
    as_json: bool = False,
    max_count: int | None = None,
) -> int:
    """Search ``paths`` for ``pattern`` and print the hits; returns the exit code (0: hits,
    1: none, 2: an error). ``where`` selects the runs searched (``--where``)."""
    try:
        needle = compile_needle(pattern, regex=regex, ignore_case=ignore_case)
    except PatternError as err:
        print_err(f"trajtui grep: {err}")
        return 2
    ws = open_workspace(paths)
    errors = bool(ws.problems)
    if not ws.sources:
        return 2
    out = sys.stdout
    color = out.isatty()
    tty_err = sys.stderr.isatty()
    search = Search(ws.sources, needle, kinds=kinds, where=where, qualify=ws.ref)
    last: Progress | None = None
    shown = False
    try:
        scan_all(ws, tty_err)
        started = time.monotonic()
        for event in search.events():
            if isinstance(event, Hit):
                if as_json:
                    obj = event.to_json()
                    out.write(dumps_line(obj) + "\n")
                else:
                    out.write(_line(event, color) + "\n")
                if max_count is not None and search.hits >= max_count:
                    search.cancel()
                    break
            elif isinstance(event, Progress):
                last = event
                if tty_err and not event.finished and time.monotonic() - started > 1.0:
                    out.flush()
                    shown = True
                    click.echo(
                        f"\rsearching: {size_text(event.bytes_done)} of "
                        f"{size_text(event.bytes_total)}, {event.hits:,} hits\x1b[K",
                        err=True,
                        nl=False,
                    )
            else:
                report_problems([_unreadable(event)])
        out.flush()
    except BrokenPipeError:
        silence_stdout()
        ws.close()
        return 0
    finally:
        if shown:
            click.echo("\r\x1b[K", err=True, nl=False)
        ws.close()
    done = last if last is not None and last.finished else search.progress(finished=True)
    runs = "run" if done.runs_hit == 1 else "runs"
    hits = "hit" if done.hits == 1 else "hits"
    stopped = f" (stopped at --max-count {max_count})" if search.cancelled else ""
    print_err(
        f"{done.hits:,} {hits} in {done.runs_hit:,} {runs} of {done.runs_total:,}"
        f" ({done.parsed:,} parsed){stopped}"
    )
    if errors:
        return 2
    return 0 if done.hits else 1


def _unreadable(problem: Problem) -> Problem:
    """A record the search could not read (it may hold a match)."""
    return Problem(
        problem.path,
        problem.line,
        f"{problem.message} (not searched)",
        problem.severity,
        problem.ref,
    )


@click.command(
    "grep",
    epilog=EPILOG,
    context_settings={"ignore_unknown_options": False},
)
@click.argument("args", nargs=-1, required=True, metavar="PATH... PATTERN")
@click.option(
    "-E", "--regex", is_flag=True, help="PATTERN is a regular expression (RE2 syntax: linear time)."
)
@click.option("-i", "--ignore-case", is_flag=True, help="Letters match either case.")
@click.option(
    "--in",
    "kinds",
    metavar="KIND,...",
    help="Search only fields of these kinds (input, output, tool, thought, message...).",
)
@click.option("--json", "as_json", is_flag=True, help="JSON Lines: one object per hit.")
@click.option("-m", "--max-count", type=click.IntRange(min=1), help="Stop after this many hits.")
@where_option
@no_cache_option
def grep_cmd(
    args: tuple[str, ...],
    regex: bool,
    ignore_case: bool,
    kinds: str | None,
    as_json: bool,
    max_count: int | None,
    where: str | None,
    no_cache: bool,
) -> None:
    """Search every text of every run: input, output, expected, each step's text, tool
    input and output, messages, grader reasoning, forecast messages.

    Prints one line per hit: its reference (what show and --goto open), the field it is in,
    and the line around the match. A plain PATTERN is found as typed, whatever escapes the
    file writes it with (quotes, backslashes, non-ASCII, line breaks). Only records whose
    bytes may hold a match are parsed. A record that may hold a match but cannot be read is
    reported on stderr as PATH:LINE: message; the rest is still searched.

    --where QUERY searches only the runs that match it (trajtui grep out/ timeout
    --where 'agent:codex status:fail').

    Exit status: 0 when something matched, 1 when nothing did, 2 on an error (an invalid
    pattern or query, a path that cannot be opened).
    """
    if len(args) < 2:
        raise click.UsageError("give at least one PATH and a PATTERN")
    use_cache(no_cache)
    *paths, pattern = args
    predicate = run_predicate(where)  # a bad query: one line, exit 2, before any reading
    code = run_grep(
        paths,
        pattern,
        regex=regex,
        ignore_case=ignore_case,
        kinds=parse_kinds(kinds),
        as_json=as_json,
        max_count=max_count,
        where=predicate,
    )
    sys.exit(code)
