"""Untrusted text on one line: a step's first line, a run's title.

Trajectories are written by agents and models: any byte can be in them. Before text from a
file reaches a terminal it goes through :func:`visible` (from :mod:`trajtui.core.io.sanitize`,
the one place that decides what is dangerous on every surface), which replaces every
character that could act on the terminal or hide text with a visible stand-in. Markup is
never interpreted anywhere in trajtui (renderers build ``rich.text.Text``/
``textual.content.Content`` objects, never markup strings), so ``[bold]`` needs no escaping.
"""

from __future__ import annotations

from trajtui.core.io.sanitize import visible

__all__ = ["flat", "one_line", "visible"]


def unflat(title: str) -> str:
    """A title of :func:`flat` with its line breaks as line breaks again (for exports: they
    hold the text, not the screen's glyph)."""
    return title.replace(LINE_BREAK, "\n")


def _first_line(text: str) -> str:
    """The first line of ``text`` that is not blank, stripped (without splitting all of it)."""
    start = 0
    while start <= len(text):
        end = text.find("\n", start)
        if end < 0:
            end = len(text)
        line = text[start:end].strip()
        if line:
            return line
        start = end + 1
    return ""


def one_line(text: str, limit: int = 200) -> str:
    """First non-blank line of ``text``, made visible and cut to ``limit`` characters."""
    line = _first_line(text[: limit * 64] if len(text) > limit * 64 else text)
    if not line and len(text) > limit * 64:  # blank for a long way: look further
        line = _first_line(text)
    line = visible(line[: limit * 4], keep_newlines=False, tab=" ")
    if len(line) > limit:
        line = line[: limit - 1] + "…"
    return line


LINE_BREAK = " \u23ce "
"""A line break in a one-line title (:func:`flat`): ``⏎`` between the lines."""


def flat(text: str, limit: int = 200) -> str:
    """All of ``text`` on one line (line breaks shown as ``⏎``), made visible and cut to
    ``limit`` characters. Used for run titles, where the question is often on line 2.
    A ``⏎`` of the text itself is shown as ``⟨U+23CE⟩``, so :func:`unflat` gives the line
    breaks back exactly.

    Only as much of ``text`` is looked at as the title needs (titles of a 500 MB input
    cost what those of a short one do)."""
    if not text:
        return ""
    size = limit * 8
    while True:
        part = text[:size]
        lines = [" ".join(line.split()) for line in part.strip().splitlines()]
        joined = LINE_BREAK.join(line.replace("\u23ce", "⟨U+23CE⟩") for line in lines if line)
        if len(joined) > limit or len(part) == len(text):
            break
        size *= 8
    joined = visible(joined[: limit * 4], keep_newlines=False, tab=" ")
    if len(joined) > limit:
        joined = joined[: limit - 1] + "…"
    return joined
