"""Tell a file's format by its content, never by its name alone.

:func:`sniff` reads the first records of a file (a bounded number of bytes, so a 1 GB file
is told as fast as a 1 kB one) and asks each record-based format whether it knows them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from trajtui.core.io import safeio
from trajtui.core.io.jsonutil import BOM, JsonError, head_object, line_break, loads
from trajtui.core.io.safeio import SafeFile, open_regular

_WS_NUL = b" \t\r\n\f\v\x00\xff"
"""Whitespace, and the NUL bytes a writer that crashed leaves where records were to be."""

HEAD_BYTES = 1 << 20
FIRST_BYTES = 64 << 10
"""Read first: binary data is told by them (:func:`looks_binary` looks at 8 KB)."""
MAX_LINE = 256 << 20
"""A record longer than this is not decoded for detection (the next ones tell)."""
MAX_SCAN = 4 * MAX_LINE
"""Detection reads at most this far into a file."""
MAX_PROBE_LINES = 200


@dataclass(frozen=True, slots=True)
class Sniffed:
    """What the first bytes of a file look like.

    Attributes:
        layout: ``jsonl`` (one JSON value per line), ``json`` (one document), ``text``,
            ``empty`` or ``binary``.
        first: The first decodable JSON value (JSONL: first record that decodes).
        keys: Keys of ``first`` when it is an object.
    """

    layout: str
    first: Any = None

    @property
    def keys(self) -> list[str]:
        """Keys of the first value, when it is an object."""
        return list(self.first) if isinstance(self.first, dict) else []


def iter_lines(path: str, max_lines: int = MAX_PROBE_LINES) -> Iterator[bytes]:
    """The first non-blank lines of ``path`` (BOM and CR stripped), reading only as far as
    needed (a single record may be longer than the first megabyte), and never more than
    :data:`MAX_LINE` bytes in all.

    Raises:
        OSError: The file cannot be read (:class:`~trajtui.core.io.safeio.Refused` when it is
            not a regular file).
    """
    with open_regular(path) as f:
        yield from _lines_of(f, max_lines)


def _lines_of(f: SafeFile, max_lines: int) -> Iterator[bytes]:
    """The first non-blank lines of an open file (at most :data:`MAX_SCAN` bytes read;
    lines over :data:`MAX_LINE` bytes are passed over: the next lines tell). Lines end with
    LF (CRLF too) or, in a file with CR-only line endings, CR."""
    seen = 0
    brk = line_break(f.pread(HEAD_BYTES, 0))
    for number, line in safeio.iter_lines(f, limit=MAX_LINE, max_bytes=MAX_SCAN, brk=brk):
        if line is None:
            continue  # a record too long to decode for detection
        if number == 1 and line.startswith(BOM):
            line = line[3:]
        if line.strip():
            yield line
            seen += 1
            if seen >= max_lines:
                return


def looks_binary(head: bytes) -> bool:
    """True for data that is not text: NUL bytes early on, or mostly undecodable bytes."""
    sample = head[:8192]
    if not sample:
        return False
    if sample.count(b"\x00") > max(4, len(sample) // 100):
        return True
    try:
        sample.decode("utf-8")
    except UnicodeDecodeError as err:
        if err.start < len(sample) - 4:  # not just a character cut at the end
            bad = sum(1 for b in sample if b >= 0x80)
            text_like = sum(1 for b in sample if 32 <= b < 127 or b in (9, 10, 13))
            return text_like < len(sample) * 0.7 or bad > len(sample) * 0.3
    return False


def sniff(path: str) -> Sniffed:
    """Look at the start of a file and say how it is laid out.

    Raises:
        OSError: The file cannot be read.
    """
    with open_regular(path) as f:
        head = f.pread(FIRST_BYTES, 0)
        first = head[3:] if head.startswith(BOM) else head
        stripped = first.lstrip(_WS_NUL)
        if stripped and stripped[:1] not in (b"{", b"[") and looks_binary(first):
            return Sniffed("binary")  # (as _sniff_body says: a remote zip's first MB unread)
        if len(head) == FIRST_BYTES:
            head += f.pread(HEAD_BYTES - FIRST_BYTES, FIRST_BYTES)
        body = head[3:] if head.startswith(BOM) else head
        if not body.strip() and f.size <= len(head):
            return Sniffed("empty")
        return _sniff_body(f, body)


def _sniff_body(f: SafeFile, body: bytes) -> Sniffed:
    # NUL (or 0xFF) bytes before the first record are a damaged stretch (a writer that
    # crashed), not a sign of binary data: what follows them decides
    stripped = body.lstrip(_WS_NUL)
    if not stripped:  # the first megabyte is blank (or NUL bytes): look on, line by line
        lines = (line.lstrip(_WS_NUL) for line in _lines_of(f, MAX_PROBE_LINES))
        stripped = next((line for line in lines if line), b"")
        if not stripped:
            return Sniffed("binary" if b"\x00" in body or b"\xff" in body else "empty")
    elif stripped[:1] not in (b"{", b"[") and looks_binary(body):
        return Sniffed("binary")
    if stripped[:1] not in (b"{", b"["):
        return Sniffed("text")
    # JSON Lines: a line that starts at column 0 with "{" and decodes to an object on its
    # own. (Pretty-printed documents never have one: their objects span lines, and nested
    # one-line objects are indented.) Broken first lines are skipped.
    for line in _lines_of(f, MAX_PROBE_LINES):
        line = line.lstrip(b"\x00\xff")  # a damaged stretch before a record (a crashed writer)
        if not line.startswith(b"{"):
            continue
        try:
            value, _ = loads(line)
        except JsonError:
            continue
        if isinstance(value, dict):
            return Sniffed("jsonl", value)
    if looks_binary(body) and not any(_lines_of(f, MAX_PROBE_LINES)):
        return Sniffed("binary")
    if body.startswith(b"{") and line_break(body) not in body:
        # A first record too long to decode whole: tell it by the keys of its head.
        partial = head_object(body)
        if partial:
            return Sniffed("jsonl", partial)
    return Sniffed("json")
