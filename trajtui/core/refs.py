"""References: one stable name for every run, trial, step, message and source.

The grammar (a run's own reference comes first: its ``id``, directory name or file stem,
with ``#2``, ``#3``... added to repeats in file order):

==============================  ===========================================================
``RUN``                         a run
``RUN-step-N``                  step N (1-based) of a capture/summary record, exactly as
                                acp-harness's markdown view prints step ids
``RUN/step-N``                  step N of any run (the canonical form outside acp-harness)
``RUN/trial-T``                 trial T of a trials record
``RUN/trial-T/step-N``          step N of trial T
``RUN/WORD:KEY``                a segment the run's format resolves itself (forecast:
                                ``msg:A3``, a message of the pool; ``src:S3``, a source of
                                the board)
``RUN/SAMPLE``                  a sample of an eval results run (its ``business_id``)
``SOURCE::REF``                 REF inside one source, when several sources are open
==============================  ===========================================================

When the opened path holds a single run, ``step-N`` and ``WORD:KEY`` work alone.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

SOURCE_SEP = "::"


@dataclass(frozen=True, slots=True)
class RefParts:
    """A reference split into its parts (a candidate reading of it).

    Attributes:
        run: The run's reference, or None for a reference relative to the only run.
        attempt: Trial number.
        step: Step number.
        segment: ``(WORD, KEY)`` of a ``WORD:KEY`` segment, which the run's format resolves
            (:meth:`trajtui.core.source.Source.resolve_segment`).
        item: A sample id (eval results), or None.
    """

    run: str | None
    attempt: int | None = None
    step: int | None = None
    segment: tuple[str, str] | None = None
    item: str | None = None


_PATTERNS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^(?P<run>.*)/trial-(?P<t>\d+)/step-(?P<n>\d+)\Z", re.DOTALL), "trial-step"),
    (re.compile(r"^(?P<run>.*)/trial-(?P<t>\d+)\Z", re.DOTALL), "trial"),
    (re.compile(r"^(?P<run>.*)/step-(?P<n>\d+)\Z", re.DOTALL), "step"),
    (re.compile(r"^(?P<run>.*)-step-(?P<n>\d+)\Z", re.DOTALL), "step"),
    (re.compile(r"^(?P<run>.*)/(?P<word>[a-z]+):(?P<key>.+)\Z", re.DOTALL), "segment"),
    (re.compile(r"^step-(?P<n>\d+)\Z", re.DOTALL), "step"),
    (re.compile(r"^trial-(?P<t>\d+)/step-(?P<n>\d+)\Z", re.DOTALL), "trial-step"),
    (re.compile(r"^trial-(?P<t>\d+)\Z", re.DOTALL), "trial"),
    (re.compile(r"^(?P<word>[a-z]+):(?P<key>.+)\Z", re.DOTALL), "segment"),
    (re.compile(r"^(?P<run>.*)/(?P<item>[^/]+)\Z", re.DOTALL), "item"),
]


def readings(ref: str) -> Iterator[RefParts]:
    """Every way ``ref`` can be read, most specific first, the plain run reference last.

    A run id may itself contain ``-step-`` or ``/``; the caller tries each reading against
    the runs that exist and takes the first that matches.
    """
    yield RefParts(run=ref)
    for pattern, kind in _PATTERNS:
        m = pattern.match(ref)
        if m is None:
            continue
        groups = m.groupdict()
        run = groups.get("run")
        if kind == "trial-step":
            yield RefParts(run, attempt=int(groups["t"]), step=int(groups["n"]))
        elif kind == "trial":
            yield RefParts(run, attempt=int(groups["t"]))
        elif kind == "step":
            yield RefParts(run, step=int(groups["n"]))
        elif kind == "segment":
            yield RefParts(run, segment=(groups["word"], groups["key"]))
        elif kind == "item":
            yield RefParts(run, item=groups["item"])


def split_source(ref: str) -> tuple[str | None, str]:
    """Split ``SOURCE::REF`` into its parts (``(None, ref)`` when unqualified)."""
    if SOURCE_SEP in ref:
        source, _, rest = ref.partition(SOURCE_SEP)
        return source, rest
    return None, ref


class DuplicateNamer:
    """Gives repeated names ``#2``, ``#3``... in the order they are seen.

    The names given are kept in :attr:`taken` (name -> the value given with it, such as the
    object's index), so a source's name map and its namer are one dict.
    """

    def __init__(self) -> None:
        self.taken: dict[str, Any] = {}
        self._next: dict[str, int] = {}  # only for names seen more than once

    def name(self, base: str, value: Any = None) -> str:
        """The name for the next object called ``base`` (recorded with ``value``)."""
        if base not in self.taken:
            self.taken[base] = value
            return base
        n = self._next.get(base, 2)
        while f"{base}#{n}" in self.taken:  # a literal "x#2" in the data is not reused
            n += 1
        self._next[base] = n + 1
        name = f"{base}#{n}"
        self.taken[name] = value
        return name


def nearby(wanted: str, names: Iterable[str], limit: int = 5) -> list[str]:
    """Names that look like ``wanted``, for "did you mean" messages.

    Cheap on large lists: candidates sharing a prefix come first, then close matches among
    a bounded sample.
    """
    pool = list(names)
    if not pool:
        return []
    found: list[str] = []
    stem = wanted.rstrip("0123456789")
    for name in pool:
        if name.startswith(stem) and name != wanted:
            found.append(name)
            if len(found) >= 50:
                break
    if found:
        found.sort(key=lambda n: (abs(len(n) - len(wanted)), n))
        close = difflib.get_close_matches(wanted, found, n=limit, cutoff=0.0)
        return close[:limit]
    sample = pool if len(pool) <= 20000 else pool[:20000]
    return difflib.get_close_matches(wanted, sample, n=limit, cutoff=0.5)


class RefError(LookupError):
    """A reference that names nothing. ``str(err)`` says what exists nearby."""


class NoSuchRun(RefError):
    """No run of the source has the reference's run part (as opposed to a run that exists
    but has no such step, or could not be read)."""
