"""``trajtui validate``: inputs judged by their format's own rules, for the formats whose view
says they can be (:attr:`trajtui.render.view.View.validates`)."""

from __future__ import annotations

import os
import sys

import click

from trajtui.cli.formats_help import FormatsHelp, help_lines
from trajtui.cli.output import open_workspace, print_err, report_problems
from trajtui.core.io import remote
from trajtui.core.io.jsonutil import dumps_line
from trajtui.core.io.text import visible

CANNOT = 2
"""The exit code when an input's format cannot be validated (as for a usage error)."""


def _rules_help() -> list[str]:
    """A line of ``validate --help`` for each format it judges."""
    from trajtui.formats.registry import format_view, formats

    return help_lines(
        [
            (fmt.infos[0].name if fmt.infos else "", format_view(fmt).validation)
            for fmt in formats()
            if format_view(fmt).validates
        ]
    )


def _opened(paths: tuple[str, ...], path: str) -> str:
    """The path given on the command line that holds ``path``."""
    path = remote.shown(path)  # (a remote object's mirror: its URL)
    if remote.is_url(path):
        return next((g for g in paths if path.startswith(g.rstrip("/") + "/")), path)
    norm = os.path.abspath(path)
    for given in paths:
        top = os.path.abspath(given)
        if norm == top or norm.startswith(top.rstrip(os.sep) + os.sep):
            return given
    return path


@click.command("validate", cls=FormatsHelp, lines=_rules_help)
@click.argument("paths", nargs=-1, required=True, type=click.Path(readable=False))
@click.option("--json", "as_json", is_flag=True, help="JSON Lines: one object per input judged.")
@click.option("-q", "--quiet", is_flag=True, help="Report only errors on stderr, not warnings.")
def validate_cmd(paths: tuple[str, ...], as_json: bool, quiet: bool) -> None:
    """Judge inputs by their format's rules.

    PATH is what the format reads. Prints one line per input judged, PATH: VERDICT:
    reason; reason. With --json each line is a JSON object (path, verdict, reasons,
    findings). Exits 1 when an input is INVALID or nothing could be read, 2 when a PATH is
    of a format that cannot be validated (one line on stderr says so).

    \b
    The formats it judges, what PATH is and the verdicts:
    {formats}
    """
    from trajtui.formats.registry import validating_formats, view_of

    ws = open_workspace(paths)
    out = sys.stdout
    judged = cannot = invalid = 0
    unjudged: dict[str, list[str]] = {}  # format name -> its sources' paths, said once
    try:
        for source in ws.sources:
            view = view_of(source.format.id)
            if not view.validates:
                cannot += 1
                unjudged.setdefault(source.format.name, []).append(source.path)
                continue
            judged += 1
            for checked in view.validate(source):
                invalid += checked.invalid
                if as_json:
                    out.write(dumps_line(checked.json) + "\n")
                else:
                    out.write(visible(checked.text, keep_newlines=False) + "\n")
        out.flush()
        which = ", ".join(validating_formats()) or "none"
        for name, where in unjudged.items():  # a folder of 5,000 sessions: one line
            if len(where) == 1:
                print_err(
                    f"{remote.shown(where[0])}: {name} cannot be validated (validate reads: {which})"
                )
                continue
            print_err(
                f"{_opened(paths, where[0])}: {len(where):,} {name} files cannot be validated "
                f"(validate reads: {which})"
            )
    finally:
        for source in ws.sources:
            if view_of(source.format.id).validates:
                report_problems(source.problems(), verbose=not quiet)
        ws.close()
    if cannot:
        sys.exit(CANNOT)
    if not judged or invalid:
        sys.exit(1)
