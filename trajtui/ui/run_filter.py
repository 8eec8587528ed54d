"""The run list's filter (``f``), the title prefix its rows elide, and the rows of a source
a filter selects."""

from __future__ import annotations

import heapq
import os
from array import array
from collections.abc import Callable, Collection, Container
from dataclasses import dataclass, field
from typing import Any

from trajtui.core.model import Problem
from trajtui.core.query import Columns, Query, facts_of_problem, facts_of_summary, parse
from trajtui.core.query.nodes import Text
from trajtui.core.source import Entry, Source
from trajtui.render import fmt

Value = Callable[[str], Any]
"""One field of one run, by :class:`RunSummary` field name (``Source.row_value``)."""


FILTER_SYNTAX = "words status:fail score<0.5 tool:Bash -word OR · ? lists fields"
"""What the filter understands, in a line (its placeholder)."""


@dataclass(frozen=True)
class Filter:
    """A run-list filter: a query (see :mod:`trajtui.core.query`).

    Attributes:
        query: The parsed query; an empty one keeps every row.
    """

    query: Query = field(default_factory=Query)

    @classmethod
    def parse(cls, text: str, keys: Collection[str] | None = None) -> Filter:
        """Read the filter box's text (``keys``: the metadata keys of the runs shown).

        Raises:
            QueryError: The text is not a query (with the span of the problem).
        """
        return cls(parse(text, keys))

    @property
    def text(self) -> str:
        """The query as typed (without surrounding blanks)."""
        return self.query.text.strip()

    @property
    def active(self) -> bool:
        """The filter removes something."""
        return not self.query.empty

    def accepts(self, entry: Entry, label: str = "") -> bool:
        """True when ``entry`` (a run summary or a problem) passes the filter; ``label``:
        its source's, looked in by words."""
        if isinstance(entry, Problem):
            return self.query.matches(facts_of_problem(entry, label))
        return self.query.matches(facts_of_summary(entry, label))


class TitlePrefix:
    """The words every title shown starts with (``Use ydc-server and answer``), which the
    run list elides so that each row shows what tells it apart; titles of one word (task
    names) lose their shared start up to a separator (``terminal-bench-html-js-``)."""

    MIN_LENGTH = 10

    def __init__(self) -> None:
        self._common: str | None = None
        self._titles = 0
        self._differ = False

    def add(self, title: str) -> None:
        """Count one more shown title."""
        if not title:
            return
        self._titles += 1
        common = self._common
        if common is None:
            self._common = title
        elif title != common:
            self._differ = True
        if common is not None and not title.startswith(common):
            n = 0
            for a, b in zip(common, title, strict=False):
                if a != b:
                    break
                n += 1
            self._common = common[:n]

    def add_all(self, titles: list[str]) -> None:
        """Count many shown titles at once (as :meth:`add` of each, at C speed: the prefix
        every title shares is the one the smallest and the largest share)."""
        titles = [t for t in titles if t]
        if not titles:
            return
        low, high = min(titles), max(titles)
        if self._common is not None:
            low, high = min(low, self._common), max(high, self._common)
        self._differ = self._differ or low != high
        self._titles += len(titles)
        self._common = os.path.commonprefix([low, high])  # noqa: RUF071 (characters, not paths)

    @property
    def value(self) -> str:
        """The common words (ending with a space), or "" when there is nothing worth eliding."""
        common = self._common
        if self._titles < 2 or not common or len(common) < self.MIN_LENGTH:
            return ""
        if not self._differ:  # every title is the same: eliding tells nothing apart
            return ""
        cut = common.rfind(" ") + 1  # whole words only: a title never loses half a word
        if cut == 0:  # one word (task names: ``terminal-bench-html-js-f``): to a separator
            return fmt.shared_start(common) if len(common) >= self.MIN_LENGTH else ""
        return common[:cut] if cut >= self.MIN_LENGTH else ""


def selected(
    source: Source,
    n: int,
    filt: Filter,
    grouped: bool,
    prefix: TitlePrefix,
    stopped: Callable[[], bool],
    hays: Callable[[], list[str]],
    *,
    sorting: bool,
    pinned: frozenset[int] | None = None,
    inputs: Callable[[Text, str], Container[int] | None] | None = None,
) -> tuple[array[int], array[int]] | None:
    """Entries of ``source`` read so far that pass the filter: the runs to sort, and the
    rest (problems; and every entry when not ``sorting``), by index. None when
    ``stopped()`` turned true. Runs are judged a column at a time where the query allows
    (:meth:`Query.select`: statuses by their palette code, numbers from their columns,
    words in ``hays()``: each row's ``ref title label``, casefolded, or in the whole input
    of the rows ``inputs`` gives for a word once it was searched)."""
    table = source.table
    label = source.label if grouped else ""
    runs = table.run_rows(n)
    if pinned is not None:
        runs = [i for i in runs if i in pinned]
    if runs and filt.active:
        if stopped():
            return None
        runs = filt.query.select(Columns(table, hays, label, inputs), runs)
    if stopped():
        return None
    titles = table.titles()
    prefix.add_all([titles[i] for i in runs])
    problems = []
    for i in table.problem_rows(n) if pinned is None else ():
        e = source.peek(i)
        if e is not None and filt.accepts(e, label):
            problems.append(i)
    if sorting:
        return array("q", runs), array("q", problems)
    return array("q"), array("q", heapq.merge(runs, problems))
