"""A byte-offset index of the records of a JSONL file, built by a cancellable scan.

The scan reads the file with ``pread`` in large chunks and notes where each non-blank
line starts and how long it is, and (from the first bytes of the line, without parsing the
record) its key, such as the ``id`` of an acp-harness record. Records become usable as soon
as the scan has passed them: nothing waits for the whole file.

The key is the one the JSON parser sees (:mod:`trajtui.core.jsonl.recordkey`): the common line,
``{"id":"..."`` with no later spelling of ``"id"``, is read inline by the scan's hot loop;
every other line is read by :class:`~trajtui.core.jsonl.recordkey.RecordKey`.

Memory per record is a few machine words: start offsets and lengths in arrays, keys in a
:class:`~trajtui.core.jsonl.keytable.KeyTable`, line numbers from the runs of blank lines (kept
as ranges: a count and at most :data:`~trajtui.core.jsonl.blanklines.MAX_BLANK_RANGES` of them,
in a :class:`~trajtui.core.jsonl.blanklines.BlankRuns`).

The scan is a generator that yields :class:`ScanProgress` every few megabytes and stops
when :meth:`LineIndex.cancel` is called, so the CLI can drive it in its own thread and the
TUI in a thread worker. It never touches Textual.

Why ``pread`` and not ``mmap``: a file truncated while it is mapped raises SIGBUS on the
next access to a vanished page, which kills the process. ``pread`` just returns fewer bytes.
The file is read through the shared pool of descriptors
(:mod:`trajtui.core.io.openfiles`), so any number of indexes can be open.

Appends are picked up by :meth:`LineIndex.refresh`: a scan continues from where the last
one stopped, and a last line that had no newline yet (a record still being written) is
scanned again. Lines ending with CR alone (classic Mac OS) are read as lines.
"""

from __future__ import annotations

import os
import time
from array import array
from collections.abc import Iterator
from typing import Any

from trajtui.core.io.jsonutil import BOM, line_break
from trajtui.core.io.openfiles import FileChanged, FileHandle
from trajtui.core.jsonl.blanklines import BlankLines, BlankRuns
from trajtui.core.jsonl.changes import ends_hash, how_changed
from trajtui.core.jsonl.keytable import KeyTable
from trajtui.core.jsonl.longlines import _WS, CHUNK, LongLines
from trajtui.core.jsonl.progress import ScanProgress
from trajtui.core.jsonl.recordkey import RecordKey

__all__ = ["CHUNK", "FileChanged", "LineIndex", "ScanProgress"]

_LEN_MAX = 0xFFFFFFFF


class LineIndex(LongLines):
    """Offsets of the records (non-blank lines) of one JSONL file.

    Attributes:
        path: The file.
        count: Records indexed so far; records ``0 .. count-1`` are ready to read.
        bad: Record index -> message, for records found to be broken while scanning.
        bom: The file starts with a UTF-8 byte-order mark.
        cr_only: Lines end with CR alone.
        size: Size of the file at the last scan.
        complete: The last scan reached the end of the file.
        unterminated: The last record had no newline at the end of the scan.
    """

    def __init__(self, path: str | os.PathLike[str], key: str | None = "id") -> None:
        """Open ``path`` (read-only) and get ready to scan it.

        Args:
            path: The JSONL file.
            key: The top-level field whose value names a record, or None.

        Raises:
            OSError: The file cannot be opened, or is not a regular file.
        """
        self.path = os.fspath(path)
        self._file = FileHandle(self.path)
        self._ident = self._file.ident
        self.size = self._file.size()
        self.mtime_ns = 0  # of the file when the last scan started
        self._record_key = RecordKey(key) if key else None
        self._key_prefixes = self._record_key.prefixes if self._record_key else ()
        self._markers = self._record_key.markers if self._record_key else ()
        self.checks_deferred = False
        """Keys of the common record (``{"id":"..."`` first) are taken from the line's head
        without looking for a later spelling of the key (see :meth:`defer_key_checks`)."""
        self.starts = array("Q")
        self._lens = array("I")
        self._huge: dict[int, int] = {}  # lengths of 4 GiB and more
        self._keys = KeyTable(self.checked_key)
        self._blank_runs = BlankRuns()
        self.bad: dict[int, str] = {}
        self.bom = False
        self.cr_only = False
        self._nl: bytes | None = None  # the line break, once seen
        self.count = 0
        self.complete = False
        self.unterminated = False
        self._pos = 0  # where the next scan starts (start of a line)
        self._line = 0  # lines before _pos
        self._cancelled = False  # a plain flag: an Event per file costs 1.5 kB x 100,000 files
        self._sample: tuple[int, int] | None = None  # (size scanned, hash of its ends)

    @property
    def ident(self) -> tuple[int, int]:
        """``(st_dev, st_ino)`` of the file that is indexed."""
        return self._ident

    @property
    def keys(self) -> KeyTable:
        """The key of each record (see :meth:`key`)."""
        return self._keys

    def key(self, i: int) -> str | None:
        """The key of record ``i`` (its ``id``), or None when it has none."""
        return self._keys.get(i)

    # -- reading -------------------------------------------------------------------------

    def close(self) -> None:
        """Close the file. Reads after this raise OSError."""
        self._file.close()

    def stat(self) -> os.stat_result:
        """The open file's ``fstat`` now (raises OSError)."""
        return self._file.stat()

    def pread(self, n: int, offset: int) -> bytes:
        """Up to ``n`` bytes of the file at ``offset`` (raises OSError)."""
        return self._file.pread(n, offset)

    def length(self, i: int) -> int:
        """Bytes of record ``i`` (without its line break)."""
        n = self._lens[i]
        return self._huge[i] if n == _LEN_MAX else n

    def read(self, i: int) -> bytes:
        """The bytes of record ``i`` (without the newline or a trailing CR).

        Raises:
            IndexError: ``i`` is not an indexed record.
            FileChanged: The file is now shorter than the record, or was replaced.
        """
        if not 0 <= i < self.count:
            raise IndexError(i)
        start, n = self.starts[i], self.length(i)
        data = self._file.pread(n, start)
        if len(data) < n:
            raise FileChanged(f"{self.path} is shorter than when it was indexed")
        return data

    def read_span(self, lo: int, hi: int, max_bytes: int = 1 << 20) -> list[bytes]:
        """The bytes of records ``lo``, ``lo+1``... up to ``hi`` (excluded), read in one
        go: as many as fit in ``max_bytes`` (at least one). For reading records in order.

        Raises:
            IndexError: ``lo`` is not an indexed record.
            FileChanged: The file is now shorter than the records, or was replaced.
        """
        if not 0 <= lo < self.count:
            raise IndexError(lo)
        hi = min(hi, self.count)
        begin = self.starts[lo]
        stop = lo + 1
        end = begin + self.length(lo)
        while stop < hi:
            next_end = self.starts[stop] + self.length(stop)
            if next_end - begin > max_bytes:
                break
            end = next_end
            stop += 1
        if stop == lo + 1:
            return [self.read(lo)]
        data = self._file.pread(end - begin, begin)
        if len(data) < end - begin:
            raise FileChanged(f"{self.path} is shorter than when it was indexed")
        starts = self.starts
        return [
            data[starts[i] - begin : starts[i] - begin + self.length(i)] for i in range(lo, stop)
        ]

    def line_of(self, i: int) -> int:
        """1-based line number of record ``i``."""
        return self._blank_runs.line_of(i)

    def blank_lines(self) -> BlankLines:
        """The blank lines found so far."""
        return self._blank_runs.lines()

    def nbytes(self) -> int:
        """Memory held by the index's arrays (for the benchmark)."""
        arrays = (self.starts, self._lens)
        held = sum(a.itemsize * len(a) for a in arrays)
        return held + self._blank_runs.nbytes() + self._keys.nbytes()

    # -- scanning ------------------------------------------------------------------------

    def cancel(self) -> None:
        """Ask a running scan to stop at its next chunk."""
        self._cancelled = True

    def _stopped(self) -> bool:
        """A scan was asked to stop (set from another thread)."""
        return self._cancelled

    def stat_changed(self) -> str | None:
        """How the file changed since it was indexed (see :mod:`trajtui.core.jsonl.changes`)."""
        return how_changed(
            self.path, self._ident, self.size, self.mtime_ns, self._sample, self._file.pread
        )

    def scan(self, *, progress_every: float = 0.05) -> Iterator[ScanProgress]:
        """Index the file from where the last scan stopped to its current end.

        Yields progress after the first chunk, then at most every ``progress_every``
        seconds, and once more (``finished``) at the end. Stops early when cancelled.
        One scan at a time: the caller owns the generator.

        Raises:
            FileChanged: The file was truncated below what is already indexed, or replaced.
        """
        self._cancelled = False
        st = self._file.stat()
        size = st.st_size
        if size < self._pos:
            raise FileChanged(f"{self.path} was truncated while open")
        self.size, self.mtime_ns = size, st.st_mtime_ns
        self.complete = False
        if self.unterminated:
            self._drop_last()
        yield from self._scan_to(size, progress_every)

    def _drop_last(self) -> None:
        """Forget the last record (it had no newline: it may have grown since)."""
        i = self.count - 1
        line = self.line_of(i)
        self.count = i
        self._pos = self.starts[i] - (3 if i == 0 and self.bom else 0)
        self._line = line - 1
        self.bad.pop(i, None)
        self._huge.pop(i, None)
        del self.starts[i], self._lens[i]
        self._keys.pop()
        self.unterminated = False

    def _read_break(self, size: int) -> bytes:
        """Find how lines end (LF or CR alone) from the first line break in the file."""
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

    def _scan_to(self, size: int, progress_every: float) -> Iterator[ScanProgress]:
        if self._nl is None:
            if size == 0:
                self.complete = True
                yield ScanProgress(0, 0, 0, finished=True)
                return
            self._nl = self._read_break(size)
            self.cr_only = self._nl == b"\r"
        pos = self._pos  # start of the first line not indexed yet
        last_yield = time.monotonic()
        first = True
        while pos < size:
            if self._stopped():
                return
            chunk = self._read_chunk(min(CHUNK, size - pos), pos)
            if not chunk:  # truncated under us: index what we have
                size = pos
                break
            consumed = self._lines_in(chunk, pos)
            if consumed == 0:
                # No newline in a whole chunk: a long line (or the unfinished last one).
                end = self._find_newline(pos + len(chunk), size)
                if end is None and self._stopped():
                    return  # stopped while looking for the end of a long line
                if end is None:  # no newline before the end: the unfinished last line
                    self._pos = pos
                    break
                self._add_long_line(chunk, pos, end)
                consumed = end + 1 - pos
            pos += consumed
            self._pos = pos
            now = time.monotonic()
            if first or now - last_yield >= progress_every:
                first = False
                last_yield = now
                yield ScanProgress(pos, size, self.count)
        if pos < size:
            # A last line without a newline: a truncated record or one still being
            # written. It is indexed, and scanned again by the next refresh.
            self._add_tail(pos, size)
        self.complete = True
        ends = ends_hash(self._file.pread, size)
        self._sample = None if ends is None else (size, ends)
        yield ScanProgress(size, size, self.count, finished=True)

    def _lines_in(self, buf: bytes, buf_at: int) -> int:
        """Index every complete line in ``buf`` (at file offset ``buf_at``); return the
        bytes consumed (up to and including the last line break).

        This is the hot loop of indexing: the common record (``{"id":"..."`` first, and
        no later key that could repeat it) is handled inline, everything else goes
        through :meth:`_record`.
        """
        find = buf.find
        startswith = buf.startswith
        starts, lens = self.starts.append, self._lens.append
        pending: list[str | None] = []  # keys of the records added here, handed over in bulk
        add_key = pending.append
        runs = self._blank_runs
        gap_at, gap_blanks = runs.gap_at, runs.gap_blanks
        prefixes = self._key_prefixes
        markers = () if self.checks_deferred else self._markers
        nl_byte = self._nl or b"\n"
        strip_cr = nl_byte == b"\n"
        start = 0
        line = self._line
        count = self.count
        blanks = runs.total
        gap = gap_blanks[-1] if gap_blanks else 0
        run_first, run_last = runs.first, runs.last
        while True:
            nl = find(nl_byte, start)
            if nl < 0:
                break
            line += 1
            content = start
            if buf_at == 0 and start == 0 and startswith(BOM):
                self.bom = True
                content = 3
            stop = nl - 1 if strip_cr and nl > content and buf[nl - 1] == 0x0D else nl
            if content >= stop or (buf[content] != 0x7B and not buf[content:stop].strip(_WS)):
                blanks += 1
                if line == run_last + 1:
                    run_last = line
                else:
                    runs.close(run_first, run_last)
                    run_first = run_last = line
                start = nl + 1
                continue
            if blanks != gap:
                gap_at.append(count)
                gap_blanks.append(blanks)
                gap = blanks
            key = None
            for prefix in prefixes:
                if startswith(prefix, content):
                    begin = content + len(prefix)
                    quote = find(b'"', begin, stop)
                    if quote > 0 and find(b"\\", begin, quote) < 0:
                        for marker in markers:
                            if find(marker, quote, stop) >= 0:
                                break
                        else:
                            try:
                                key = buf[begin:quote].decode("utf-8")
                            except UnicodeDecodeError:
                                key = None
                    break
            if key is None:
                self._keys.extend(pending)
                pending.clear()
                self.count = count
                runs.total = blanks
                self._record(buf, content, stop, buf_at + content, buf_at + stop, line)
                count = self.count
            else:
                starts(buf_at + content)
                lens(stop - content)
                add_key(key)
                count += 1
            start = nl + 1
        self._keys.extend(pending)
        self.count = count
        self._line = line
        runs.total = blanks
        runs.first, runs.last = run_first, run_last
        return start

    # -- pieces (:mod:`trajtui.core.jsonl.pieces`) ------------------------------------------

    @property
    def scanned_to(self) -> int:
        """Offset of the first line not indexed yet."""
        return self._pos

    @property
    def stopped(self) -> bool:
        """A scan was asked to stop."""
        return self._cancelled

    @property
    def lens(self) -> array[int]:
        """Each record's length (4 GiB and more: :data:`_LEN_MAX`, its length in ``huge``)."""
        return self._lens

    huge = property(lambda self: self._huge, doc="Record -> its length, 4 GiB and more.")

    def line_break(self, size: int) -> bytes:
        """How the file's lines end (found from its first line break, once)."""
        if self._nl is None:
            self.set_line_break(self._read_break(size))
        return self._nl or b"\n"

    def set_line_break(self, nl: bytes) -> None:
        """Lines end with ``nl`` (as another scan of the file found)."""
        self._nl = nl
        self.cr_only = nl == b"\r"

    def place(self, pos: int) -> None:
        """Scan from ``pos`` (a line start) on, as the first line (a piece's index)."""
        self._pos = pos

    def scan_to(self, stop: int) -> Iterator[ScanProgress]:
        """Index the lines before ``stop`` (a line start), from where the scan stands."""
        return self._scan_to(stop, 3600.0)

    def adopt(self, piece: Any) -> None:
        """Take the records another process indexed from where this index's scan stands
        (a :class:`~trajtui.core.jsonl.pieces.Piece` with no blank line in it: the
        records' line numbers follow on)."""
        if piece.start != self._pos or piece.blank:
            raise ValueError("a piece is adopted where the scan stands, with no blank line")
        n0 = self.count
        self.starts.extend(piece.starts)
        self._lens.extend(piece.lens)
        self._keys.extend(piece.keys)
        self.bad.update({n0 + j: m for j, m in piece.bad.items()})
        self._huge.update({n0 + j: n for j, n in piece.huge.items()})
        self.bom = self.bom or piece.bom
        self.count = n0 + len(piece.keys)
        self._line += len(piece.keys)
        self._pos = piece.stop

    def defer_key_checks(self, defer: bool = True) -> None:
        """Stop (or resume) checking, while scanning, that a record whose line starts with
        its key does not spell the key again later (``{"id":"a",...,"id":"b"}``: the
        parser takes the last). The check reads every byte of such lines, most of what
        indexing costs; a caller that decodes every record anyway (``ls`` decodes each
        row) checks each key that way instead, and corrects it with
        :meth:`replace_keys_from`. Records indexed meanwhile keep the key of their head."""
        self.checks_deferred = defer

    def replace_keys_from(self, i: int, keys: list[str | None]) -> None:
        """Give records ``i`` onwards the keys ``keys`` (one per record up to the end of
        the index): keys found wrong after a deferred check."""
        if len(keys) != self.count - i:
            raise ValueError("one key per record from i to the end")
        table = self._keys
        while len(table) > i:
            table.pop()
        table.extend(keys)

    def _record(
        self, buf: bytes, start: int, stop: int, file_start: int, file_stop: int, line: int
    ) -> None:
        """Add one record: ``buf[start:stop]`` holds (at least the head of) its bytes."""
        self._blank_runs.mark(self.count)
        i = self.count
        self.starts.append(file_start)
        n = file_stop - file_start
        if n >= _LEN_MAX:
            self._huge[i] = n
            n = _LEN_MAX
        self._lens.append(n)
        key, bad = self._key_of(buf, start, stop, file_start, file_stop)
        self._keys.append(key)
        if bad is not None:
            self.bad[i] = bad
        self.count = i + 1

    def _key_of(
        self, buf: bytes, start: int, stop: int, file_start: int, file_stop: int
    ) -> tuple[str | None, str | None]:
        """The record's key and a problem (:meth:`RecordKey.read`)."""
        if self._record_key is None:
            return None, None
        return self._record_key.read(
            buf, start, stop, file_start, file_stop, self._file.pread, CHUNK
        )

    def checked_key(self, i: int) -> str | None:
        """Record ``i``'s key read again from the file, checked whole (parser-true: also
        for keys too long to keep)."""
        try:
            data = self.read(i)
        except (OSError, IndexError):
            return None
        key, _ = self._key_of(data, 0, len(data), self.starts[i], self.starts[i] + len(data))
        return key
