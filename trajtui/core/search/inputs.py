"""Which runs hold a word anywhere in their whole input: for the words of a run-list query.

A run-list row knows its title, the first 200 characters of its input; a query's words
(``timeout``, ``"rate limit"``, ``vercel*``) are about the whole input. :class:`InputWords`
finds, for each word, the runs whose input contains it with the search engine (the word's
spellings found in the raw records first, only those records parsed), and keeps what it
found: typing a query that adds a word searches for that word only.

What it found is complete for the entries each source had when it searched; entries added
since (a file still being read or growing) are judged by their title until the word is
searched again.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import msgspec

from trajtui.core.query.facts import owns
from trajtui.core.query.nodes import Text
from trajtui.core.search.engine import Hit, Progress, Search, block, candidates
from trajtui.core.search.needle import Needle, PatternError, compile_needle
from trajtui.core.search.texts import run_texts
from trajtui.core.source import LoadError, Source

LITE_BLOCK = 4 << 20
"""Bytes of records read at once (whole records; a bigger record is read alone)."""

Key = tuple[str, bool, str]
"""A word as it is looked for: its casefolded value, whether it was quoted, and the kind of
text it is looked for in (``input``; ``output`` and ``reasoning`` for those fields)."""


def key_of(text: Text, kind: str = "input") -> Key:
    """The key a word's hits are kept under."""
    return text.value.casefold(), text.quoted, kind


def needle_of(text: Text) -> Needle | None:
    """What the search looks for to find ``text`` as a query word finds it: the value in any
    case, a glob's pieces in order (``*`` anything, across lines). None for a word that
    finds everything (``*``).

    Raises:
        PatternError: A glob too big for the regular-expression engine.
    """
    value = text.value
    if "*" in value and not text.quoted:
        pieces = [p for p in value.split("*") if p]
        if not pieces:
            return None
        pattern = "(?s)" + ".*?".join(re.escape(p) for p in pieces)
        return compile_needle(pattern, regex=True, ignore_case=True)
    if not value:
        return None
    return compile_needle(value, ignore_case=True)


class InputWords:
    """Runs whose whole input holds each word searched so far, by source position."""

    def __init__(self) -> None:
        # replaced whole when a search ends (readers in other threads see old or new)
        self._found: dict[Key, tuple[tuple[int, ...], list[set[int]]]] = {}

    def rows(self, s: int, text: Text, kind: str = "input") -> set[int] | None:
        """Entries of source ``s`` whose input (or text of ``kind``) holds ``text``, as far
        as it was searched (None: not searched)."""
        found = self._found.get(key_of(text, kind))
        if found is None or s >= len(found[1]):
            return None
        return found[1][s]

    def searched(self, text: Text, sources: Sequence[Source], kind: str = "input") -> bool:
        """``text`` was searched for in every entry ``sources`` have now."""
        found = self._found.get(key_of(text, kind))
        if found is None:
            return False
        counts = found[0]
        return len(counts) == len(sources) and all(
            n >= len(source) for n, source in zip(counts, sources, strict=True)
        )

    def search(
        self,
        sources: Sequence[Source],
        text: Text,
        stopped: Callable[[], bool],
        progress: Callable[[float], None] | None = None,
        skip: Callable[[int, int], bool] | None = None,
        kind: str = "input",
    ) -> bool:
        """Find the entries whose input (or own text of ``kind``: ``output``, ``reasoning``)
        holds ``text`` (in each source as far as it is read now) and keep them. False when
        ``stopped()`` turned true first (nothing kept).

        ``skip(s, i)``: entry ``i`` of source ``s`` need not be read (its title holds the
        word already: the query keeps it either way).

        A word searched before is searched only in the entries added since (and the last
        one searched, which may have been a record still being written)."""
        counts = tuple(len(source) for source in sources)
        hits: list[set[int]] = [set() for _ in sources]
        first = [0] * len(sources)
        prior = self._found.get(key_of(text, kind))
        if prior is not None and len(prior[0]) == len(sources):
            for k, (was, now) in enumerate(zip(prior[0], counts, strict=True)):
                if 0 < was <= now:
                    first[k] = was - 1
                    hits[k] = {i for i in prior[1][k] if i < was - 1}
        try:
            needle = needle_of(text)
            searchable = True
        except PatternError:  # a glob too big to search for: only the titles are looked in
            needle, searchable = None, False
        if needle is None:
            if searchable:  # "*": every run
                hits = [set(range(n)) for n in counts]
        else:
            total = sum(counts) or 1
            done = 0
            for s, source in enumerate(sources):
                base = done

                def part(fraction: float, base: int = base, n: int = counts[s]) -> None:
                    if progress is not None:
                        progress((base + fraction * n) / total)

                skip_here = (lambda i, s=s: skip(s, i)) if skip is not None else None
                found = (
                    _lite_hits(source, needle, first[s], counts[s], stopped, part, skip_here)
                    if kind == "input" and source.lite_input() is not None
                    else _run_hits(
                        source, needle, first[s], counts[s], stopped, part, skip_here, kind
                    )
                )
                if found is None:
                    return False
                hits[s] |= found
                done += counts[s]
        self._found[key_of(text, kind)] = (counts, hits)
        return True


def _run_hits(
    source: Source,
    needle: Needle,
    start: int,
    n: int,
    stopped: Callable[[], bool],
    progress: Callable[[float], None],
    skip: Callable[[int], bool] | None,
    kind: str = "input",
) -> set[int] | None:
    """The entries of ``source`` from ``start`` to ``n`` whose run's own input (or text of
    ``kind``: a trial's counts as the run's own) holds the needle, each run read whole (the
    search engine, its raw-bytes prefilter first)."""
    hits: set[int] = set()

    def passed(_s: int, i: int) -> bool:
        return i < start or (skip is not None and skip(i))

    search = Search([source], needle, kinds=(kind,), skip=passed)
    for event in search.events():
        if stopped():
            search.cancel()
            return None
        if isinstance(event, Hit):
            # a step's input (or output) is the step's; a trial's output is the run's
            own = event.ref == event.run if kind == "input" else owns(event.ref, event.run)
            if own and event.index < n:
                hits.add(event.index)
        elif isinstance(event, Progress):
            progress(event.fraction)
    return hits


def _lite_hits(
    source: Source,
    needle: Needle,
    start: int,
    n: int,
    stopped: Callable[[], bool],
    progress: Callable[[float], None],
    skip: Callable[[int], bool] | None,
) -> set[int] | None:
    """:func:`_run_hits` for a JSONL format that names its input among its ``lite`` fields:
    each record the prefilter finds is decoded skipping all but those fields (a record
    that does not decode so is read whole)."""
    lite = source.lite_input()
    index = source.record_index()
    if lite is None or index is None:
        return _run_hits(source, needle, start, n, stopped, progress, skip)
    decode = msgspec.json.Decoder(lite.struct).decode
    input_text = lite.text
    starts = index.starts
    prefilter = needle.prefilter
    hits: set[int] = set()
    i = start
    while i < n:
        if stopped():
            return None
        try:
            j, begin, end = block(index, i, n, LITE_BLOCK)
        except IndexError:  # the last record, unfinished, is being read again
            return None
        try:
            data = index.pread(end - begin, begin)
        except OSError:
            return hits  # the file went away: what was found so far
        if len(data) < end - begin:
            return hits
        for k in candidates(data, begin, index, i, j, prefilter):
            if skip is not None and skip(k):
                continue
            off = starts[k] - begin
            try:
                obj = msgspec.to_builtins(decode(data[off : off + index.length(k)]))
                text = input_text(obj) if isinstance(obj, dict) else ""
            except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
                found = _run_hits_one(source, needle, k)
            else:
                found = needle.found_in(text)
            if found:
                hits.add(k)
            if stopped():
                return None
        progress(j / max(n, 1))
        i = j
    return hits


def _run_hits_one(source: Source, needle: Needle, i: int) -> bool:
    """Record ``i``'s run's own input holds the needle (read whole)."""
    try:
        run = source.run(i)
    except LoadError:
        return False
    return any(
        t.kind == "input" and t.ref == run.ref and needle.found_in(t.text) for t in run_texts(run)
    )
