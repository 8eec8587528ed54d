"""What every command writes besides its output: problems and errors on stderr (one
``PATH:LINE: message`` line each, control characters made visible), and a quiet stdout once
the reader of a pipe has gone.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence

import click

from trajtui.core.io.text import visible
from trajtui.core.jsonl import indexcache
from trajtui.core.model import Problem, Severity
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
        print_err(
            f"{p.path}:{p.line}: {prefix}{p.message}"
            if p.line
            else f"{p.path}: {prefix}{p.message}"
        )


def open_workspace(paths: Sequence[str]) -> Workspace:
    """Open ``paths`` and report on stderr what could not be opened."""
    ws = open_paths(paths, formats())
    report_problems(ws.problems)
    return ws


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
