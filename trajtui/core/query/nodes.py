"""The parts of a parsed query. Each judges one row (:meth:`Node.matches`, from its
:class:`~trajtui.core.query.facts.Facts`) or many rows of a summary table at once
(:meth:`Node.select`, reading whole columns where it can)."""

from __future__ import annotations

import operator
from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from trajtui.core.jsonl.table import WORDS, SummaryTable
from trajtui.core.model import Outcome
from trajtui.core.query.facts import Facts, RowFacts

_STATUS, _OUTCOME = WORDS.index("status"), WORDS.index("outcome")

OPS: dict[str, Callable[[Any, Any], bool]] = {
    ":": operator.eq,
    "=": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


class Columns:
    """Rows of one summary table, as :meth:`Node.select` reads them.

    Args:
        table: The table.
        hays: Gives each row's words text (``ref title label``, casefolded, as
            :meth:`Facts.text`), by row index; called once, when a word needs it.
        label: The source's label (when rows of several sources are shown).
    """

    def __init__(
        self,
        table: SummaryTable,
        hays: Callable[[], Sequence[str]],
        label: str = "",
        inputs: Callable[[Text, str], Container[int] | None] | None = None,
    ) -> None:
        self.table = table
        self.label = label
        self._hays = hays
        self._hay: Sequence[str] | None = None
        self.inputs = inputs or (lambda _text, _kind: None)
        """The rows whose whole input (``kind`` ``input``), output or grader's reasoning
        holds a word, when that was searched (None: not searched; for the input, only the
        titles are known to hold it)."""

    @property
    def hay(self) -> Sequence[str]:
        """Each row's words text."""
        if self._hay is None:
            self._hay = self._hays()
        return self._hay

    def facts(self, i: int) -> Facts:
        """The facts of run row ``i``."""
        return RowFacts(partial(self.table.value, i), label=self.label)


class Node:
    """One part of a query."""

    def matches(self, facts: Facts) -> bool:
        """True when the row ``facts`` describes passes this part."""
        raise NotImplementedError

    def select(self, cols: Columns, rows: list[int]) -> list[int]:
        """Those of ``rows`` (run rows of ``cols``, ascending) that pass, in order."""
        return [i for i in rows if self.matches(cols.facts(i))]


@dataclass(frozen=True)
class Everything(Node):
    """The empty query."""

    def matches(self, facts: Facts) -> bool:
        return True

    def select(self, cols: Columns, rows: list[int]) -> list[int]:
        return rows


@dataclass(frozen=True)
class And(Node):
    parts: tuple[Node, ...]

    def matches(self, facts: Facts) -> bool:
        return all(p.matches(facts) for p in self.parts)

    def select(self, cols: Columns, rows: list[int]) -> list[int]:
        for p in self.parts:
            if not rows:
                break
            rows = p.select(cols, rows)
        return rows


@dataclass(frozen=True)
class Or(Node):
    parts: tuple[Node, ...]

    def matches(self, facts: Facts) -> bool:
        return any(p.matches(facts) for p in self.parts)

    def select(self, cols: Columns, rows: list[int]) -> list[int]:
        chosen: set[int] = set()
        left = rows
        for p in self.parts:
            chosen.update(p.select(cols, left))
            left = [i for i in left if i not in chosen]
        return [i for i in rows if i in chosen]


@dataclass(frozen=True)
class Not(Node):
    part: Node

    def matches(self, facts: Facts) -> bool:
        return not self.part.matches(facts)

    def select(self, cols: Columns, rows: list[int]) -> list[int]:
        out = set(self.part.select(cols, rows))
        return [i for i in rows if i not in out]


@dataclass(frozen=True)
class Text:
    """How a text value matches: ``*`` globs match the whole value, quoted values match it
    exactly, others are found in it (``whole``: match the whole value even unquoted); any
    case. Globs are matched by finding their pieces in order (time linear in the text for
    each piece: no pattern that could backtrack)."""

    value: str
    quoted: bool = False
    whole: bool = False

    def __post_init__(self) -> None:
        low = self.value.casefold()
        pieces = low.split("*") if "*" in low and not self.quoted else None
        object.__setattr__(self, "_pieces", pieces)
        object.__setattr__(self, "_low", low)

    def test(self, text: str | None) -> bool:
        """``text`` (already casefolded) matches."""
        if text is None:
            return False
        pieces: list[str] | None = self._pieces  # type: ignore[attr-defined]
        low: str = self._low  # type: ignore[attr-defined]
        if pieces is not None:
            return _glob(pieces, text, whole=True)
        if self.quoted or self.whole:
            return text == low
        return low in text

    def search(self, text: str) -> bool:
        """``text`` contains the value (a glob anywhere in it)."""
        pieces: list[str] | None = self._pieces  # type: ignore[attr-defined]
        if pieces is not None:
            return _glob(pieces, text, whole=False)
        low: str = self._low  # type: ignore[attr-defined]
        return low in text


def _glob(pieces: list[str], text: str, *, whole: bool) -> bool:
    """``text`` matches the glob whose parts between ``*`` are ``pieces`` (``whole``: from
    its start to its end; else anywhere). Each piece is found leftmost after the one before:
    for ``*`` alone that is a match whenever there is one."""
    first, last = pieces[0], pieces[-1]
    at, end = 0, len(text)
    if whole:
        if not text.startswith(first):
            return False
        if len(text) - len(last) < len(first) or not text.endswith(last):
            return False
        at, end = len(first), len(text) - len(last)
        middle = pieces[1:-1]
    else:
        middle = [p for p in pieces if p]
    for piece in middle:
        found = text.find(piece, at, end)
        if found < 0:
            return False
        at = found + len(piece)
    return True


@dataclass(frozen=True)
class Word(Node):
    """A word or phrase found in the reference, title or input."""

    text: Text

    def matches(self, facts: Facts) -> bool:
        return self.text.search(facts.text())

    def select(self, cols: Columns, rows: list[int]) -> list[int]:
        hay, test = cols.hay, self.text
        also = cols.inputs(test, "input") or ()
        if not test.quoted and "*" not in test.value:
            low = test.value.casefold()
            return [i for i in rows if low in hay[i] or i in also]
        return [i for i in rows if test.search(hay[i]) or i in also]


@dataclass(frozen=True)
class TextField(Node):
    """``ref:``, ``title:``, ``format:``, ``input:``."""

    source: str
    text: Text

    def matches(self, facts: Facts) -> bool:
        if self.source == "input":
            return self.text.test(facts.input())
        value = facts.value(self.source)
        return self.text.test(None if value is None else str(value).casefold())

    @property
    def in_input(self) -> bool:
        """``input:word``: the whole input contains the word (quoted or globbed, the value
        must match the whole input: a row judges that by its title)."""
        return self.source == "input" and not self.text.quoted and "*" not in self.text.value

    def select(self, cols: Columns, rows: list[int]) -> list[int]:
        if not self.in_input:
            return super().select(cols, rows)
        also = cols.inputs(self.text, "input") or ()
        return [i for i in rows if i in also or self.matches(cols.facts(i))]


@dataclass(frozen=True)
class RunText(Node):
    """``output:`` and ``reasoning:``: a text only the whole run holds, anywhere in it
    (quoted: a phrase). A run-list row does not hold it: the runs that do are searched for
    (``Columns.inputs``); a row read alone is judged by the facts it has (a whole run's)."""

    kind: str
    text: Text

    def matches(self, facts: Facts) -> bool:
        found = facts.whole(self.kind)
        return found is not None and self.text.search(found)

    def select(self, cols: Columns, rows: list[int]) -> list[int]:
        also = cols.inputs(self.text, self.kind) or ()
        return [i for i in rows if i in also]


@dataclass(frozen=True)
class Status(Node):
    """``status:WORD``: the status word (or its start), its outcome or its verdict."""

    text: Text

    def test(self, status: str | None, outcome: Outcome) -> bool:
        word = (status or "").casefold()
        t = self.text
        if t.test(outcome.value) or t.test(outcome.verdict.value):
            return True
        if t.quoted or "*" in t.value:
            return t.test(word)
        return bool(word) and word.startswith(t.value.casefold())

    def matches(self, facts: Facts) -> bool:
        if facts.is_problem:
            return False
        return self.test(facts.value("status"), facts.value("outcome"))

    def select(self, cols: Columns, rows: list[int]) -> list[int]:
        codes, palette = cols.table.word_codes()
        allowed = {c for c, w in enumerate(palette) if self.test(w[_STATUS], w[_OUTCOME])}
        return [i for i in rows if codes[i] in allowed]


_FAILED_WORDS = ("error", "errors", "fail", "failed", "failure")


@dataclass(frozen=True)
class StepStatus(Status):
    """``status:WORD`` of a step: its status word (or its start), its outcome, or its
    state (``ok``, ``failed``, ``pending``); ``error`` and ``fail`` take any failed step
    (a tool call the file marks failed has the outcome fail, an errored one error)."""

    def matches(self, facts: Facts) -> bool:
        outcome: Outcome = facts.value("outcome")
        if self.test(facts.value("status"), outcome):
            return True
        state = outcome.state.value
        t = self.text
        if t.test(state):
            return True
        return state == "failed" and not t.quoted and t.value.casefold() in _FAILED_WORDS


@dataclass(frozen=True)
class Flag(Node):
    """``pass:true``."""

    source: str
    value: bool

    def matches(self, facts: Facts) -> bool:
        return facts.value(self.source) is self.value


@dataclass(frozen=True)
class Compare(Node):
    """``score<0.5``, ``steps:30``: a number the row has, compared; a row without the
    number never matches."""

    source: str
    op: str
    number: float

    def _get(self, facts: Facts) -> Any:
        if self.source == "tokens":
            a, b = facts.value("tokens_in"), facts.value("tokens_out")
            return None if a is None and b is None else (a or 0) + (b or 0)
        return facts.value(self.source)

    def matches(self, facts: Facts) -> bool:
        value = self._get(facts)
        if value is None or isinstance(value, bool):
            return False
        try:
            return bool(OPS[self.op](value, self.number))
        except TypeError:
            return False

    def select(self, cols: Columns, rows: list[int]) -> list[int]:
        numbers = cols.table.exact_numbers(self.source) if self.source != "tokens" else None
        if numbers is None:
            if self.source != "tokens" and not cols.table.has_numbers(self.source):
                return []  # no row has this number
            return super().select(cols, rows)
        kinds, values = numbers
        test, x = OPS[self.op], self.number
        return [i for i in rows if kinds[i] and test(values[i], x)]


@dataclass(frozen=True)
class FileMetric(Compare):
    """``passRate<0.5``: a number the file computed for the run, under its own name
    (``source`` is ``file_metrics.NAME``); a run whose file has none never matches."""

    def _get(self, facts: Facts) -> Any:
        name = self.source.partition(".")[2]
        for key, value in facts.value("file_metrics") or ():
            if key == name:
                return value
        return None

    def select(self, cols: Columns, rows: list[int]) -> list[int]:
        return Node.select(self, cols, rows)


@dataclass(frozen=True)
class Tool(Node):
    """``tool:NAME``: the run called a tool of that name."""

    text: Text

    def test(self, tools: Sequence[str]) -> bool:
        return any(self.text.test(t.casefold()) for t in tools)

    def matches(self, facts: Facts) -> bool:
        return any(self.text.test(t) for t in facts.tools())

    def select(self, cols: Columns, rows: list[int]) -> list[int]:
        codes, palette = cols.table.extra_codes()
        allowed = {c for c, (_, tools) in enumerate(palette) if self.test(tools)}
        return [i for i in rows if codes[i] in allowed]


@dataclass(frozen=True)
class Meta(Node):
    """``KEY:value``, ``metadata.KEY>3``: a metadata value of the run."""

    key: str
    op: str
    text: Text
    number: float | None = None

    def test(self, meta: dict[str, str]) -> bool:
        value = meta.get(self.key)
        if value is None:
            return False
        if self.number is not None:
            try:
                have = float(value)
            except ValueError:
                return False
            return have == have and bool(OPS[self.op](have, self.number))
        hit = self.text.test(value.casefold())
        return not hit if self.op == "!=" else hit

    def matches(self, facts: Facts) -> bool:
        return self.test(facts.metadata())

    def select(self, cols: Columns, rows: list[int]) -> list[int]:
        codes, palette = cols.table.extra_codes()
        allowed = {
            c
            for c, (meta, _) in enumerate(palette)
            if self.test({k.casefold(): v for k, v in meta})
        }
        return [i for i in rows if codes[i] in allowed]


@dataclass(frozen=True)
class IsProblem(Node):
    """``is:problem``: problem rows."""

    def matches(self, facts: Facts) -> bool:
        return facts.is_problem

    def select(self, cols: Columns, rows: list[int]) -> list[int]:
        return []
