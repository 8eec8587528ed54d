"""How the run list sorts: the key of each sort column, whether a run has a value for it,
and the sorting of many runs by one column (read a field at a time, straight from the
columns where it can: no summary is built)."""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from functools import partial
from itertools import compress
from typing import Any

from trajtui.core.source import Source
from trajtui.ui.rows import ENTRY, Rows
from trajtui.ui.run_filter import Value


def _number(value: Any) -> tuple[int, Any]:
    """A sort key for a number the file gave (NaN first, so it never breaks the order)."""
    if value is None:
        return (0, 0)
    if isinstance(value, float) and value != value:
        return (1, 0)
    return (2, value)


SORT_KEYS: dict[str, Callable[[Value], Any]] = {
    "status": lambda v: (v("outcome").value, v("status") or ""),
    "ref": lambda v: v("ref"),
    "steps": lambda v: _number(v("steps")),
    "tool calls": lambda v: _number(v("tool_calls")),
    "tool errors": lambda v: (v("failed_tool_calls") or 0, v("tool_errors") is True),
    "duration": lambda v: _number(v("duration_ms")),
    "score": lambda v: _number(v("score")),
    "cost": lambda v: _number(v("cost")),
}
"""Columns the run list sorts by (``None`` = file order)."""

NUMERIC_SORTS = {
    "steps": "steps",
    "tool calls": "tool_calls",
    "duration": "duration_ms",
    "score": "score",
    "cost": "cost",
}
"""Sort columns that are one numeric field of a summary (sorted straight from the column)."""

SORT_HAS: dict[str, Callable[[Value], bool]] = {
    "steps": lambda v: v("steps") is not None,
    "tool calls": lambda v: v("tool_calls") is not None,
    # failures not told (—) are not 0: last, unless the file flags the run
    "tool errors": lambda v: v("failed_tool_calls") is not None or v("tool_errors") is not None,
    "duration": lambda v: v("duration_ms") is not None,
    "score": lambda v: v("score") is not None or v("passes") is not None,
    "cost": lambda v: v("cost") is not None,
}
"""Whether a run has a value for a sort column (runs without one sort last)."""

SORT_CYCLE: list[str | None] = [
    None,
    "status",
    "ref",
    "steps",
    "tool errors",
    "duration",
    "score",
    "cost",
]


def sorted_rows(
    sources: Sequence[Source],
    runs: list[tuple[int, array[int]]],
    sort: str | None,
    reverse: bool,
    stopped: Callable[[], bool],
) -> array[int] | None:
    """Packed entry rows of ``runs`` (``(source, indices)``) by the sort column; runs
    without a value for it come last either way. Keys are read one field at a time
    (:meth:`Source.row_value`): no summary is built. None when ``stopped()``."""
    column = sort or "ref"
    fast = _sorted_by_column(sources, runs, column, reverse)
    if fast is not None:
        return fast
    key, has = SORT_KEYS[column], SORT_HAS.get(column)
    present: list[tuple[Any, int]] = []
    absent = array("q")
    for s, indices in runs:
        value = sources[s].row_value
        base = Rows.pack((ENTRY, s, 0))
        for k, i in enumerate(indices):
            if not k & 4095 and stopped():
                return None
            v = partial(value, i)
            if has is None or has(v):
                present.append((key(v), base + i))
            else:
                absent.append(base + i)
    if stopped():
        return None
    present.sort(key=lambda p: p[0], reverse=reverse)
    out = array("q", (code for _, code in present))
    del present
    out.extend(absent)
    return out


def _sorted_by_column(
    sources: Sequence[Source], runs: list[tuple[int, array[int]]], column: str, reverse: bool
) -> array[int] | None:
    """The rows of :func:`sorted_rows` read straight from the columns (a numeric column
    whose values are all exact floats, or the reference), at C speed; None when this
    column or these runs need the general way."""
    field = NUMERIC_SORTS.get(column)
    items: list[int] = []  # packed rows
    keys: list[Any] = []
    missing: list[int] = []  # rows without a value, in row order
    for s, indices in runs:
        table = sources[s].table
        base = Rows.pack((ENTRY, s, 0))
        if column == "ref":
            keys.extend(map(table.ref, indices))
            items.extend(map(base.__add__, indices))
            continue
        if field is None:
            return None
        numbers = table.exact_numbers(field)
        if numbers is None:
            if any(table.value(i, field) is not None for i in indices):
                return None  # values kept aside (NaN, huge integers)
            missing.extend(base + i for i in indices)
            continue
        if column == "score":  # trials rows without a score sort by their passes
            passes = table.exact_numbers("passes")
            if passes is not None and any(passes[0][i] and not numbers[0][i] for i in indices):
                return None
        kinds, values = numbers
        flags = bytes(map(kinds.__getitem__, indices))
        have = list(compress(indices, flags))
        if len(have) < len(indices):
            missing.extend(map(base.__add__, compress(indices, map((0).__eq__, flags))))
        keys.extend(map(values.__getitem__, have))
        items.extend(map(base.__add__, have))
    order = sorted(range(len(items)), key=keys.__getitem__, reverse=reverse)
    out = array("q", map(items.__getitem__, order))
    if column in SORT_HAS:
        out.extend(missing)  # without a value: last either way
        return out
    # no value sorts first (before every number), last when reversed
    return array("q", missing) + out if not reverse else out + array("q", missing)
