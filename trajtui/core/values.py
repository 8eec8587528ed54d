"""Small helpers shared by the format readers: typed access to untrusted JSON values."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from trajtui.core.model import Field


def num(value: Any) -> float | None:
    """``value`` when it is a JSON number (not a bool), else None. ``1e999`` is a number
    the parser accepts: it stays infinite, shown as ``inf`` (arithmetic and formatting
    take it; see ``render.fmt``)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value


def integer(value: Any) -> int | None:
    """``value`` when it is a JSON integer (not a bool), else None."""
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value


def count(value: Any) -> int | None:
    """A count (tokens...) as the file gives it: a JSON integer, or a number with no
    fraction (``1200.0``); None for anything else (a bool, ``12.5``, infinity, text)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, float):
        return int(value) if value.is_integer() else None
    return value


def tool_names(names: Iterable[str | None]) -> tuple[str, ...]:
    """``Step.tools`` of a step that calls tools: the distinct names, in call order (unnamed
    calls left out)."""
    return tuple(dict.fromkeys(name for name in names if name))


def boolean(value: Any) -> bool | None:
    """``value`` when it is a JSON boolean, else None."""
    return value if isinstance(value, bool) else None


def string(value: Any) -> str | None:
    """``value`` when it is a string, else None."""
    return value if isinstance(value, str) else None


def mapping(value: Any) -> dict[str, Any]:
    """``value`` when it is an object, else an empty dict (for lookups only)."""
    return value if isinstance(value, dict) else {}


def sequence(value: Any) -> list[Any]:
    """``value`` when it is an array, else an empty list (for iteration only)."""
    return value if isinstance(value, list) else []


def text_of(value: Any) -> str:
    """A string for showing ``value`` in one place: strings as they are, the first string of
    a list of strings (multi-turn input), anything else as compact JSON-ish text."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        for item in value:
            if isinstance(item, str) and item.strip():
                return item
        return ""
    if value is None:
        return ""
    return str(value)


def text_parts(value: Any) -> str:
    """A chat message's content as text: a string as it is, or the ``text`` of each part of
    a list of parts (``[{"type": "text", "text": ...}]``, the OpenAI shape), one per line."""
    if isinstance(value, str):
        return value
    parts = [string(mapping(p).get("text")) or "" for p in sequence(value)]
    return "\n".join(p for p in parts if p)


def fields(
    obj: dict[str, Any],
    order: Iterable[str],
    *,
    skip: Iterable[str] = (),
    markdown: Iterable[str] = (),
) -> tuple[Field, ...]:
    """Every key of ``obj`` as a :class:`Field`: the keys in ``order`` first, then the rest in
    file order, except those in ``skip``. Nothing the file holds is left out silently."""
    md = set(markdown)
    skipped = set(skip)
    out: list[Field] = []
    seen: set[str] = set()
    for key in order:
        if key in obj and key not in skipped:
            out.append(Field(key, obj[key], key in md))
            seen.add(key)
    for key, value in obj.items():
        if key not in seen and key not in skipped:
            out.append(Field(key_label(key), value, key in md))
    return tuple(out)


def key_label(key: Any) -> str:
    """A mapping key as a label: YAML keys may be null, numbers or booleans (``? x``,
    ``1: a``), shown as YAML/JSON spell them."""
    if isinstance(key, str):
        return key
    if key is None or isinstance(key, bool):
        return "null" if key is None else str(key).lower()
    return str(key)


def flat_metadata(value: Any, *, limit: int = 64) -> tuple[tuple[str, str], ...]:
    """A metadata object as flat ``(key, text)`` pairs for grouping runs: nested objects as
    dotted keys (two levels), scalars as text, lists and deeper values left out; at most
    ``limit`` pairs. ``()`` when ``value`` is not an object."""
    out: list[tuple[str, str]] = []

    def walk(obj: dict[str, Any], prefix: str, depth: int) -> None:
        for key, v in obj.items():
            if len(out) >= limit:
                return
            name = f"{prefix}{key}"
            if isinstance(v, dict):
                if depth < 2:
                    walk(v, name + ".", depth + 1)
            elif isinstance(v, bool):
                out.append((name, "true" if v else "false"))
            elif isinstance(v, (str, int, float)):
                out.append((name, str(v) if not isinstance(v, int) or abs(v) < 10**30 else "…"))

    if isinstance(value, dict):
        walk(value, "", 1)
    return tuple(out)
