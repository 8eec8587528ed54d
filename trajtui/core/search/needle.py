"""What is searched for: a plain string or a regular expression, compiled once into the
matcher of field texts and the prefilter of a JSONL file's raw bytes.

Both run on google-re2, a linear-time engine: no pattern, however written, can make a search
hang (Python's ``re`` backtracks, and ``(a+)+$`` on a long line takes forever).

The prefilter finds the records whose bytes may hold a match, so only those are parsed; it
may only ever skip records that cannot match. A string with quotes, backslashes, control
characters or non-ASCII characters is written escaped in a JSON file (``\\"``, ``\\\\``,
``\\n``, ``\\u00e9``; Go escapes ``<``, ``>`` and ``&`` too), and a writer may escape any
other character as well (``\\u0070assword``): the prefilter of a plain string matches every
spelling of each character, ASCII letters included, and ignoring case, every spelling of
every character RE2 folds it with (``k`` and the Kelvin sign ``\\u212a``: see
:mod:`~trajtui.core.search.folds`). A regular expression's prefilter is the longest literal
run every match must hold (of each top-level alternative), read from the pattern as RE2
reads it (:mod:`~trajtui.core.search.re2syntax`); a pattern without one, or one that reader
is unsure of, has every record parsed. A run that could be part of a number as Python
writes it (``100000.0``) also takes the records holding a number the file spells otherwise
(``1e5``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import re2

from trajtui.core.search.folds import case_variants
from trajtui.core.search.re2syntax import required_literals

__all__ = ["Needle", "PatternError", "Prefilter", "compile_needle", "required_literal"]

_OPTIONS = re2.Options()
_OPTIONS.log_errors = False

_SAFE = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 !#$%()*+,-.:;=?@[]^_`{|}~"
)
"""Characters no JSON writer must escape: most write a string of them as it is, but any
writer may escape them too (``\\u0070``)."""

_SAFE_ESCAPE = re2.compile(
    rb"\\u00(?i:" + b"|".join(sorted({b"%02x" % ord(c) for c in _SAFE})) + rb")", _OPTIONS
)
"""The escape of a character no writer must escape (hex letters matched in either case)."""

_SHORT_ESCAPES = {"\b": "b", "\f": "f", "\n": "n", "\r": "r", "\t": "t", '"': '"', "\\": "\\"}

_NUMBER_TEXT = frozenset("0123456789.+-einfa")
"""The characters of a number as Python writes it (``str(1e16)`` is ``1e+16``, ``NaN`` is
``nan``, ``Infinity`` ``inf``)."""
_RESPELLED_NUMBER = rb"[0-9][eE]|[0-9]{16}|NaN|Infinity"
"""A number the file spells otherwise than Python writes it: with an exponent (``1e5`` is
``100000.0``), with more digits than a float keeps (rounded when read), or as Python's
``json`` writes the numbers JSON has no word for."""

MIN_LITERAL = 2
"""Shortest ordinary run of a regular expression worth prefiltering on."""


@dataclass(frozen=True, slots=True)
class Prefilter:
    """A pattern on raw JSON bytes that every record holding a match matches.

    Attributes:
        exact: Every spelling of every character (escapes of letters included).
        raw: The same without the escapes of characters no writer must escape: as exact on
            bytes holding no such escape, and several times faster.
    """

    exact: Any
    raw: Any

    def pattern_for(self, data: bytes) -> Any:
        """The pattern that finds every record of ``data`` that may hold a match."""
        return self.exact if _SAFE_ESCAPE.search(data) else self.raw


class PatternError(ValueError):
    """A pattern that cannot be searched for; ``str(err)`` is one line saying why."""


@dataclass(frozen=True, slots=True)
class Needle:
    """A compiled search.

    Attributes:
        pattern: As the user typed it.
        regex: ``pattern`` is a regular expression (RE2 syntax), not a plain string.
        ignore_case: Letters match either case.
        matcher: The compiled pattern, on text.
        prefilter: What every record holding a match holds in its raw bytes, or None when
            there is nothing (every record is parsed).
    """

    pattern: str
    regex: bool
    ignore_case: bool
    matcher: Any
    prefilter: Prefilter | None

    def spans(self, text: str) -> Iterator[tuple[int, int]]:
        """The ``(start, end)`` of each match in ``text`` (character offsets, in order; empty
        matches are skipped: they mark nothing)."""
        if not text:
            return
        if not self.regex and not self.ignore_case:
            n = len(self.pattern)
            at = text.find(self.pattern)
            while at >= 0:
                yield at, at + n
                at = text.find(self.pattern, at + n)
            return
        for m in self.matcher.finditer(text):
            start, end = m.span()
            if end > start:
                yield start, end

    def found_in(self, text: str) -> bool:
        """``text`` holds a match."""
        return next(self.spans(text), None) is not None


def compile_needle(pattern: str, *, regex: bool = False, ignore_case: bool = False) -> Needle:
    """Compile what to search for.

    Args:
        pattern: A plain string, or a regular expression with ``regex``.
        regex: Read ``pattern`` as an RE2 regular expression.
        ignore_case: Case-insensitive.

    Returns:
        The needle.

    Raises:
        PatternError: The pattern is empty, or not a valid regular expression.
    """
    if not pattern:
        raise PatternError("the pattern is empty")
    _check_utf8(pattern)
    flags = "(?i)" if ignore_case else ""
    source = pattern if regex else re2.escape(pattern)
    try:
        matcher = re2.compile(flags + source, _OPTIONS)
    except re2.error as err:
        raise PatternError(f"invalid regular expression {pattern!r}: {_why(err)}") from None
    if regex:
        required = required_literals(pattern, MIN_LITERAL)
        prefilter = None
        if required is not None:
            fold = ignore_case or required.fold
            prefilter = _prefilter(required.branches, fold)
    else:
        prefilter = _prefilter([pattern], ignore_case)
    return Needle(pattern, regex, ignore_case, matcher, prefilter)


def _check_utf8(pattern: str) -> None:
    """A pattern from a command line that is not valid UTF-8 (its bytes kept as lone
    surrogates) cannot be searched for: say where."""
    try:
        pattern.encode()
    except UnicodeEncodeError as err:
        raw = pattern.encode("utf-8", "surrogateescape")
        at = len(pattern[: err.start].encode("utf-8", "surrogateescape"))
        raise PatternError(
            f"the pattern is not valid UTF-8 (byte 0x{raw[at]:02X} at byte {at + 1})"
        ) from None


def _why(err: Exception) -> str:
    message = err.args[0] if err.args else str(err)
    if isinstance(message, bytes):
        message = message.decode("utf-8", "replace")
    return str(message).split(":", 1)[0].strip() or "cannot be compiled"


# -- plain strings: every spelling in a JSON file ------------------------------------------


def _prefilter(texts: Sequence[str], ignore_case: bool) -> Prefilter:
    """The prefilter of records holding any of ``texts``."""
    exact, raw = (
        re2.compile(b"|".join(_escaped_forms(t, ignore_case, every) for t in texts), _OPTIONS)
        for every in (True, False)
    )
    return Prefilter(exact, raw)


def _escaped_forms(text: str, ignore_case: bool, every: bool = True) -> bytes:
    """A bytes pattern matching ``text`` as any JSON writer spells it in a string (ignoring
    case: each character as any character RE2 folds it with), or a number the file spells
    otherwise when ``text`` could be part of one as Python writes it; without ``every``, the
    escapes of characters no writer must escape are left out."""
    folds = case_variants(text) if ignore_case else {}
    parts = []
    for ch in text:
        variants = folds.get(ch, frozenset({ch}))
        forms: list[bytes] = []
        if len(variants) > 1 and all(v in _SAFE for v in variants):
            # (?i) matches the others as they are; their escapes are each their own
            forms.append(re2.escape(ch.encode()))
            if every:
                forms.extend(_hex(ord(v)) for v in sorted(variants))
        else:
            for v in sorted(variants):
                forms.extend(_forms(v, every))
        parts.append(forms[0] if len(forms) == 1 else b"(?:" + b"|".join(forms) + b")")
    found = b"".join(parts)
    if set(text.lower() if ignore_case else text) <= _NUMBER_TEXT:
        found = b"(?:" + found + b"|" + _RESPELLED_NUMBER + b")"
    return (b"(?i)" if ignore_case else b"") + found


def _forms(ch: str, every: bool = True) -> list[bytes]:
    """Patterns of the spellings of one character in a JSON string (without ``every``, not
    the escape of a character no writer must escape)."""
    if ch in _SAFE:
        return [re2.escape(ch.encode()), _hex(ord(ch))] if every else [re2.escape(ch.encode())]
    code = ord(ch)
    forms = []
    if ch in _SHORT_ESCAPES:
        forms.append(re2.escape(("\\" + _SHORT_ESCAPES[ch]).encode()))
    if code >= 0x20 and ch not in '"\\':
        forms.append(re2.escape(ch.encode("utf-8", "surrogatepass")))
    if ch == "/":
        forms.append(rb"\\/")
    if code > 0xFFFF:
        hi = 0xD800 + ((code - 0x10000) >> 10)
        lo = 0xDC00 + ((code - 0x10000) & 0x3FF)
        forms.append(_hex(hi) + _hex(lo))
    else:
        forms.append(_hex(code))
    return forms


def _hex(code: int) -> bytes:
    """``\\uXXXX`` with hex letters in either case."""
    out = rb"\\u"
    for digit in f"{code:04x}":
        out += f"[{digit}{digit.upper()}]".encode() if digit.isalpha() else digit.encode()
    return out


# -- regular expressions: the longest run every match holds --------------------------------


def required_literal(pattern: str, ignore_case: bool) -> tuple[str, bool] | None:
    """The longest run of literal characters every match of ``pattern`` holds, and whether
    it is matched ignoring case; None when there is none worth looking for (or the pattern
    has alternatives at its top level: see :func:`required_literals` for them)."""
    required = required_literals(pattern, MIN_LITERAL)
    if required is None or len(required.branches) != 1:
        return None
    return required.branches[0], ignore_case or required.fold
