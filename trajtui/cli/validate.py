"""``trajtui validate``: ultraplan result logs judged by the result capture protocol's rules."""

from __future__ import annotations

import sys

import click

from trajtui.cli.output import open_workspace, print_err, report_problems
from trajtui.core.jsonutil import dumps_line
from trajtui.core.text import visible


@click.command("validate")
@click.argument("paths", nargs=-1, required=True, type=click.Path(readable=False))
@click.option("--json", "as_json", is_flag=True, help="JSON Lines: one object per result file.")
@click.option("-q", "--quiet", is_flag=True, help="Report only errors on stderr, not warnings.")
def validate_cmd(paths: tuple[str, ...], as_json: bool, quiet: bool) -> None:
    """Judge ultraplan result logs by the result capture protocol's rules.

    PATH is an ultraplan project, its .ultraplan or logs directory, or one result YAML file.
    Prints one line per result file, PATH: VERDICT: reason; reason, where VERDICT is VALID,
    VALID_WITH_WARNINGS or INVALID (a file that cannot be read is INVALID). With --json each
    line is a JSON object with path, verdict, reasons and findings. Exits 1 when a result is
    INVALID or nothing could be read.
    """
    from trajtui.core.formats.ultraplan import UltraplanSource, Verdict

    ws = open_workspace(paths)
    out = sys.stdout
    found = False
    invalid = 0
    try:
        for source in ws.sources:
            if not isinstance(source, UltraplanSource):
                print_err(f"{source.path}: {source.format.name}, not ultraplan logs: not validated")
                continue
            found = True
            for _ in source.scan():
                pass
            for report in source.reports():
                invalid += report.judgement.verdict is Verdict.INVALID
                if as_json:
                    out.write(dumps_line(report.to_json()) + "\n")
                else:
                    out.write(visible(report.text(), keep_newlines=False) + "\n")
        out.flush()
    finally:
        for source in ws.sources:
            if isinstance(source, UltraplanSource):
                report_problems(source.problems(), verbose=not quiet)
        ws.close()
    if not found or invalid:
        sys.exit(1)
