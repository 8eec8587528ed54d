"""Reading and writing JSON too big to take for granted: a record of hundreds of megabytes
is read and written only when the memory left (:mod:`trajtui.core.io.memory`) holds what that
takes; one that does not fit is one line saying so, never a crash.

orjson reserves address space far beyond what it touches (about 16 times the document, to
read or to write it) and ends the process with SIGSEGV when an allocation fails, which an
address-space limit (``ulimit -v``) makes happen long before memory is short. Python's own
parser and encoder take about the memory the text and its values need, and raise
``MemoryError``: they read and write what orjson's reservation does not fit.
"""

from __future__ import annotations

import json as _stdlib_json
import math
from typing import Any

from trajtui.core.io.jsonclip import MAX_DEPTH, clip_depth
from trajtui.core.io.jsonutil import JsonError, Overflowed
from trajtui.core.io.memory import room

__all__ = ["encoded_size", "read_lean", "write_big"]

ORJSON_ADDRESS = 16
"""Address space orjson reserves to read a document, per byte of it (it touches far less:
about twice the document, plus the values made)."""
PER_VALUE = 96
"""Bytes a decoded value takes (a Python object, and its slot in a list or a dict)."""


def read_lean(data: bytes | bytearray) -> bool:
    """Whether ``data`` (a big record) must be read by Python's parser, which takes about
    the memory the text and its values need, rather than by orjson, whose reservation
    does not fit the memory left (an allocation that fails inside it ends the process
    with SIGSEGV).

    Raises:
        JsonError: Neither fits: one line saying how much it takes and how much is left.
    """
    n = len(data)
    text = n if data.isascii() else 4 * n  # a str holds up to 4 bytes a character
    values = (data.count(b",") + data.count(b":") + 1) * PER_VALUE
    left = room()

    def fits(need: int, have: int | None) -> bool:
        return have is None or need <= have

    if fits(ORJSON_ADDRESS * n + text + values, left.address) and fits(
        2 * n + text + values, left.usable
    ):
        return False
    lean = 2 * text + values + (16 << 20)
    if fits(lean, left.address) and fits(lean, left.usable):
        return True
    have = min(h for h in (left.address, left.usable) if h is not None)
    raise JsonError(
        f"too big to read ({n:,} bytes): reading it takes about {lean >> 20:,} MB of memory, "
        f"{have >> 20:,} MB are left"
    )


def encoded_size(value: Any) -> int:
    """About how many bytes ``value`` takes as JSON (a walk of every value: for big ones)."""
    total = 0
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            total += len(item) * (1 if item.isascii() else 3) + 2
        elif isinstance(item, dict):
            total += 2 + sum(len(k) + 4 for k in item)
            todo.extend(item.values())
        elif isinstance(item, list | tuple):
            total += 2 + len(item)
            todo.extend(item)
        else:
            total += 24
    return total


_SPELLED = "\ue000\U000f0000"
"""Marks a placeholder of a number in Python's encoding (private-use characters)."""


def _for_stdlib(value: Any, spelled: list[str], limit: int = MAX_DEPTH) -> Any:
    """``value`` for Python's encoder to write as orjson would: too-deep nesting cut, NaN
    and infinities ``null``, numbers kept as the file spells them (:class:`Overflowed`)
    as placeholders listed in ``spelled``; integers of any size are written exactly."""
    if isinstance(value, Overflowed):
        spelled.append(value.text)
        return f"{_SPELLED}{len(spelled) - 1}{_SPELLED}"
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if limit <= 0:
        return clip_depth(value, 0)
    if isinstance(value, dict):
        return {k: _for_stdlib(v, spelled, limit - 1) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_for_stdlib(v, spelled, limit - 1) for v in value]
    return value


def write_big(value: Any, *, indent: bool) -> str | None:
    """``value`` (a big one) as JSON text, when orjson could not reserve the address space
    writing it takes (about 16 times the text: it ends the process with SIGSEGV when an
    allocation fails): Python's encoder takes about twice the text, and writes what orjson
    would. None: orjson may write it.

    Raises:
        JsonError: Too big for the memory left either way (one line saying so).
    """
    size = encoded_size(value) * (2 if indent else 1)
    left = room()
    if left.usable is not None and 3 * size > left.usable:
        raise JsonError(
            f"too big to write: writing it takes about {3 * size >> 20:,} MB of memory, "
            f"{left.usable >> 20:,} MB are left"
        )
    if left.address is not None and ORJSON_ADDRESS * size > left.address:
        spelled: list[str] = []
        try:
            text = _stdlib_json.dumps(
                _for_stdlib(value, spelled),
                ensure_ascii=False,
                indent=2 if indent else None,
                separators=(",", ": ") if indent else (",", ":"),
                default=str,
            )
            for k, number in enumerate(spelled):  # as orjson writes them
                text = text.replace(f'"{_SPELLED}{k}{_SPELLED}"', number, 1)
            return text
        except MemoryError:
            raise JsonError(
                f"too big to write: writing it takes about {2 * size >> 20:,} MB of "
                f"memory, {left.address >> 20:,} MB are left"
            ) from None
    return None
