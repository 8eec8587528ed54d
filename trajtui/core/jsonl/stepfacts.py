"""The step facts of a JSONL source's runs (:class:`~trajtui.core.stats.facts.StepFacts`:
what the statistics count of a run's steps), made on every core with the rows when asked
(``trajtui stats``), and kept in the index cache: a second ``stats`` of an unchanged file
reads no line.

A format gives them by ``lite_facts(obj)``, from the same fields its ``lite`` type decodes
for a row (:mod:`trajtui.core.jsonl.rowjobs`); a run without them (its record read the
ordinary way, or a format without ``lite_facts``) is read whole to be counted.
"""

from __future__ import annotations

from array import array
from typing import Any, cast

from trajtui.core.io.jsonutil import Overflowed
from trajtui.core.jsonl.cachefile import (
    CacheCorrupt,
    pack_values,
    to_array,
    unpack_values,
)
from trajtui.core.model import StepState
from trajtui.core.stats.facts import StepFacts, ToolCall

_STATES = list(StepState)
_CODES = {s: k for k, s in enumerate(_STATES)}
_KINDS = {type(None): 0, int: 1, float: 2}  # 3: any other (kept in facts.odd)
_EXACT = 1 << 53

Packed = tuple[tuple[str | None, ...], bytes, tuple[Any, ...], int | None, int | None]
"""A run's step facts as plain values (its calls' tools, states as codes, durations; its
tokens): what a worker sends back and the store keeps (pickled in a fiftieth of the time
of the calls as objects, and a third of their memory)."""


def pack(facts: StepFacts) -> Packed:
    """``facts`` as plain values (:func:`unpack` gives them back)."""
    calls = facts.calls
    return (
        tuple(c.tool for c in calls),
        bytes(_CODES[c.state] for c in calls),
        tuple(c.duration_ms for c in calls),
        facts.tokens_in,
        facts.tokens_out,
    )


def unpack(packed: Packed) -> StepFacts:
    """The step facts :func:`pack` made plain."""
    tools, states, durations, tokens_in, tokens_out = packed
    calls = tuple(map(ToolCall, tools, map(_STATES.__getitem__, states), durations))
    return StepFacts(calls, tokens_in, tokens_out)


class StepFactsStore:
    """The step facts known of a source's runs, by record index.

    Attributes:
        wanted: Make them with the rows from now on (the source's format can).
    """

    def __init__(self) -> None:
        self.wanted = False
        self._facts: dict[int, Packed] = {}
        self._tried = 0  # records 0 .. n-1 had theirs made (or were read the ordinary way)

    def __len__(self) -> int:
        return len(self._facts)

    def get(self, i: int) -> StepFacts | None:
        packed = self._facts.get(i)
        return None if packed is None else unpack(packed)

    def put(self, first: int, facts: list[Any] | None, n: int) -> None:
        """The facts a job of ``n`` records from ``first`` made (None: it made none)."""
        if facts is None:
            return  # not asked for, or the job failed (its records are read whole)
        for k, f in enumerate(facts):
            if f is not None:
                self._facts[first + k] = f
        if first <= self._tried:
            self._tried = max(self._tried, first + n)

    def start(self, start: int) -> int:
        """Where rows must be read from (rows known from ``start`` on) for every run's
        facts to be made: the first record not tried yet, when they are wanted."""
        return min(start, self._tried) if self.wanted else start

    def forget(self, i: int) -> None:
        """Forget the facts of records ``i`` on (read again)."""
        for j in [j for j in self._facts if j >= i]:
            del self._facts[j]
        self._tried = min(self._tried, i)

    # -- the index cache ------------------------------------------------------------------

    def complete(self, count: int) -> bool:
        """Every one of ``count`` records had its facts made (or was read the ordinary
        way): they are worth keeping."""
        return self._tried >= count and bool(self._facts)

    def restored(self, other: StepFactsStore) -> None:
        """Take the facts restored from the index cache (``wanted`` stays)."""
        self._facts, self._tried = other._facts, other._tried

    def dump(self) -> dict[str, bytes]:
        """The facts as cache sections, in columns: per run its index, tokens and number
        of calls; per call its tool (a code into the tool names), state and duration (a
        kind, so an integer comes back an integer).

        Raises:
            Unstorable: A value the cache cannot hold.
        """
        runs, ncalls = array("Q"), array("I")
        tokens: list[int | None] = []
        tools: dict[str | None, int] = {}
        codes, states, kinds, durations = array("I"), bytearray(), bytearray(), array("d")
        odd: list[Any] = []
        for i, (names, codes_of, durations_of, tokens_in, tokens_out) in self._facts.items():
            runs.append(i)
            ncalls.append(len(names))
            tokens += (tokens_in, tokens_out)
            codes.extend(tools.setdefault(t, len(tools)) for t in names)
            states += codes_of
            for d in durations_of:
                kind = _KINDS.get(type(d), 3)
                if kind == 1 and not -_EXACT < d < _EXACT:
                    kind = 3
                kinds.append(kind)
                if kind == 3:  # kept exactly, as the file spells it
                    odd.append(d)
                    d = None
                durations.append(0.0 if d is None else d)
        return {
            "facts.runs": runs.tobytes(),
            "facts.ncalls": ncalls.tobytes(),
            "facts.tokens": pack_values(tokens),
            "facts.tools": pack_values(tools),
            "facts.codes": codes.tobytes(),
            "facts.states": bytes(states),
            "facts.kinds": bytes(kinds),
            "facts.durations": durations.tobytes(),
            "facts.odd": pack_values(odd),
        }

    def restore(self, sections: dict[str, Any], count: int) -> None:
        """Put back what :meth:`dump` wrote for a file of ``count`` records (every record
        was tried: those without facts are read whole); nothing when it wrote nothing.

        Raises:
            CacheCorrupt: It is not what :meth:`dump` writes.
        """
        if "facts.runs" not in sections:
            return
        try:
            runs = to_array("Q", sections["facts.runs"])
            ncalls = to_array("I", sections["facts.ncalls"])
            tokens = unpack_values(sections["facts.tokens"])
            tools = unpack_values(sections["facts.tools"])
            codes = to_array("I", sections["facts.codes"])
            states = bytes(sections["facts.states"])
            kinds = bytes(sections["facts.kinds"])
            durations = to_array("d", sections["facts.durations"])
            odd_values = unpack_values(sections["facts.odd"])
        except KeyError:
            raise CacheCorrupt("step facts incomplete") from None
        n = len(codes)
        if not (
            len(ncalls) == len(runs)
            and len(tokens) == 2 * len(runs)
            and sum(ncalls) == n == len(states) == len(kinds) == len(durations)
            and max(runs, default=0) < count
            and all(t is None or type(t) is str for t in tools)
            and all(t is None or type(t) is int for t in tokens)
            and (not codes or max(codes) < len(tools))
            and max(states, default=0) < len(_STATES)
            and max(kinds, default=0) < 4
            and kinds.count(3) == len(odd_values)
            and all(type(v) in (int, float, Overflowed) for v in odd_values)
        ):
            raise CacheCorrupt("bad step facts")
        odd = iter(odd_values)
        values: list[Any] = [
            None if k == 0 else int(d) if k == 1 else d if k == 2 else next(odd)
            for k, d in zip(kinds, durations, strict=True)
        ]
        names = cast("list[str | None]", tools)
        counts = cast("list[int | None]", tokens)
        facts: dict[int, Packed] = {}
        pos = 0
        for k, (i, n_calls) in enumerate(zip(runs, ncalls, strict=True)):
            end = pos + n_calls
            facts[i] = (
                tuple(map(names.__getitem__, codes[pos:end])),
                states[pos:end],
                tuple(values[pos:end]),
                counts[2 * k],
                counts[2 * k + 1],
            )
            pos = end
        self._facts = facts
        self._tried = count if facts else 0
