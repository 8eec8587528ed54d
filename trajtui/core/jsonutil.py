"""JSON decoding with orjson, tolerant fallbacks and one-line error messages.

``loads`` never raises anything but :class:`JsonError`, whatever the bytes are: invalid
UTF-8 is decoded with replacement characters (and reported), ``NaN``/``Infinity`` written by
Python's ``json`` module are accepted (and reported), and nesting too deep for a parser
becomes an error instead of a ``RecursionError``.
"""

from __future__ import annotations

import json as _stdlib_json
import re
from typing import Any

import orjson

BOM = b"\xef\xbb\xbf"


class JsonError(ValueError):
    """Bytes that are not a JSON document. ``str(err)`` is a one-line message."""


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


_BIG_INT = re.compile(rb"\d{19}")


def loads_exact(data: bytes) -> tuple[Any, str | None]:
    """Like :func:`loads`, but integers beyond 64 bits keep every digit (orjson reads
    them as floats). Used where a value is shown or printed whole."""
    if _BIG_INT.search(data) is None:
        return loads(data)
    try:
        text = data.decode("utf-8")
        return _stdlib_json.loads(text), None  # noqa: TID251 - exact big integers
    except (ValueError, RecursionError):
        return loads(data)


def loads(data: bytes | str) -> tuple[Any, str | None]:
    """Decode one JSON document.

    Args:
        data: The raw bytes (or text) of one document, without a trailing newline.

    Returns:
        ``(value, warning)``: ``warning`` is None, or a one-line note about something that
        was tolerated (invalid UTF-8 replaced, non-standard NaN/Infinity).

    Raises:
        JsonError: The data is not JSON; the message says why and where.
    """
    try:
        return orjson.loads(data), None
    except orjson.JSONDecodeError as err:
        first_error: Exception = err
    except RecursionError:
        raise JsonError("invalid JSON: nested too deeply") from None
    warning = None
    text: str | None = None
    if isinstance(data, bytes):
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
            value = _stdlib_json.loads(text)  # noqa: TID251 - the one tolerated fallback
        except (ValueError, RecursionError):
            pass
        else:
            return value, f"{warning}; {note}" if warning else note
    raise JsonError(_describe(first_error)) from None


MAX_DEPTH = 200
"""Deeper values are cut (with a visible marker) before they are rendered or re-encoded."""


def clip_depth(value: Any, limit: int = MAX_DEPTH) -> Any:
    """Copy of ``value`` with containers nested deeper than ``limit`` replaced by a marker.

    Parsers accept thousands of levels; recursive renderers and encoders do not. Anything
    that walks a value from a file calls this first (it is cheap for ordinary data).
    """
    if limit <= 0:
        if isinstance(value, (dict, list)):
            return f"\u2026 (nested deeper than {MAX_DEPTH} levels)"
        return value
    if isinstance(value, dict):
        return {k: clip_depth(v, limit - 1) for k, v in value.items()}
    if isinstance(value, list):
        return [clip_depth(v, limit - 1) for v in value]
    return value


def _default(obj: Any) -> Any:
    return str(obj)


def dumps_pretty(value: Any) -> str:
    """Indented JSON text for display (non-ASCII kept, keys in file order)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_INDENT_2, default=_default).decode()
    except (TypeError, orjson.JSONEncodeError, RecursionError):
        clipped = clip_depth(value)
        try:
            return orjson.dumps(clipped, option=orjson.OPT_INDENT_2, default=_default).decode()
        except (TypeError, orjson.JSONEncodeError, RecursionError):
            return _stdlib_json.dumps(clipped, indent=2, ensure_ascii=False, default=str)


# Characters that are valid in JSON strings but act on a terminal or hide text (C1
# controls, bidi overrides, zero-width characters, lone surrogates): JSON output spells
# them as \uXXXX escapes, which decode to the same string.
_ACTIVE = re.compile(
    "[\x80-\x9f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb\ud800-\udfff]"
)


def _escape_active(text: str) -> str:
    return _ACTIVE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def dumps_line(value: Any) -> str:
    """Compact one-line JSON (for ``--json`` output, JSON Lines), safe to print: nothing in
    it can act on a terminal."""
    try:
        text = orjson.dumps(value, default=_default).decode()
    except (TypeError, orjson.JSONEncodeError, RecursionError):
        clipped = clip_depth(value)
        try:
            text = orjson.dumps(clipped, default=_default).decode()
        except (TypeError, orjson.JSONEncodeError, RecursionError):
            text = _stdlib_json.dumps(clipped, ensure_ascii=False, default=str, allow_nan=True)
    return _escape_active(text)


def clip_value(
    value: Any, *, max_items: int = 200, max_chars: int = 4000, depth: int = 40
) -> tuple[Any, bool]:
    """A bounded copy of ``value`` for a folded view: long strings cut, long arrays and
    objects cut (with a marker saying how much is left out). Returns ``(copy, clipped)``.

    Folded views of a 60 MB record stay cheap: nothing is encoded or laid out beyond what
    can be shown.
    """
    clipped = False

    def walk(v: Any, level: int) -> Any:
        nonlocal clipped
        if isinstance(v, str):
            if len(v) > max_chars:
                clipped = True
                return v[:max_chars] + f"\u2026 ({len(v) - max_chars:,} more characters)"
            return v
        if level >= depth and isinstance(v, (dict, list)):
            clipped = True
            return "\u2026 (nested deeper)"
        if isinstance(v, list):
            out = [walk(x, level + 1) for x in v[:max_items]]
            if len(v) > max_items:
                clipped = True
                out.append(f"\u2026 ({len(v) - max_items:,} more items)")
            return out
        if isinstance(v, dict):
            items = list(v.items())
            out_d = {k: walk(x, level + 1) for k, x in items[:max_items]}
            if len(items) > max_items:
                clipped = True
                out_d["\u2026"] = f"({len(items) - max_items:,} more keys)"
            return out_d
        return v

    return walk(value, 0), clipped
