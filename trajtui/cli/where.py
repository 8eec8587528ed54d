"""``--where QUERY``: the run-list filter's query language on the command line (``ls``,
``grep``, ``stats``, ``export`` and ``diff`` of two sources)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Collection
from typing import Any

import click

from trajtui.cli.output import print_err
from trajtui.core.io.text import visible
from trajtui.core.model import Run, RunSummary
from trajtui.core.query import Query, QueryError, facts_of_run, facts_of_summary, parse

HELP = "Only runs matching QUERY (the query language of the run-list filter: see ls --help)."


def where_option(command: Callable[..., Any]) -> Callable[..., Any]:
    """The ``--where QUERY`` option."""
    return click.option("--where", "where", metavar="QUERY", default=None, help=HELP)(command)


def parse_where(text: str, keys: Collection[str] | None = None) -> Query:
    """The ``--where`` query (``keys``: the metadata keys of the runs read, once known);
    a query that does not parse ends the command: ``trajtui: --where: col N: message``,
    exit 2."""
    try:
        return parse(text, keys)
    except QueryError as error:
        print_err(f"trajtui: --where: {visible(str(error), keep_newlines=False)}")
        sys.exit(2)


def run_predicate(text: str | None) -> Callable[[Run], bool] | None:
    """A whole run's test for ``--where`` (None without one)."""
    if text is None:
        return None
    query = parse_where(text)
    return lambda run: query.matches(facts_of_run(run))


def row_predicate(text: str | None) -> Callable[[RunSummary], bool] | None:
    """A run-list row's test for ``--where`` (None without one)."""
    if text is None:
        return None
    query = parse_where(text)
    return lambda row: query.matches(facts_of_summary(row))
