"""A column of integers kept 4 bytes each until one does not fit, and at most
:data:`KEEP` of them in memory (:class:`IntColumn`).

The session engine keeps a few numbers per kept line and per step of a file of any size
(:mod:`trajtui.core.jsonl.session`); almost all of them fit in 32 bits (offsets below 4 GB,
line numbers, kept-line ids, content-block indexes), so a column starts as a 4-byte array
and becomes an 8-byte one the first time a value needs it (an offset past 4 GB, a hostile
part), never failing on a value a Python ``int`` of 64 bits holds.

A column of more than :data:`KEEP` values spills its older values, :data:`CHUNK` at a time,
to an unlinked temporary file in trajtui's cache directory (``spill/`` beside the index
cache, private; never beside the data) and reads them back by ``os.pread``, a page (one
chunk) at a time, the last :data:`PAGES` pages kept: memory stays the same whatever the
file's size. A value set after it was spilled is written back to its page. When no
private cache directory can be had, the column keeps everything in memory, as before.
"""

from __future__ import annotations

import os
import tempfile
import threading
from array import array
from collections import OrderedDict
from collections.abc import Iterator

WIDE_OF = {"I": "Q", "Q": "Q", "i": "q", "q": "q"}
"""The 8-byte type code of each type code."""
KEEP = 1 << 16
"""Values a column holds in memory at most (the newest ones); past it, older ones spill."""
CHUNK = 1 << 12
"""Values in a spilled chunk, the page read back at a time (the step window reads 64)."""
PAGES = 4
"""Spilled pages a column keeps read (least recently used dropped first)."""


def _spill_file() -> int | None:
    """A descriptor on a new unlinked file in trajtui's cache directory, or None."""
    from platformdirs import user_cache_path

    from trajtui.core.jsonl.cachedir import private_dir
    from trajtui.core.jsonl.indexcache import _writable_here

    base = user_cache_path("trajtui")
    d = private_dir(base / "spill", create=True) if _writable_here(base) else None
    if d is None:
        return None
    try:
        fd, name = tempfile.mkstemp(prefix=".spill-", dir=d)  # mode 0600
    except OSError:
        return None
    try:
        os.unlink(name)  # freed when closed, never left behind
    except OSError:
        os.close(fd)
        return None
    return fd


class _Spill:
    """The spilled chunks of one column: where each is in the file and its type code, the
    pages read back. Closed (the file freed) when the column is collected."""

    __slots__ = ("at", "codes", "end", "fd", "lock", "pages")

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.at = array("Q")  # each chunk's offset in the file
        self.codes = bytearray()  # each chunk's type code (ord)
        self.end = 0
        self.pages: OrderedDict[int, array[int]] = OrderedDict()
        self.lock = threading.Lock()

    def __del__(self) -> None:
        try:
            os.close(self.fd)
        except OSError:
            pass

    def _write(self, data: bytes, at: int) -> None:
        view = memoryview(data)
        while view:
            n = os.pwrite(self.fd, view, at)
            view, at = view[n:], at + n

    def put(self, values: array[int]) -> None:
        """Spill ``values`` (whole chunks), after those spilled already.

        Raises:
            OSError: The file cannot be written.
        """
        with self.lock:
            size = CHUNK * values.itemsize
            self._write(values.tobytes(), self.end)
            for k in range(len(values) // CHUNK):
                self.at.append(self.end + k * size)
                self.codes.append(ord(values.typecode))
            self.end += len(values) * values.itemsize

    def page(self, c: int) -> array[int]:
        """Chunk ``c``'s values (read back, or kept). Call with the lock held."""
        got = self.pages.get(c)
        if got is not None:
            self.pages.move_to_end(c)
            return got
        page = array(chr(self.codes[c]))
        data = os.pread(self.fd, CHUNK * page.itemsize, self.at[c])
        if len(data) != CHUNK * page.itemsize:
            raise OSError(f"a spilled chunk read back short ({len(data)} bytes)")
        page.frombytes(data)
        self.pages[c] = page
        while len(self.pages) > PAGES:
            self.pages.popitem(last=False)
        return page

    def set(self, c: int, i: int, value: int) -> bool:
        """Set item ``i`` of chunk ``c``; True when the chunk had to become 8 bytes an item
        (the value does not fit in 4).

        Raises:
            OSError: The file cannot be read or written.
            OverflowError: A value beyond 64 bits.
        """
        with self.lock:
            page = self.page(c)
            widened = False
            try:
                page[i] = value
            except OverflowError:
                wide = WIDE_OF[page.typecode]
                if wide == page.typecode:
                    raise
                page = array(wide, page)
                page[i] = value
                self.pages[c] = page
                self.codes[c] = ord(wide)
                self.at[c] = self.end  # a wider chunk goes after the others
                self.end += CHUNK * page.itemsize
                widened = True
            if widened:
                self._write(page.tobytes(), self.at[c])
            else:
                self._write(page[i : i + 1].tobytes(), self.at[c] + i * page.itemsize)
            return widened


class IntColumn:
    """A growable column of integers (unsigned: ``"I"``, or signed: ``"i"``), 4 bytes an
    item until a value needs 8 (then all are 8), at most :data:`KEEP` in memory (the rest
    spilled). Not thread-safe for writers; a reader of values already there sees them
    whole while the writer appends (the values in memory and how many are spilled are
    swapped together, after the spilled ones are written)."""

    __slots__ = ("_code", "_kept", "_mem", "_spill")

    def __init__(self, code: str = "i", values: array[int] | None = None) -> None:
        """A column of ``code`` (``"I"``/``"Q"`` unsigned, ``"i"``/``"q"`` signed), empty
        or holding ``values`` (an array of that code, taken as it is, kept in memory)."""
        values = array(code) if values is None else values
        self._mem: tuple[array[int], int] = (values, 0)  # (the newest values, how many before)
        self._code: str = values.typecode
        self._spill: _Spill | None = None
        self._kept = False  # True: no spill file could be had, everything kept here

    @property
    def values(self) -> array[int]:
        """The values in memory: all of them, or the newest (after :attr:`spilled`)."""
        return self._mem[0]

    @property
    def spilled(self) -> int:
        """How many values (the oldest) are in the spill file."""
        return self._mem[1]

    @property
    def code(self) -> str:
        """The type code now (``I``/``i`` narrow, ``Q``/``q`` wide: some value needs 8
        bytes)."""
        return self._code

    def _widen(self) -> array[int]:
        values, base = self._mem
        wide = WIDE_OF[values.typecode]
        if wide == values.typecode:
            raise OverflowError("a value beyond 64 bits")
        values = array(wide, values)
        self._mem = (values, base)
        self._code = wide
        return values

    def append(self, value: int) -> None:
        values = self._mem[0]
        try:
            values.append(value)
        except OverflowError:
            values = self._widen()
            values.append(value)
        if len(values) >= KEEP and not self._kept:
            self._spill_old()

    def _spill_old(self) -> None:
        """Spill all but the newest :data:`CHUNK` values, in whole chunks (everything is
        kept in memory from now on when no spill file can be had or written)."""
        if self._spill is None:
            fd = _spill_file()
            if fd is None:
                self._kept = True
                return
            self._spill = _Spill(fd)
        values, base = self._mem
        n = (len(values) - CHUNK) // CHUNK * CHUNK
        try:
            self._spill.put(values[:n])
        except OSError:
            self._kept = True
            return
        self._mem = (values[n:], base + n)

    def _index(self, i: int) -> int:
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("IntColumn index out of range")
        return i

    def __setitem__(self, i: int, value: int) -> None:
        i = self._index(i)
        values, base = self._mem
        if i >= base:
            try:
                values[i - base] = value
            except OverflowError:
                self._widen()[i - base] = value
            return
        assert self._spill is not None
        if self._spill.set(i // CHUNK, i % CHUNK, value):
            self._code = WIDE_OF[self._code]

    def __getitem__(self, i: int) -> int:
        values, base = self._mem
        if i < 0:
            i += base + len(values)
        if i >= base:
            return values[i - base]
        if i < 0:
            raise IndexError("IntColumn index out of range")
        spill = self._spill
        assert spill is not None
        with spill.lock:
            return spill.page(i // CHUNK)[i % CHUNK]

    def __len__(self) -> int:
        values, base = self._mem
        return base + len(values)

    def __iter__(self) -> Iterator[int]:
        for part in self.arrays():
            yield from part

    def arrays(self, code: str | None = None) -> Iterator[array[int]]:
        """The values in order, an array at a time (each spilled chunk, then those in
        memory), each of ``code`` when given."""
        values, base = self._mem
        spill = self._spill
        for c in range(base // CHUNK):
            assert spill is not None
            with spill.lock:
                page = spill.page(c)
            yield page if code is None or page.typecode == code else array(code, page)
        yield values if code is None or values.typecode == code else array(code, values)

    def chunks(self) -> Iterator[bytes]:
        """The values' machine bytes in order, all of :attr:`code` (a section of the index
        cache, written a chunk at a time: never the whole column at once)."""
        code = self.code
        for part in self.arrays(code):
            step = max(1, (1 << 20) // part.itemsize)
            for k in range(0, len(part), step):
                yield part[k : k + step].tobytes()

    def nbytes(self) -> int:
        """Bytes its items take (in memory and spilled)."""
        return array(self.code).itemsize * len(self)
