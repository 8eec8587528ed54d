"""The run list's filter (``f``) and the title prefix its rows elide."""

from __future__ import annotations

import os
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any

from trajtui.core.model import Problem
from trajtui.core.query import Query, facts_of_problem, facts_of_summary, parse
from trajtui.core.source import Entry
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
