"""What is searched for: a plain string or a regular expression, compiled once into the
matcher of field texts and the prefilter of a JSONL file's raw bytes.

Both run on google-re2, a linear-time engine: no pattern, however written, can make a search
hang (Python's ``re`` backtracks, and ``(a+)+$`` on a long line takes forever).

The prefilter finds the records whose bytes may hold a match, so only those are parsed. A
string with quotes, backslashes, control characters or non-ASCII characters is written
escaped in a JSON file (``\\"``, ``\\\\``, ``\\n``, ``\\u00e9``; Go escapes ``<``, ``>`` and
``&`` too): the prefilter of a plain string matches every spelling of each such character.
A regular expression's prefilter is the longest run of ordinary characters every match must
hold (read from the pattern); a pattern without one has every record parsed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import re2

__all__ = ["Needle", "PatternError", "compile_needle", "required_literal"]

_OPTIONS = re2.Options()
_OPTIONS.log_errors = False

_SAFE = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 !#$%()*+,-.:;=?@[]^_`{|}~"
)
"""Characters no JSON writer escapes: a string of them is in the file as it is."""

_SHORT_ESCAPES = {"\b": "b", "\f": "f", "\n": "n", "\r": "r", "\t": "t", '"': '"', "\\": "\\"}

_EXTRA_FOLDS = {"\u00e5": "\u212b"}
"""Characters re2's case folding joins beyond ``str.lower``/``str.upper`` whose ``\\u``
spellings the prefilter lists (the Angstrom sign)."""

MIN_LITERAL = 2
"""Shortest ordinary run of a regular expression worth prefiltering on."""


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
        prefilter: A pattern on raw JSON bytes that every record holding a match matches, or
            None when there is none (every record is parsed).
    """

    pattern: str
    regex: bool
    ignore_case: bool
    matcher: Any
    prefilter: Any

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
    flags = "(?i)" if ignore_case else ""
    source = pattern if regex else re2.escape(pattern)
    try:
        matcher = re2.compile(flags + source, _OPTIONS)
    except re2.error as err:
        raise PatternError(f"invalid regular expression {pattern!r}: {_why(err)}") from None
    if regex:
        literal = required_literal(pattern, ignore_case)
        prefilter = None
        if literal is not None:
            text, fold = literal
            prefilter = re2.compile(
                ("(?i)" if fold else "").encode() + re2.escape(text.encode()), _OPTIONS
            )
    else:
        prefilter = re2.compile(_escaped_forms(pattern, ignore_case), _OPTIONS)
    return Needle(pattern, regex, ignore_case, matcher, prefilter)


def _why(err: Exception) -> str:
    message = err.args[0] if err.args else str(err)
    if isinstance(message, bytes):
        message = message.decode("utf-8", "replace")
    return str(message).split(":", 1)[0].strip() or "cannot be compiled"


# -- plain strings: every spelling in a JSON file ------------------------------------------


def _escaped_forms(text: str, ignore_case: bool) -> bytes:
    """A bytes pattern matching ``text`` as any JSON writer spells it in a string."""
    parts = []
    for ch in text:
        variants = {ch}
        if ignore_case and ch not in _SAFE:  # (?i) folds the letters of the UTF-8 forms
            for v in (ch.lower(), ch.upper(), _EXTRA_FOLDS.get(ch.lower(), "")):
                if len(v) == 1:
                    variants.add(v)
        forms: list[bytes] = []
        for v in sorted(variants):
            forms.extend(_forms(v))
        parts.append(forms[0] if len(forms) == 1 else b"(?:" + b"|".join(forms) + b")")
    return (b"(?i)" if ignore_case else b"") + b"".join(parts)


def _forms(ch: str) -> list[bytes]:
    """Patterns of the spellings of one character in a JSON string."""
    if ch in _SAFE:
        return [re2.escape(ch.encode())]
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
    """The longest run of ordinary characters every match of ``pattern`` holds, and whether
    it is matched ignoring case; None when there is none worth looking for.

    Read with Python's own parser of regular expressions (RE2 syntax is close to it); a
    pattern it cannot read gets no prefilter (every record is parsed), never a wrong one.
    """
    try:
        from re import _constants, _parser  # type: ignore[attr-defined]

        parsed = _parser.parse(pattern)
        literal_op = _constants.LITERAL
    except (re.error, ImportError, RecursionError, ValueError, OverflowError):
        return None
    fold = ignore_case or bool(parsed.state.flags & re.IGNORECASE)
    if parsed.state.flags & re.VERBOSE:
        return None
    best = ""
    run: list[str] = []
    for op, arg in parsed:
        if op is literal_op and chr(arg) in _SAFE:
            run.append(chr(arg))
            continue
        if len(run) > len(best):
            best = "".join(run)
        run = []
    if len(run) > len(best):
        best = "".join(run)
    if len(best) < MIN_LITERAL:
        return None
    return best, fold
