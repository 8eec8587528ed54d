"""A big JSONL file read for the first time by pieces, every byte once: each worker process
indexes the lines of a piece of the file and makes the run-list rows of its records from
the same bytes, while they are in its memory.

The ordinary cold read indexes the whole file in the calling process (reading every byte)
and then has the workers read each record again to make its row: two reads and a copy of
every byte, and the caller's scan in the way of the workers on a machine with few cores.
Here the caller only adopts what each piece found, in file order
(:meth:`~trajtui.core.jsonl.index.LineIndex.adopt`), names the records, and hands their rows
to the reader of rows (:class:`~trajtui.core.rows.SourceRows`).

A piece is the lines that start in a range of bytes: the worker finds the first line start
at or after each end itself, so two neighbouring pieces meet at the same line. Each piece is
indexed by the same scan as the caller's (a :class:`~trajtui.core.jsonl.index.LineIndex`
placed at its first line), so keys, problems and long lines are what they would be. Anything
the caller could not simply follow on from (a blank line, whose line numbers would need
shifting; a file changed meanwhile; a worker lost) stops the pieces there: the caller's own
scan and row reading go on from that piece, as they always did.

Only a command line uses pieces (workers forked from it, a file of big records read whole,
nothing known of it yet); the TUI's first screen comes from the ordinary scan.
"""

from __future__ import annotations

from array import array
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from trajtui.core.jsonl import rowpool
from trajtui.core.jsonl.index import LineIndex, ScanProgress
from trajtui.core.jsonl.longlines import CHUNK
from trajtui.core.jsonl.rowjobs import ANY_KEY, Row, RowMaker, row_at, row_values

if TYPE_CHECKING:
    from trajtui.core.io.openfiles import FileHandle
    from trajtui.core.jsonl.source import JsonlSource

__all__ = ["PIECE_BYTES", "Piece", "PieceJob", "piece_of", "read_by_pieces"]

PIECE_BYTES = 16 << 20
"""Bytes of the file one piece covers."""


@dataclass(frozen=True, slots=True)
class PieceJob:
    """A piece for a worker to index and make rows of.

    Attributes:
        path: The file.
        ident: ``(st_dev, st_ino)`` of the file the caller opened.
        fmt: The record format (pickled by reference to its class).
        nl: How the file's lines end.
        lo: The piece is the lines starting at or after this offset...
        hi: ...and before the first line start at or after this one.
        deferred: Keys are taken from the line's head (the caller checks them as it reads
            each row: :meth:`~trajtui.core.jsonl.index.LineIndex.defer_key_checks`).
        facts: Make each record's step facts too.
    """

    path: str
    ident: tuple[int, int]
    fmt: Any
    nl: bytes
    lo: int
    hi: int
    deferred: bool
    facts: bool


@dataclass(slots=True)
class Piece:
    """What a worker found in a piece: the index's arrays for its records (numbered from 0,
    at their file offsets) and their rows.

    Attributes:
        start: Offset of the piece's first line.
        stop: Offset of the first line after it.
        starts: Each record's offset.
        lens: Each record's length (as the index keeps it).
        keys: Each record's key.
        bad: Record -> what is wrong with it.
        huge: Record -> its length, for records of 4 GiB and more.
        bom: The piece starts the file, with a byte-order mark.
        blank: The piece has a blank line (it is not adopted: the caller scans it).
        deferred: The keys were taken from the lines' heads.
        rows: Each record's row as its values (:func:`~.rowjobs.row_values`; None: read the
            record the ordinary way), with its key as its reference, its index and line
            number within the piece.
        facts: Each record's packed step facts, when asked for.
    """

    start: int
    stop: int
    starts: array[int]
    lens: array[int]
    keys: list[str | None]
    bad: dict[int, str]
    huge: dict[int, int]
    bom: bool
    blank: bool
    deferred: bool
    rows: list[tuple[Any, ...] | None]
    facts: list[Any] | None


class _PieceIndex(LineIndex):
    """A line index of one piece that makes each record's row as its scan meets it."""

    def __init__(self, job: PieceJob) -> None:
        super().__init__(job.path, key=job.fmt.key)
        self._make = RowMaker(job.fmt, job.facts)
        self._deferred = job.deferred
        self.made: dict[int, tuple[Row, Any]] = {}

    def _read_chunk(self, n: int, offset: int) -> bytes:
        return _chunk_buffer.read(self._file, n, offset)

    def _lines_in(self, buf: bytes, buf_at: int) -> int:
        first = self.count
        consumed = super()._lines_in(buf, buf_at)
        if self.count > first and not self._blank_runs.total:
            ascii = buf.isascii()
            view = memoryview(buf)
            for j in range(first, self.count):
                off = self.starts[j] - buf_at
                self.made[j] = self._row(j, view[off : off + self._lens[j]], ascii)
        return consumed

    def _row(self, j: int, raw: memoryview, ascii: bool) -> tuple[Row, Any]:
        key = self.key(j)
        return self._make(raw, ascii, key, j, j + 1, key if self._deferred else ANY_KEY)


class _ChunkBuffer:
    """The buffer a worker's scan reads its chunks into, again and again. A fresh chunk
    of a few megabytes is given back to the system when freed and faulted in again page by
    page when the next one is made: a third of a worker's system time."""

    def __init__(self) -> None:
        self._buf = bytearray()

    def read(self, file: FileHandle, n: int, offset: int) -> bytes:
        """``n`` bytes at ``offset`` (fewer at the end), valid until the next read."""
        if not self._buf:
            self._buf = bytearray(n)
        if n != len(self._buf):  # a piece's last chunk
            return file.pread(n, offset)
        got = file.pread_into(self._buf, offset)
        if got == n:
            return self._buf  # type: ignore[return-value]  # a bytearray reads like bytes
        return bytes(self._buf[:got])


_chunk_buffer = _ChunkBuffer()


def piece_of(job: PieceJob) -> Piece | None:
    """Index the piece ``job`` names and make its rows (in a worker process); None when the
    file is not the one the caller opened, or changed under the scan."""
    try:
        index = _PieceIndex(job)
    except OSError:
        return None
    try:
        if index.ident != job.ident:
            return None
        start, stop = _line_start(index, job.lo, job.nl), _line_start(index, job.hi, job.nl)
        if start is None or stop is None:
            return None
        index.set_line_break(job.nl)
        index.defer_key_checks(job.deferred)
        index.place(start)
        if start < stop:
            for _ in index.scan_to(stop):
                pass
        if index.scanned_to != stop:  # shorter now: truncated
            return None
        blank = index.blank_lines().total > 0
        rows: list[tuple[Any, ...] | None] = []
        facts: list[Any] | None = [] if job.facts else None
        for j in range(0 if blank else index.count):
            made = index.made.get(j)
            if made is None:  # a line longer than a chunk: read on its own
                made = index._row(j, memoryview(index.read(j)), False)
            rows.append(None if made[0] is None else row_values(made[0]))
            if facts is not None:
                facts.append(made[1] if made[0] is not None else None)
        return Piece(
            start=start,
            stop=stop,
            starts=index.starts,
            lens=index.lens,
            keys=[index.key(j) for j in range(index.count)],
            bad=index.bad,
            huge=index.huge,
            bom=index.bom,
            blank=blank,
            deferred=job.deferred,
            rows=rows,
            facts=facts,
        )
    except OSError:
        return None
    finally:
        index.close()


def _line_start(index: LineIndex, pos: int, nl: bytes) -> int | None:
    """The first line start at or after ``pos`` (None: no line break after it)."""
    if pos == 0:
        return 0
    at = pos - 1
    while True:
        chunk = index.pread(min(CHUNK, 1 << 16), at)
        if not chunk:
            return None
        k = chunk.find(nl)
        if k >= 0:
            return at + k + len(nl)
        at += len(chunk)


def read_by_pieces(source: JsonlSource) -> Iterator[ScanProgress]:
    """Index ``source`` (nothing indexed yet) by pieces in the worker processes, adopting
    each piece and keeping its rows for the reader of rows (:meth:`JsonlSource.ready_rows`),
    yielding progress; stop at the first piece that cannot be adopted (the caller's scan
    goes on from there) or when the scan is cancelled. Does nothing unless the file is
    worth it and workers forked from this process can read it."""
    index = source.index
    st = index.stat()
    if index.count or not rowpool.big_records(index.path, st.st_size):
        return
    workers = rowpool.forked((type(source.fmt).__module__,))
    if workers is None:
        return
    nl = index.line_break(st.st_size)
    end = _last_line_end(index, st.st_size, nl)
    if end is None:
        return
    jobs: deque[Any] = deque()
    lo = 0
    ahead = rowpool.IN_FLIGHT * rowpool.cores()
    try:
        while lo < end or jobs:
            while lo < end and len(jobs) < ahead:
                hi = end if end - lo < PIECE_BYTES * 3 // 2 else lo + PIECE_BYTES
                job = PieceJob(
                    index.path, index.ident, source.fmt, nl, lo, hi,
                    index.checks_deferred, source.facts.wanted,
                )  # fmt: skip
                future, workers = rowpool.submit(workers, job, piece_of)
                if future is None:
                    return
                jobs.append((future, workers))
                lo = hi
            future, owner = jobs.popleft()
            piece = _result(future, owner)
            if index.stopped or piece is None or not _adopt(source, piece):
                return
            yield ScanProgress(piece.stop, st.st_size, index.count)
    finally:
        for future, _ in jobs:
            future.cancel()


def _result(future: Any, owner: Any) -> Piece | None:
    """The piece a worker made, or None (the worker died, or failed)."""
    try:
        piece: Piece | None = future.result()
        return piece
    except Exception as err:
        if rowpool.is_lost(err):
            rowpool.lose(owner)
        return None


def _adopt(source: JsonlSource, piece: Piece) -> bool:
    """Take ``piece`` into ``source``'s index and keep its rows; False when it cannot be
    (the caller's scan goes on from where the index stands)."""
    index = source.index
    if (
        piece.blank
        or piece.start != index.scanned_to
        or (piece.deferred and not index.checks_deferred)  # keys corrected meanwhile
    ):
        return False
    first = index.count
    index.adopt(piece)
    source.name_new_records()
    rows: list[Row] = []
    line_of, ref_of = index.line_of, source.ref_of
    for i, values in enumerate(piece.rows, first):
        ref = None if values is None else ref_of(i)
        rows.append(None if values is None or ref is None else row_at(values, ref, i, line_of(i)))
    source.keep_ready(first, rows, piece.facts)
    return True


def _last_line_end(index: LineIndex, size: int, nl: bytes) -> int | None:
    """The offset just after the file's last line break (None: none in its last chunk)."""
    at = max(0, size - CHUNK)
    tail = index.pread(size - at, at)
    k = tail.rfind(nl)
    return None if k < 0 else at + k + len(nl)
