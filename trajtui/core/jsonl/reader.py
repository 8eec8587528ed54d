"""Parse records of an indexed JSONL file on demand, with a small LRU cache.

A record is parsed only when something asks for it (the run list drawing a row, ``show``
resolving a reference); the last few parsed records are kept so moving up and down a list
does not parse the same record twice. Big records are not kept (their parsed value can take
several times their size): memory stays a few times the largest record asked for.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from trajtui.core.io.jsonutil import JsonError, loads
from trajtui.core.jsonl.index import FileChanged, LineIndex

CACHE_SIZE = 32
CACHE_BYTES = 32 * 1024 * 1024
"""The records kept add up to at most this many bytes (as in the file)."""


@dataclass(frozen=True, slots=True)
class Record:
    """One parsed record.

    Attributes:
        index: Position among the file's records.
        line: 1-based line number.
        value: The decoded JSON value, or None when ``error`` is set.
        error: Why the record could not be decoded.
        warning: Something tolerated while decoding (invalid UTF-8, NaN).
        size: Size of the record in bytes.
    """

    index: int
    line: int
    value: Any
    error: str | None
    warning: str | None
    size: int


class JsonlReader:
    """Decodes records of a :class:`LineIndex` lazily and keeps the last few.

    Safe to call from several threads (the UI and a background summariser).
    """

    def __init__(self, index: LineIndex, cache_size: int = CACHE_SIZE) -> None:
        self.index = index
        self._cache: OrderedDict[int, Record] = OrderedDict()
        self._size = cache_size
        self._bytes = 0
        self._lock = threading.Lock()

    def clear(self) -> None:
        """Forget every cached record (after the file changed)."""
        with self._lock:
            self._cache.clear()
            self._bytes = 0

    def raw(self, i: int) -> bytes:
        """The bytes of record ``i`` as in the file."""
        return self.index.read(i)

    def records(self, lo: int, hi: int) -> list[Record]:
        """Records ``lo`` up to ``hi`` (excluded; at least one, maybe fewer than asked),
        decoded from one read of the file and not cached: for reading a file in order."""
        try:
            datas = self.index.read_span(lo, hi)
        except (IndexError, OSError, FileChanged):
            return [self.record(lo)]
        return [
            self._decode(lo + k, self.index.line_of(lo + k), data) for k, data in enumerate(datas)
        ]

    def record(self, i: int) -> Record:
        """Record ``i``, decoded (from the cache when it was decoded recently).

        Raises:
            IndexError: No such record.
        """
        with self._lock:
            rec = self._cache.get(i)
            if rec is not None:
                self._cache.move_to_end(i)
                return rec
        try:
            line = self.index.line_of(i)
            data = self.index.read(i)
        except IndexError:
            # The record was dropped while we looked (its unfinished last line is being
            # read again): report it as unreadable for now.
            return Record(i, 0, None, "record is being read again (the file grew)", None, 0)
        except (OSError, FileChanged) as err:
            rec = Record(i, line, None, f"cannot read record: {err}", None, 0)
            return rec
        rec = self._decode(i, line, data)
        if rec.size > CACHE_BYTES // 4:
            return rec
        with self._lock:
            old = self._cache.pop(i, None)
            self._bytes += rec.size - (old.size if old is not None else 0)
            self._cache[i] = rec
            while len(self._cache) > self._size or self._bytes > CACHE_BYTES:
                _, dropped = self._cache.popitem(last=False)
                self._bytes -= dropped.size
        return rec

    def _decode(self, i: int, line: int, data: bytes) -> Record:
        try:
            value, warning = loads(data)
            rec = Record(i, line, value, None, warning, len(data))
        except JsonError as err:
            message = str(err)
            if i == self.index.count - 1 and self.index.unterminated:
                message = f"truncated last line (no newline: still being written?); {message}"
            rec = Record(i, line, None, message, None, len(data))
        return rec
