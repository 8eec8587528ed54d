"""The rows of the run list for one sort and filter (:class:`Layout`), planned from a
:class:`~trajtui.ui.store.RunStore` without changing what it shows (:func:`plan_layout`:
safe on a worker thread), and the runs the list may be narrowed to (:class:`Pinned`).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from trajtui.ui.rows import HEADER, OPEN_PROBLEM, Rows
from trajtui.ui.run_filter import Filter, TitlePrefix, selected
from trajtui.ui.run_sort import sorted_rows

if TYPE_CHECKING:
    from trajtui.ui.store import RunStore


@dataclass(frozen=True)
class Pinned:
    """An explicit set of runs the run list is narrowed to (the runs behind a figure of
    the stats screen), whatever the filter's text.

    Attributes:
        picks: ``(source, entry index)`` of each run.
        label: What the runs are (``pass@3``, ``tool Bash``), for the title.
    """

    picks: frozenset[tuple[int, int]]
    label: str


@dataclass(frozen=True)
class Layout:
    """The rows for one sort and filter (:meth:`RunStore.plan`), ready to show."""

    sort: str | None
    reverse: bool
    filter: Filter
    rows: Rows
    prefix: TitlePrefix
    mixed_ref_width: int
    headers: int
    shown: list[int]


def plan_layout(
    store: RunStore,
    sort: str | None,
    reverse: bool,
    filt: Filter,
    stopped: Callable[[], bool],
) -> Layout | None:
    """The rows of ``store`` for a sort and a filter (:meth:`RunStore.plan
    <trajtui.ui.store.RunStore.plan>`), or None when ``stopped()`` turned true."""
    prefix = TitlePrefix()
    grouped = store.grouped
    pinned = store.pinned
    ordered = sort is None and not filt.active and pinned is None
    mixed = len(store.ws.sources) > 1 and sort is not None
    rows = Rows((OPEN_PROBLEM, -1, k) for k in range(len(store.ws.problems)))
    if pinned is not None:
        rows = Rows()
    elif filt.active:
        rows = Rows(r for r in rows if filt.accepts(store.ws.problems[r[2]]))
    runs: list[tuple[int, array[int]]] = []  # (source, run entries), when mixed
    problems: list[tuple[int, array[int]]] = []
    shown = [0] * len(store.ws.sources)
    headers = 0
    for s, source in enumerate(store.ws.sources):
        n = len(source)
        shown[s] = n
        if ordered:
            if grouped:
                rows.append((HEADER, s, -1))
                headers += 1
            rows.extend_entries(s, range(n))
            titles = source.table.titles()
            seen = source.table.run_rows(min(store.counts[s].seen, n))
            prefix.add_all([titles[i] for i in seen])
            continue
        found = selected(
            source,
            n,
            filt,
            grouped,
            prefix,
            stopped,
            partial(store.hays, s, n),
            sorting=sort is not None,
            inputs=partial(store.inputs.rows, s),
            pinned=None if pinned is None else frozenset(i for src, i in pinned.picks if src == s),
        )
        if found is None:
            return None
        mine, others = found
        if mixed:
            runs.append((s, mine))
            problems.append((s, others))
            continue
        if grouped and (mine or others or not (filt.active or pinned is not None)):
            rows.append((HEADER, s, -1))
            headers += 1
        if mine:
            packed = sorted_rows(store.ws.sources, [(s, mine)], sort, reverse, stopped)
            if packed is None:
                return None
            rows.extend_packed(packed)
        rows.extend_entries(s, others)
    mixed_ref_width = 0
    if mixed:
        packed = sorted_rows(store.ws.sources, runs, sort, reverse, stopped)
        if packed is None:
            return None
        rows.extend_packed(packed)
        for s, others in problems:
            rows.extend_entries(s, others)
        mixed_ref_width = max(
            (
                len(store.ws.ref(store.ws.sources[s], ref))
                for s, mine in runs
                for ref in store.refs_of(s, mine)
            ),
            default=0,
        )
    return Layout(sort, reverse, filt, rows, prefix, mixed_ref_width, headers, shown)
