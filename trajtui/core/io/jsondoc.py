"""One big JSON document read in one pass and bounded memory, its array items read again later.

A single-document format (an ATIF trajectory, an Inspect ``.json`` log, a ``.traj``) is one
JSON object whose few big arrays (``steps``, ``samples``, ``history``) hold nearly all of its
bytes. Decoding it whole takes many times the file in memory; :func:`scan_document` instead
reads it from its start in chunks of :data:`CHUNK` bytes and:

* decodes every top-level member whole, except the arrays it is told to stream;
* gives each item of a streamed array to a visitor, once, with its :class:`Span` (the byte
  offsets where it starts and ends, and the 1-based line it starts on), then forgets it: the
  format folds what it needs (its run's figures, a small row per step) as it passes;
* on an error keeps everything read before it, and says where: ``(line, message)`` as
  ``PATH:LINE: message`` wants it (a file cut short, still being written, gives its items up
  to the cut).

:func:`read_item` reads one item again by its span (``pread`` and orjson), when it is shown.

So what a listing holds is the top-level members and what the visitor keeps, whatever the
size of the file; the time is one linear pass.

How it reads: the bytes are decoded as Latin-1, so an index into the text is a byte offset
into the file (the JSON structure is ASCII: multi-byte UTF-8 characters sit only inside
strings and cannot be mistaken for it); a value holding bytes over 0x7F is decoded again
from its bytes as UTF-8. Values are decoded with Python's own JSON scanner (C), numbers as
:mod:`trajtui.core.io.jsonutil` reads them: integers keep every digit (more than 4,300
digits are kept as their spelling), ``1e999`` is an :class:`~trajtui.core.io.jsonutil.Overflowed`
float, ``NaN``/``Infinity`` are accepted and reported, invalid UTF-8 is replaced and
reported. Nesting too deep for the scanner is an error, never a crash.

It lives in ``core/io`` beside the other readers of untrusted bytes (it knows files, bytes
and JSON, and names no format and no part of trajtui's model).
"""

from __future__ import annotations

import json
import re
from array import array
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from trajtui.core.io.jsonutil import BOM, JsonError, _parse_float, _parse_int, loads_exact

__all__ = [
    "CHUNK",
    "ENDS_EARLY",
    "TOP",
    "BytesFile",
    "DocumentScan",
    "Pread",
    "Scanned",
    "Span",
    "Spans",
    "read_item",
    "scan_document",
]

CHUNK = 1 << 20
"""Bytes read at a time."""
TOP = ""
"""The key that names the document itself in ``arrays``, when it is an array (a bare list
of messages): its items are streamed as a member's are, and :attr:`Scanned.value` is an
empty list."""

_WS = re.compile(r"[ \t\n\r]*")
_TRAILING = " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f"
ENDS_EARLY = "ends early (truncated?)"
"""The end of the message of a document cut short (:attr:`Scanned.error`)."""


class Pread(Protocol):
    """What is read from: :class:`~trajtui.core.io.safeio.SafeFile`, or :class:`BytesFile`."""

    def pread(self, size: int, offset: int) -> bytes:
        """Up to ``size`` bytes at ``offset`` (fewer at the end, none past it)."""
        ...


class BytesFile:
    """Bytes already in memory, read as a file (a small document read whole)."""

    def __init__(self, data: bytes) -> None:
        self.data = data

    def pread(self, size: int, offset: int) -> bytes:
        return self.data[offset : offset + size]


@dataclass(frozen=True, slots=True)
class Span:
    """Where one item of a streamed array is in the file.

    Attributes:
        start: Byte offset of its first byte.
        end: Byte offset just after its last byte.
        line: The 1-based line it starts on.
    """

    start: int
    end: int
    line: int


class Spans:
    """Spans kept compactly (24 bytes each, in arrays): ``spans[i]`` is a :class:`Span`."""

    def __init__(self) -> None:
        self._start = array("q")
        self._end = array("q")
        self._line = array("q")

    def append(self, span: Span) -> None:
        self._start.append(span.start)
        self._end.append(span.end)
        self._line.append(span.line)

    def __len__(self) -> int:
        return len(self._start)

    def __getitem__(self, i: int) -> Span:
        return Span(self._start[i], self._end[i], self._line[i])

    def __iter__(self) -> Iterator[Span]:
        return (self[i] for i in range(len(self)))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Spans) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]


Visitor = Callable[[str, Span, Any], None]
"""Called with the array's key, the item's span and the item decoded, once per item."""


@dataclass(slots=True)
class Scanned:
    """What :func:`scan_document` read.

    Attributes:
        value: The top-level value; for an object, its members in file order, each streamed
            array as an empty list (its items went to the visitor).
        spans: Each streamed array's items' spans, by key (only arrays the document has;
            empty when they are not kept).
        counts: How many items each streamed array has (read so far), by key.
        error: ``(line, message)`` where the document stops being JSON, or None; everything
            before it was read.
        warnings: Things tolerated (invalid UTF-8, NaN or Infinity), one line each.
    """

    value: Any = None
    spans: dict[str, Spans] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    error: tuple[int, str] | None = None
    warnings: list[str] = field(default_factory=list)


class _Broken(Exception):
    def __init__(self, at: int, message: str) -> None:
        super().__init__(message)
        self.at = at
        self.message = message


class _Window:
    """A Latin-1 text window over the file (index + ``base`` == byte offset), refilled as
    values are consumed; lines counted as it moves on."""

    def __init__(self, f: Pread, start: int, warnings: list[str]) -> None:
        def constant(name: str) -> float:
            note = "non-standard JSON number (NaN or Infinity)"
            if note not in warnings:
                warnings.append(note)
            return float(name)

        decoder = json.JSONDecoder(
            parse_float=_parse_float, parse_int=_parse_int, parse_constant=constant
        )
        self.scan: Callable[[str, int], tuple[Any, int]] = decoder.scan_once  # type: ignore[attr-defined]
        self.f = f
        self.warnings = warnings
        self.origin = start  # where the document starts (after a BOM)
        self.base = start  # file offset of buf[0]
        self.buf = ""
        self.i = 0
        self.eof = False
        self.counted = 0  # buf index up to which newlines are counted
        self.lines = 1  # the line of buf[counted]
        self.line_start = start  # file offset of the start of the line of buf[counted]
        self.bad_utf8 = False

    def fill(self, at_least: int = CHUNK) -> bool:
        """Read more, dropping what precedes ``i``; False at the end of the file."""
        if self.eof:
            return False
        data = self.f.pread(max(CHUNK, at_least), self.base + len(self.buf))
        if not data:
            self.eof = True
            return False
        self.line(self.i)
        drop = min(self.i, self.counted)
        self.buf = self.buf[drop:] + data.decode("latin-1")
        self.base += drop
        self.i -= drop
        self.counted -= drop
        return True

    def line(self, at: int) -> int:
        """The 1-based line of window index ``at``."""
        if at < self.counted:
            return self.lines - self.buf.count("\n", at, self.counted)
        n = self.buf.count("\n", self.counted, at)
        if n:
            self.lines += n
            self.line_start = self.base + self.buf.rindex("\n", self.counted, at) + 1
        self.counted = at
        return self.lines

    def column(self, at: int) -> int:
        """The 1-based column (in characters) of window index ``at``."""
        line = self.line(at)
        nl = self.buf.rfind("\n", 0, at)
        start = nl + 1 if nl >= 0 else max(0, self.line_start - self.base)
        if line == 1:
            start = max(start, self.origin - self.base)
        text = self.buf[start:at].encode("latin-1").decode("utf-8", errors="replace")
        return len(text) + 1

    def peek(self) -> str:
        """The next character after blanks ("" at the end of the file)."""
        while True:
            self.i = _WS.match(self.buf, self.i).end()  # type: ignore[union-attr]  # matches empty
            if self.i < len(self.buf) or not self.fill():
                return self.buf[self.i : self.i + 1]

    def expect(self, chars: str) -> str:
        ch = self.peek()
        if not ch:
            raise _Broken(self.i, ENDS_EARLY)
        if ch not in chars:
            want = " or ".join(repr(c) for c in chars)
            raise _Broken(self.i, f"expecting {want}, found {ch!r}")
        self.i += 1
        return ch

    def decode(self, start: int, end: int, value: Any) -> Any:
        """``value`` scanned from ``buf[start:end]``, decoded again as UTF-8 when it holds
        bytes over 0x7F."""
        text = self.buf[start:end]
        if text.isascii():
            return value
        data = text.encode("latin-1")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as err:
            text = data.decode("utf-8", errors="replace")
            if not self.bad_utf8:
                self.bad_utf8 = True
                at = self.base + start + err.start - self.origin
                self.warnings.insert(0, f"invalid UTF-8 at byte {at} (shown as \ufffd)")
        return self.scan(text, 0)[0]

    def value(self) -> Any:
        """Decode the value that starts at the next non-blank character."""
        if not self.peek():
            raise _Broken(self.i, ENDS_EARLY)
        while True:
            start = self.i
            try:
                value, end = self.scan(self.buf, start)
            except StopIteration as stop:
                at = stop.value if isinstance(stop.value, int) else start
                failed = "expecting a value"
            except RecursionError:
                raise _Broken(start, "nested too deeply") from None
            except json.JSONDecodeError as err:
                at, failed = err.pos, err.msg
            except ValueError as err:  # a number Python refuses to convert
                raise _Broken(start, str(err)) from None
            else:
                if end < len(self.buf) or self.eof:
                    self.i = end
                    return self.decode(start, end, value)
                at, failed = end, ""  # a number or a word may go on past the window
            # the value may go on past the window: read more (twice as much each time)
            cut = failed.startswith("Unterminated") or not self.buf[at : at + 64].strip()
            if failed and not cut and at < len(self.buf) - 64:
                raise _Broken(at, failed)
            if not self.fill(len(self.buf) - start):
                if not failed:
                    self.i = end
                    return self.decode(start, end, value)
                raise _Broken(at, ENDS_EARLY if cut else failed)

    def end_line(self) -> int:
        """The line of the last non-blank character of the file (read to its end)."""
        while self.fill():
            self.i = len(self.buf)
        return self.line(len(self.buf.rstrip(_TRAILING)))


Started = Callable[[str, dict[str, Any]], None]
"""Called when a streamed array starts, with its key and the members read before it (a
log's header, before its samples pass)."""


def scan_document(
    f: Pread,
    *,
    arrays: frozenset[str] = frozenset(),
    visit: Visitor | None = None,
    started: Started | None = None,
    spans: bool = True,
) -> Scanned:
    """Read the JSON document in ``f`` once, streaming the top-level arrays named in
    ``arrays``: each of their items goes to ``visit`` with its :class:`Span`
    (:class:`DocumentScan`, read to its end).

    Never raises for what the file holds: an error is in :attr:`Scanned.error`, with what
    was read before it (items visited, members decoded). OSError from reading passes.
    """
    scan = DocumentScan(f, arrays=arrays, visit=visit, started=started, spans=spans)
    for _ in scan:
        pass
    return scan.scanned


class DocumentScan:
    """One pass over a JSON document, as :func:`scan_document` makes it, that can be
    watched as it goes: iterating it reads the document, giving after each item of a
    streamed array the byte offset read up to (and at the end); :attr:`scanned` is what is read so far (the
    members decoded, the spans, the counts), and all of it once the iteration ends.

    Args:
        arrays: Top-level keys whose array values are streamed item by item (:data:`TOP`:
            the document itself, when it is an array).
        visit: Called with each streamed item (:data:`Visitor`).
        started: Called when a streamed array starts (:data:`Started`).
        spans: Keep every item's span in :attr:`Scanned.spans` (a reader that keeps only
            a few items, or its own spans, leaves it off: 24 bytes an item).
    """

    def __init__(
        self,
        f: Pread,
        *,
        arrays: frozenset[str] = frozenset(),
        visit: Visitor | None = None,
        started: Started | None = None,
        spans: bool = True,
    ) -> None:
        self.f = f
        self.arrays = arrays
        self.visit = visit
        self.started = started
        self.keep_spans = spans
        self.scanned = Scanned()

    def __iter__(self) -> Iterator[int]:
        out = self.scanned
        f = self.f
        start = 3 if f.pread(3, 0) == BOM else 0
        w = _Window(f, start, out.warnings)
        try:
            if w.peek() == "[" and TOP in self.arrays:
                out.value = []
                out.spans[TOP] = Spans()
                out.counts[TOP] = 0
                yield from self._stream(w, TOP)
            elif w.peek() != "{":
                out.value = w.value()
            else:
                yield from self._read_object(w)
            if w.peek():
                raise _Broken(w.i, "extra data after the document")
        except _Broken as err:
            if err.message == ENDS_EARLY:
                out.error = (w.end_line(), f"invalid JSON: {ENDS_EARLY}")
            else:
                at = min(err.at, len(w.buf))
                out.error = (w.line(at), f"invalid JSON at column {w.column(at)}: {err.message}")
        yield w.base + w.i

    def _read_object(self, w: _Window) -> Iterator[int]:
        out = self.scanned
        obj: dict[str, Any] = {}
        out.value = obj
        w.i += 1
        if w.peek() == "}":
            w.i += 1
            return
        while True:
            if w.peek() != '"':
                if not w.peek():
                    raise _Broken(w.i, ENDS_EARLY)
                raise _Broken(w.i, "expecting a key in double quotes")
            key = w.value()
            w.expect(":")
            if key in self.arrays and w.peek() == "[":
                if self.started is not None:
                    self.started(key, obj)
                obj[key] = []
                out.spans[key] = Spans()
                out.counts[key] = 0
                yield from self._stream(w, key)
            else:
                out.spans.pop(key, None)  # a later member of the same name replaces the array
                out.counts.pop(key, None)
                obj[key] = w.value()
            if w.expect(",}") == "}":
                return

    def _stream(self, w: _Window, key: str) -> Iterator[int]:
        spans = self.scanned.spans[key] if self.keep_spans else None
        counts = self.scanned.counts
        visit = self.visit
        scan, ws = w.scan, _WS.match
        w.i += 1  # the "["
        if w.peek() == "]":
            w.i += 1
            return
        while True:
            # The fast path, for the millions of items of a big array: an item that ends
            # well inside the window, followed by "," or "]" (and blanks).
            buf, i, last = w.buf, w.i, len(w.buf) - 1
            if i < last and buf[i] in " \t\n\r":
                i = ws(buf, i).end()  # type: ignore[union-attr]  # matches empty
            try:
                item, end = scan(buf, i)
            except (StopIteration, ValueError, RecursionError):
                end = last  # the careful path says what is wrong
            sep = ""
            after = end
            if end < last:
                sep = buf[end]
                if sep in " \t\n\r":
                    after = ws(buf, end).end()  # type: ignore[union-attr]
                    sep = buf[after] if after <= last else ""
            if sep == "," or sep == "]":
                if not buf.isascii():  # (O(1): a str knows it is ASCII)
                    item = w.decode(i, end, item)
                span = Span(w.base + i, w.base + end, w.line(i))
                w.i = after + 1
            else:
                w.peek()
                line = w.line(w.i)
                first = w.base + w.i
                item = w.value()
                span = Span(first, w.base + w.i, line)
            if spans is not None:
                spans.append(span)
            counts[key] += 1
            if visit is not None:
                visit(key, span, item)
            yield span.end
            if not sep:  # (an item read whole before what follows it is looked at)
                sep = w.expect(",]")
            if sep == "]":
                return


def last_line(f: Pread, size: int) -> int:
    """The 1-based line the last of ``size`` bytes of ``f`` is on, blanks included (where
    a document that :data:`ENDS_EARLY` was cut; read a chunk at a time)."""
    lines, at = 1, 0
    while at < size:
        data = f.pread(min(CHUNK, size - at), at)
        if not data:
            break
        lines += data.count(b"\n")
        at += len(data)
    return lines


def read_item(f: Pread, span: Span) -> Any:
    """The item at ``span``, read again (``pread`` and orjson; Python's parser for what
    orjson cannot read, as :func:`~trajtui.core.io.jsonutil.loads_exact`).

    Raises:
        JsonError: It is no longer a JSON value (the file changed since it was scanned).
    """
    data = f.pread(span.end - span.start, span.start)
    if len(data) != span.end - span.start:
        raise JsonError("the file is shorter than when it was read (changed?)")
    return loads_exact(data)[0]
