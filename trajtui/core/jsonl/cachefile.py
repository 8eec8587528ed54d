"""The file format of trajtui's index cache: a small header, named sections of raw bytes, and
a checksum; read as untrusted data.

A cache file is::

    MAGIC (8 bytes) | VERSION (u32) | 0 (u32) | SECTIONS (raw bytes, one after the other)
    | HEADER (JSON object) | HEADER LENGTH (u32) | BLAKE2b-256 of everything before (32 bytes)

The header comes after the sections so that they are written as they are made, a chunk at
a time (:class:`Part`): saving the index of millions of records never copies it whole. The
header says what the cache describes (the data file's path, size, mtime, inode...),
scalar state, and where each section is (``[name, offset, length]``, offsets from the start
of the sections). Arrays of numbers are stored as their machine bytes (``array.tobytes``):
a million offsets are 8 MB copied in one call, not a million decimal numbers. Small
heterogeneous values (status words, problems, numbers kept aside) use a tagged encoding,
:func:`pack_values`, that knows ``None``, booleans, integers of any size, floats (NaN and
infinities included), strings and numbers too big for a float (kept as spelled): nothing is
ever unpickled or evaluated.

Reading checks the magic, the version, the checksum (a truncated or damaged file is
refused), the header's shape and every section's bounds, and raises :class:`CacheCorrupt`
for anything else. The checksum guards against damage, not against a forged file: what the
sections say is validated again where it is used (:mod:`trajtui.core.jsonl.indexstate`).
"""

from __future__ import annotations

import hashlib
import io
import os
import re
import stat
import struct
import sys
from array import array
from collections.abc import Iterable, Sequence
from itertools import islice
from typing import Any, BinaryIO, Protocol

from trajtui.core.io.jsonutil import JsonError, Overflowed, dumps_line, loads

MAGIC = b"TRJTIDX\x00"
VERSION = 2
"""Bumped whenever the layout or the meaning of a section changes."""
DIGEST = 32
MAX_HEADER = 1 << 20
"""A header longer than this is refused (ours are under 2 kB)."""

_PREFIX = struct.Struct("<8sII")
_U32 = struct.Struct("<I")
_I64 = struct.Struct("<q")
_F64 = struct.Struct("<d")
_INF = float("inf")
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
_ITEMSIZES = {"B": 1, "i": 4, "I": 4, "Q": 8, "q": 8, "d": 8}
_READ = 1 << 20

Value = None | bool | int | float | str


class CacheCorrupt(Exception):
    """A cache file that cannot be used: damaged, truncated, foreign or inconsistent."""


class Unstorable(Exception):
    """State that the cache format cannot hold (nothing is written)."""


# -- tagged values ---------------------------------------------------------------------------


def pack_values(values: Iterable[Any]) -> bytes:
    """Encode ``None``, booleans, integers, floats, strings and
    :class:`~trajtui.core.io.jsonutil.Overflowed` numbers, one tag byte each. Values of
    exactly these types only: a subclass would come back as its base class.

    Raises:
        Unstorable: A value of another type.
    """
    out = bytearray()
    for v in values:
        kind = type(v)
        if v is None:
            out += b"N"
        elif v is True:
            out += b"T"
        elif v is False:
            out += b"F"
        elif kind is int:
            if -(1 << 63) <= v < (1 << 63):
                out += b"i" + _I64.pack(v)
            else:
                raw = v.to_bytes((v.bit_length() + 8) // 8, "little", signed=True)
                out += b"I" + _U32.pack(len(raw)) + raw
        elif kind is float:
            out += b"d" + _F64.pack(v)
        elif kind is str or kind is Overflowed:
            raw = (v.text if kind is Overflowed else v).encode("utf-8", "surrogatepass")
            out += (b"s" if kind is str else b"o") + _U32.pack(len(raw)) + raw
        else:
            raise Unstorable(f"a value of type {kind.__name__}")
    return bytes(out)


def unpack_values(data: bytes | memoryview) -> list[Value]:
    """Decode what :func:`pack_values` wrote.

    Raises:
        CacheCorrupt: An unknown tag, or a value running past the end.
    """
    view = memoryview(data)
    out: list[Value] = []
    append = out.append
    pos, end = 0, len(view)
    try:
        while pos < end:
            tag = view[pos]
            pos += 1
            if tag == 0x4E:  # N
                append(None)
            elif tag == 0x54:  # T
                append(True)
            elif tag == 0x46:  # F
                append(False)
            elif tag == 0x69:  # i
                append(_I64.unpack_from(view, pos)[0])
                pos += 8
            elif tag == 0x64:  # d
                append(_F64.unpack_from(view, pos)[0])
                pos += 8
            elif tag in (0x49, 0x73, 0x6F):  # I, s, o
                (n,) = _U32.unpack_from(view, pos)
                pos += 4
                if pos + n > end:
                    raise CacheCorrupt("a value runs past the end of its section")
                raw = view[pos : pos + n]
                pos += n
                if tag == 0x49:
                    append(int.from_bytes(raw, "little", signed=True))
                elif tag == 0x73:
                    append(str(raw, "utf-8", "surrogatepass"))
                else:
                    append(_overflowed(str(raw, "ascii")))
            else:
                raise CacheCorrupt(f"unknown value tag {tag:#x}")
    except (struct.error, UnicodeDecodeError) as err:
        raise CacheCorrupt(f"bad value: {err}") from None
    return out


def _overflowed(text: str) -> Overflowed:
    """An :class:`Overflowed` number, from a JSON number literal that overflows a float."""
    if not _NUMBER.fullmatch(text) or (float(text) not in (_INF, -_INF) and len(text) <= 4300):
        raise CacheCorrupt(f"not an overflowed number: {text[:40]!r}")
    return Overflowed(text)


# -- strings ---------------------------------------------------------------------------------


def pack_strings(strings: Sequence[str]) -> tuple[bytes, bytes]:
    """``(text, offsets)``: the strings joined as UTF-8, and where each ends in characters
    (``array('Q')`` bytes, one more than there are strings, starting at 0)."""
    offsets = array("Q", [0])
    total = 0
    for s in strings:
        total += len(s)
        offsets.append(total)
    return "".join(strings).encode("utf-8", "surrogatepass"), offsets.tobytes()


def unpack_strings(text: bytes | memoryview, offsets: bytes | memoryview, count: int) -> list[str]:
    """The ``count`` strings :func:`pack_strings` packed.

    Raises:
        CacheCorrupt: The offsets do not cut the text into ``count`` strings.
    """
    offs = to_array("Q", offsets)
    try:
        joined = str(text, "utf-8", "surrogatepass")
    except UnicodeDecodeError:
        raise CacheCorrupt("strings that are not UTF-8") from None
    if len(offs) != count + 1 or offs[0] != 0 or offs[-1] != len(joined):
        raise CacheCorrupt("string offsets do not match their text")
    if not ascending(offs, strict=False):
        raise CacheCorrupt("string offsets go backwards")
    return [joined[a:b] for a, b in zip(offs, islice(offs, 1, None), strict=False)]


def to_array(code: str, data: bytes | memoryview) -> array[Any]:
    """An ``array(code)`` of the machine bytes ``data``.

    Raises:
        CacheCorrupt: ``data`` is not a whole number of items.
    """
    out = array(code)
    if out.itemsize != _ITEMSIZES[code]:
        raise CacheCorrupt(f"this machine's array({code!r}) has another item size")
    try:
        out.frombytes(data)
    except ValueError:
        raise CacheCorrupt(f"a section of {len(data)} bytes is not an array({code!r})") from None
    return out


def ascending(values: array[int], *, strict: bool) -> bool:
    """True when ``values`` never go down (never stay the same, when ``strict``). Runs at
    C speed (``map`` over two arrays), for millions of offsets."""
    import operator

    if len(values) < 2:
        return True
    cmp = operator.lt if strict else operator.le
    return all(map(cmp, values, islice(values, 1, None)))


# -- the file --------------------------------------------------------------------------------


class Part:
    """The first ``n`` items of an array (or bytes of a ``bytearray``) as a section,
    written a chunk at a time (never copied whole, never exported while it is written)."""

    __slots__ = ("data", "n")

    def __init__(self, data: array[Any] | bytearray, n: int | None = None) -> None:
        self.data = data
        self.n = len(data) if n is None else n

    def chunks(self) -> Iterable[bytes]:
        data = self.data
        step = max(1, _READ // (data.itemsize if isinstance(data, array) else 1))
        for k in range(0, self.n, step):
            chunk = data[k : min(k + step, self.n)]
            yield chunk.tobytes() if isinstance(chunk, array) else bytes(chunk)


class Chunked(Protocol):
    """A section written a chunk at a time by its own means (a spilled column:
    :class:`~trajtui.core.jsonl.intcolumn.IntColumn`)."""

    def chunks(self) -> Iterable[bytes]: ...


Section = bytes | Part | Chunked


def write(out: BinaryIO, header: dict[str, Any], sections: dict[str, Section]) -> int:
    """Write a cache file to ``out``: the sections, then ``header`` (given a ``sections``
    table and the byte order), then the checksum. Returns the bytes written.

    Raises:
        Unstorable: ``header`` is not JSON, or is too long.
        OSError: ``out`` cannot be written.
    """
    digest = hashlib.blake2b(digest_size=DIGEST)
    total = 0

    def put(data: bytes) -> None:
        nonlocal total
        out.write(data)
        digest.update(data)
        total += len(data)

    put(_PREFIX.pack(MAGIC, VERSION, 0))
    where: list[list[Any]] = []
    offset = 0
    for name, data in sections.items():
        n = 0
        for chunk in (data,) if isinstance(data, bytes) else data.chunks():
            put(chunk)
            n += len(chunk)
        where.append([name, offset, n])
        offset += n
    try:
        head = dumps_line({**header, "sections": where, "byteorder": sys.byteorder}).encode()
    except (TypeError, ValueError) as err:
        raise Unstorable(f"header: {err}") from None
    if len(head) > MAX_HEADER:
        raise Unstorable("header too long")
    put(head)
    put(_U32.pack(len(head)))
    out.write(digest.digest())
    return total + DIGEST


def encode(header: dict[str, Any], sections: dict[str, Section]) -> bytes:
    """A whole cache file in memory (for tests and small entries).

    Raises:
        Unstorable: As :func:`write`.
    """
    buf = io.BytesIO()
    write(buf, header, sections)
    return buf.getvalue()


def read_header(fd: int, size: int) -> tuple[dict[str, Any], int]:
    """The header of the open cache file ``fd`` of ``size`` bytes and where it starts (the
    sections end there); nothing else is read, nothing checked against the checksum (for
    listing entries).

    Raises:
        CacheCorrupt: Not a cache file of this version, or a header that is not a JSON
            object.
        OSError: It cannot be read.
    """
    prefix = os.pread(fd, _PREFIX.size, 0)
    if len(prefix) < _PREFIX.size:
        raise CacheCorrupt("too short to be a cache file")
    magic, version, _ = _PREFIX.unpack(prefix)
    if magic != MAGIC:
        raise CacheCorrupt("not a trajtui index cache")
    if version != VERSION:
        raise CacheCorrupt(f"cache version {version}, this trajtui reads {VERSION}")
    tail_at = size - DIGEST - _U32.size
    if tail_at < _PREFIX.size:
        raise CacheCorrupt("truncated")
    (head_len,) = _U32.unpack(os.pread(fd, _U32.size, tail_at).ljust(_U32.size, b"\0"))
    head_at = tail_at - head_len
    if head_len > MAX_HEADER or head_at < _PREFIX.size:
        raise CacheCorrupt("bad header length")
    head = os.pread(fd, head_len, head_at)
    if len(head) < head_len:
        raise CacheCorrupt("truncated header")
    try:
        header, _ = loads(head)
    except JsonError:
        raise CacheCorrupt("header is not JSON") from None
    if not isinstance(header, dict):
        raise CacheCorrupt("header is not a JSON object")
    return header, head_at


def read(fd: int, size: int) -> tuple[dict[str, Any], dict[str, memoryview]]:
    """The header and sections (views into one buffer) of the open cache file ``fd`` of
    ``size`` bytes, after checking its checksum, byte order and section bounds.

    Raises:
        CacheCorrupt: Anything wrong with it.
        OSError: It cannot be read.
    """
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode) or st.st_size != size:
        raise CacheCorrupt("not a regular file of the expected size")
    header, head_at = read_header(fd, size)
    body_end = size - DIGEST
    body = bytearray(body_end)  # read in place: the file is held once, never copied
    view = memoryview(body)
    digest = hashlib.blake2b(digest_size=DIGEST)
    pos = 0
    while pos < body_end:
        got = os.preadv(fd, [view[pos : min(pos + _READ, body_end)]], pos)
        if got <= 0:
            raise CacheCorrupt("truncated")
        digest.update(view[pos : pos + got])
        pos += got
    if os.pread(fd, DIGEST, body_end) != digest.digest():
        raise CacheCorrupt("checksum mismatch (damaged or truncated)")
    if header.get("byteorder") != sys.byteorder:
        raise CacheCorrupt("written on a machine of another byte order")
    where = header.get("sections")
    if not isinstance(where, list):
        raise CacheCorrupt("no section table")
    sections: dict[str, memoryview] = {}
    start, room = _PREFIX.size, head_at - _PREFIX.size
    for item in where:
        if (
            not isinstance(item, list)
            or len(item) != 3
            or not isinstance(item[0], str)
            or not all(type(x) is int for x in item[1:])
        ):
            raise CacheCorrupt("bad section table")
        name, offset, length = item
        if offset < 0 or length < 0 or offset + length > room or name in sections:
            raise CacheCorrupt(f"section {name!r} out of bounds")
        sections[name] = view[start + offset : start + offset + length]
    return header, sections
