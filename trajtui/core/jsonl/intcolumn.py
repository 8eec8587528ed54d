"""A column of integers kept 4 bytes each until one does not fit (:class:`IntColumn`).

The session engine keeps a few numbers per kept line and per step of a file of any size
(:mod:`trajtui.core.jsonl.session`); almost all of them fit in 32 bits (offsets below 4 GB,
line numbers, kept-line ids, content-block indexes), so a column starts as a 4-byte array
and becomes an 8-byte one the first time a value needs it (an offset past 4 GB, a hostile
part), never failing on a value a Python ``int`` of 64 bits holds.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator

WIDE_OF = {"I": "Q", "Q": "Q", "i": "q", "q": "q"}
"""The 8-byte type code of each type code."""


class IntColumn:
    """A growable column of integers (unsigned: ``"I"``, or signed: ``"i"``), 4 bytes an
    item until a value needs 8 (then all are 8). Not thread-safe for writers; readers see
    either the old array or the widened one, both whole."""

    __slots__ = ("values",)

    def __init__(self, code: str = "i", values: array[int] | None = None) -> None:
        """A column of ``code`` (``"I"``/``"Q"`` unsigned, ``"i"``/``"q"`` signed), empty
        or holding ``values`` (an array of that code, taken as it is)."""
        self.values: array[int] = array(code) if values is None else values

    @property
    def code(self) -> str:
        """The array's type code now (``I``/``i`` narrow, ``Q``/``q`` wide)."""
        return self.values.typecode

    def _widen(self) -> None:
        wide = WIDE_OF[self.values.typecode]
        if wide == self.values.typecode:
            raise OverflowError("a value beyond 64 bits")
        self.values = array(wide, self.values)

    def append(self, value: int) -> None:
        try:
            self.values.append(value)
        except OverflowError:
            self._widen()
            self.values.append(value)

    def __setitem__(self, i: int, value: int) -> None:
        try:
            self.values[i] = value
        except OverflowError:
            self._widen()
            self.values[i] = value

    def __getitem__(self, i: int) -> int:
        return self.values[i]

    def __len__(self) -> int:
        return len(self.values)

    def __iter__(self) -> Iterator[int]:
        return iter(self.values)

    def nbytes(self) -> int:
        """Bytes its items take."""
        return self.values.itemsize * len(self.values)
