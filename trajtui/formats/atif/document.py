"""One JSON document read with the line of each step, and what precedes a break kept.

An ATIF trajectory is one JSON object whose ``steps`` array holds the timeline. Problems
are reported as ``PATH:LINE: message``, so the reader needs the line each step starts on;
and a file cut short (still being written, copied half-way) must still show the steps
that are complete. :func:`read_document` does both in one pass with Python's own JSON
scanner (C): the top-level object member by member, the ``steps`` array item by item, each
item's first line noted, and on an error everything decoded before it kept with the line
the error is on.

Numbers follow :mod:`trajtui.core.io.jsonutil`: integers keep every digit (more than 4,300
digits are kept as their spelling), ``1e999`` is an
:class:`~trajtui.core.io.jsonutil.Overflowed` float, ``NaN``/``Infinity`` are accepted and
reported, invalid UTF-8 is replaced and reported. Nesting too deep for the scanner is an
error, never a crash.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from trajtui.core.io.jsonutil import BOM, Overflowed

STEPS = "steps"

_WS = re.compile(r"[ \t\n\r]*")


def _float(text: str) -> float:
    value = float(text)
    return Overflowed(text) if math.isinf(value) else value


def _int(text: str) -> int | float:
    return int(text) if len(text) <= 4300 else Overflowed(text)


@dataclass(slots=True)
class Document:
    """What :func:`read_document` read.

    Attributes:
        value: The top-level value; for an object, the members read (``steps`` holds the
            items read, without their lines).
        steps: ``(line, item)`` for each item of a top-level ``steps`` array, or None when
            the document has no such array.
        error: ``(line, message)`` where the document stops being JSON, or None.
        warnings: Things tolerated (invalid UTF-8, NaN or Infinity), one line each.
    """

    value: Any = None
    steps: list[tuple[int | None, Any]] | None = None
    error: tuple[int, str] | None = None
    warnings: list[str] = field(default_factory=list)


class _Broken(Exception):
    def __init__(self, at: int, message: str) -> None:
        super().__init__(message)
        self.at = at
        self.message = message


class _Scanner:
    """The text of the document and a position in it; lines counted as it moves on."""

    def __init__(self, text: str, warnings: list[str]) -> None:
        def constant(name: str) -> float:
            note = "non-standard JSON number (NaN or Infinity)"
            if note not in warnings:
                warnings.append(note)
            return float(name)

        decoder = json.JSONDecoder(parse_float=_float, parse_int=_int, parse_constant=constant)
        self.scan: Callable[[str, int], tuple[Any, int]] = decoder.scan_once  # type: ignore[attr-defined]
        self.text = text
        self.i = 0
        self._pos = 0
        self._line = 1

    def line(self, at: int) -> int:
        """The 1-based line of offset ``at`` (offsets asked for only grow, mostly)."""
        if at < self._pos:
            return self.text.count("\n", 0, at) + 1
        self._line += self.text.count("\n", self._pos, at)
        self._pos = at
        return self._line

    def peek(self) -> str:
        """The next character after blanks ("" at the end)."""
        self.i = _WS.match(self.text, self.i).end()  # type: ignore[union-attr]  # matches empty
        return self.text[self.i : self.i + 1]

    def expect(self, chars: str) -> str:
        ch = self.peek()
        if not ch:
            raise _Broken(self.i, "ends early (truncated?)")
        if ch not in chars:
            want = " or ".join(repr(c) for c in chars)
            raise _Broken(self.i, f"expecting {want}, found {ch!r}")
        self.i += 1
        return ch

    def value(self) -> Any:
        if not self.peek():
            raise _Broken(self.i, "ends early (truncated?)")
        start = self.i
        try:
            value, end = self.scan(self.text, start)
        except StopIteration as stop:
            at = stop.value if isinstance(stop.value, int) else start
            raise _Broken(at, self._why(at, "expecting a value")) from None
        except RecursionError:
            raise _Broken(start, "nested too deeply") from None
        except json.JSONDecodeError as err:
            raise _Broken(err.pos, self._why(err.pos, err.msg)) from None
        except ValueError as err:  # a number Python refuses to convert
            raise _Broken(start, str(err)) from None
        self.i = end
        return value

    def _why(self, at: int, message: str) -> str:
        if message.startswith("Unterminated") or not self.text[at:].strip():
            return "ends early (truncated?)"
        return message


def read_document(data: bytes) -> Document:
    """Decode ``data``, keeping the line of each ``steps`` item and what precedes a break.

    Never raises: an error is in :attr:`Document.error`, with what was read before it.
    """
    doc = Document()
    if data.startswith(BOM):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        text = data.decode("utf-8", errors="replace")
        doc.warnings.append(f"invalid UTF-8 at byte {err.start} (shown as \ufffd)")
    s = _Scanner(text, doc.warnings)
    try:
        if s.peek() != "{":
            doc.value = s.value()
        else:
            _read_object(s, doc)
        if s.peek():
            raise _Broken(s.i, "extra data after the document")
    except _Broken as err:
        at = min(err.at, len(text))
        if err.message.startswith("ends early"):
            at = len(text.rstrip())
        column = at - text.rfind("\n", 0, at)
        where = "" if err.message.startswith("ends early") else f" at column {column}"
        doc.error = (s.line(at), f"invalid JSON{where}: {err.message}")
    return doc


def _read_object(s: _Scanner, doc: Document) -> None:
    obj: dict[str, Any] = {}
    doc.value = obj
    s.i += 1
    if s.peek() == "}":
        s.i += 1
        return
    while True:
        if s.peek() != '"':
            if not s.peek():
                raise _Broken(s.i, "ends early (truncated?)")
            raise _Broken(s.i, "expecting a key in double quotes")
        key = s.value()
        s.expect(":")
        if key == STEPS and s.peek() == "[":
            doc.steps = []
            obj[key] = []
            _read_steps(s, doc.steps, obj[key])
        else:
            if key == STEPS:
                doc.steps = None
            obj[key] = s.value()
        if s.expect(",}") == "}":
            return


def _read_steps(s: _Scanner, lined: list[tuple[int | None, Any]], items: list[Any]) -> None:
    s.i += 1
    if s.peek() == "]":
        s.i += 1
        return
    while True:
        s.peek()
        line = s.line(s.i)
        item = s.value()
        lined.append((line, item))
        items.append(item)
        if s.expect(",]") == "]":
            return
