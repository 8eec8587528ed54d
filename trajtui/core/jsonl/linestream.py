"""The lines of a file read once, in order, each handed over as it is read and nothing
kept of it (:class:`LineStream`): how the session engine (:mod:`trajtui.core.jsonl.session`)
reads a one-run file of any size, whose fold keeps only the few lines it needs again.

A :class:`~trajtui.core.jsonl.index.LineIndex` keeps the offset and length of every line
(about 30 bytes a line: 50 MB for a rollout of 1.7 million lines); a stream keeps where it
stopped, the line count and the file's identity, whatever the file's size. Lines are read
as the index reads them: non-blank lines (a line of whitespace only is counted for the
numbering, not handed over), a UTF-8 byte-order mark at the start and a CR before the LF
left out, lines ended by CR alone (classic Mac OS) read as lines, a line longer than a
chunk read whole. The last line, when it has no line break yet (still being written), is
not handed over: the stream says where it is (:attr:`LineStream.tail`) and the next scan
reads on from its start, so it is handed over once it is finished.

Read with ``pread`` through the shared pool of descriptors (:mod:`trajtui.core.io.openfiles`),
never mapped (a file truncated under a mapping raises SIGBUS).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from trajtui.core.io.jsonutil import BOM, line_break
from trajtui.core.io.openfiles import FileChanged, FileHandle
from trajtui.core.jsonl.changes import ends_hash, how_changed
from trajtui.core.jsonl.longlines import find_newline, only_space
from trajtui.core.jsonl.progress import ScanProgress

CHUNK = 4 * 1024 * 1024
"""Bytes read at a time (a longer line is read whole, on its own)."""

_WS = b" \t\r\n\f\v"


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the file, as the fold gets it.

    Attributes:
        index: Its position among the file's non-blank lines (0-based).
        number: Its 1-based line number.
        offset: Where it starts in the file.
        data: Its bytes (no line break).
    """

    index: int
    number: int
    offset: int
    data: bytes


@dataclass(frozen=True, slots=True)
class Tail:
    """A last line without a line break (not handed over).

    Attributes:
        number: Its 1-based line number.
        offset: Where its bytes start.
        size: How many bytes it has (a CR at its end left out).
    """

    number: int
    offset: int
    size: int


class LineStream:
    """The non-blank lines of one file, each handed to a callback once, in order, by a
    cancellable scan that reads on from where the last one stopped (see the module).

    Attributes:
        path: The file.
        size: Its size when the last scan started.
        mtime_ns: Its modification time then.
        count: Lines handed over so far (the next one's ``index``).
        complete: The last scan reached the end of the file.
        tail: The last line, when the last scan found it had no line break (else None).
        bom: The file starts with a UTF-8 byte-order mark.
        cr_only: Lines end with CR alone.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        """Open ``path`` (read-only).

        Raises:
            OSError: The file cannot be opened, or is not a regular file.
        """
        self.path = os.fspath(path)
        self._file = FileHandle(self.path)
        self._ident = self._file.ident
        self.size = self._file.size()
        self.mtime_ns = 0
        self.count = 0
        self.complete = False
        self.tail: Tail | None = None
        self.bom = False
        self.cr_only = False
        self._nl: bytes | None = None
        self._pos = 0  # where the next scan starts (the start of a line)
        self._line = 0  # lines before _pos
        self._cancelled = False
        self._sample: tuple[int, int] | None = None  # (size scanned, hash of its ends)

    @property
    def ident(self) -> tuple[int, int]:
        """``(st_dev, st_ino)`` of the file read."""
        return self._ident

    def close(self) -> None:
        """Close the file. Reads after this raise OSError."""
        self._file.close()

    def stat(self) -> os.stat_result:
        """The open file's ``fstat`` now (raises OSError)."""
        return self._file.stat()

    def pread(self, n: int, offset: int) -> bytes:
        """Up to ``n`` bytes of the file at ``offset`` (raises OSError)."""
        return self._file.pread(n, offset)

    def read_exact(self, n: int, offset: int) -> bytes:
        """Exactly ``n`` bytes at ``offset``.

        Raises:
            FileChanged: The file is now shorter, or was replaced.
            OSError: It cannot be read.
        """
        data = self._file.pread(n, offset)
        if len(data) < n:
            raise FileChanged(f"{self.path} is shorter than when it was read")
        return data

    def cancel(self) -> None:
        """Ask a running scan to stop at its next chunk."""
        self._cancelled = True

    def _stopped(self) -> bool:
        """A scan was asked to stop (set from another thread)."""
        return self._cancelled

    def stat_changed(self) -> str | None:
        """How the file changed since it was read (see :mod:`trajtui.core.jsonl.changes`)."""
        return how_changed(
            self.path, self._ident, self.size, self.mtime_ns, self._sample, self._file.pread
        )

    # -- scanning ------------------------------------------------------------------------

    def scan(
        self, add: Callable[[Line], None], *, progress_every: float = 0.05
    ) -> Iterator[ScanProgress]:
        """Hand each line from where the last scan stopped to the file's current end to
        ``add``, in order. Yields progress after the first chunk, then at most every
        ``progress_every`` seconds, and once more (``finished``) at the end; stops early
        when cancelled (at a chunk's end: every line before it handed over).

        Raises:
            FileChanged: The file was truncated below what was read, or replaced.
        """
        self._cancelled = False
        st = self._file.stat()
        size = st.st_size
        if size < self._pos:
            raise FileChanged(f"{self.path} was truncated while open")
        self.size, self.mtime_ns = size, st.st_mtime_ns
        self.complete = False
        self.tail = None
        if self._nl is None:
            if size == 0:
                self.complete = True
                yield ScanProgress(0, 0, 0, finished=True)
                return
            self._nl = self._read_break(size)
            self.cr_only = self._nl == b"\r"
        pos = self._pos
        last_yield = time.monotonic()
        first = True
        while pos < size:
            if self._stopped():
                return
            chunk = self._file.pread(min(CHUNK, size - pos), pos)
            if not chunk:  # truncated under us: what was read is all there is
                size = pos
                break
            consumed = self._lines_in(chunk, pos, add)
            if consumed == 0:  # no line break in a whole chunk: a long line
                end = self._find_newline(pos + len(chunk), size)
                if end is None and self._stopped():
                    return
                if end is None:  # the unfinished last line
                    break
                self._long_line(chunk, pos, end, add)
                consumed = end + 1 - pos
            pos += consumed
            self._pos = pos
            now = time.monotonic()
            if first or now - last_yield >= progress_every:
                first = False
                last_yield = now
                yield ScanProgress(pos, size, self.count)
        if pos < size:
            self._note_tail(pos, size)
        self.complete = True
        ends = ends_hash(self._file.pread, size)
        self._sample = None if ends is None else (size, ends)
        yield ScanProgress(size, size, self.count, finished=True)

    def _read_break(self, size: int) -> bytes:
        """How lines end (LF or CR alone), from the first line break in the file."""
        pos = 0
        while pos < size:
            chunk = self._file.pread(min(CHUNK, size - pos), pos)
            if not chunk:
                break
            lf, cr = chunk.find(b"\n"), chunk.find(b"\r")
            if lf >= 0 or cr >= 0:
                if cr + 1 == len(chunk) and lf < 0:  # a CR at the end: look one byte further
                    chunk += self._file.pread(1, pos + len(chunk))
                return line_break(chunk[min(x for x in (lf, cr) if x >= 0) :])
            pos += len(chunk)
        return b"\n"

    def _lines_in(self, buf: bytes, buf_at: int, add: Callable[[Line], None]) -> int:
        """Hand over every complete line in ``buf`` (at file offset ``buf_at``); return the
        bytes consumed (up to and including the last line break)."""
        find = buf.find
        nl_byte = self._nl or b"\n"
        strip_cr = nl_byte == b"\n"
        start = 0
        while True:
            nl = find(nl_byte, start)
            if nl < 0:
                break
            self._line += 1
            content = start
            if buf_at == 0 and start == 0 and buf.startswith(BOM):
                self.bom = True
                content = 3
            stop = nl - 1 if strip_cr and nl > content and buf[nl - 1] == 0x0D else nl
            start = nl + 1
            if content >= stop or (buf[content] != 0x7B and not buf[content:stop].strip(_WS)):
                continue  # a blank line: counted, not handed over
            add(Line(self.count, self._line, buf_at + content, buf[content:stop]))
            self.count += 1
        return start

    def _find_newline(self, pos: int, size: int) -> int | None:
        return find_newline(self._file.pread, self._nl or b"\n", pos, size, self._is_cancelled)

    def _is_cancelled(self) -> bool:
        return self._cancelled

    def _bounds(self, head: bytes, start: int, end: int) -> tuple[int, int] | None:
        """Where the content of the line from ``start`` to ``end`` (its break or the end of
        the file) lies, ``head`` its first bytes; None for a blank line."""
        content = start + 3 if start == 0 and head.startswith(BOM) else start
        if content > start:
            self.bom = True
        stop = end
        crlf = self._nl == b"\n" or end == self.size  # (a tail: a CR at its end is no text)
        if stop > content and crlf and self._file.pread(1, stop - 1) == b"\r":
            stop -= 1
        if not head[content - start :].strip(_WS) and only_space(
            self._file.pread, start + len(head), stop
        ):
            return None
        return content, stop

    def _long_line(self, head: bytes, start: int, end: int, add: Callable[[Line], None]) -> None:
        """Hand over a line longer than a chunk (read whole), ``head`` its first chunk."""
        self._line += 1
        bounds = self._bounds(head, start, end)
        if bounds is None:
            return
        content, stop = bounds
        add(Line(self.count, self._line, content, self.read_exact(stop - content, content)))
        self.count += 1

    def _note_tail(self, pos: int, size: int) -> None:
        """Note the last line, which has no line break (yet): read again by the next scan."""
        head = self._file.pread(min(size - pos, CHUNK), pos)
        bounds = self._bounds(head, pos, size)
        if bounds is not None:
            content, stop = bounds
            self.tail = Tail(self._line + 1, content, stop - content)
