"""The last step before the terminal: laid-out lines with nothing in them that could act.

Renderers build ``Text`` from strings made visible (:func:`~trajtui.core.io.text.visible`);
these helpers check the laid-out result once more, so that a string that missed it (a
reference, a file name, a status word) still cannot set the window title, write the
clipboard or reorder text. :class:`Printable` is what ``trajtui show`` prints: it also
drops the spaces Rich pads lines with, so piped output has no trailing blanks.
:class:`LiteralMarkdown` draws text from the data as Markdown without hiding any of it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token
from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.markdown import Markdown
from rich.segment import Segment

from trajtui.core.io.text import visible


def visible_segments(segments: Iterable[Segment]) -> list[Segment]:
    """Segments of one laid-out line, with control segments dropped and every control,
    bidi or invisible character in their text made visible (text that was made visible
    before is left as it is)."""
    out = []
    for segment in segments:
        if segment.control:
            continue
        text = segment.text
        safe = visible(text, keep_newlines=False)
        out.append(segment if safe == text else Segment(safe, segment.style))
    return out


def _rstrip(segments: list[Segment]) -> list[Segment]:
    """Drop the blanks at the end of a line (Rich pads lines to the console width)."""
    while segments:
        last = segments[-1]
        text = last.text.rstrip(" ")
        if text:
            segments[-1] = Segment(text, last.style)
            break
        segments.pop()
    return segments


class Printable:
    """A renderable as ``trajtui show`` prints it: line by line, control characters made
    visible, no trailing blanks."""

    def __init__(self, renderable: RenderableType) -> None:
        self.renderable = renderable

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for line in console.render_lines(self.renderable, options, pad=False, new_lines=False):
            yield from _rstrip(visible_segments(line))
            yield Segment.line()


class LiteralMarkdown(Markdown):
    """Markdown from the data, drawn as Rich draws it (hyperlinks off) but with nothing of
    the text hidden: raw HTML, inline or a block (``<img onerror=…>``, ``<!-- … -->``), is
    shown as written (Rich drops it), an image as ``🌆 alt (address "title")`` (Rich drops
    the address), and a link reference definition (``[x]: …``) as the line it is (a parser
    keeps it out of the text)."""

    def __init__(self, markup: str, **options: Any) -> None:
        super().__init__("", **options)
        parser = MarkdownIt().enable("strikethrough").enable("table").disable("reference")
        self.markup = markup
        self.parsed = list(_literal(parser.parse(markup)))


def _literal(tokens: Iterable[Token]) -> Iterator[Token]:
    for token in tokens:
        if token.type == "html_block":
            yield Token("code_block", "code", 0, content=token.content, block=True)
            continue
        if token.children:
            token.children = [_literal_inline(child) for child in token.children]
        yield token


def _literal_inline(token: Token) -> Token:
    if token.type == "html_inline":
        return Token("text", "", 0, content=token.content)
    if token.type == "image":
        src = str(token.attrs.get("src", ""))
        title = token.attrs.get("title")
        where = f'{src} "{title}"' if title else src
        return Token("text", "", 0, content=f"\U0001f306 {token.content} ({where})")
    return token
