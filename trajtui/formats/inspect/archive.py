"""One member of an Inspect ``.eval`` zip at a time, never the archive whole.

An ``.eval`` log is a zip archive whose members are JSON: ``header.json``,
``summaries.json``, ``samples/<id>_epoch_<n>.json``... inspect_ai compresses them with deflate
(ZIP method 8) up to 0.3.205 and with Zstandard (method 93) from 0.3.206 on, which Python's
:mod:`zipfile` reads only from 3.14. So :mod:`zipfile` is used for what it does well, reading
the central directory (the list of members, their sizes and offsets), and each member is read
here: its bytes at its offset, through a decompressor that stops at a size limit (a member of
a huge sample is refused in one line before it fills the memory). Zstandard members may be
several frames one after another (inspect_ai writes a frame per 200 MiB): they are all read.

The file is opened through :mod:`trajtui.core.io.safeio` (a regular file only) and read with
``pread``; nothing is unpacked anywhere.
"""

from __future__ import annotations

import io
import os
import struct
import zipfile
import zlib
from dataclasses import dataclass
from typing import Any

import zstandard

from trajtui.core.io import safeio, sparse

STORED, DEFLATED, ZSTANDARD = 0, 8, 93
"""The ZIP compression methods read (those inspect_ai writes)."""
MAX_MEMBER = 512 << 20
"""The largest member read whole, uncompressed (a sample of half a gigabyte)."""
MAX_SMALL = 64 << 20
"""The largest header, summaries or journal member read."""
_LOCAL = struct.Struct("<4s2B4HL2L2H")
_CHUNK = 1 << 20


class ArchiveError(Exception):
    """The file is not a zip archive that can be read, or a member cannot be; the message
    is one line."""


@dataclass(frozen=True, slots=True)
class Member:
    """One member of the archive, as the central directory lists it.

    Attributes:
        name: Its name (``samples/1_epoch_1.json``).
        method: Its compression method.
        size: Its size uncompressed.
        compressed: Its size in the archive.
        offset: Where its local header starts.
    """

    name: str
    method: int
    size: int
    compressed: int
    offset: int


class Archive:
    """An open ``.eval`` zip: its members by name; read one with :meth:`read`. ``members``:
    the table an earlier opening of the same file read (a big log's central directory lists
    every sample: read once, when the log is listed).

    Raises (at construction):
        ArchiveError: Not a zip archive, or its central directory cannot be read.
        OSError: The file cannot be opened.
    """

    def __init__(self, path: str, members: dict[str, Member] | None = None) -> None:
        self.path = path
        fd, _ = safeio.open_fd(path)
        self._file = sparse.open_file(fd)  # (a remote log's: its central directory fetched)
        if members is not None:  # read before: the central directory is not read again
            self.members = members
            return
        try:
            with zipfile.ZipFile(self._file) as zf:
                infos = zf.infolist()
        except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError) as err:
            self._file.close()
            raise ArchiveError(f"not a zip archive that can be read ({err})") from None
        except BaseException:
            self._file.close()
            raise
        self.members = {
            i.filename: Member(
                i.filename, i.compress_type, i.file_size, i.compress_size, i.header_offset
            )
            for i in infos
        }

    def close(self) -> None:
        """Close the file (again is harmless)."""
        self._file.close()

    def __enter__(self) -> Archive:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def names(self) -> list[str]:
        """The members' names, in the central directory's order."""
        return list(self.members)

    def read(self, name: str, *, limit: int = MAX_MEMBER) -> bytes:
        """The uncompressed bytes of member ``name``.

        Raises:
            KeyError: No such member.
            ArchiveError: Its method is not one read here, it is bigger than ``limit``
                uncompressed, or its data is damaged.
            OSError: The file cannot be read.
        """
        m = self.members[name]
        if m.size > limit:
            raise ArchiveError(f"{name}: {m.size:,} bytes uncompressed (limit {limit:,}; not read)")
        fd = self._file.fileno()
        sparse.ensure_fd(fd, m.offset, _LOCAL.size)  # (a remote log: only this member fetched)
        head = os.pread(fd, _LOCAL.size, m.offset)
        if len(head) < _LOCAL.size or head[:4] != b"PK\x03\x04":
            raise ArchiveError(f"{name}: no local header where the central directory says")
        fields = _LOCAL.unpack(head)
        start = m.offset + _LOCAL.size + fields[-2] + fields[-1]
        sparse.ensure_fd(fd, start, m.compressed)
        raw = _Slice(fd, start, m.compressed)
        try:
            if m.method == STORED:
                return _bounded(raw, limit, name)
            if m.method == DEFLATED:
                return _inflate(raw, limit, name)
            if m.method == ZSTANDARD:
                reader = zstandard.ZstdDecompressor().stream_reader(
                    raw,  # type: ignore[arg-type]  # any object with read() read_across_frames=True, closefd=False
                )
                return _bounded(reader, limit, name)
        except (zlib.error, zstandard.ZstdError) as err:
            raise ArchiveError(f"{name}: damaged ({err})") from None
        raise ArchiveError(f"{name}: compression method {m.method} is not one inspect_ai writes")


class _Slice(io.RawIOBase):
    """``size`` bytes of a file from ``start``, read with ``pread`` (the archive's own
    position untouched)."""

    def __init__(self, fd: int, start: int, size: int) -> None:
        self._fd, self._pos, self._end = fd, start, start + size

    def readable(self) -> bool:
        return True

    def read(self, n: int = -1) -> bytes:
        left = self._end - self._pos
        n = left if n is None or n < 0 else min(n, left)
        if n <= 0:
            return b""
        data = os.pread(self._fd, n, self._pos)
        self._pos += len(data)
        return data

    def readinto(self, buf: bytearray | memoryview) -> int:  # type: ignore[override]
        data = self.read(len(buf))
        buf[: len(data)] = data
        return len(data)


def _bounded(reader: Any, limit: int, name: str) -> bytes:
    parts: list[bytes] = []
    got = 0
    read = reader.read
    while True:
        chunk = read(_CHUNK)
        if not chunk:
            return b"".join(parts)
        got += len(chunk)
        if got > limit:
            raise ArchiveError(f"{name}: more than {limit:,} bytes uncompressed (not read)")
        parts.append(chunk)


def _inflate(raw: _Slice, limit: int, name: str) -> bytes:
    d = zlib.decompressobj(-15)
    parts: list[bytes] = []
    got = 0
    while True:
        chunk = raw.read(_CHUNK)
        out = d.decompress(chunk, limit + 1 - got) if chunk else d.flush()
        got += len(out)
        if got > limit:
            raise ArchiveError(f"{name}: more than {limit:,} bytes uncompressed (not read)")
        parts.append(out)
        while d.unconsumed_tail and got <= limit:
            out = d.decompress(d.unconsumed_tail, limit + 1 - got)
            got += len(out)
            parts.append(out)
        if got > limit:
            raise ArchiveError(f"{name}: more than {limit:,} bytes uncompressed (not read)")
        if not chunk:
            return b"".join(parts)
