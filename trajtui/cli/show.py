"""``trajtui show``: one run, trial, step, message or web source, rendered for reading or
(``--json``) as it is in the file.
"""

from __future__ import annotations

import os
import sys
from typing import Any, TextIO

import click

from trajtui.cli.cache import no_cache_option, use_cache
from trajtui.cli.output import open_workspace, print_err, report_problems, write_text
from trajtui.core.io.jsonutil import dumps_line
from trajtui.core.model import Severity
from trajtui.core.refs import RefError
from trajtui.core.source import LoadError, Target
from trajtui.core.workspace import Workspace


def resolve_streaming(ws: Workspace, ref: str) -> Target:
    """Resolve ``ref`` while scanning: a run near the start of a huge file is found without
    indexing the rest (single source); otherwise every source is scanned first.

    The caller wants the runs it names, not the sources' rows: a source is listed without
    the pass that reads every run again only for its row's counts
    (:attr:`~trajtui.core.source.Source.one_run`); the run named is read whole when it is
    opened, its figures its own."""
    for source in ws.sources:
        if not source.complete:
            source.one_run = True
    early = len(ws.sources) == 1 or ws.split(ref) is not None
    for source in ws.sources:
        scan = source.scan()
        for progress in scan:
            if early and ws.knows(ref):
                if progress.done >= progress.total:
                    for _ in scan:  # at the end already: let it finish (then it is cached)
                        pass
                else:
                    source.cancel()
                try:
                    return ws.resolve(ref)
                except RefError:
                    pass  # e.g. "X#2" whose second occurrence is further on
        if early and ws.knows(ref):
            try:
                return ws.resolve(ref)
            except RefError:
                pass
    for source in ws.sources:
        if not source.complete:
            for _ in source.scan():
                pass
    return ws.resolve(ref)


def _json_object(target: Target) -> Any:
    """What ``target`` names, as in the file."""
    from trajtui.formats.registry import run_view

    source = target.source
    run = source.run(target.index)
    if target.step is not None:
        return run.timeline(target.attempt)[target.step - 1].raw
    if target.attempt is not None:
        attempt = run.attempt(target.attempt)
        return attempt.raw if attempt else None
    if target.segment is not None:
        return run_view(run).segment_object(run, *target.segment)
    return run.raw


def with_ref(obj: Any, ref: str) -> dict[str, Any]:
    """The object as in the file plus its ``ref`` (``trajtui_ref`` when it has a ``ref``)."""
    if isinstance(obj, dict):
        key = "ref" if "ref" not in obj else "trajtui_ref"
        return {key: ref, **obj}
    return {"ref": ref, "value": obj}


@click.command("show")
@click.argument("path", type=click.Path(readable=False))
@click.argument("ref")
@click.option(
    "--json", "as_json", is_flag=True, help="Print the object as it is in the file, plus its ref."
)
@no_cache_option
def show_cmd(path: str, ref: str, as_json: bool, no_cache: bool) -> None:
    """Show one run, trial, step, message or source, rendered for reading.

    REF is a reference as ls prints it (see trajtui --help). A JSONL file indexed before
    (by ls, show or the TUI: see trajtui cache --help) is not read again to find REF.
    """
    use_cache(no_cache)
    ws = open_workspace([path])
    if not ws.sources:
        sys.exit(1)
    told = ""  # what the error line already said (its problem is not repeated)
    code = 0
    try:
        try:
            target = resolve_streaming(ws, ref)
            shown = ws.ref(target.source, target.ref)
            if as_json:
                write_text(dumps_line(with_ref(_json_object(target), shown)) + "\n")
            else:
                _print_target(target, shown)
        except RefError as err:
            told = f"{path}: {err}"
            code = 1
        except LoadError as err:
            told = str(err.problem)
            code = 1
        if told:
            print_err(told)
    finally:
        problems = [p for s in ws.sources for p in s.problems() if p.severity is Severity.ERROR]
        report_problems([p for p in problems if str(p) not in told])
        for source in ws.sources:
            if source.complete:
                source.save_index()
        ws.close()
    if code:
        sys.exit(code)


def _console(file: TextIO | None = None) -> Any:
    """The console ``show`` prints with: the terminal's width, or ``COLUMNS`` when set,
    else 100 columns in a pipe."""
    from rich.console import Console

    columns = os.environ.get("COLUMNS", "")
    tty = (file or sys.stdout).isatty()
    return Console(
        file=file,
        markup=False,
        highlight=False,
        emoji=False,
        soft_wrap=False,
        width=None if tty or (columns.isdigit() and int(columns) > 0) else 100,
    )


def _print_target(target: Target, shown: str) -> None:
    from rich.console import Group, RenderableType
    from rich.text import Text

    from trajtui.formats.registry import run_view
    from trajtui.render import show
    from trajtui.render.detail import step_head
    from trajtui.render.safe import Printable

    source = target.source
    run = source.run(target.index)
    console = _console()
    view = run_view(run)
    renderable: RenderableType
    if target.step is not None:
        steps = run.timeline(target.attempt)
        i = target.step - 1
        body = view.step_body(run, steps[i], max_lines=None, cli=True)
        if body is not None:  # the format shows this step its own way
            facts = show.facts_line(show.step_heading(steps[i]))
            renderable = Group(step_head(steps[i], steps[i].ref), facts, Text(), *body)
        else:
            renderable = show.render_step(steps[i], steps)
    elif target.attempt is not None:
        attempt = run.attempt(target.attempt)
        assert attempt is not None
        renderable = show.render_attempt(run, attempt, shown)
    elif target.segment is not None:
        word, key = target.segment
        renderable = view.render_segment(run, word, key, ref=target.ref)
    else:
        renderable = show.render_run(run, shown, view)
    console.print(Printable(renderable))
