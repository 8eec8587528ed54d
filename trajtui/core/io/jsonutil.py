"""JSON decoding with orjson, tolerant fallbacks and one-line error messages.

``loads`` never raises anything but :class:`JsonError`, whatever the bytes are: invalid
UTF-8 is decoded with replacement characters (and reported), ``NaN``/``Infinity`` written by
Python's ``json`` module are accepted (and reported), and nesting too deep for a parser
becomes an error instead of a ``RecursionError``.

Numbers: every number valid JSON can spell is read. orjson refuses integers beyond 64 bits
that do not fit a float and floats beyond ±1.8e308 (``1e999``); those records are read by
Python's parser instead, where such integers stay exact and such floats become
:class:`Overflowed` (infinite for arithmetic, spelled as in the file when shown or encoded
again).
"""

from __future__ import annotations

import json as _stdlib_json
import math
import re
from itertools import islice
from typing import Any

import orjson

from trajtui.core.io.jsonclip import MAX_DEPTH, clip_depth, clip_value
from trajtui.core.io.sanitize import json_escape

__all__ = [  # clip_depth, clip_value and MAX_DEPTH are jsonclip's, named here too
    "BOM",
    "MAX_DEPTH",
    "JsonError",
    "Overflowed",
    "clip_depth",
    "clip_value",
    "dumps_line",
    "dumps_pretty",
    "error_line",
    "head_object",
    "id_text",
    "line_break",
    "loads",
    "loads_exact",
]

BOM = b"\xef\xbb\xbf"


class JsonError(ValueError):
    """Bytes that are not a JSON document. ``str(err)`` is a one-line message."""


class Overflowed(float):
    """A JSON number too large for a float (``1e999``, a 5,000-digit integer): infinite in
    arithmetic, but shown and written back as the file spells it (:attr:`text`)."""

    text: str

    def __new__(cls, text: str) -> Overflowed:
        """The number spelled ``text`` (a JSON number literal)."""
        obj = super().__new__(cls, "-inf" if text.startswith("-") else "inf")
        obj.text = text
        return obj

    def __repr__(self) -> str:
        return self.text

    __str__ = __repr__


def _parse_float(text: str) -> float:
    value = float(text)
    return Overflowed(text) if value in (_INF, -_INF) else value


def _parse_int(text: str) -> int | float:
    # Python refuses to read integers of more than 4,300 digits (a guard against slow
    # conversions); such a number is kept as it is spelled.
    return int(text) if len(text) <= 4300 else Overflowed(text)


_INF = float("inf")


def _stdlib(text: str) -> Any:
    """Python's parser, with the number rules above (raises ValueError, RecursionError)."""
    return _stdlib_json.loads(text, parse_float=_parse_float, parse_int=_parse_int)  # noqa: TID251 - numbers orjson cannot read


def id_text(value: Any) -> str | None:
    """How a record's id reads as a reference: a string as it is, a number as ``--json``
    output prints it (``1.5e3`` -> ``1500.0``, big integers with every digit); None for
    anything else (null, true, an object)."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, int):
        return str(value)
    return dumps_line(value)


def line_break(data: bytes) -> bytes:
    """The byte that ends lines in ``data``: ``\\n`` (also for CRLF), or ``\\r`` for a file
    whose lines end with CR alone (classic Mac OS)."""
    lf, cr = data.find(b"\n"), data.find(b"\r")
    if lf < 0 and cr >= 0 and cr + 1 < len(data):
        return b"\r"
    return b"\n"


_SPACE = re.compile(rb"[ \t\r\n]*")
_TOKEN = re.compile(rb'("(?:[^"\\]|\\.)*")|([{}\[\]:,])|(-?\d[\d.eE+-]*|true|false|null)')
"""One JSON token, after :data:`_SPACE` (kept apart: a pattern that starts with a run of
spaces is quadratic when searched over a long run of them)."""


def head_object(head: bytes) -> dict[str, Any] | None:
    """The top-level keys of a JSON object of which only ``head`` was read.

    Complete scalar values are decoded; objects and arrays become ``{}`` and ``[]`` (their
    shape, not their content); a value cut by the end of ``head`` is left out. Used to tell
    the format of a first record too long to read whole. None when ``head`` does not start
    an object.
    """
    start = 3 if head.startswith(BOM) else 0
    out: dict[str, Any] = {}
    depth = 0
    key: str | None = None
    pos = start
    expect_key = False
    while True:
        pos = _SPACE.match(head, pos).end()  # type: ignore[union-attr]  # matches empty
        m = _TOKEN.match(head, pos)
        if m is None:
            break
        pos = m.end()
        string, punct, scalar = m.groups()
        if punct is not None:
            if punct in b"{[":
                if depth == 1 and key is not None:
                    out[key] = {} if punct == b"{" else []
                    key = None
                depth += 1
                expect_key = depth == 1
            elif punct in b"}]":
                depth -= 1
                if depth <= 0:
                    break
            elif punct == b"," and depth == 1:
                expect_key = True
            continue
        if depth != 1:
            if depth == 0:
                return None
            continue
        if string is not None and expect_key:
            try:
                name = orjson.loads(string)
            except orjson.JSONDecodeError:
                return out or None
            key = name if isinstance(name, str) else None
            expect_key = False
            continue
        if key is not None:
            try:
                out[key] = orjson.loads(string if string is not None else scalar)
            except orjson.JSONDecodeError:
                out[key] = None
            key = None
    return out if depth >= 0 and (out or head[start:].lstrip().startswith(b"{")) else None


def _describe(err: Exception) -> str:
    msg = getattr(err, "msg", None) or str(err)
    msg = str(msg).split(": line ")[0].strip()
    col = getattr(err, "colno", None)
    pos = getattr(err, "pos", None)
    low = msg.lower()
    if "recursion" in low or "depth limit" in low:
        return "invalid JSON: nested too deeply (over 1,024 levels)"
    if "eof" in low or "end of data" in low:
        return "invalid JSON: ends early (truncated?)"
    where = f" at column {col}" if col else (f" at byte {pos}" if pos else "")
    return f"invalid JSON{where}: {msg[:120]}"


_BIG_FLOAT = float(2**63)


def _has_rounded_int(value: Any) -> bool:
    """True when ``value`` holds a float that may be an integer literal too big for 64 bits
    (orjson reads those as floats, losing digits)."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, float):
            if abs(v) >= _BIG_FLOAT and v.is_integer():
                return True
        elif isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return False


def loads_exact(data: bytes) -> tuple[Any, str | None]:
    """Like :func:`loads`, but integers beyond 64 bits keep every digit (orjson reads
    them as floats). Used where a value is shown or printed whole."""
    value, warning = loads(data)
    if not _has_rounded_int(value):
        return value, warning
    try:
        text = data.decode("utf-8")
        return _stdlib(text), warning
    except (ValueError, RecursionError):
        return value, warning


def loads(data: bytes | bytearray | str) -> tuple[Any, str | None]:
    """Decode one JSON document.

    Args:
        data: The raw bytes (or text) of one document, without a trailing newline.

    Returns:
        ``(value, warning)``: ``warning`` is None, or a one-line note about something that
        was tolerated (invalid UTF-8 replaced, non-standard NaN/Infinity).

    Raises:
        JsonError: The data is not JSON; the message says why and where.
    """
    if len(data) >= BIG_RECORD and isinstance(data, (bytes, bytearray)):
        from trajtui.core.io.jsonbig import read_lean

        if read_lean(data):
            return _huge(data)
    try:
        return orjson.loads(data), None
    except orjson.JSONDecodeError as err:
        first_error: Exception = err
    except RecursionError:
        raise JsonError("invalid JSON: nested too deeply") from None
    if "allocate" in str(first_error):
        return _huge(data)
    if data[:1] in _FILLS or data[-1:] in _FILLS:
        return _around_nuls(data)
    warning = None
    text: str | None = None
    if isinstance(data, (bytes, bytearray)):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as uerr:
            text = data.decode("utf-8", errors="replace")
            warning = f"invalid UTF-8 at byte {uerr.start} (shown as \ufffd)"
            try:
                return orjson.loads(text), warning
            except orjson.JSONDecodeError as err2:
                first_error = err2
            except RecursionError:
                raise JsonError("invalid JSON: nested too deeply") from None
    else:
        text = data
    msg = str(first_error)
    note = None
    if "number is infinity" in msg:
        # Valid JSON that orjson cannot hold (1e999, a 400-digit integer).
        try:
            return _stdlib(text), warning
        except (ValueError, RecursionError):
            pass
    if "surrogate" in msg:
        # JavaScript's JSON.stringify writes a lone "\ud800" when a string was cut in the
        # middle of an emoji; orjson refuses it, Python's json keeps it (and every view
        # shows it as a visible code point).
        note = "lone surrogate in a string (a character cut in half; shown as ⟨U+D8xx⟩)"
    elif any(tok in text for tok in ("NaN", "Infinity")) and "recursion" not in msg:
        # Python's json module writes NaN/Infinity, which orjson (rightly) rejects.
        note = "non-standard JSON number (NaN or Infinity)"
    if note is not None:
        try:
            value = _stdlib(text)
        except (ValueError, RecursionError):
            pass
        else:
            return value, f"{warning}; {note}" if warning else note
    raise JsonError(_describe(first_error)) from None


BIG_RECORD = 16 << 20
"""A record this big is read only when the memory left holds what reading it takes
(:mod:`trajtui.core.io.jsonbig`)."""


_FILLS = (b"\x00", b"\xff", "\x00")
"""What a stretch a writer took and never wrote is filled with: NUL bytes (a file grown
past its end), or 0xFF (erased flash, some preallocating writers); neither is ever text."""


def _around_nuls(data: bytes | bytearray | str) -> tuple[Any, str | None]:
    """A document with NUL (or 0xFF) bytes before or after it: the stretch a writer that
    crashed leaves (space it had taken and never wrote), skipped and said so."""
    fill = b"\x00\xff" if isinstance(data, (bytes, bytearray)) else "\x00"
    rest = data.strip(fill)  # type: ignore[arg-type]
    skipped = len(data) - len(rest)
    ffs = 0 if isinstance(data, str) else data.count(b"\xff") - rest.count(b"\xff")  # type: ignore[arg-type]
    what = "NUL byte" if not ffs else "0xFF byte" if ffs == skipped else "NUL or 0xFF byte"
    nuls = f"{skipped:,} {what}{'' if skipped == 1 else 's'}"
    if not rest.strip():
        raise JsonError(
            f"invalid JSON: {nuls}, not a record (a damaged stretch: a writer that crashed?)"
        )
    try:
        value, warning = loads(rest)
    except JsonError as err:
        raise JsonError(f"{err} (after skipping {nuls})") from None
    note = f"{nuls} around the record (a damaged stretch): skipped"
    return value, f"{note}; {warning}" if warning else note


def _huge(data: bytes | bytearray | str) -> tuple[Any, str | None]:
    """A document orjson cannot hold (over 2 GiB), read by Python's parser."""
    warning = None
    try:
        if isinstance(data, str):
            text = data
        else:
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError as uerr:
                text = data.decode("utf-8", errors="replace")
                warning = f"invalid UTF-8 at byte {uerr.start} (shown as \ufffd)"
        return _stdlib(text), warning
    except MemoryError:
        raise JsonError(f"too big to read ({len(data):,} bytes): not enough memory") from None
    except (ValueError, RecursionError) as err:
        raise JsonError(_describe(err)) from None


class _Literal:
    """A number to be written as it is spelled (see :func:`_encodable`)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def _default(obj: Any) -> Any:
    if isinstance(obj, Overflowed):
        return orjson.Fragment(obj.text.encode())
    if isinstance(obj, _Literal):
        return orjson.Fragment(obj.text.encode())
    return str(obj)


def _int_text(n: int) -> str:
    """Every digit of ``n``, even beyond Python's 4,300-digit limit for ``str(int)``."""
    try:
        return str(n)
    except ValueError:
        sign, n = ("-", -n) if n < 0 else ("", n)
        parts: list[int] = []
        while n:
            n, low = divmod(n, 10**4000)
            parts.append(low)
        head, *rest = reversed(parts)
        return sign + str(head) + "".join(f"{p:04000d}" for p in rest)


def _encodable(value: Any, limit: int = MAX_DEPTH) -> Any:
    """``value`` with deep nesting cut (see :func:`clip_depth`) and integers beyond 64 bits
    wrapped so orjson writes every digit."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return value if -(2**63) <= value < 2**64 else _Literal(_int_text(value))
    if limit <= 0:
        return clip_depth(value, 0)
    if isinstance(value, dict):
        return {k: _encodable(v, limit - 1) for k, v in value.items()}
    if isinstance(value, list):
        return [_encodable(v, limit - 1) for v in value]
    return value


def _bulky(value: Any, nodes: int = 2000) -> bool:
    """``value`` holds at least :data:`BIG_RECORD` bytes of text, judged from its first
    levels (a few thousand values at most: cheap for a row, and the 256 MB string or the
    10-million-item array of a big record is seen at once)."""
    if type(value) is str:
        return len(value) >= BIG_RECORD
    total = 0
    todo = [value]
    while todo and nodes > 0:
        item = todo.pop()
        nodes -= 1
        if isinstance(item, dict):
            items: Any = item.values()
        elif isinstance(item, list):
            items = item
        else:
            total += len(item) if isinstance(item, str) else 0
            continue
        total += 8 * len(item)
        # each value is one of the nodes looked at: a string or number here, at once; a
        # container when it is taken from the stack
        for v in islice(items, nodes):
            kind = type(v)
            if kind is str:
                total += len(v)
                nodes -= 1
            elif kind is int or kind is float or v is None or kind is bool:
                nodes -= 1
            else:
                todo.append(v)
        if total >= BIG_RECORD:
            return True
    return False


def _dumps(value: Any, option: int) -> str:
    """orjson's encoding, retried with big integers and deep nesting made encodable. A big
    value is written as the memory left allows (:func:`trajtui.core.io.jsonbig.write_big`)."""
    if _bulky(value):
        from trajtui.core.io.jsonbig import write_big

        text = write_big(value, indent=bool(option & orjson.OPT_INDENT_2))
        if text is not None:
            return text
    try:
        return orjson.dumps(value, option=option, default=_default).decode()
    except (TypeError, orjson.JSONEncodeError, RecursionError):
        return orjson.dumps(_encodable(value), option=option, default=_default).decode()


def dumps_pretty(value: Any) -> str:
    """Indented JSON text for display (non-ASCII kept, keys in file order)."""
    try:
        return _dumps(value, orjson.OPT_INDENT_2)
    except (TypeError, orjson.JSONEncodeError, RecursionError):
        clipped = clip_depth(value)
        return _stdlib_json.dumps(clipped, indent=2, ensure_ascii=False, default=str)


_INFINITY = {True: "1e999", False: "-1e999"}


def _infinite(value: Any) -> bool:
    return isinstance(value, float) and value in (math.inf, -math.inf)


def dumps_line(value: Any) -> str:
    """Compact one-line JSON (for ``--json`` output, JSON Lines), safe to print: nothing in
    it can act on a terminal."""
    try:
        text = _dumps(value, 0)
    except (TypeError, orjson.JSONEncodeError, RecursionError):
        clipped = clip_depth(value)
        text = _stdlib_json.dumps(clipped, ensure_ascii=False, default=str, allow_nan=True)
    return json_escape(text)


def error_line(data: bytes | bytearray) -> int | None:
    """The 1-based line where ``data``, which :func:`loads` refused, stops being JSON (its
    :class:`JsonError` keeps only the message): the last line of a document cut short."""
    try:
        orjson.loads(data)
    except orjson.JSONDecodeError as err:
        return err.lineno or None
    except (RecursionError, ValueError):
        return None
    return None
