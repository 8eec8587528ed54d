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
from trajtui.render.columns import COLUMNS, SORTS, Value
from trajtui.ui.rows import ENTRY, Rows

SORT_KEYS: dict[str, Callable[[Value], Any]] = {
    c.key: c.sort for c in COLUMNS if c.sort is not None
}
"""Columns the run list sorts by (``None`` = file order): the column table's."""

NUMERIC_SORTS = {c.key: c.numeric for c in COLUMNS if c.numeric is not None}
"""Sort columns that are one numeric field of a summary (sorted straight from the column)."""

SORT_HAS: dict[str, Callable[[Value], bool]] = {
    c.key: c.has_value for c in COLUMNS if c.has_value is not None
}
"""Whether a run has a value for a sort column (runs without one sort last)."""

SORT_CYCLE: list[str | None] = list(SORTS)
"""What ``s`` cycles through (those the runs have), in the order ``O`` offers them."""


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
