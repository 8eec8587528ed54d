"""The key that names a record of a JSONL file (its ``id``), as the JSON parser sees it.

The fast path reads ``{"id":"..."`` at the start of a line; it is trusted only when nothing
later in the line could be the same key again (the parser keeps the last of repeated keys):
no ``"id"`` and no ``\\u00..`` escape that could spell it. A number, an escape, or a possible
repeat reads the id token with the parser, or the whole record. :class:`RecordKey` holds
what both paths need for one key; :class:`~trajtui.core.jsonl.index.LineIndex` runs the fast path
inline in its hot loop and asks :meth:`RecordKey.read` for everything else.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from trajtui.core.io.jsonutil import JsonError, id_text, loads_exact

KEY_HEAD = 8192
"""How far into a line the key's token is looked for."""

Pread = Callable[[int, int], bytes]
"""Reads ``n`` bytes at an offset of the file: ``pread(n, offset)``."""


@functools.cache
def _key_pattern(key: str) -> re.Pattern[bytes]:
    name = re.escape(key.encode())
    number = rb"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?(?=[ \t\r]*[,}])"
    return re.compile(
        rb'[ \t]*\{[ \t]*"' + name + rb'"[ \t]*:[ \t]*("(?:[^"\\\n\r]|\\.)*"|' + number + rb")"
    )


@functools.cache
def _key_prefixes(key: str) -> tuple[bytes, bytes]:
    """How a line whose first field is the key starts (the fast path)."""
    quoted = b'"' + key.encode() + b'"'
    return b"{" + quoted + b':"', b"{" + quoted + b': "'


@functools.cache
def _repeat_markers(key: str) -> tuple[bytes, ...]:
    """Byte strings one of which is in any later spelling of ``"key"`` as a JSON key: the
    plain quoted key, and the ``\\uXXXX`` escape of each of its characters."""
    escapes: set[bytes] = set()
    for ch in key:
        code = ord(ch)
        units = [code] if code < 0x10000 else [0xD800 + ((code - 0x10000) >> 10)]
        for unit in units:
            escapes.add(f"\\u{unit:04x}".encode())
            escapes.add(f"\\u{unit:04X}".encode())
    common = min(escapes, default=b"")
    for escape in escapes:
        while not escape.startswith(common):
            common = common[:-1]
    if len(common) >= 5:  # e.g. "\u006" covers "\u0069" and "\u0064": one search
        escapes = {common}
    return (b'"' + key.encode() + b'"', *sorted(escapes))


class RecordKey:
    """How one key is read from records.

    Attributes:
        name: The top-level field whose value names a record (``id``).
        pattern: The key as the first field of a line, with its token (a string or a number).
        prefixes: How a line whose first field is the key (a string) starts: the fast path.
        markers: Byte strings one of which is in any later spelling of the key.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self.pattern = _key_pattern(name)
        self.prefixes = _key_prefixes(name)
        self.markers = _repeat_markers(name)

    def repeated(
        self,
        buf: bytes,
        pos: int,
        stop: int,
        file_pos: int,
        file_stop: int,
        pread: Pread,
        chunk_size: int,
    ) -> bool:
        """True when the line, after ``pos`` (``file_pos`` in the file), could hold the key
        again. ``buf`` holds the line up to ``stop``; the rest is read from the file with
        ``pread``, ``chunk_size`` bytes at a time."""
        if any(buf.find(m, pos, stop) >= 0 for m in self.markers):
            return True
        keep = max(len(m) for m in self.markers) - 1
        at = file_pos + (stop - pos)
        tail = buf[max(pos, stop - keep) : stop]
        while at < file_stop:
            chunk = pread(min(chunk_size, file_stop - at), at)
            if not chunk:
                return False
            window = tail + chunk
            if any(m in window for m in self.markers):
                return True
            tail = window[-keep:]
            at += len(chunk)
        return False

    def read(
        self,
        buf: bytes,
        start: int,
        stop: int,
        file_start: int,
        file_stop: int,
        pread: Pread,
        chunk_size: int,
    ) -> tuple[str | None, str | None]:
        """The record's key, read from its first bytes when it is the first field and is not
        repeated later, else by parsing the record (read whole from the file when ``buf``
        holds only its head; ``pread`` and ``chunk_size`` as for :meth:`repeated`). Returns
        ``(key, problem)``."""
        m = self.pattern.match(buf, start, min(stop, start + KEY_HEAD))
        first: str | None = None
        if m is not None:
            token = m.group(1)
            if token[:1] == b'"' and b"\\" not in token:
                try:
                    first = token[1:-1].decode("utf-8")
                except UnicodeDecodeError:
                    pass
            if first is None:
                try:
                    first = id_text(loads_exact(token)[0])
                except JsonError:
                    first = None
            at = file_start + m.end() - start
            if not self.repeated(buf, m.end(), stop, at, file_stop, pread, chunk_size):
                return first, None
        data = buf[start:stop]
        if len(data) < file_stop - file_start:
            data = pread(file_stop - file_start, file_start)
        try:
            value, _ = loads_exact(data)
        except JsonError as err:
            # A broken record: the reader reports it; the key its head names still lets
            # a reference find the line.
            return (first, None) if m is not None else (None, str(err))
        return (id_text(value.get(self.name)) if isinstance(value, dict) else None), None
