"""What every command writes besides its output: problems and errors on stderr (one
``PATH:LINE: message`` line each, control characters made visible), and a quiet stdout once
the reader of a pipe has gone.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator, Sequence

import click

from trajtui.core.io import remote
from trajtui.core.io.text import visible
from trajtui.core.jsonl import indexcache
from trajtui.core.model import Problem, Severity
from trajtui.core.rows import read_rows
from trajtui.core.source import Entry, Source
from trajtui.core.workspace import Workspace, open_paths
from trajtui.formats.registry import formats


def print_err(message: str) -> None:
    """Print one line to stderr, control characters made visible."""
    click.echo(visible(message, keep_newlines=False), err=True)


def report_problems(problems: Sequence[Problem], *, verbose: bool = True) -> None:
    """Print problems to stderr, one ``PATH:LINE: message`` line each."""
    for p in problems:
        if p.severity is Severity.WARNING and not verbose:
            continue
        prefix = "warning: " if p.severity is Severity.WARNING else ""
        path = remote.shown(p.path)  # (a remote object's: its URL, not its mirror)
        print_err(
            f"{path}:{p.line}: {prefix}{p.message}" if p.line else f"{path}: {prefix}{p.message}"
        )


def open_workspace(paths: Sequence[str]) -> Workspace:
    """Open ``paths`` and report on stderr what could not be opened."""
    ws = open_paths(paths, formats())
    report_problems(ws.problems)
    return ws


KEEP_ROWS = 1_000_000
"""Run summaries of one source a command keeps for the index cache (the index is cached
whole; rows beyond these are summarised by the next open that needs them)."""


def workspace_rows(ws: Workspace) -> Iterator[tuple[Source, Entry]]:
    """Every row of the workspace's sources, as soon as it is known (read in batches; a
    JSONL file's rows decoded on every core while the index goes on), errors said on
    stderr: how ``ls``, ``diff`` of sources and ``export`` of the table read them.

    With the index cache on, the first :data:`KEEP_ROWS` summaries are kept (in the
    source's compact table, as the TUI keeps them) and saved with the index after the scan,
    so the next open of the file has them at once; beyond them, and with ``--no-cache``,
    nothing is kept: memory stays bounded however many runs there are.
    """
    cache = indexcache.enabled()
    return read_rows(ws.sources, keep=KEEP_ROWS if cache else 0, save=cache, say=print_err)


def silence_stdout() -> None:
    """Point stdout at the null device (the reader of a pipe has gone: later writes and the
    flush at exit must not fail)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except OSError:
        pass


def scan_all(ws: Workspace, show_progress: bool) -> None:
    """Index every source (from the index cache when it has them; saved to it after),
    saying how far on stderr when it takes over a second and ``show_progress``."""
    started = time.monotonic()
    for source, progress in ws.scan():
        if show_progress and time.monotonic() - started > 1.0:
            click.echo(
                f"\rindexing {visible(source.label, keep_newlines=False)}: "
                f"{progress.fraction:.0%}   ",
                err=True,
                nl=False,
            )
    if indexcache.enabled():
        for source in ws.sources:
            source.save_index()
    if show_progress and time.monotonic() - started > 1.0:
        click.echo("\r\x1b[K", err=True, nl=False)


def write_text(text: str, piece: int = 1 << 20) -> None:
    """Write ``text`` to stdout a megabyte at a time (a 256 MB record's JSON is not copied
    whole once more to be encoded)."""
    out = sys.stdout
    for at in range(0, len(text), piece):
        out.write(text[at : at + piece])
