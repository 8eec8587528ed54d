"""The literal text every match of an RE2 regular expression must hold, read the way RE2
reads its syntax (``re2/parse.cc``), for the prefilter of a search.

Only a pattern RE2 compiled is read. What is read as literal must be literal to RE2; anything
else (a class, a group, an escape that names a set, a repeated character) ends a run of
literal characters. Where the reading is unsure (a construct it does not know), there is no
literal and every record is parsed: the prefilter may only ever skip records that cannot
match.

Python's ``re`` is not RE2: it reads ``[[:digit:]]abc`` as the class ``[[:digt]`` then
``]abc``, and ``\\pL`` as an error, where RE2 reads a POSIX class then ``abc``, and the class
of letters.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Required", "required_literals"]

_ASCII_ALNUM = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
_HEX = frozenset("0123456789abcdefABCDEF")
_OCTAL = frozenset("01234567")
_C_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "a": "\a", "f": "\f", "v": "\v"}
_CLASS_ESCAPES = frozenset("dDsSwW")
_ZERO_WIDTH_ESCAPES = frozenset("bBAzC")  # \C is one byte: not a character either
_FLAGS = frozenset("imsU-")


class _Unsure(Exception):
    """The pattern holds something this reader does not know: no literal."""


@dataclass(frozen=True, slots=True)
class Required:
    """What every match holds.

    Attributes:
        branches: One literal per top-level alternative (``a|b``): every match holds one
            of them.
        fold: Some part of the pattern ignores case (``(?i)``): the literals must be
            looked for ignoring case.
    """

    branches: tuple[str, ...]
    fold: bool


_LIT, _OTHER = 0, 1


def required_literals(pattern: str, min_length: int = 2) -> Required | None:
    """The longest literal run of each top-level alternative of ``pattern`` (an RE2
    pattern that compiles), or None when some alternative has none of ``min_length``
    characters or the reading is unsure."""
    try:
        return _Reader(pattern).read(min_length)
    except _Unsure:
        return None


class _Reader:
    def __init__(self, pattern: str) -> None:
        self.p = pattern
        self.i = 0
        self.fold = False

    def read(self, min_length: int) -> Required | None:
        p, n = self.p, len(self.p)
        branches: list[str] = []
        best, run = "", ""
        while True:
            if self.i >= n or p[self.i] == "|":
                if len(run) > len(best):
                    best = run
                if len(best) < min_length:
                    return None
                branches.append(best)
                if self.i >= n:
                    return Required(tuple(branches), self.fold)
                self.i += 1
                best, run = "", ""
                continue
            atoms = self._atoms()
            least = self._repeat()  # of the last atom
            if not atoms:  # nothing at all ((?i), \Q\E): a repetition repeats what came before
                if self._repeated:
                    raise _Unsure
                continue
            for k, (kind, char) in enumerate(atoms):
                last = k == len(atoms) - 1
                if kind == _LIT and (least >= 1 or not last):
                    run += char
                    if not (last and self._repeated):
                        continue  # what follows is next to it
                if len(run) > len(best):
                    best = run
                run = ""

    _repeated = False

    def _repeat(self) -> int:
        """Read a repetition after an atom, if any: the fewest times the atom must occur
        (1 without one). Sets ``_repeated``."""
        p, n = self.p, len(self.p)
        self._repeated = False
        if self.i >= n:
            return 1
        c = p[self.i]
        if c in "*+?":
            self.i += 1
            least = 1 if c == "+" else 0
        elif c == "{":
            parsed = _counted(p, self.i)
            if parsed is None:
                return 1  # a literal '{' comes next
            least, self.i = parsed
        else:
            return 1
        self._repeated = True
        if self.i < n and p[self.i] == "?":
            self.i += 1  # non-greedy
        if self.i < n and (p[self.i] in "*+?" or _counted(p, self.i) is not None):
            raise _Unsure  # RE2 refuses a repetition of a repetition
        return least

    def _atoms(self) -> list[tuple[int, str]]:
        """The next atom: a literal character, or something else (``_OTHER``); ``\\Q..\\E``
        gives several literals (a repetition after it repeats the last); a flag group none."""
        p = self.p
        c = p[self.i]
        if c == "(":
            return self._group()
        if c == "[":
            self.i = _class_end(p, self.i)
            return [(_OTHER, "")]
        if c in ".^$":
            self.i += 1
            return [(_OTHER, "")]
        if c in "*+?)":
            raise _Unsure  # RE2 refuses these here
        if c == "\\":
            return self._escape()
        if c == "{":  # a literal, unless it is a repetition of nothing (refused by RE2)
            if _counted(p, self.i) is not None:
                raise _Unsure
            self.i += 1
            return [(_LIT, "{")]
        self.i += 1
        return [(_LIT, c)]

    def _group(self) -> list[tuple[int, str]]:
        p = self.p
        if p.startswith("(?", self.i):
            j = self.i + 2
            while j < len(p) and p[j] in _FLAGS:
                j += 1
            if j < len(p) and p[j] == ")":  # (?i): flags for the rest of the group
                if "i" in p[self.i + 2 : j].split("-")[0]:
                    self.fold = True
                self.i = j + 1
                return []
        self.i = _group_end(p, self.i)
        return [(_OTHER, "")]

    def _escape(self) -> list[tuple[int, str]]:
        p, n = self.p, len(self.p)
        if self.i + 1 >= n:
            raise _Unsure
        c = p[self.i + 1]
        if c == "Q":
            end = p.find("\\E", self.i + 2)
            text = p[self.i + 2 :] if end < 0 else p[self.i + 2 : end]
            self.i = n if end < 0 else end + 2
            return [(_LIT, ch) for ch in text]
        if c in _ZERO_WIDTH_ESCAPES or c in _CLASS_ESCAPES:
            self.i += 2
            return [(_OTHER, "")]
        if c in "pP":
            self.i = _unicode_group_end(p, self.i)
            return [(_OTHER, "")]
        rune, self.i = _parse_escape(p, self.i)
        return [(_LIT, rune)]


def _parse_escape(p: str, at: int) -> tuple[str, int]:
    """The character of the escape at ``at`` (RE2's ``ParseEscape``) and where it ends."""
    c = p[at + 1]
    i = at + 2
    if c in _C_ESCAPES:
        return _C_ESCAPES[c], i
    if c in _OCTAL:
        if c != "0" and (i >= len(p) or p[i] not in _OCTAL):
            raise _Unsure  # a back-reference: RE2 refuses it
        code = int(c)
        for _ in range(2):
            if i < len(p) and p[i] in _OCTAL:
                code = code * 8 + int(p[i])
                i += 1
        return chr(code), i
    if c == "x":
        if p.startswith("{", i):
            end = p.find("}", i)
            digits = p[i + 1 : end] if end > 0 else ""
            if not digits or not set(digits) <= _HEX or int(digits, 16) > 0x10FFFF:
                raise _Unsure
            code = int(digits, 16)
            if 0xD800 <= code < 0xE000:
                raise _Unsure
            return chr(code), end + 1
        digits = p[i : i + 2]
        if len(digits) != 2 or not set(digits) <= _HEX:
            raise _Unsure
        return chr(int(digits, 16)), i + 2
    if ord(c) < 0x80 and c not in _ASCII_ALNUM:
        return c, i  # escaped punctuation (and \_) is itself
    raise _Unsure


def _unicode_group_end(p: str, at: int) -> int:
    """Past ``\\pL``, ``\\p{Greek}``, ``\\P{^Greek}`` at ``at``."""
    i = at + 2
    if i >= len(p):
        raise _Unsure
    if p[i] != "{":
        return i + 1
    end = p.find("}", i)
    if end < 0:
        raise _Unsure
    return end + 1


def _counted(p: str, at: int) -> tuple[int, int] | None:
    """A counted repetition ``{n}``, ``{n,}``, ``{n,m}`` at ``at`` (RE2's
    ``MaybeParseRepetition``): its least count and where it ends; None when it is not one
    (then ``{`` is a literal)."""
    i = at + 1
    j = i
    while j < len(p) and "0" <= p[j] <= "9":
        j += 1
    if j == i:
        return None
    least = int(p[i:j]) if j - i < 9 else 1 << 30
    if j < len(p) and p[j] == ",":
        j += 1
        k = j
        while k < len(p) and "0" <= p[k] <= "9":
            k += 1
        j = k
    if j < len(p) and p[j] == "}":
        return least, j + 1
    return None


def _class_end(p: str, at: int) -> int:
    """Past the character class opened at ``at`` (RE2's ``ParseCharClass``): a ``]``
    first (after ``^``) is a member; ``[:alpha:]`` and ``[:^alpha:]`` are POSIX classes
    inside it; a backslash escapes the next character."""
    i = at + 1
    n = len(p)
    if i < n and p[i] == "^":
        i += 1
    first = True
    closeless = False
    while i < n:
        c = p[i]
        if c == "]" and not first:
            return i + 1
        first = False
        if c == "[" and p.startswith("[:", i) and not closeless:
            end = p.find(":]", i + 2)
            if end >= 0:
                i = end + 2
                continue
            closeless = True  # no ':]' further on: each '[:' from here is two members
        if c == "\\":
            if i + 1 < n and p[i + 1] in "pPx" and p.startswith("{", i + 2):
                end = p.find("}", i + 2)
                if end < 0:
                    raise _Unsure
                i = end + 1
                continue
            i += 2
            continue
        i += 1
    raise _Unsure


def _group_end(p: str, at: int) -> int:
    """Past the group opened at ``at`` (its contents read for their brackets only)."""
    depth = 0
    i = at
    n = len(p)
    while i < n:
        c = p[i]
        if c == "\\":
            if p.startswith("Q", i + 1):
                end = p.find("\\E", i + 2)
                i = n if end < 0 else end + 2
            else:
                i += 2
            continue
        if c == "[":
            i = _class_end(p, i)
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise _Unsure
