"""Read a big JSON document one value at a time, with bounded memory.

An eval results file is one JSON object whose ``results`` array may hold millions of
samples. Decoding it whole takes many times its size in memory (10 million samples: several
GB); :func:`load_object` reads it from an open :class:`~trajtui.core.io.safeio.SafeFile` in
chunks instead, decodes every top-level member on its own, and from the arrays it is told
to stream keeps only the first ``keep`` items (counting the others as it passes them). So the
memory used is a few times the largest single value plus what is kept, whatever the size of
the file, and the time is linear in it.

Values are decoded with Python's own JSON scanner (C), the parser :mod:`trajtui.core.io.jsonutil`
falls back to: integers keep every digit, ``NaN``/``Infinity`` are accepted and reported,
invalid UTF-8 is replaced and reported. A document that is not JSON raises
:class:`StreamError` with the line it breaks on.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from trajtui.core.io.safeio import SafeFile

CHUNK = 1 << 20
"""Bytes read at a time."""
MAX_VALUE = 64 << 20
"""The largest single value (a sample, a header member) read, in characters."""

_WS = re.compile(r"[ \t\n\r]*")


class StreamError(ValueError):
    """The document is not JSON (or holds a value over the size limit).

    Attributes:
        message: One line, without the path.
        line: The 1-based line it is about, when known.
    """

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


@dataclass(slots=True)
class Streamed:
    """What :func:`load_object` read.

    Attributes:
        value: The document; streamed arrays hold only their first ``keep`` items.
        counts: How many items each streamed array had in the file.
        warnings: Things tolerated (invalid UTF-8, NaN/Infinity), one line each.
    """

    value: Any
    counts: dict[str, int] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


class _Reader:
    """A text window over a file, refilled as values are consumed."""

    def __init__(self, f: SafeFile, on_constant: Callable[[str], float]) -> None:
        self.f = f
        self.pos = 0  # file offset of the next chunk
        self.eof = False
        self.buf = ""
        self.i = 0
        self.lines_before = 0  # newlines in the text dropped from the window
        self.decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self.bad_utf8 = False
        decoder = json.JSONDecoder(parse_constant=on_constant)
        self.scan: Callable[[str, int], tuple[Any, int]] = decoder.scan_once  # type: ignore[attr-defined]

    def fill(self, at_least: int = CHUNK) -> bool:
        """Read more, dropping what was consumed; False at the end of the file (then the
        window keeps its indices)."""
        if self.eof:
            return False
        data = self.f.pread(max(CHUNK, at_least), self.pos)
        if not data:
            self.eof = True
            self.buf += self.decoder.decode(b"", final=True)  # a cut last character
            return False
        self.pos += len(data)
        text = self.decoder.decode(data)
        if "\ufffd" in text and b"\xef\xbf\xbd" not in data:
            self.bad_utf8 = True
        self.lines_before += self.buf.count("\n", 0, self.i)
        self.buf = self.buf[self.i :] + text
        self.i = 0
        return True

    def line(self, at: int | None = None) -> int:
        """The 1-based line of index ``at`` (default: the current one) of the window."""
        return self.lines_before + self.buf.count("\n", 0, self.i if at is None else at) + 1

    def error(self, message: str, at: int) -> StreamError:
        """An error at index ``at`` of the window (``invalid JSON at column C: ...``)."""
        column = at - self.buf.rfind("\n", 0, at)
        return StreamError(f"invalid JSON at column {column}: {message}", self.line(at))

    def truncated(self) -> StreamError:
        """The data ended inside the document."""
        return StreamError(
            "invalid JSON: ends early (truncated?)", self.line(len(self.buf.rstrip("\n")))
        )

    def peek(self) -> str:
        """The next character after blanks ("" at the end of the file)."""
        while True:
            end = _WS.match(self.buf, self.i)
            self.i = end.end() if end else self.i
            if self.i < len(self.buf) or not self.fill():
                return self.buf[self.i : self.i + 1]

    def expect(self, chars: str) -> str:
        """Consume the next non-blank character, one of ``chars``."""
        ch = self.peek()
        if not ch:
            raise self.truncated()
        if ch not in chars:
            want = " or ".join(repr(c) for c in chars)
            raise self.error(f"expecting {want}, found {ch!r}", self.i)
        self.i += 1
        return ch

    def value(self) -> Any:
        """Decode the value that starts at the next non-blank character."""
        if not self.peek():
            raise self.truncated()
        while True:
            start = self.i
            failed = ""
            at = start
            try:
                value, end = self.scan(self.buf, start)
            except StopIteration as stop:
                value, end, failed = None, -1, "expecting a value"
                at = stop.value if isinstance(stop.value, int) else start
            except RecursionError:
                raise self.error("nested too deeply", start) from None
            except ValueError as err:  # JSONDecodeError, and ints of over 4,300 digits
                value, end = None, -1
                failed = str(getattr(err, "msg", None) or err)
                pos = getattr(err, "pos", None)
                at = pos if isinstance(pos, int) else start
            if end >= 0 and (end < len(self.buf) or self.eof):
                self.i = end
                return value
            # The value may go on past the window: a number or a word cut at its end, a
            # string not closed yet. Anything else is an error, wherever the file ends.
            cut = failed.startswith("Unterminated") or not self.buf[at : at + 64].strip()
            if failed and not cut and (self.eof or at < len(self.buf) - 64):
                raise self.error(failed, at)
            if len(self.buf) - start > MAX_VALUE:
                raise StreamError(
                    f"a value of more than {MAX_VALUE:,} characters (not read)", self.line(start)
                )
            if not self.fill(len(self.buf) - start):
                if end >= 0:
                    self.i = end
                    return value
                if failed and not cut:
                    raise self.error(failed, at)
                raise self.truncated()


def load_object(
    f: SafeFile,
    *,
    arrays: frozenset[str] = frozenset(),
    keep: int = 0,
    passed: Callable[[str, Any], None] | None = None,
    started: Callable[[str, dict[str, Any]], None] | None = None,
) -> Streamed:
    """Decode a JSON document from ``f``, streaming the top-level arrays named in ``arrays``.

    Args:
        f: The open file (read from its start).
        arrays: Top-level keys whose array values are read item by item.
        keep: How many items of each streamed array are kept.
        passed: Called with the array's key and each item that is not kept (to count
            what the items say without keeping them).
        started: Called when a streamed array starts, with its key and the members read
            before it (a log's header, before its samples pass).

    Returns:
        The document (a top-level object keeps its key order; a document that is not an
        object is decoded whole, as one value).

    Raises:
        StreamError: It is not one JSON document, or holds a value over :data:`MAX_VALUE`.
    """
    warnings: list[str] = []

    def constant(name: str) -> float:
        if "NaN or Infinity" not in " ".join(warnings):
            warnings.append("non-standard JSON number (NaN or Infinity)")
        return float(name)

    r = _Reader(f, constant)
    r.fill()
    if r.buf.startswith("\ufeff"):
        r.i = 1
    counts: dict[str, int] = {}
    if r.peek() != "{":
        value = r.value()
    else:
        r.i += 1
        obj: dict[str, Any] = {}
        if r.peek() == "}":
            r.i += 1
        else:
            while True:
                if r.peek() != '"':
                    if not r.peek():
                        raise r.truncated()
                    raise r.error("expecting a key in double quotes", r.i)
                key = r.value()
                r.expect(":")
                if key in arrays and r.peek() == "[":
                    if started is not None:
                        started(key, obj)
                    on_passed = None if passed is None else _bind(passed, key)
                    obj[key], counts[key] = _stream_array(r, keep, on_passed)
                else:
                    obj[key] = r.value()
                if r.expect(",}") == "}":
                    break
        value = obj
    if r.peek():
        raise r.error("extra data after the document", r.i)
    if r.bad_utf8:
        warnings.insert(0, "invalid UTF-8 (shown as \ufffd)")
    return Streamed(value, counts, warnings)


def _bind(passed: Callable[[str, Any], None], key: str) -> Callable[[Any], None]:
    return lambda item: passed(key, item)


def _stream_array(
    r: _Reader, keep: int, passed: Callable[[Any], None] | None = None
) -> tuple[list[Any], int]:
    r.i += 1  # the "["
    kept: list[Any] = []
    count = 0
    if r.peek() == "]":
        r.i += 1
        return kept, 0
    scan, ws = r.scan, _WS.match
    while True:
        # The fast path, for the millions of items of a big array: an item that ends well
        # inside the window, followed by "," or "]" (and blanks).
        buf, i, last = r.buf, r.i, len(r.buf) - 1
        if i < last and buf[i] in " \t\n\r":
            i = ws(buf, i).end()  # type: ignore[union-attr]
        try:
            item, end = scan(buf, i)
        except (StopIteration, ValueError, RecursionError):
            end = last  # let the careful path say what is wrong
        if end < last:
            sep = buf[end]
            if sep in " \t\n\r":
                end = ws(buf, end).end()  # type: ignore[union-attr]
                sep = buf[end] if end <= last else ""
            if sep in (",", "]"):
                count += 1
                if len(kept) < keep:
                    kept.append(item)
                elif passed is not None:
                    passed(item)
                r.i = end + 1
                if sep == "]":
                    return kept, count
                continue
        item = r.value()
        count += 1
        if len(kept) < keep:
            kept.append(item)
        elif passed is not None:
            passed(item)
        if r.expect(",]") == "]":
            return kept, count
