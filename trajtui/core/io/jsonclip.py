"""Bounded copies of values from the files: nesting cut at a depth (for recursive
renderers and encoders), and long strings, arrays and objects cut for folded views, each
cut said with a visible marker."""

from __future__ import annotations

from typing import Any

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


def clip_value(
    value: Any,
    *,
    max_items: int = 200,
    max_chars: int = 4000,
    depth: int = 40,
    budget: int | None = None,
) -> tuple[Any, bool]:
    """A bounded copy of ``value`` for a folded view: long strings cut, long arrays and
    objects cut (with a marker saying how much is left out). Returns ``(copy, clipped)``.

    With ``budget``, the copy holds about that many characters of strings and numbers in
    all; what comes after is left out (with a marker).

    Folded views of a 60 MB record stay cheap: nothing is encoded or laid out beyond what
    can be shown.
    """
    clipped = False
    left = budget if budget is not None else -1

    def spent(n: int) -> None:
        nonlocal left
        if left >= 0:
            left = max(0, left - n)

    def walk(v: Any, level: int) -> Any:
        nonlocal clipped
        if isinstance(v, str):
            cap = max_chars if left < 0 else min(max_chars, left)
            if len(v) > cap:
                clipped = True
                spent(cap)
                return v[:cap] + f"\u2026 ({len(v) - cap:,} more characters)"
            spent(len(v))
            return v
        if level >= depth and isinstance(v, (dict, list)):
            clipped = True
            return "\u2026 (nested deeper)"
        if isinstance(v, list):
            out = []
            for k, x in enumerate(v[:max_items]):
                if left == 0:
                    clipped = True
                    out.append(f"\u2026 ({len(v) - k:,} more items)")
                    return out
                out.append(walk(x, level + 1))
            if len(v) > max_items:
                clipped = True
                out.append(f"\u2026 ({len(v) - max_items:,} more items)")
            return out
        if isinstance(v, dict):
            out_d = {}
            for k, (key, x) in enumerate(v.items()):
                if k >= max_items or left == 0:
                    clipped = True
                    out_d["\u2026"] = f"({len(v) - k:,} more keys)"
                    break
                spent(len(key))
                out_d[key] = walk(x, level + 1)
            return out_d
        spent(8)
        return v

    return walk(value, 0), clipped
