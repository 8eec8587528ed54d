"""One query language for choosing runs: the run-list filter, ``ls --where`` (and
``grep``/``stats --where``).

Syntax (see :data:`FIELDS` for every field)::

    timeout "rate limit"          words and phrases: in the reference, title or input
    status:timeout  is:fail       status word, or outcome: pass fail error timeout unknown
    score<0.5 steps>30 cost>=0.1  comparisons: = != < <= > >=; field:value is =
    duration>60s  tokens>100k     durations need a unit (ms s m h); counts take k and M
    tool:Bash  tool:mcp__*        ran that tool
    agent:codex metadata.cat:ui   any metadata key the file has
    -word  -status:pass  NOT x    negation
    a b   a AND b   a OR b   (a OR b) -c

Text values match any case: unquoted they are found anywhere in the value
(``agent:codex`` matches ``codex-cli``); quoted they must be the whole value
(``agent:"codex"``); with ``*`` they are a glob over the whole value (``ref:web*``).
Tool names match whole (any case) unless globbed. ``status:pass`` also matches a status
word starting with it (``passed``). A run without the value a comparison needs does not
match it (``-score>0.5`` does). Operators are in capitals; ``or`` is a word.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

from trajtui.core.query.facts import (
    Facts,
    RowFacts,
    facts_of_problem,
    facts_of_row,
    facts_of_run,
    facts_of_step,
    facts_of_summary,
)
from trajtui.core.query.fields import FIELDS, RUNS, STEP_FIELDS, STEPS, FieldHelp, fields_of
from trajtui.core.query.lexer import QueryError
from trajtui.core.query.nodes import Columns, Everything, Node, RunText, Text, TextField, Word
from trajtui.core.query.parser import Parser

__all__ = [
    "FIELDS",
    "RUNS",
    "STEPS",
    "STEP_FIELDS",
    "Columns",
    "Facts",
    "FieldHelp",
    "Query",
    "QueryError",
    "RowFacts",
    "elsewhere",
    "facts_of_problem",
    "facts_of_row",
    "facts_of_run",
    "facts_of_step",
    "facts_of_summary",
    "fields_of",
    "parse",
]


@dataclass(frozen=True)
class Query:
    """A parsed query.

    Attributes:
        text: The text it was parsed from.
        root: Its tree.
        named_keys: Metadata keys it names without ``metadata.`` (``agent:codex``).
    """

    text: str = ""
    root: Node = field(default_factory=Everything)
    named_keys: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        """The query matches everything (no text)."""
        return isinstance(self.root, Everything)

    def matches(self, facts: Facts) -> bool:
        """True when the row ``facts`` describes matches."""
        return self.root.matches(facts)

    def _nodes(self) -> list[Node]:
        out: list[Node] = []
        todo: list[Node] = [self.root]
        while todo:
            node = todo.pop()
            out.append(node)
            todo.extend(getattr(node, "parts", ()))
            part = getattr(node, "part", None)
            if isinstance(part, Node):
                todo.append(part)
        return out

    @property
    def reads_input(self) -> bool:
        """The query looks at a run's whole input (words, phrases, ``input:``): a run-list
        row (whose title is the input's first 200 characters) cannot answer it alone."""
        return any(
            isinstance(node, Word) or (isinstance(node, TextField) and node.source == "input")
            for node in self._nodes()
        )

    @property
    def words(self) -> list[Text]:
        """The words and phrases of the query looked for in whole inputs (its words, and
        ``input:word``), in no particular order, each once."""
        seen: dict[tuple[str, bool], Text] = {}
        for node in self._nodes():
            if isinstance(node, Word) or (isinstance(node, TextField) and node.in_input):
                seen.setdefault((node.text.value.casefold(), node.text.quoted), node.text)
        return list(seen.values())

    @property
    def reads_run(self) -> bool:
        """The query looks at what only a whole run holds: its whole input, its output or
        its grader's reasoning (``output:``, ``reasoning:``)."""
        return self.reads_input or any(isinstance(n, RunText) for n in self._nodes())

    @property
    def searches(self) -> list[tuple[Text, str]]:
        """What the query looks for in whole runs, each once, with the kind of text it is
        looked for in: its words in inputs (``input``), ``output:`` and ``reasoning:``."""
        found = [(w, "input") for w in self.words]
        seen = set()
        for node in self._nodes():
            if isinstance(node, RunText):
                key = (node.text.value.casefold(), node.text.quoted, node.kind)
                if key not in seen:
                    seen.add(key)
                    found.append((node.text, node.kind))
        return found

    def select(self, cols: Columns, rows: list[int]) -> list[int]:
        """Those of ``rows`` (ascending run rows of ``cols.table``) that match, in order,
        reading whole columns where the query allows."""
        return self.root.select(cols, rows)


def elsewhere(query: Query, everywhere: str) -> str:
    """What a "no runs match" line adds: where the query's words looked, and where else to
    look (``everywhere``: the surface's search of every text, ``/`` or ``trajtui grep``)."""
    looked = "words look in refs, titles and inputs; output:WORD and reasoning:WORD in "
    return f"{looked}outputs and graders' reasoning; {everywhere}"


def parse(text: str, keys: Collection[str] | None = None, scope: str = RUNS) -> Query:
    """Parse a query ("" parses to one that matches everything).

    Args:
        text: The query text.
        keys: The metadata keys of the runs it will judge, when known: a name that is not a
            field nor one of them is then an error. With None, only names spelled like a
            field (``scroe``) are errors; any other names a metadata key.
        scope: :data:`RUNS` (the run list, ``--where``) or :data:`STEPS` (the timeline's
            filter: :data:`STEP_FIELDS`, judged on :func:`facts_of_step`).

    Raises:
        QueryError: With the span of the problem (``.start``, ``.end``) and a message.
    """
    parser = Parser(text, keys, scope)
    root = parser.parse()
    return Query(text, root, tuple(parser.named))
