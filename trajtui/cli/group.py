"""The ``trajtui`` command group: a path as the first argument opens the TUI (the hidden
``open`` command); ``ls``, ``show``, ``grep``... are loaded from their modules when run
(:data:`COMMANDS`), so a command imports only what it uses and starts sooner.
"""

from __future__ import annotations

import difflib
import importlib
import os
import sys

import click

from trajtui import __version__
from trajtui.cli.cache import no_cache_option, use_cache

COMMANDS: dict[str, tuple[str, str]] = {
    "ls": ("trajtui.cli.ls", "ls_cmd"),
    "show": ("trajtui.cli.show", "show_cmd"),
    "grep": ("trajtui.cli.grep", "grep_cmd"),
    "stats": ("trajtui.cli.stats", "stats_cmd"),
    "diff": ("trajtui.cli.diff", "diff_cmd"),
    "export": ("trajtui.cli.export", "export_cmd"),
    "sql": ("trajtui.cli.sql", "sql_cmd"),
    "validate": ("trajtui.cli.validate", "validate_cmd"),
    "notes": ("trajtui.cli.notes", "notes_cmd"),
    "cache": ("trajtui.cli.cache", "cache_group"),
}
"""Each command's module and object, in the order ``--help`` lists them."""

EPILOG = """\b
References (shown by ls, accepted by show and --goto):
  RUN                 a run: its id (websearch-17), repeats get #2, #3
  RUN-step-N          step N of a capture record (as acp-harness prints)
  RUN/trial-T         trial T of a trials record
  RUN/trial-T/step-N  step N of trial T
  RUN/step-N          step N of a forecast run, task, or any run
  RUN/msg:KEY         a forecast run's message (A3, T0, S1)
  RUN/src:SID         a forecast run's source (S3)
  RUN/SAMPLE          a sample of an eval results run
  SOURCE::REF         REF in one source, when several are open

\b
Examples:
  trajtui results.jsonl                      open the TUI
  trajtui outputs/my-run/ --goto step-3      open at a step
  trajtui ls results.jsonl                   one line per run
  trajtui ls outputs/ --json | jq .status    JSON Lines for scripts
  trajtui show results.jsonl websearch-17-step-5
  trajtui grep outputs/ -i "rate limit"       search every text of every run
  trajtui diff trials.jsonl task-7/trial-1 task-7/trial-2  two trials, step by step
  trajtui export results.jsonl websearch-17 -o run.html      a run as one HTML page
  trajtui notes results.jsonl                bookmarks and notes made in the TUI
  trajtui sql "SELECT tool, count(*) FROM tool_calls GROUP BY tool" outputs/
  trajtui --demo                             try it on bundled data
  trajtui cache info                         the index that makes a second open instant
"""


class DefaultGroup(click.Group):
    """A group whose first argument, when it is not a command, is a path to open; its
    commands (:data:`COMMANDS`) are imported when asked for."""

    default_command = "open"

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [*COMMANDS, *(name for name in self.commands if name not in COMMANDS)]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            module, name = COMMANDS[cmd_name]
            command = getattr(importlib.import_module(module), name)
            assert isinstance(command, click.Command)
            self.add_command(command, cmd_name)
        return super().get_command(ctx, cmd_name)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args:
            click.echo(ctx.get_help())
            ctx.exit(0)
        first = args[0]
        if first not in (*self.commands, *COMMANDS, "--help", "-h", "--version"):
            if not first.startswith("-") and not os.path.exists(first):
                close = difflib.get_close_matches(first, self.list_commands(ctx), n=1, cutoff=0.7)
                if close:
                    raise click.UsageError(
                        f"no such command or file {first!r} (did you mean {close[0]!r}?)", ctx
                    )
            args = [self.default_command, *args]
        return super().parse_args(ctx, args)

    def format_usage(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        formatter.write_usage("trajtui", "[PATH]... [--goto REF] [--follow] | COMMAND [ARGS]...")


@click.group(
    cls=DefaultGroup,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
    epilog=EPILOG,
)
@click.version_option(__version__, "--version", prog_name="trajtui")
def cli() -> None:
    """Inspect AI-agent trajectories and eval results in the terminal.

    Reads acp-harness JSONL (capture, trials, summary), forecast-agent run and eval
    directories, ultraplan plans and logs, eval results trees, Harbor jobs and ATIF
    trajectories, Claude Code sessions (~/.claude/projects), Codex CLI rollouts
    (~/.codex/sessions), mini-swe-agent and SWE-agent trajectories and their output
    directories, and Inspect AI logs (.eval, .json). Big and half-written files open at
    once; broken lines are reported as PATH:LINE: message and everything else still
    shows.

    With no command, opens the TUI on PATH... (files or directories):

    \b
      --goto REF   open with that run, trial or step selected
      -F/--follow  follow: appended records and new files appear as they are
                   written, the view kept at the end when it is there (F toggles)
      --demo       open the demo data bundled with trajtui
      --no-cache   index from scratch, without the index cache (trajtui cache --help)
    """


@cli.command("open", hidden=True)
@click.argument("paths", nargs=-1, type=click.Path(readable=False))
@click.option("--goto", "goto", metavar="REF", help="Open with this run, trial or step selected.")
@click.option(
    "-F",
    "--follow",
    is_flag=True,
    help="Follow: records appended to the files and new files in the directories appear "
    "as they are written (F toggles it in the TUI).",
)
@click.option("--demo", is_flag=True, help="Open the demo data bundled with trajtui.")
@no_cache_option
def open_cmd(
    paths: tuple[str, ...], goto: str | None, follow: bool, demo: bool, no_cache: bool
) -> None:
    """Open the TUI on PATH... (the default command)."""
    if demo:
        from trajtui.demo import demo_paths

        paths = (*demo_paths(), *paths)
    if not paths:
        raise click.UsageError("give a file or directory to open (or --demo)")
    use_cache(no_cache)
    from trajtui.core.jsonl import rowpool

    rowpool.start_early(paths)  # before the TUI (and its threads) starts
    from trajtui.core.workspace import workers_before_urls

    workers_before_urls(paths)  # (a URL: before fsspec's thread starts)
    from trajtui.core import gcpace
    from trajtui.ui.app import run_app

    gcpace.for_interactive()
    sys.exit(run_app(list(paths), goto=goto, follow=follow))
