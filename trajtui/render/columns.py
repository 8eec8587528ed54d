"""The run table's columns, defined once: what each is called in the run list and in
``ls``, how wide it is, which make way first on a narrow list, how runs sort by it, which
runs have a value for it and the text of its cell. The run list, its sort (``s`` cycles
through the sortable columns in this order, ``O`` offers the same ones), ``ls`` and the
run table's exports all read this table, so they name and order the columns alike.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from trajtui.core.io.text import visible
from trajtui.core.model import RunSummary
from trajtui.render import fmt

Value = Callable[[str], Any]
"""One field of one run, by :class:`~trajtui.core.model.RunSummary` field name (read from the
source's columns without building the summary)."""


class Row(Protocol):
    """What a column's ``has`` reads of a run (a summary, or a row as the counts read it)."""

    @property
    def steps(self) -> int | None: ...
    @property
    def tool_calls(self) -> int | None: ...
    @property
    def failed_tool_calls(self) -> int | None: ...
    @property
    def tool_errors(self) -> bool | None: ...
    @property
    def duration_ms(self) -> float | None: ...
    @property
    def score(self) -> float | None: ...
    @property
    def passes(self) -> int | None: ...
    @property
    def cost(self) -> float | None: ...


def _number(value: Any) -> tuple[int, Any]:
    """A sort key for a number the file gave (NaN first, so it never breaks the order)."""
    if value is None:
        return (0, 0)
    if isinstance(value, float) and value != value:
        return (1, 0)
    return (2, value)


def _steps_text(s: RunSummary) -> str:
    return fmt.number(s.steps) if s.steps is not None else fmt.ABSENT


@dataclass(frozen=True, slots=True)
class Column:
    """One column of the run table.

    Attributes:
        key: Its name (the sort's and the picker's, the run list's ``present`` set).
        header: Its name over the run list (``calls``).
        ls_header: Its name over ``ls``'s table (``CALLS``).
        width: Its cells in the run list (0: sized from the data: status, reference).
        ls_width: Its cells in ``ls``.
        drop: Its place in the order columns make way on a narrow list (None: never).
        sort: The sort key of a run (None: not sortable).
        has: Whether a run has a value for it (None: every run has; runs without one
            sort last, and a column no run has is neither shown nor offered).
        numeric: The one numeric summary field it shows, sorted straight from its column.
        cell: Its text for a run (None: drawn by the run list itself).
        meta: The metadata key whose value it shows (a column of words, left-aligned, as
            wide as its longest value up to ``width`` cells, cut by its start: see
            :func:`cut_start`), or None (a column of counts and figures).
    """

    key: str
    header: str
    ls_header: str
    width: int
    ls_width: int
    drop: int | None
    sort: Callable[[Value], Any] | None
    has: Callable[[Row], bool] | None = None
    has_value: Callable[[Value], bool] | None = None
    numeric: str | None = None
    cell: Callable[[RunSummary], str] | None = None
    meta: str | None = None


PROJECT = "project"
"""The metadata key of the project a run is of (a coding agent's session: Claude Code's
project folder, decoded)."""


def meta_value(metadata: Any, key: str) -> str:
    """The value of ``key`` in a run's metadata pairs, made visible on one line ("" when
    the run has none)."""
    for name, value in metadata or ():
        if name == key:
            return visible(str(value), keep_newlines=False)
    return ""


def cut_start(text: str, width: int) -> str:
    """``text`` in at most ``width`` characters, its start given way to ``…`` when it is
    longer (the end of a path tells most: ``…/src/app``)."""
    if len(text) <= width:
        return text
    return "…" + text[len(text) - width + 1 :] if width > 1 else text[:width]


def _meta_column(key: str, header: str, width: int, ls_width: int, drop: int) -> Column:
    return Column(
        key,
        header,
        header.upper(),
        width,
        ls_width,
        drop,
        lambda v: meta_value(v("metadata"), key),
        lambda e: bool(meta_value(getattr(e, "metadata", ()), key)),
        lambda v: bool(meta_value(v("metadata"), key)),
        None,
        lambda s: meta_value(s.metadata, key),
        key,
    )


COLUMNS: tuple[Column, ...] = (
    Column(
        "status",
        "status",
        "STATUS",
        0,
        0,
        None,
        lambda v: (v("outcome").value, v("status") or ""),
    ),
    Column("ref", "ref", "REF", 0, 0, None, lambda v: v("ref")),
    Column(
        "steps",
        "steps",
        "STEPS",
        5,
        6,
        3,
        lambda v: _number(v("steps")),
        lambda e: e.steps is not None,
        lambda v: v("steps") is not None,
        "steps",
        _steps_text,
    ),
    Column(
        "tool calls",
        "calls",
        "CALLS",
        5,
        5,
        1,
        lambda v: _number(v("tool_calls")),
        lambda e: e.tool_calls is not None,
        lambda v: v("tool_calls") is not None,
        "tool_calls",
        fmt.tool_calls_text,
    ),
    Column(
        "tool errors",
        "tool err",
        "TOOL ERR",
        8,
        8,
        2,
        lambda v: (v("failed_tool_calls") or 0, v("tool_errors") is True),
        # failures not told (—) are not 0: last, unless the file flags the run
        lambda e: e.failed_tool_calls is not None or e.tool_errors is not None,
        lambda v: v("failed_tool_calls") is not None or v("tool_errors") is not None,
        None,
        fmt.tool_errors_text,
    ),
    Column(
        "duration",
        "time",
        "DURATION",
        7,
        9,
        4,
        lambda v: _number(v("duration_ms")),
        lambda e: e.duration_ms is not None,
        lambda v: v("duration_ms") is not None,
        "duration_ms",
        lambda s: fmt.duration(s.duration_ms),
    ),
    Column(
        "score",
        "score",
        "SCORE",
        6,
        7,
        5,
        lambda v: _number(v("score")),
        lambda e: e.score is not None or e.passes is not None,
        lambda v: v("score") is not None or v("passes") is not None,
        "score",
        fmt.score_text,
    ),
    Column(
        "cost",
        "cost",
        "COST",
        8,
        8,
        0,
        lambda v: _number(v("cost")),
        lambda e: e.cost is not None,
        lambda v: v("cost") is not None,
        "cost",
        lambda s: fmt.cost(s.cost),
    ),
    _meta_column(PROJECT, "project", 24, 60, -1),
)
"""Every column but the title, left to right."""

BY_KEY = {c.key: c for c in COLUMNS}

ALWAYS: frozenset[str | None] = frozenset(
    {None, *(c.key for c in COLUMNS if c.sort is not None and c.has is None)}
)
"""Sort choices offered whatever the runs hold (file order, status, reference)."""

SORTS: tuple[str | None, ...] = (None, *(c.key for c in COLUMNS if c.sort is not None))
"""What the run list sorts by, in order (None: file order): ``s`` cycles through those the
runs have, ``O`` offers them with a digit each."""

NUMBERS: tuple[Column, ...] = tuple(c for c in COLUMNS if c.cell is not None and c.meta is None)
"""The columns of counts and figures, right-aligned, after the reference."""

WORDS: tuple[Column, ...] = tuple(c for c in COLUMNS if c.meta is not None)
"""The columns of metadata values (a session's project), left-aligned, after the figures."""

DROP_ORDER: tuple[str, ...] = tuple(
    c.key for c in sorted((c for c in COLUMNS if c.drop is not None), key=lambda c: c.drop or 0)
)
"""The columns that make way on a list too narrow for all of them, first to last (a
session's project first: most runs of a folder share it)."""


def present_in(row: Row) -> set[str]:
    """The columns ``row`` has a value for."""
    return {c.key for c in COLUMNS if c.has is not None and c.has(row)}
