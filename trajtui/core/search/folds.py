"""Which characters RE2 takes for one another when it ignores case, asked of RE2 itself.

RE2's ``(?i)`` folds by Unicode's simple case folding: ``k`` also matches ``K`` and the
Kelvin sign ``K`` (U+212A), ``s`` matches ``ſ`` (U+017F), ``ß`` matches ``ẞ`` but not
``ss``. A search that ignores case finds all of these in a field's text; its prefilter must
find them in the raw file too, where a JSON writer may spell each one escaped (``\\u212a``),
so it needs the whole list for each character. Python's ``str.lower``/``upper`` are not that
list (``'k'.upper()`` is never ``K``), so the list is read from RE2: one scan, per set of
characters not asked before, of every Unicode scalar value encoded as UTF-8 (4.4 MB, built
once, when a search first ignores case).
"""

from __future__ import annotations

import string
import threading
from collections.abc import Iterable

import re2

__all__ = ["case_variants"]

_OPTIONS = re2.Options()
_OPTIONS.log_errors = False

_lock = threading.Lock()
_scalars: bytes | None = None
_known: dict[str, frozenset[str]] = {}
_PRIMED = string.ascii_letters + string.digits
"""Asked along with the first characters, so typing an ASCII word asks RE2 only once."""


def _every_scalar() -> bytes:
    """Every Unicode scalar value (U+0000 to U+10FFFF but the surrogates), in order, as
    UTF-8, built by whole slices rather than character by character (0.05 s, not 0.6 s)."""
    cont = bytes(range(0x80, 0xC0))
    out = bytearray(range(0x80))
    for lead in range(0xC2, 0xE0):
        two = bytearray(128)
        two[0::2] = bytes([lead]) * 64
        two[1::2] = cont
        out += two
    for lead in range(0xE0, 0xF0):
        lo, hi = (0xA0, 0xC0) if lead == 0xE0 else (0x80, 0xA0) if lead == 0xED else (0x80, 0xC0)
        n = hi - lo
        three = bytearray(3 * 64 * n)
        three[0::3] = bytes([lead]) * (64 * n)
        three[1::3] = b"".join(bytes([m]) * 64 for m in range(lo, hi))
        three[2::3] = cont * n
        out += three
    thirds = b"".join(bytes([c]) * 64 for c in cont)
    for lead in range(0xF0, 0xF5):
        lo, hi = (0x90, 0xC0) if lead == 0xF0 else (0x80, 0x90) if lead == 0xF4 else (0x80, 0xC0)
        for m in range(lo, hi):
            four = bytearray(4 * 4096)
            four[0::4] = bytes([lead]) * 4096
            four[1::4] = bytes([m]) * 4096
            four[2::4] = thirds
            four[3::4] = cont * 64
            out += four
    return bytes(out)


def case_variants(chars: Iterable[str]) -> dict[str, frozenset[str]]:
    """For each of ``chars`` (single characters, no lone surrogates), every character
    RE2's ``(?i)`` matches it with, itself included."""
    wanted = set(chars)
    with _lock:
        todo = wanted - _known.keys()
        if todo:
            global _scalars
            if _scalars is None:
                _scalars = _every_scalar()
                todo |= set(_PRIMED) - _known.keys()
            members = "".join(f"\\x{{{ord(c):x}}}" for c in sorted(todo))
            found = {
                m.decode()
                for m in re2.compile(f"(?i)[{members}]".encode(), _OPTIONS).findall(_scalars)
            }
            for c in todo:
                one = re2.compile(f"(?i)\\x{{{ord(c):x}}}", _OPTIONS)
                _known[c] = frozenset({c} | {f for f in found if one.fullmatch(f)})
        return {c: _known[c] for c in wanted}
