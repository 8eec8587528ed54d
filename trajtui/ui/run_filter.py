"""The run list's filter (``f``) and the title prefix its rows elide."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from trajtui.core.model import Outcome, Problem
from trajtui.core.source import Entry

Value = Callable[[str], Any]
"""One field of one run, by :class:`RunSummary` field name (``Source.row_value``)."""


FILTER_SYNTAX = "words, -word, status:WORD, is:problem"
"""What the filter understands (said when it meets something else)."""

_NOT_UNDERSTOOD = re.compile(r"^-?[a-z_][\w.]*(?:[<>!=]=?|=)|^-?(?!(?:status|is|s):)[a-z_]+:(?!//)")
"""Comparisons (``steps>30``) and ``key:`` words with another key than the known ones:
the filter would take them as text that matches nothing."""


@dataclass(frozen=True)
class Filter:
    """A run-list filter: words that must all appear, and status words.

    Syntax: ``timeout`` (text), ``status:fail`` / ``is:fail`` (status word or outcome),
    ``is:problem`` (problem rows only), ``-word`` (must not appear). Anything that looks
    like another query language (``steps>30``, ``score:0.5``) is kept in
    :attr:`unknown`: such a filter matches nothing, and the run list says why.
    """

    words: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    statuses: tuple[str, ...] = ()
    problems_only: bool = False
    unknown: tuple[str, ...] = ()
    text: str = ""

    @classmethod
    def parse(cls, text: str) -> Filter:
        """Read the filter box's text."""
        words: list[str] = []
        exclude: list[str] = []
        statuses: list[str] = []
        unknown: list[str] = []
        problems = False
        for token in text.split():
            low = token.casefold()
            if low in ("is:problem", "status:problem", "is:problems"):
                problems = True
            elif low.startswith(("status:", "is:", "s:")):
                statuses.append(low.split(":", 1)[1])
            elif _NOT_UNDERSTOOD.match(low):
                unknown.append(token)
            elif low.startswith("-") and len(low) > 1:
                exclude.append(low[1:])
            else:
                words.append(low)
        return cls(
            tuple(words), tuple(exclude), tuple(statuses), problems, tuple(unknown), text.strip()
        )

    @property
    def active(self) -> bool:
        """The filter removes something."""
        return bool(
            self.words or self.exclude or self.statuses or self.problems_only or self.unknown
        )

    def accepts(self, entry: Entry, label: str = "") -> bool:
        """True when ``entry`` passes the filter."""
        if self.unknown:
            return False
        if isinstance(entry, Problem):
            if self.statuses:
                return False
            hay = f"{entry.message} {entry.line} {label}".casefold()
            return all(w in hay for w in self.words) and not any(w in hay for w in self.exclude)
        return self.accepts_row(lambda name: getattr(entry, name), label)

    def status_matches(self, status: str | None, outcome: Outcome) -> bool:
        """A run with this status word and outcome passes the ``status:`` words."""
        word = (status or "").casefold()
        return any(st in (word, outcome.value) or word.startswith(st) for st in self.statuses)

    def accepts_row(self, value: Value, label: str = "") -> bool:
        """True when the run whose fields ``value`` gives passes the filter."""
        if self.unknown or self.problems_only:
            return False
        if self.statuses and not self.status_matches(value("status"), value("outcome")):
            return False
        if not self.words and not self.exclude:
            return True
        hay = f"{value('ref')} {value('title')} {label}".casefold()
        return all(w in hay for w in self.words) and not any(w in hay for w in self.exclude)


class TitlePrefix:
    """The words every title shown starts with (``Use ydc-server and answer``), which the
    run list elides so that each row shows what tells it apart."""

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
        return common[:cut] if cut >= self.MIN_LENGTH else ""
