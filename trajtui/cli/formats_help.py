"""Help texts that say what each format adds (``stats``' figures, ``validate``'s rules),
filled in from the formats when the help is shown, so no command names a format."""

from __future__ import annotations

import textwrap
from collections.abc import Callable

import click

MARK = "{formats}"
"""The line of a command's help that the formats' lines replace."""

NAME_WIDTH = 12
"""Columns of a format's name in its help line."""
WIDTH = 76
"""Columns of a help block's lines (as the rest of the block is written)."""


def help_lines(items: list[tuple[str, str]]) -> list[str]:
    """``  name         what it does, wrapped under itself``: one block line per item."""
    out: list[str] = []
    for name, text in items:
        head = f"  {name:<{NAME_WIDTH}} "
        if len(name) > NAME_WIDTH:
            out.append(f"  {name}")
            head = " " * (NAME_WIDTH + 3)
        out.extend(
            textwrap.wrap(
                text, WIDTH, initial_indent=head, subsequent_indent=" " * (NAME_WIDTH + 3)
            )
        )
    return out


class FormatsHelp(click.Command):
    """A command whose help has a line per format where it says :data:`MARK` (inside a
    ``\\b`` block), from ``lines`` when the help is shown."""

    def __init__(self, *args: object, lines: Callable[[], list[str]], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.lines = lines

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        written = self.help
        if written is not None:
            self.help = "\n".join(
                "\n".join(line[: line.index(MARK)] + x for x in self.lines())
                if line.strip() == MARK
                else line
                for line in written.splitlines()
            )
        try:
            super().format_help_text(ctx, formatter)
        finally:
            self.help = written
