"""The one place that makes text from the data safe for every surface it reaches.

Trajectories are written by agents and models: any character can be in them. Which
characters are dangerous is decided here, once, and every writer goes through one of
these functions:

* :func:`visible` for a terminal (every CLI line, the TUI, the pager): each character that
  could act on a terminal or hide text is replaced by a visible stand-in (``␛``, ``⟨U+202E⟩``);
* :func:`json_escape` for JSON trajtui encodes (``--json``, JSON Lines exports), and
  :func:`json_record` for a record's own bytes (``export REF -f jsonl``): the same characters
  written as ``\\uXXXX`` escapes, which decode to the same string;
* :func:`md_text` and :func:`md_fence` for Markdown: text stays text (no HTML, no link, no
  image, no emphasis from the data), values in fences nothing can close;
* :func:`html_text` for HTML: made visible, then escaped once;
* :func:`csv_cell` for CSV: made visible, and defused for spreadsheets (formula prefixes).

What is dangerous: C0 controls but tab and newline (ESC starts CSI, OSC, DCS sequences; BEL
ends OSC; CR overwrites a line), DEL, C1 controls (U+0080-U+009F: 8-bit CSI and OSC), every
format character (bidi embeddings, overrides and isolates, zero-width characters, the BOM,
tag characters, interlinear annotation), line and paragraph separators, every other
default-ignorable code point (variation selectors U+FE00-U+FE0F and U+E0100-U+E01EF, in
which whole texts can be hidden, Hangul fillers, Mongolian free variation selectors), and
lone surrogates (bytes that were not UTF-8). One exception keeps emoji as they are drawn: a
single U+FE0E or U+FE0F right after a character that has an emoji form (``⚠️``), or inside
a keycap (``1️⃣``); a selector next to another selector is always shown.
"""

from __future__ import annotations

import html
import re
from typing import Any

# -- what is dangerous -------------------------------------------------------------------------

# Format characters (Unicode category Cf), line and paragraph separators (Zl, Zp) and the
# other default-ignorable code points (DerivedCoreProperties), as (first, last) ranges.
_HIDDEN = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x0600, 0x0605),
    (0x061C, 0x061C),
    (0x06DD, 0x06DD),
    (0x070F, 0x070F),
    (0x0890, 0x0891),
    (0x08E2, 0x08E2),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x2028, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFFB),
    (0x110BD, 0x110BD),
    (0x110CD, 0x110CD),
    (0x13430, 0x1343F),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)


def _klass(ranges: tuple[tuple[int, int], ...]) -> str:
    return "".join(
        re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}"
        for a, b in ranges
    )


_BMP_CLASS = _klass(tuple(r for r in _HIDDEN if r[1] <= 0xFFFF)) + "\ud800-\udfff"
_ASTRAL_CLASS = _klass(tuple(r for r in _HIDDEN if r[0] > 0xFFFF))
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
_SHORT_TEXT = 1 << 16


class _Chars:
    """One set of dangerous characters as three patterns, the cheapest exact one picked for
    each text: ASCII text can only hold the ASCII ones, and text without a character beyond
    U+FFFF is searched with the BMP ranges alone (a bitmap to the regex engine: the whole
    class, with its astral ranges, is searched four times slower)."""

    def __init__(self, ascii: str) -> None:
        low = f"{ascii}\x80-\x9f"
        self.ascii = re.compile(f"[{ascii}]")
        self.bmp = re.compile(f"[{low}{_BMP_CLASS}]")
        self.full = re.compile(f"[{low}{_BMP_CLASS}{_ASTRAL_CLASS}]")

    def pattern(self, text: str) -> re.Pattern[str]:
        """The pattern that finds every such character of ``text``, fastest."""
        if text.isascii():
            return self.ascii
        if len(text) < _SHORT_TEXT:  # no character takes two UTF-16 code units: no astral one
            astral = len(text.encode("utf-16-le", "surrogatepass")) != 2 * len(text)
        else:  # (without a copy of a long text)
            astral = _ASTRAL.search(text) is not None
        return self.full if astral else self.bmp


_UNSAFE = _Chars("\x00-\x08\x0b-\x1f\x7f")
"""Every character :func:`visible` replaces (the emoji exception is decided per match)."""
_JSON_ESCAPED = _Chars("\x7f")
"""Every character JSON output spells as an escape (C0 controls are escaped by every JSON
encoder already)."""
_JSON_UNSAFE = _Chars("\x00-\x1f\x7f")
"""The same and C0 controls, which a record's own bytes may hold raw inside a string."""

# Characters that have an emoji form, which a presentation selector may follow.
_EMOJI_BASE = re.compile(
    "[\u00a9\u00ae\u203c\u2049\u2122\u2139\u2194-\u21aa\u231a-\u23ff\u24c2\u25aa-\u27bf"
    "\u2934\u2935\u2b05-\u2b55\u3030\u303d\u3297\u3299\U0001f000-\U0001faff]"
)
_SELECTORS = frozenset([*map(chr, range(0xFE00, 0xFE10)), *map(chr, range(0xE0100, 0xE01F0))])
_KEYCAP = "\u20e3"

_C0_PICTURES = {c: chr(0x2400 + c) for c in range(0x20) if c not in (0x09, 0x0A)}
_C0_PICTURES[0x7F] = "\u2421"  # ␡

NEWLINE = "\u23ce"
"""How a line break is shown in a one-line cell: ``⏎``."""
TAB = "\u21e5"
"""How a tab is shown in a one-line cell: ``⇥`` (a tab would break the columns)."""


def _emoji_selector(text: str, at: int) -> bool:
    """Whether the presentation selector at ``text[at]`` belongs to an emoji: alone, right
    after a character with an emoji form, or in a keycap."""
    if text[at] not in "\ufe0e\ufe0f" or at == 0:
        return False
    after = text[at + 1] if at + 1 < len(text) else ""
    if after in _SELECTORS:
        return False
    before = text[at - 1]
    if before in "#*0123456789":
        return text[at] == "\ufe0f" and after == _KEYCAP
    return _EMOJI_BASE.match(before) is not None


def marker(ch: str) -> str:
    """The visible stand-in for one dangerous character: its control picture (``␛``,
    ``␇``) for C0 controls and DEL, ``⟨U+202E⟩`` for the others."""
    code = ord(ch)
    picture = _C0_PICTURES.get(code)
    return picture if picture is not None else f"\u27e8U+{code:04X}\u27e9"


def _replace(match: re.Match[str]) -> str:
    ch = match.group()
    if ch in "\ufe0e\ufe0f" and _emoji_selector(match.string, match.start()):
        return ch
    return marker(ch)


def visible(text: str, *, keep_newlines: bool = True, tab: str | None = None) -> str:
    """Return ``text`` with every terminal-active or invisible character made visible.

    Args:
        text: Untrusted text from a data file.
        keep_newlines: Keep ``\\n`` (and tabs); when False the text is one line for a cell:
            ``\\n`` becomes ``⏎`` and a tab ``⇥``.
        tab: Replacement for tab characters (None: as ``keep_newlines`` says).

    Returns:
        A string that cannot move the cursor, change colours, set the window title,
        write the clipboard, reorder or hide text when printed.
    """
    unsafe = _UNSAFE.pattern(text)
    if unsafe.search(text):
        text = unsafe.sub(_replace, text)
    if not keep_newlines and "\n" in text:
        text = text.replace("\n", NEWLINE)
    if tab is None and not keep_newlines:
        tab = TAB
    if tab is not None and "\t" in text:
        text = text.replace("\t", tab)
    return text


# -- JSON --------------------------------------------------------------------------------------


def _json_escape_char(ch: str) -> str:
    code = ord(ch)
    if code > 0xFFFF:  # an escape names UTF-16 code units: a surrogate pair
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def json_escape(text: str) -> str:
    """JSON text (as an encoder writes it: these characters only occur inside strings)
    with every dangerous character written as a ``\\uXXXX`` escape, which decodes to the
    same string."""
    if text.isascii() and "\x7f" not in text:  # a quick check of a 500 MB document
        return text
    pattern = _JSON_ESCAPED.pattern(text)
    if pattern.search(text) is None:  # the common text, and no copy of it
        return text
    return pattern.sub(lambda m: _json_escape_char(m.group()), text)


_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_SHORT = {"\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r"}


def _escape_in_string(match: re.Match[str]) -> str:
    token = match.group()
    unsafe = _JSON_UNSAFE.pattern(token)
    if not unsafe.search(token):
        return token

    def one(m: re.Match[str]) -> str:
        ch = m.group()
        if ch == "\t" or "\udc80" <= ch <= "\udcff":
            return ch  # a tab is layout; a byte that is not UTF-8 is left to the writer
        return _SHORT.get(ch) or _json_escape_char(ch)

    return unsafe.sub(one, token)


def json_record(raw: bytes) -> str:
    """A record's bytes (one JSON value, as in the file) as text that is still exactly that
    record: every dangerous character inside a string written as its JSON escape (the same
    value when parsed), everything else as it is. A leading byte-order mark (the file's,
    not the record's) is left out.

    Bytes that are not UTF-8 cannot be written as JSON text: each is kept as a lone
    surrogate U+DC80-U+DCFF (Python's ``surrogateescape``), for the writer to give back as
    the byte itself (:func:`file_bytes`) or to spell as ``\\udcXX`` (:func:`json_text`).
    """
    text = raw.decode("utf-8", "surrogateescape")
    if text.startswith("\ufeff"):
        text = text[1:]
    if not _JSON_UNSAFE.pattern(text).search(text):
        return text
    return _JSON_STRING.sub(_escape_in_string, text)


_LONE = re.compile("[\ud800-\udfff]")


def json_text(text: str) -> str:
    """Text for a terminal or a pipe: a lone surrogate left by :func:`json_record` (a byte
    that is not UTF-8) spelled ``\\udcXX``, the escape ``surrogateescape`` reads back
    (``json.loads(line)``, then ``.encode('utf-8', 'surrogateescape')``, gives the bytes)."""
    if not _LONE.search(text):
        return text
    return _LONE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def file_bytes(text: str) -> bytes:
    """Text as a file's bytes: UTF-8, with the bytes :func:`json_record` kept as lone
    surrogates written back as they were in the data."""
    return text.encode("utf-8", "surrogateescape")


# -- Markdown ----------------------------------------------------------------------------------

_TLDS = "biz|com|edu|gov|net|org|pro|web|xxx|aero|asia|coop|info|museum|name|shop|\u0440\u0444|xn--[a-z0-9-]{1,59}"
"""The names after a dot that markdown-it's linkify takes for a domain without ``www.`` or a
scheme (with every two-letter country code: ``main.py`` is one)."""
_MD_SPECIAL = re.compile(
    r"[\\`*~\[\]|<>&]"  # code, emphasis, strikethrough, links, tables, HTML, entities
    r"|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])"  # an underscore that could open or close emphasis
    r"|:(?=//)"  # scheme://, a bare URL a renderer would link
    r"|(?<=[A-Za-z0-9_-])\.(?=(?i:[a-z]{2}|" + _TLDS + r")(?![A-Za-z0-9]))"  # name.tld
    r"|(?<=[Ww]{3})\."  # www.: a domain
    r"|(?<=[A-Za-z0-9._+-])@(?=[A-Za-z0-9])"  # an e-mail address
)
_MD_LINE_START = re.compile(r"^([ \t]*(?:\d+)?)([#>+=.)-])", re.M)
_ENTITIES = {"<": "&lt;", ">": "&gt;", "&": "&amp;"}


def _md_escape(match: re.Match[str]) -> str:
    ch = match.group()
    if ch == "@":  # cmark-gfm links an address whatever is escaped: split it by a code span
        return "`@`"
    return _ENTITIES.get(ch) or "\\" + ch


def md_text(text: str, *, keep_newlines: bool = False) -> str:
    """Text from the data for Markdown outside a fence, shown as written by any renderer:
    made visible (:func:`visible`; one line unless ``keep_newlines``), ``<``, ``>`` and
    ``&`` as entities (no HTML, no ``<autolink>``), and a backslash before each character
    Markdown could read as syntax: backticks, ``*``, ``_`` (not inside a word), ``~``,
    brackets (no link, image or footnote), ``|`` (no table cell), ``:`` before ``//`` and
    the ``.`` of a domain (``evil.com``, ``main.py``) or after ``www`` (no bare URL or domain
    turned into a link); the
    ``@`` of an e-mail address goes in a code span (`` `@` ``: no ``mailto:`` link).
    With ``keep_newlines``, what could start a block at the start of a line (``#``, ``>``,
    ``-``, ``+``, ``=``, the dot of ``1.``) is escaped too."""
    text = visible(text, keep_newlines=keep_newlines)
    text = _MD_SPECIAL.sub(_md_escape, text)
    if keep_newlines:
        text = _MD_LINE_START.sub(lambda m: f"{m.group(1)}\\{m.group(2)}", text)
    return text


def md_fence(text: str, lang: str = "") -> str:
    """``text`` in a fenced code block nothing in it can close (the fence is longer than
    any run of backticks in it), made visible (newlines and tabs kept)."""
    ticks = "```"
    while ticks in text:
        ticks += "`"
    return f"{ticks}{lang}\n{visible(text)}\n{ticks}"


# -- HTML --------------------------------------------------------------------------------------


def html_text(text: str) -> str:
    """Plain text from the data for HTML: made visible, then escaped once (``&``, ``<``,
    ``>`` and both quotes). Never give it text escaped for Markdown or HTML already."""
    return html.escape(visible(text), quote=True)


# -- CSV ---------------------------------------------------------------------------------------

_FORMULA = re.compile("^\\s*[=+\\-@\t\r\uff1d\uff0b\uff0d\uff20]")
"""A cell a spreadsheet would run: starting with ``= + - @``, a tab or CR (OWASP) or their
full-width forms, after any leading blanks (every Unicode white space: a no-break or an
ideographic space too)."""
_NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")


def csv_cell(value: Any) -> str:
    """A CSV cell: empty for None, floats as Python writes them, text made visible (line
    breaks and tabs kept: CSV quotes them) and prefixed with ``'`` when a spreadsheet would
    run it as a formula (a plain number such as ``-1.5`` is left as it is)."""
    if value is None:
        return ""
    if isinstance(value, float):
        return repr(value)
    text = visible(str(value))
    if _FORMULA.match(text) and not _NUMBER.match(text):
        return "'" + text
    return text
