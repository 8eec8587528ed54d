"""Run summaries of a big file, stored by column.

A :class:`~trajtui.core.model.RunSummary` object costs about 300 bytes; a file of three
million tiny records would hold a gigabyte of them for the run list alone. A
:class:`SummaryTable` keeps the same values in compact arrays instead (a few bytes a row for
the columns a file leaves empty, about 30 for the ones it fills) and builds a summary only
when one is asked for (a drawn row, a shown run). Sorting and filtering read single values
(:meth:`SummaryTable.value`) without building summaries at all.

Every value comes back exactly as it was put: integers of any size, floats including NaN
and infinities, and ``None`` stay what they were (the uncommon ones are kept aside in a
small dict).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from itertools import compress
from typing import Any, NamedTuple

from trajtui.core.model import Outcome, Problem, RunSummary

NUMBERS = (
    "steps",
    "failed_tool_calls",
    "tool_calls",
    "duration_ms",
    "score",
    "attempts",
    "graded",
    "passes",
    "cost",
    "line",
    "tokens_in",
    "tokens_out",
)
"""Numeric fields of a summary, each kept in a :class:`_Numbers` column."""
WORDS = ("format", "status", "outcome", "tool_errors", "duration_label", "score_label", "passed")
"""Fields with few distinct values: their combination is kept as one code per row."""
EXTRAS = ("metadata", "tools")
"""Fields kept as one code per row into a second palette (runs of one file mostly share
their metadata and the set of tools they call)."""
NO_EXTRAS: tuple[Any, ...] = ((), ())

COUNTED = (
    "attempts",
    "graded",
    "passes",
    "failed_tool_calls",
    "steps",
    "tool_calls",
    "duration_ms",
    "score",
    "cost",
)
"""The numeric fields of a :class:`CountRow`."""


class CountRow(NamedTuple):
    """The fields of a run summary that the run list's counts read
    (:meth:`SummaryTable.count_row`): what the title's numbers are made of, without
    building a :class:`~trajtui.core.model.RunSummary` (4 of the 10 microseconds one costs,
    for each of 150,000 runs restored from the index cache)."""

    ref: str
    title: str
    status: str | None
    outcome: Outcome
    tool_errors: bool | None
    passed: bool | None
    attempts: int | None
    graded: int | None
    passes: int | None
    failed_tool_calls: int | None
    steps: int | None
    tool_calls: int | None
    duration_ms: float | None
    score: float | None
    cost: float | None


_NONE, _FLOAT, _INT, _ASIDE = 0, 1, 2, 3
_EXACT = 1 << 53
"""Integers below this are exact as floats."""

EMPTY, RUN, PROBLEM = 0, 1, 2
"""What a row holds: nothing read yet, a run summary, a problem."""


class _Numbers:
    """One numeric column: floats in an array, what each row holds in a byte (nothing, a
    float, an integer kept exact as a float), anything else (NaN, huge integers) aside.
    Nothing is allocated until a row has a value."""

    __slots__ = ("aside", "kinds", "values")

    def __init__(self) -> None:
        self.kinds: bytearray | None = None
        self.values: array[float] | None = None
        self.aside: dict[int, Any] = {}

    def grow(self, n: int) -> None:
        if self.kinds is not None and self.values is not None and n > len(self.kinds):
            more = n - len(self.kinds)
            self.kinds.extend(bytes(more))
            self.values.extend(array("d", bytes(8 * more)))

    def put(self, i: int, n: int, value: Any) -> None:
        if self.kinds is None or self.values is None:
            if value is None:
                return
            self.kinds = bytearray(n)
            self.values = array("d", bytes(8 * n))
        self.aside.pop(i, None)
        kind = type(value)
        if value is None:
            self.kinds[i] = _NONE
        elif kind is float and value == value:
            self.kinds[i], self.values[i] = _FLOAT, value
        elif kind is int and -_EXACT < value < _EXACT:
            self.kinds[i], self.values[i] = _INT, value
        else:
            self.kinds[i] = _ASIDE
            self.aside[i] = value

    def get(self, i: int) -> Any:
        if self.kinds is None or self.values is None:
            return None
        kind = self.kinds[i]
        if kind == _FLOAT:
            return self.values[i]
        if kind == _INT:
            return int(self.values[i])
        if kind == _ASIDE:
            return self.aside[i]
        return None


class SummaryTable:
    """The entries of a source by index: run summaries by column, problems aside, and
    rows not read yet. ``ref_of`` names row ``i`` the way the source does (a summary whose
    reference differs is kept aside)."""

    def __init__(self, ref_of: Callable[[int], str | None]) -> None:
        self._ref_of = ref_of
        self._kinds = bytearray()
        self._codes = array("I")
        self._palette: list[tuple[Any, ...]] = []
        self._palette_codes: dict[tuple[Any, ...], int] = {}
        self._extras = array("I")
        self._extra_palette: list[tuple[Any, ...]] = [NO_EXTRAS]
        self._extra_codes: dict[tuple[Any, ...], int] = {NO_EXTRAS: 0}
        self._numbers = {name: _Numbers() for name in NUMBERS}
        self._titles: list[str] = []
        self._refs: dict[int, str] = {}
        self._metrics: dict[int, tuple[tuple[str, float], ...]] = {}
        self._problems: dict[int, Problem] = {}
        self._version = 0

    def __len__(self) -> int:
        return len(self._kinds)

    def reserve(self, n: int) -> None:
        """Make rows up to ``n`` (not read yet): a source adding rows one at a time
        reserves those it has indexed at once."""
        self._grow(n)

    def _grow(self, n: int) -> None:
        if n <= len(self._kinds):
            return
        more = n - len(self._kinds)
        self._kinds.extend(bytes(more))
        self._codes.extend(array("I", bytes(4 * more)))
        self._extras.extend(array("I", bytes(4 * more)))
        self._titles.extend([""] * more)
        for column in self._numbers.values():
            column.grow(n)

    def filled(self) -> int:
        """Rows that hold a summary or a problem."""
        return len(self._kinds) - self._kinds.count(EMPTY)

    def prefix(self) -> int:
        """Rows ``0 .. n-1`` all hold a summary or a problem: ``n``."""
        k = self._kinds.find(EMPTY)
        return len(self._kinds) if k < 0 else k

    def kind(self, i: int) -> int:
        """:data:`EMPTY`, :data:`RUN` or :data:`PROBLEM`."""
        return self._kinds[i] if 0 <= i < len(self._kinds) else EMPTY

    def put(self, i: int, entry: RunSummary | Problem) -> None:
        """Keep ``entry`` as row ``i``."""
        self._grow(i + 1)
        self._version += 1
        self._problems.pop(i, None)
        if isinstance(entry, Problem):
            self._kinds[i] = PROBLEM
            self._problems[i] = entry
            return
        n = len(self._kinds)
        words = tuple(getattr(entry, name) for name in WORDS)
        code = self._palette_codes.get(words)
        if code is None:
            code = self._palette_codes[words] = len(self._palette)
            self._palette.append(words)
        self._codes[i] = code
        extras = (entry.metadata, entry.tools)
        extra = self._extra_codes.get(extras)
        if extra is None:
            extra = self._extra_codes[extras] = len(self._extra_palette)
            self._extra_palette.append(extras)
        self._extras[i] = extra
        for name, column in self._numbers.items():
            column.put(i, n, getattr(entry, name))
        self._titles[i] = entry.title
        if entry.ref != self._ref_of(i):
            self._refs[i] = entry.ref
        else:
            self._refs.pop(i, None)
        if entry.file_metrics:
            self._metrics[i] = entry.file_metrics
        else:
            self._metrics.pop(i, None)
        self._kinds[i] = RUN

    def forget(self, i: int) -> None:
        """Row ``i`` is not read any more."""
        if 0 <= i < len(self._kinds):
            self._version += 1
            self._kinds[i] = EMPTY
            self._problems.pop(i, None)
            self._refs.pop(i, None)
            self._metrics.pop(i, None)

    def get(self, i: int) -> RunSummary | Problem | None:
        """Row ``i`` (a summary built from its columns), or None when it is not read."""
        kind = self.kind(i)
        if kind == PROBLEM:
            return self._problems[i]
        if kind != RUN:
            return None
        values = dict(zip(WORDS, self._palette[self._codes[i]], strict=True))
        values.update(zip(EXTRAS, self._extra_palette[self._extras[i]], strict=True))
        values.update((name, column.get(i)) for name, column in self._numbers.items())
        return RunSummary(
            ref=self.ref(i),
            index=i,
            title=self._titles[i],
            file_metrics=self._metrics.get(i, ()),
            **values,
        )

    def count_row(self, i: int) -> CountRow | Problem | None:
        """Row ``i`` as the counts read it: a :class:`CountRow` for a run (its fields as
        :meth:`get` gives them), the problem, or None when it is not read."""
        kind = self.kind(i)
        if kind == PROBLEM:
            return self._problems[i]
        if kind != RUN:
            return None
        _format, status, outcome, tool_errors, _label, _score_label, passed = self._palette[
            self._codes[i]
        ]
        numbers = self._numbers  # (columns are replaced whole when restored from a cache)
        return CountRow(
            self.ref(i),
            self._titles[i],
            status,
            outcome,
            tool_errors,
            passed,
            *[numbers[name].get(i) for name in COUNTED],
        )

    def ref(self, i: int) -> str:
        """Reference of run row ``i``."""
        ref = self._refs.get(i)
        return ref if ref is not None else self._ref_of(i) or ""

    def value(self, i: int, name: str) -> Any:
        """One field of run row ``i`` (``ref``, ``title``, or any other field of a
        summary), without building the summary."""
        column = self._numbers.get(name)
        if column is not None:
            return column.get(i)
        if name == "ref":
            return self.ref(i)
        if name == "title":
            return self._titles[i]
        if name == "file_metrics":
            return self._metrics.get(i, ())
        if name in EXTRAS:
            return self._extra_palette[self._extras[i]][EXTRAS.index(name)]
        return self._palette[self._codes[i]][WORDS.index(name)]

    # -- whole columns, for sorting and filtering many rows at C speed ----------------------

    @property
    def version(self) -> int:
        """A number that changes whenever a row is put or forgotten."""
        return self._version

    def run_rows(self, n: int) -> list[int]:
        """Indices below ``n`` whose rows are runs."""
        kinds = self._kinds
        n = min(n, len(kinds))
        if kinds.count(RUN, 0, n) == n:
            return list(range(n))
        return list(compress(range(n), map((RUN).__eq__, kinds[:n])))

    def problem_rows(self, n: int) -> list[int]:
        """Indices below ``n`` whose rows are problems."""
        kinds, out, at = self._kinds, [], 0
        n = min(n, len(kinds))
        while (at := kinds.find(PROBLEM, at, n)) >= 0:
            out.append(at)
            at += 1
        return out

    def exact_numbers(self, name: str) -> tuple[bytes, array[float]] | None:
        """The kinds and values of numeric column ``name``, when every value it holds is an
        exact float (a kind of 1 or 2: the value is ``values[i]``; 0: no value); None when
        some value is kept aside (NaN, a huge integer) or the column is empty."""
        column = self._numbers[name]
        if column.aside or column.kinds is None or column.values is None:
            return None
        return bytes(column.kinds), column.values

    def has_numbers(self, name: str) -> bool:
        """Some row has (or had) a value in numeric column ``name``."""
        return self._numbers[name].kinds is not None

    def titles(self) -> list[str]:
        """Every row's title ("" for rows that are not runs)."""
        return self._titles

    def word_codes(self) -> tuple[array[int], list[tuple[Any, ...]]]:
        """Each row's code into the palette of its word fields (:data:`WORDS`, in order),
        and the palette."""
        return self._codes, self._palette

    def extra_codes(self) -> tuple[array[int], list[tuple[Any, ...]]]:
        """Each row's code into the palette of its :data:`EXTRAS` (metadata pairs, tool
        names), and the palette (code 0: none of either)."""
        return self._extras, self._extra_palette

    def outcome(self, i: int) -> Outcome:
        """Outcome of run row ``i``."""
        outcome: Outcome = self._palette[self._codes[i]][2]
        return outcome
