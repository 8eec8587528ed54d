"""The keys (ids) of a file's records, stored compactly and found by hash.

A JSONL file of 3 million small records used to keep a Python ``str`` per record plus a
``dict`` from reference to record (about 200 bytes a record). :class:`KeyTable` keeps the
UTF-8 bytes of every key in one ``bytearray`` with an offset and a hash per record, and finds
the first record of a key through an open-addressing table of record numbers: about 30
bytes a record plus the key itself.

A key longer than :data:`LONG_KEY` bytes is stored as a keyed 16-byte digest (equal keys
have equal digests; a forged collision would need the process's secret), and read back
from the file when it is shown.
"""

from __future__ import annotations

import hashlib
import os
import threading
from array import array
from collections.abc import Callable

LONG_KEY = 256
"""Keys longer than this (in UTF-8 bytes) are stored as a digest."""

KEY = 0
NONE = 1
LONG = 2

_SECRET = os.urandom(16)
_EMPTY = 0
_GONE = -1  # a deleted slot (probing continues past it)
_NOT_IN_TABLE = -1  # the hash kept for records not in the table (no key, or a repeat):
# hash() never returns -1


def _encode(key: str) -> tuple[int, bytes]:
    raw = key.encode("utf-8", "surrogatepass")
    if len(raw) > LONG_KEY:
        return LONG, hashlib.blake2b(raw, digest_size=16, key=_SECRET).digest()
    return KEY, raw


class KeyTable:
    """Record ``i``'s key (a ``str`` or None), in the order records were added.

    Not thread-safe for writers: one thread appends (the scan); readers in other threads
    see a consistent table (lookups use the table they started with).
    """

    def __init__(self, reread: Callable[[int], str | None] | None = None) -> None:
        """Args:
        reread: Reads record ``i``'s key again from the file (for long keys).
        """
        self._reread = reread
        self._blob = bytearray()
        self._offs = array("Q", [0])
        self._kind = bytearray()
        self._hash = array("q")  # hash of each record's stored key, or _NOT_IN_TABLE
        self._table: tuple[array[int], int] = (array("i", bytes(4 * 16)), 15)
        self._filled = 0  # slots used or deleted
        self.repeats = array("Q")
        """Records whose key an earlier record has, in order."""
        self.hashed = array("Q")
        """Records whose key holds ``#`` (it may clash with a ``KEY#2`` name), in order."""
        self._lazy = False  # restored without hashes: built on the first lookup or append
        self._build_lock = threading.Lock()

    @classmethod
    def restore(
        cls,
        reread: Callable[[int], str | None] | None,
        blob: bytearray,
        offs: array[int],
        kinds: bytearray,
        repeats: array[int],
        hashed: array[int],
    ) -> KeyTable:
        """A table from the parts :meth:`parts` gave (an index cache), checked by the caller.
        Hashes (per process: ``hash()`` is salted) are computed at the first lookup, so a
        restored table costs nothing until a reference is looked up."""
        table = cls(reread)
        table._blob, table._offs, table._kind = blob, offs, kinds
        table.repeats, table.hashed = repeats, hashed
        table._lazy = True
        return table

    def parts(self) -> tuple[bytearray, array[int], bytearray, array[int], array[int]]:
        """``(blob, offsets, kinds, repeats, hashed)``: what :meth:`restore` takes (long
        keys are digests salted per process: the caller replaces them)."""
        return self._blob, self._offs, self._kind, self.repeats, self.hashed

    def _build(self) -> None:
        """Hash every key of a restored table and fill the lookup table (once)."""
        with self._build_lock:
            if not self._lazy:
                return
            blob, offs, kinds = self._blob, self._offs, self._kind
            hashes = array("q", [_NOT_IN_TABLE]) * len(kinds)
            repeats = set(self.repeats)
            for i, kind in enumerate(kinds):
                if kind != NONE and i not in repeats:
                    hashes[i] = hash(bytes(blob[offs[i] : offs[i + 1]]))
            self._hash = hashes
            self._grow()
            self._lazy = False

    def __len__(self) -> int:
        return len(self._kind)

    def nbytes(self) -> int:
        """Memory held by the table's arrays."""
        slots, _ = self._table
        return (
            len(self._blob)
            + self._offs.itemsize * len(self._offs)
            + self._hash.itemsize * len(self._hash)
            + len(self._kind)
            + slots.itemsize * len(slots)
        )

    # -- reading -------------------------------------------------------------------------

    def get(self, i: int) -> str | None:
        """The key of record ``i`` (None when it has none)."""
        kind = self._kind[i]
        if kind == NONE:
            return None
        if kind == LONG:
            return self._reread(i) if self._reread is not None else None
        return self._blob[self._offs[i] : self._offs[i + 1]].decode("utf-8", "surrogatepass")

    def first(self, key: str) -> int | None:
        """The first record whose key is ``key``, or None."""
        if self._lazy:
            self._build()
        kind, raw = _encode(key)
        h = hash(raw)
        slots, mask = self._table
        slot = h & mask
        while True:
            r = slots[slot]
            if r == _EMPTY:
                return None
            if r > 0 and self._same(r - 1, h, kind, raw):
                return r - 1
            slot = (slot + 1) & mask

    def _same(self, i: int, h: int, kind: int, raw: bytes) -> bool:
        return (
            i < len(self._kind)
            and self._hash[i] == h
            and self._kind[i] == kind
            and self._blob[self._offs[i] : self._offs[i + 1]] == raw
        )

    # -- writing -------------------------------------------------------------------------

    def append(self, key: str | None) -> bool:
        """Add the next record's key. Returns True when an earlier record has this key."""
        n = len(self._kind)
        self.extend([key])
        return bool(self.repeats) and self.repeats[-1] == n

    def extend(self, keys: list[str | None]) -> None:
        """Add the keys of the next records (the scan's hot loop hands them over in bulk)."""
        if self._lazy:
            self._build()
        blob, offs, kinds, hashes = self._blob, self._offs, self._kind, self._hash
        hashed, repeats = self.hashed, self.repeats
        slots, mask = self._table
        i = len(kinds)
        end = len(blob)
        for key in keys:
            if key is None:
                kinds.append(NONE)
                offs.append(end)
                hashes.append(_NOT_IN_TABLE)
                i += 1
                continue
            if "#" in key:
                hashed.append(i)
            raw = key.encode("utf-8", "surrogatepass")
            kind = KEY
            if len(raw) > LONG_KEY:
                kind, raw = _encode(key)
            h = hash(raw)
            blob += raw
            end += len(raw)
            offs.append(end)
            kinds.append(kind)
            hashes.append(h)
            slot = h & mask
            if slots[slot] != _EMPTY:  # else the common case: a new key, its slot free
                free = -1
                while True:
                    r = slots[slot]
                    if r == _EMPTY:
                        break
                    if r == _GONE:
                        if free < 0:
                            free = slot
                    elif (
                        hashes[r - 1] == h
                        and kinds[r - 1] == kind
                        and blob[offs[r - 1] : offs[r]] == raw
                    ):
                        repeats.append(i)
                        free = -2
                        break
                    slot = (slot + 1) & mask
                if free == -2:  # a repeat: the table already has the key
                    hashes[-1] = _NOT_IN_TABLE
                    i += 1
                    continue
                if free >= 0:
                    slot = free
                    self._filled -= 1  # a deleted slot used again
            slots[slot] = i + 1
            i += 1
            self._filled += 1
            if self._filled * 2 > mask:
                self._grow()
                slots, mask = self._table

    def pop(self) -> None:
        """Forget the last record's key."""
        if self._lazy:
            self._build()
        i = len(self._kind) - 1
        if i < 0:
            return
        if self._hash[i] != _NOT_IN_TABLE:
            slots, mask = self._table
            slot = self._hash[i] & mask
            while slots[slot] != _EMPTY:
                if slots[slot] == i + 1:
                    slots[slot] = _GONE
                    break
                slot = (slot + 1) & mask
        del self._blob[self._offs[i] :]
        del self._offs[-1]
        del self._kind[-1]
        del self._hash[-1]
        for marks in (self.repeats, self.hashed):
            if marks and marks[-1] == i:
                del marks[-1]

    def _grow(self) -> None:
        """A table 2.5 to 5 times the keys' count, without the deleted slots (so it grows
        each time the keys double: linear time overall)."""
        hashes = self._hash
        live = len(hashes) - hashes.count(_NOT_IN_TABLE)
        size = 16
        while size * 2 < live * 5:
            size *= 2
        code = "i" if len(hashes) < (1 << 31) - 2 else "q"
        slots = array(code, bytes(array(code).itemsize * size))
        mask = size - 1
        for i, h in enumerate(hashes, 1):
            if h == _NOT_IN_TABLE:
                continue
            slot = h & mask
            while slots[slot]:
                slot = (slot + 1) & mask
            slots[slot] = i
        self._filled = live
        self._table = (slots, mask)
