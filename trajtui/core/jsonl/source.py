"""A JSON Lines file as a source: one run per record, indexed in the background.

A format that writes one JSON object per line only supplies a :class:`RecordFormat` (how to
summarise, build and check one parsed record); :class:`JsonlSource` indexes the file,
follows appends, names repeated ids, keeps run-list summaries by column and reports bad
lines as problems.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Iterator
from typing import Any, Protocol

from trajtui.core.io.jsonutil import JsonError, loads_exact
from trajtui.core.jsonl import indexcache
from trajtui.core.jsonl.index import FileChanged, LineIndex, ScanProgress
from trajtui.core.jsonl.names import Renamed, name_records
from trajtui.core.jsonl.pieces import read_by_pieces
from trajtui.core.jsonl.problems import file_problems
from trajtui.core.jsonl.reader import JsonlReader, Record
from trajtui.core.jsonl.rowpool import Row, RowFiller
from trajtui.core.jsonl.stepfacts import StepFactsStore
from trajtui.core.jsonl.table import SummaryTable
from trajtui.core.model import Problem, Run, RunSummary, Severity
from trajtui.core.source import (
    Entry,
    FormatInfo,
    LiteInput,
    LoadError,
    RowDecoder,
    RunCache,
    Source,
    Target,
)
from trajtui.core.stats.facts import StepFacts


class RecordFormat(Protocol):
    """How a JSONL format turns one record into a run. Formats implement this."""

    info: FormatInfo
    key: str
    """Top-level field that names a record (its id)."""

    def summarize(self, obj: Any, ref: str, index: int, line: int) -> RunSummary:
        """The run-list row of a record (``obj`` is a dict with the key)."""
        ...

    def build(self, obj: Any, ref: str, index: int, line: int) -> Run:
        """The whole run of a record."""
        ...

    lite: Any
    """A ``msgspec.Struct`` type naming the fields :meth:`summarize` and :meth:`check` read
    (each ``Any = UNSET``, lists of steps as lists of smaller structs), or None. With one,
    run-list rows are decoded on every core, skipping the rest of each record (see
    :mod:`trajtui.core.jsonl.rowpool`); :meth:`summarize` then gets a dict of just those fields."""

    def check(self, obj: dict[str, Any]) -> str | None:
        """A warning when a record lacks what this format's records have, else None."""
        ...

    # Optional: ``lite_kept``, a tuple of the ``lite`` struct types (a step's) that
    # :meth:`summarize` reads as they are decoded rather than as dicts (a dict for each of
    # a million steps is a third of a row's cost): it must then read both the same way.
    # Optional: ``input_text(obj) -> str``, the record's whole input as text, from a dict
    # of the ``lite`` fields (the run-list filter's words are looked for in it without
    # building the run: :mod:`trajtui.core.search.inputs`).


class JsonlSource(Source):
    """A JSONL file whose records are runs, read through a :class:`LineIndex`."""

    follows_appends = True

    def __init__(self, path: str, fmt: RecordFormat, label: str | None = None) -> None:
        """Open ``path`` for reading (nothing is read until :meth:`scan` runs).

        Raises:
            OSError: The file cannot be opened.
        """
        self.path = path
        self.fmt = fmt
        self.format = fmt.info
        self.label = label or path
        self.index = LineIndex(path, key=fmt.key)
        self.reader = JsonlReader(self.index)
        self._table = SummaryTable(self.ref_of)  # by record index
        self._named = 0  # records named so far
        # A record's reference is its key; only records whose key was taken before get
        # another (KEY#2...), kept in these two dicts: naming a million records costs
        # nothing beyond the index's key table.
        self._names = Renamed()  # the records not named by their key
        self.ready: deque[tuple[int, list[Row], list[Any] | None]] = deque()
        """Rows made with the index (:mod:`.pieces`), for the reader of rows."""
        self.by_pieces = False  # a cold read may be by pieces (every row is read)
        self._runs = RunCache(4)
        self._lock = threading.Lock()
        self._entry_problems: dict[int, Problem] = {}
        self.facts = StepFactsStore()  # what stats counts of each run's steps, when asked
        self._cache_tried = False
        self._unchecked: int | None = None  # keys from here on: checked when read
        self._correct_keys = True  # a key found wrong is corrected here (else: misread_key)
        self._verified: set[int] = set()  # unchecked records whose key find() checked
        self.misread_key: int | None = None
        """The first record whose key, taken from the line's head while checks were
        deferred without correction, proved wrong (the source must be read again with
        every key checked: see :meth:`defer_key_checks`)."""
        self.cache_mark: tuple[int, int, int, int] | None = None
        self.cache_saved_at = -1e9  # time.monotonic() of the last save
        """What the index cache holds for this file (size, records, summaries, step facts),
        when this source was restored from or saved to it (:mod:`.indexcache`)."""

    # -- scanning ------------------------------------------------------------------------

    def scan(self) -> Iterator[ScanProgress]:
        """Index the file (or what was appended since the last scan). The first scan starts
        from the index cache when it has this file: an unchanged file is not read at all,
        a grown one from where the cache ends."""
        if not self._cache_tried:
            self._cache_tried = True
            restored = indexcache.restore(self)
            with self._lock:
                if self._unchecked is not None:  # a cached index has every key checked
                    self._unchecked = max(self._unchecked, self.index.count)
            if restored == "unchanged":
                size, count = self.index.size, self.index.count
                yield ScanProgress(size, size, count, finished=True)
                return
        if self.index.unterminated:
            self._forget_last()
        if self.by_pieces and not self.index.count:
            yield from read_by_pieces(self)
        try:
            for progress in self.index.scan():
                self.name_new_records()
                yield progress
        finally:
            self.name_new_records()

    @property
    def complete(self) -> bool:
        return self.index.complete

    def save_index(self) -> bool:
        """Keep what the scan learned in the index cache (after a full scan, with every key
        checked; never raises)."""
        if self._unchecked is not None and self._unchecked < self.index.count:
            return False
        return indexcache.save(self)

    def defer_key_checks(self, *, correct: bool = True) -> None:
        """Index faster by checking each key when its record is read (callers that read
        every row in file order: ``ls``, the TUI's loader): keys from the next record
        indexed on are taken from the line's head (see
        :meth:`LineIndex.defer_key_checks`).

        A record read whose key proves different (spelled again later in the line) then
        corrects the keys from it on when ``correct``. Without it (a reader that shows refs
        while they are read, which a correction would rename under it) nothing is changed:
        :attr:`misread_key` says which record it was, and the caller reads the file again
        without deferring. :meth:`find` checks the record it returns either way.
        """
        with self._lock:
            self.index.defer_key_checks(True)
            self._unchecked = self.index.count
            self._correct_keys = correct

    def _check_key(self, i: int) -> None:
        """Check record ``i``'s key whole when checks are deferred; correct the keys from
        ``i`` on when it was wrong."""
        start = self._unchecked
        if start is None or i < start:
            return
        if self.index.checked_key(i) == self.index.key(i):
            self._key_checked(i)
        elif self._correct_keys:
            self._rekey_from(i)
        else:
            self._misread(i)

    def _misread(self, i: int) -> None:
        """Record ``i``'s key was taken wrong and is left so (see :meth:`defer_key_checks`)."""
        with self._lock:
            if self.misread_key is None or i < self.misread_key:
                self.misread_key = i

    def _key_checked(self, i: int) -> None:
        """Record ``i``'s key is right (records are checked in file order; one checked out
        of order is checked again when its turn comes)."""
        with self._lock:
            if self._unchecked == i:
                self._unchecked = i + 1

    def _rekey_from(self, i: int) -> None:
        """Check the key of every record indexed from ``i`` on, whole, and name those
        records again; the scan checks the rest as it goes."""
        with self._lock:
            index = self.index
            index.defer_key_checks(False)
            index.replace_keys_from(i, [index.checked_key(j) for j in range(i, index.count)])
            for j in [j for j in self._names.by_record if j >= i]:
                self._names.by_ref.pop(self._names.by_record.pop(j), None)
            self._names.next_n.clear()
            for j in range(i, self._named):
                self._table.forget(j)
                self._entry_problems.pop(j, None)
            self._runs.forget()
            self.reader.clear()
            self._named = i
            self._unchecked = None
            self._verified.clear()
        self.name_new_records()

    def summarised(self) -> int:
        """Records whose entry is known (a run summary or a problem row)."""
        return self._table.filled()

    def known_prefix(self) -> int:
        return min(self._table.prefix(), len(self))

    def cancel(self) -> None:
        self.index.cancel()

    def close(self) -> None:
        self.index.close()

    def changed(self) -> str | None:
        return self.index.stat_changed()

    def forget_cache(self) -> None:
        self._runs.forget()
        self.reader.clear()

    def _forget_last(self) -> None:
        """Forget the last record: it had no newline, and the scan reads it again."""
        with self._lock:
            i = self.index.count - 1
            if i < 0 or i >= self._named:
                return
            ref = self._names.by_record.pop(i, None)
            if ref is not None:
                self._names.by_ref.pop(ref, None)
            self._table.forget(i)
            self._entry_problems.pop(i, None)
            self.facts.forget(i)
            self._runs.forget(i)
            self.reader.clear()
            self._named = i
            if self._unchecked is not None and self._unchecked > i:
                self._unchecked = i
            self._verified.discard(i)

    def name_new_records(self) -> None:
        """Give references to records the scan added (:func:`.names.name_records`)."""
        with self._lock:
            self._named = name_records(self.index.keys, self._named, self.index.count, self._names)

    # -- entries -------------------------------------------------------------------------

    def __len__(self) -> int:
        return min(self._named, self.index.count)

    def ref_of(self, i: int) -> str | None:
        """Reference of record ``i`` (None when it has no id)."""
        renamed = self._names.by_record.get(i)
        return renamed if renamed is not None else self.index.key(i)

    def _keep(self, i: int, entry: Entry) -> None:
        table = self._table
        if i >= len(table):  # room for every complete record indexed, at once
            table.reserve(max(i + 1, len(self) - (1 if self.index.unterminated else 0)))
        table.put(i, entry)

    def entry(self, i: int, *, keep: bool = True) -> Entry:
        """Entry ``i`` (decoding its record unless it is known already).

        Args:
            i: The record's index.
            keep: Remember the summary (the TUI sorts and counts them); a one-pass reader
                such as ``ls`` passes False so memory stays flat on huge files.
        """
        cached = self.peek(i)
        if cached is not None:
            return cached
        return self._entry(self.reader.record(i), keep)

    def entries(self, lo: int, hi: int, *, keep: bool = True) -> list[Entry]:
        """Entries ``lo`` up to ``hi`` (excluded), records read from one read of the file
        (``ls`` reads a file of a million small records this way)."""
        known = self.peek(lo)
        if known is not None:
            return [known]
        return [
            self.peek(rec.index) or self._entry(rec, keep)
            for rec in self.reader.records(lo, min(hi, len(self)))
        ]

    def decodes_rows(self) -> bool:
        """Rows are decoded on every core (:meth:`filler` gives a reader)."""
        return getattr(self.fmt, "lite", None) is not None

    def row_decoder(self) -> RowDecoder | None:
        return self if self.decodes_rows() else None

    def line_of(self, i: int) -> int | None:
        return self.index.line_of(i)

    def record_index(self) -> LineIndex:
        return self.index

    def lite_input(self) -> LiteInput | None:
        lite = getattr(self.fmt, "lite", None)
        text = getattr(self.fmt, "input_text", None)
        if lite is None or not callable(text):
            return None
        return LiteInput(lite, text)

    def read_whole(self) -> None:
        self.by_pieces = True

    def filler(self, start: int = 0) -> RowFiller | None:
        """A reader of this source's rows in file order from record ``start``, decoding
        on every core (None when the format has no lite type: read with :meth:`entries`)."""
        if not self.decodes_rows():
            return None
        return RowFiller(self, self.facts.start(start))

    def keep_ready(self, first: int, rows: list[Row], facts: list[Any] | None) -> None:
        """Keep rows ``first`` on, made with the index, for the reader of rows."""
        self.ready.append((first, rows, facts))

    def want_step_facts(self) -> None:
        self.facts.wanted = self.decodes_rows() and hasattr(self.fmt, "lite_facts")

    def step_facts(self, i: int) -> StepFacts | None:
        return self.facts.get(i)

    def take(self, i: int, row: Row, *, keep: bool = True) -> Entry:
        """Entry ``i`` from a row a :class:`RowFiller` read (None: read the record here)."""
        cached = self.peek(i)
        if cached is not None:
            if self._unchecked is not None:  # its key was checked when it was read
                self._key_checked(i)
            return cached
        if row is not None:
            # the worker checked the key it was given; the job may predate a correction
            if row.ref != self.ref_of(i):
                row = None
            elif self._unchecked is not None:
                self._key_checked(i)
        if row is None:
            return self._entry(self.reader.record(i), keep)
        if keep:
            self._keep(i, row)
        return row

    def _entry(self, rec: Record, keep: bool) -> Entry:
        """The entry of a decoded record (kept when ``keep``, and always for problems)."""
        i = rec.index
        self._check_key(i)
        entry: Entry
        ref = self.ref_of(i)
        if rec.error is not None:
            entry = self._problem(i, rec.line, rec.error)
        elif not isinstance(rec.value, dict):
            kind = type(rec.value).__name__
            kind = {"list": "an array", "str": "a string", "NoneType": "null"}.get(
                kind, f"a {kind}"
            )
            entry = self._problem(i, rec.line, f"expected a JSON object, found {kind}")
        elif ref is None:
            key = self.fmt.key
            if key in rec.value:
                kind = type(rec.value[key]).__name__
                kind = {"dict": "an object", "list": "an array", "NoneType": "null"}.get(
                    kind, f"a {kind}"
                )
                message = f'record\'s "{key}" is {kind}, not a string or a number'
            else:
                message = f'record has no "{key}" (keys: {_keys(rec.value)})'
            entry = self._problem(i, rec.line, message)
        else:
            entry = self.fmt.summarize(rec.value, ref, i, rec.line)
            warning = self.fmt.check(rec.value)
            notes = [w for w in (rec.warning, warning) if w]
            if notes:
                self._entry_problems[i] = Problem(
                    self.path, rec.line, "; ".join(notes), Severity.WARNING, ref
                )
        if keep or isinstance(entry, Problem):
            self._keep(i, entry)
        return entry

    def _problem(self, i: int, line: int, message: str) -> Problem:
        problem = Problem(self.path, line, message, Severity.ERROR)
        self._entry_problems[i] = problem
        return problem

    def _make_run(self, i: int, entry: RunSummary) -> Run:
        line = self.index.line_of(i)
        try:
            # Read whole and exactly (big integers keep every digit in what is shown).
            value, _ = loads_exact(self.reader.raw(i))
        except (OSError, FileChanged, IndexError) as err:
            raise LoadError(Problem(self.path, line, f"cannot read record: {err}")) from None
        except JsonError as err:
            raise LoadError(Problem(self.path, line, str(err))) from None
        return self.fmt.build(value, entry.ref, i, line)

    def find(self, run_ref: str) -> int | None:
        # While key checks are deferred, a record found by the key its line starts with is
        # checked whole before it is named (a key spelled again later in the line is the
        # one the parser keeps): one record read, not the scan's check of every line.
        renamed = self._names.by_ref.get(run_ref)
        if renamed is not None:
            # which record is "KEY#n" depends on every key before it: known once they are
            # all checked
            start = self._unchecked
            return None if start is not None and renamed >= start else renamed
        i = self.index.keys.first(run_ref)
        if i is None or i >= self._named or i in self._names.by_record:
            return None
        start = self._unchecked
        if start is not None and i >= start and i not in self._verified:
            if self.index.checked_key(i) != self.index.key(i):
                if self._correct_keys:
                    self._rekey_from(i)
                    return self.find(run_ref)
                self._misread(i)
                return None
            self._verified.add(i)
        return i

    def run_refs(self) -> list[str]:
        refs = (self.ref_of(i) for i in range(len(self)))
        return [r for r in refs if r is not None]

    def problems(self) -> list[Problem]:
        return file_problems(self.path, self.index, self._entry_problems)

    def find_stored_step(self, ref: str) -> Target | None:
        """Look through every record for a step whose stored ``stepId`` is ``ref``.

        Only reached when ``ref`` is not a run or a synthesised step reference (a miss
        costs one read of the file: records are parsed only when their bytes hold a
        ``stepId``).
        """
        for i in range(len(self)):
            if self.ref_of(i) is None or b'"stepId"' not in self.reader.raw(i):
                continue
            try:
                run = self.run(i)
            except LoadError:
                continue
            for attempt in run.attempts or (None,):
                steps = run.steps if attempt is None else attempt.steps
                for position, step in enumerate(steps, 1):
                    if step.stored_id == ref:
                        return Target(
                            self,
                            i,
                            step.ref,
                            attempt=None if attempt is None else attempt.number,
                            step=position,
                        )
        return None


def _keys(obj: dict[str, Any], limit: int = 6) -> str:
    names = list(obj)[:limit]
    more = ", ..." if len(obj) > limit else ""
    return (", ".join(names) + more) if names else "none"
