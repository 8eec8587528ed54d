"""``label value  ·  label value``: a line of facts that breaks between facts, never inside one.

A run's or a step's facts (status, steps, score, tool calls, duration, cost...) are shown on
one line over the timeline and at the top of the detail. Wrapped as words, a narrow pane cut
``cost`` from ``$0.0105`` (the label at the end of one line, its value on the next) and a
one-line header ended on a label without its value. :class:`Facts` lays facts out whole: a
line too narrow for the next fact starts a new one, and :meth:`Facts.fit` gives the facts that
fit on one line (``…`` saying more were left out).
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text

SEPARATOR = "  ·  "
DIM = "dim"
MORE = "…"


class Facts:
    """Facts, each a ``Text`` (its label and value), laid out whole."""

    def __init__(self, items: Iterable[Text]) -> None:
        self.items = [item for item in items if item.plain]

    @property
    def plain(self) -> str:
        return SEPARATOR.join(item.plain for item in self.items)

    def __str__(self) -> str:
        return self.plain

    def text(self) -> Text:
        """Every fact on one line (for a surface that does not wrap)."""
        return Text(SEPARATOR, style=DIM).join(self.items)

    def lines(self, width: int) -> list[Text]:
        """The facts in lines of at most ``width`` cells, broken between facts (a fact wider
        than the whole line alone on its line, wrapped by whoever draws it)."""
        lines: list[Text] = []
        line: Text | None = None
        for item in self.items:
            if line is not None and cell_len(line.plain + SEPARATOR + item.plain) <= width:
                line.append(SEPARATOR, style=DIM)
                line.append_text(item)
                continue
            line = item.copy()
            lines.append(line)
        return lines

    def fit(self, width: int) -> Text:
        """The facts that fit on one line of ``width`` cells, whole, in order; ``…`` after
        them when some were left out."""
        whole = self.text()
        if cell_len(whole.plain) <= width:
            return whole
        out = Text()
        for n, item in enumerate(self.items):
            sep = SEPARATOR if n else ""
            if cell_len(out.plain + sep + item.plain + SEPARATOR + MORE) > width:
                if n == 0:  # not even the first fits: it is cut, visibly
                    out = item.copy()
                    out.truncate(max(width - 1, 0))
                    out.append(MORE, style=DIM)
                else:
                    out.append(SEPARATOR + MORE, style=DIM)
                return out
            out.append(sep, style=DIM)
            out.append_text(item)
        return out

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield from self.lines(options.max_width)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widest = max((cell_len(item.plain) for item in self.items), default=0)
        return Measurement(widest, max(widest, cell_len(self.plain)))


def fact(label: str, value: str | Text) -> Text:
    """One fact: its label dimmed, its value as given (both already made safe)."""
    out = Text(label + " ", style=DIM)
    out.append_text(value if isinstance(value, Text) else Text(value))
    return out
