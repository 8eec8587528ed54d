"""The lines of a JSONL file longer than a chunk of its scan, and the last line without a
line break: the rare paths of :class:`~trajtui.core.jsonl.index.LineIndex`'s scan, kept
apart from its hot loop."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from trajtui.core.io.jsonutil import BOM

if TYPE_CHECKING:
    from trajtui.core.io.openfiles import FileHandle
    from trajtui.core.jsonl.blanklines import BlankRuns

CHUNK = 4 * 1024 * 1024
"""Bytes a scan reads at once."""

_WS = b" \t\r\n\f\v"


def find_newline(
    pread: Callable[[int, int], bytes],
    nl: bytes,
    pos: int,
    size: int,
    stopped: Callable[[], bool],
) -> int | None:
    """Offset of the next line break ``nl`` at or after ``pos`` (before ``size``), reading
    ahead in chunks; None when there is none, or when ``stopped()`` says so meanwhile."""
    while pos < size:
        if stopped():
            return None
        chunk = pread(min(CHUNK, size - pos), pos)
        if not chunk:
            return None
        at = chunk.find(nl)
        if at >= 0:
            return pos + at
        pos += len(chunk)
    return None


def only_space(pread: Callable[[int, int], bytes], start: int, stop: int) -> bool:
    """True when the file holds nothing but whitespace from ``start`` to ``stop``."""
    while start < stop:
        chunk = pread(min(CHUNK, stop - start), start)
        if not chunk or chunk.strip(_WS):
            return not chunk
        start += len(chunk)
    return True


class LongLines:
    """The scan's handling of long and unfinished lines (a mixin of
    :class:`~trajtui.core.jsonl.index.LineIndex`, whose state it reads)."""

    _file: FileHandle
    _nl: bytes | None
    _line: int
    _blank_runs: BlankRuns
    bom: bool
    unterminated: bool

    def _stopped(self) -> bool:
        raise NotImplementedError

    def _record(
        self, buf: bytes, start: int, stop: int, file_start: int, file_stop: int, line: int
    ) -> None:
        raise NotImplementedError

    def _read_chunk(self, n: int, offset: int) -> bytes:
        """The scan's next chunk (it may be used only until the next one is read)."""
        return self._file.pread(n, offset)

    def _find_newline(self, pos: int, size: int) -> int | None:
        return find_newline(self._file.pread, self._nl or b"\n", pos, size, self._stopped)

    def _only_space(self, start: int, stop: int) -> bool:
        return only_space(self._file.pread, start, stop)

    def _add_long_line(self, head: bytes, start: int, end: int) -> None:
        """Index a line longer than a chunk, from its first bytes and its end offset."""
        self._line += 1
        content = 3 if start == 0 and head.startswith(BOM) else 0
        if content:
            self.bom = True
        stop = end
        if self._nl == b"\n" and self._file.pread(1, end - 1) == b"\r":
            stop -= 1
        if not head[content:].strip(_WS) and self._only_space(start + len(head), stop):
            self._blank_runs.note(self._line)
            return
        self._record(head, content, min(len(head), stop - start), start + content, stop, self._line)

    def _add_tail(self, pos: int, size: int) -> None:
        """Index the last line, which has no newline (yet)."""
        data = self._file.pread(min(size - pos, CHUNK), pos)
        if not data.strip(_WS) and self._only_space(pos + len(data), size):
            return
        self._line += 1
        content = 3 if pos == 0 and data.startswith(BOM) else 0
        if content:
            self.bom = True
        stop = size
        if self._file.pread(1, size - 1) == b"\r":
            stop -= 1
        self._record(data, content, min(len(data), stop - pos), pos + content, stop, self._line)
        self.unterminated = True
