"""Make untrusted text safe to show, and small text helpers.

Trajectories are written by agents and models: any byte can be in them. Before text from a
file reaches a terminal it goes through :func:`visible`, which replaces every character that
could act on the terminal (C0/C1 controls such as ESC, bidi overrides, zero-width characters)
with a visible stand-in. Markup is never interpreted anywhere in trajtui (renderers build
``rich.text.Text``/``textual.content.Content`` objects, never markup strings), so ``[bold]``
needs no escaping here.
"""

from __future__ import annotations

import re

# C0 controls map to the Unicode "Control Pictures" block (U+2400 + code), which terminals
# draw as one visible glyph. DEL gets its own picture. Tab and newline are kept: they are
# layout, not commands, and every renderer handles them.
_C0_PICTURES = {c: chr(0x2400 + c) for c in range(0x20) if c not in (0x09, 0x0A)}
_C0_PICTURES[0x7F] = "\u2421"  # ␡

# Characters that reorder or hide text: bidi embeddings/overrides/isolates, zero-width
# joiners and spaces, word joiner, BOM, soft hyphen, line/paragraph separators,
# interlinear annotation and tag characters.
_INVISIBLE = [
    *(0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180E, 0x3164, 0xFEFF, 0xFFA0),
    *range(0x200B, 0x2010),
    *range(0x2028, 0x202F),
    *range(0x2060, 0x2070),
    *range(0xFFF9, 0xFFFC),
]

_TABLE: dict[int, str] = dict(_C0_PICTURES)
for _c in range(0x80, 0xA0):  # C1 controls, including CSI (0x9B) and OSC (0x9D)
    _TABLE[_c] = f"\u27e8U+{_c:04X}\u27e9"
for _c in _INVISIBLE:
    _TABLE[_c] = f"\u27e8U+{_c:04X}\u27e9"

_NEEDS_WORK = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f"
    + "".join(re.escape(chr(c)) for c in _INVISIBLE)
    + "\U000e0000-\U000e007f\ud800-\udfff]"
)


def _replace(match: re.Match[str]) -> str:
    ch = match.group()
    code = ord(ch)
    if code in _TABLE:
        return _TABLE[code]
    return f"\u27e8U+{code:04X}\u27e9"  # tag characters, lone surrogates


def visible(text: str, *, keep_newlines: bool = True, tab: str | None = None) -> str:
    """Return ``text`` with every terminal-active or invisible character made visible.

    Args:
        text: Untrusted text from a data file.
        keep_newlines: Keep ``\\n``; when False it becomes ``⏎`` (for one-line cells).
        tab: Replacement for tab characters, or None to keep them.

    Returns:
        A string that cannot move the cursor, change colours, set the window title,
        write the clipboard or reorder text when printed.
    """
    if _NEEDS_WORK.search(text):
        text = _NEEDS_WORK.sub(_replace, text)
    if not keep_newlines and "\n" in text:
        text = text.replace("\n", "\u23ce")
    if tab is not None and "\t" in text:
        text = text.replace("\t", tab)
    return text


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
