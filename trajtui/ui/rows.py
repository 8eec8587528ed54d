"""The run list's rows, packed: one 64-bit integer per row, whatever the number of runs."""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator
from typing import overload

HEADER = 0
ENTRY = 1
OPEN_PROBLEM = 2

Row = tuple[int, int, int]
"""``(kind, source index, entry index)``: a source header, an entry, or an open-time
problem (``(OPEN_PROBLEM, -1, k)``)."""


class Rows:
    """The run list's rows, one 64-bit integer each (``(kind, source, entry)`` packed): a
    list of three million rows takes 24 MB, not the 250 MB its tuples would.

    Reads like a list of :data:`Row` tuples (index, iterate, ``index()``, ``==``)."""

    _S, _I = 1 << 36, 1 << 58  # entry index + 1: 36 bits; source + 1: 22 bits; kind: above

    __slots__ = ("_a",)

    def __init__(self, rows: Iterable[Row] = ()) -> None:
        self._a = array("q", (self.pack(row) for row in rows))

    @classmethod
    def pack(cls, row: Row) -> int:
        kind, s, i = row
        return kind * cls._I + (s + 1) * cls._S + i + 1

    @classmethod
    def unpack(cls, code: int) -> Row:
        kind, rest = divmod(code, cls._I)
        s, i = divmod(rest, cls._S)
        return (kind, s - 1, i - 1)

    def __len__(self) -> int:
        return len(self._a)

    def __bool__(self) -> bool:
        return len(self._a) > 0

    @overload
    def __getitem__(self, k: int) -> Row: ...
    @overload
    def __getitem__(self, k: slice) -> list[Row]: ...
    def __getitem__(self, k: int | slice) -> Row | list[Row]:
        if isinstance(k, slice):
            return [self.unpack(c) for c in self._a[k]]
        return self.unpack(self._a[k])

    def __iter__(self) -> Iterator[Row]:
        unpack = self.unpack
        return (unpack(c) for c in self._a)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Rows):
            return self._a == other._a
        if isinstance(other, list):
            return list(self) == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def append(self, row: Row) -> None:
        self._a.append(self.pack(row))

    def extend(self, rows: Iterable[Row]) -> None:
        self._a.extend(self.pack(row) for row in rows)

    def extend_entries(self, s: int, indices: Iterable[int]) -> None:
        """Add an entry row for each of ``indices`` of source ``s`` (without tuples)."""
        base = self.pack((ENTRY, s, 0))
        if isinstance(indices, range) and indices.step == 1:
            self._a.extend(array("q", range(base + indices.start, base + indices.stop)))
        else:
            self._a.extend(base + i for i in indices)

    def extend_packed(self, codes: array[int]) -> None:
        """Add rows already packed (:meth:`pack`)."""
        self._a.extend(codes)

    def insert_entries(self, pos: int, s: int, indices: range) -> None:
        """Entry rows for ``indices`` of source ``s``, put before row ``pos``."""
        base = self.pack((ENTRY, s, 0))
        self._a[pos:pos] = array("q", range(base + indices.start, base + indices.stop))

    def index(self, row: Row) -> int:
        return self._a.index(self.pack(row))

    def kind(self, k: int) -> int:
        """The kind of row ``k``."""
        return self._a[k] // self._I
