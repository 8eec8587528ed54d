"""The one way to read the runs of opened sources: their rows (run summaries and problem
rows) in file order, each as soon as it is known.

Every reader of rows goes through here: ``ls``, ``diff`` of two sources, ``export`` of the
run table, ``stats`` and the TUI's loader. :class:`SourceRows` reads one source: its scan
(indexing, with progress), and its rows as the scan finds them, decoded on every core
where the source can (:meth:`~trajtui.core.source.Source.row_decoder`), else read here in
batches; a caller with other work (the TUI draws between two slices) reads for a while and
comes back. :func:`read_rows` reads every source of a workspace in turn for the commands,
saying errors as ``PATH: message`` lines.

It lives beside :mod:`trajtui.core.source` rather than in :mod:`trajtui.core.jsonl`: it
reads every kind of source (a directory format's too), and asks a JSONL file for nothing
but the abilities any source may declare.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator

from trajtui.core.jsonl import rowpool
from trajtui.core.jsonl.index import ScanProgress
from trajtui.core.jsonl.rowpool import RowFiller
from trajtui.core.source import Entry, Source

KEEP_ALL = 1 << 62
"""Keep every row read (see :class:`SourceRows`' ``keep``)."""

Say = Callable[[str], None]
"""Told one line for the user (an error or a notice), without a newline."""


def _quiet(_line: str) -> None:
    pass


def warm_up(sources: Iterable[Source]) -> None:
    """Start the row workers now when one of ``sources`` (opened, not read yet) will need
    them, so they are ready when its first rows are."""
    rowpool.warm_up([s for s in sources if s.row_decoder() is not None])


class SourceRows:
    """The rows of one source, in file order, read as its scan finds them.

    Drive :meth:`scan` to index; between two steps of it (and after it), :meth:`read`
    gives the rows known by then. :attr:`done` is how many rows were given (or skipped as
    known).
    """

    def __init__(
        self,
        source: Source,
        *,
        keep: int = KEEP_ALL,
        defer_keys: bool = True,
        correct_keys: bool = True,
        skip_known: bool = False,
        whole: bool = False,
        say: Say = _quiet,
    ) -> None:
        """Read ``source``.

        Args:
            source: The source.
            keep: The source remembers rows before this index (the TUI sorts and counts
                them; ``ls`` keeps the first ones for the index cache): beyond them,
                nothing is kept and memory stays flat. Problem rows are always kept.
            defer_keys: Every row is read, so each record's key is checked when its row
                is (the scan does not read every byte of every line to check them).
            correct_keys: A key found wrong then renames the records from it on; without
                it (a reader that shows references as they come) nothing is renamed and
                :attr:`misread` says which record it was: read the source again without
                deferring.
            skip_known: Rows the source knows already (restored from the index cache,
                or read for the screen) are skipped, not given again.
            whole: Every row is read now, without a pause (a command line's reading: see
                :meth:`~trajtui.core.source.RowDecoder.read_whole`).
            say: Told what the user should hear of the row workers (one that died), a
                line each.
        """
        self.source = source
        self.done = 0
        self._keep = keep
        self._skip_known = skip_known
        self._say = say
        self._decoder = source.row_decoder()
        self._filler: RowFiller | None = None
        self._started = False
        if self._decoder is not None and defer_keys:
            self._decoder.defer_key_checks(correct=correct_keys)
        if self._decoder is not None and whole:
            self._decoder.read_whole()

    @property
    def misread(self) -> int | None:
        """The record whose key proved wrong when keys were deferred without correction."""
        return None if self._decoder is None else self._decoder.misread_key

    def scan(self) -> Iterator[ScanProgress]:
        """Index the source, yielding progress (the rows found are then for :meth:`read`)."""
        for progress in self.source.scan():
            if not self._started and self._decoder is not None:
                # made once the scan began: it first forgets an unfinished last line;
                # rows restored from the index cache are not decoded again
                self._filler = self._decoder.filler(self.source.known_prefix())
            self._started = True
            yield progress

    def read(self, *, wait: bool = True, until: float | None = None) -> Iterator[tuple[int, Entry]]:
        """``(index, entry)`` of the rows known now, from :attr:`done` on.

        Args:
            wait: Wait for the row workers' batches under way (without it, only those
                finished: the caller goes on indexing meanwhile).
            until: A :func:`time.monotonic` time after which reading stops at the next
                batch (the rest on the next call).
        """
        source = self.source
        if self._skip_known:
            self.done = max(self.done, source.known_prefix())
        filler = self._filler
        if filler is not None and self._decoder is not None:
            start = filler.done
            while self.done < start:  # known already (restored), not decoded again
                yield from self._entries(start)
            take = self._decoder.take
            keep = self._keep
            for first, rows in filler.fill(len(source), wait=wait):
                for notice in rowpool.notices():  # a worker died: said once, rows read again
                    self._say(notice)
                for k, row in enumerate(rows):
                    i = first + k
                    yield i, take(i, row, keep=i < keep)
                self.done = max(self.done, first + len(rows))
                if until is not None and time.monotonic() > until:
                    return
            self.done = max(self.done, filler.done)
            return
        n = len(source)
        while self.done < n:
            yield from self._entries(n)
            if until is not None and time.monotonic() > until:
                return

    def _entries(self, hi: int) -> Iterator[tuple[int, Entry]]:
        """One batch of the rows from :attr:`done` to ``hi`` (read together)."""
        lo = self.done
        for k, entry in enumerate(self.source.entries(lo, hi, keep=lo < self._keep)):
            self.done = lo + k + 1
            yield lo + k, entry

    def close(self) -> None:
        """Stop the row workers' jobs not started; rows left are read here from now on."""
        if self._filler is not None:
            self._filler.close()
            self._filler = None


def read_rows(
    sources: Iterable[Source],
    *,
    keep: int = 0,
    save: bool = False,
    skip_known: bool = False,
    say: Say = _quiet,
    progress: Callable[[Source, ScanProgress], None] | None = None,
    stopped: Callable[[], bool] = lambda: False,
) -> Iterator[tuple[Source, Entry]]:
    """Every row of every source in turn, ``(source, entry)``, as soon as it is known
    (a big file's first rows while the rest is still indexed).

    Args:
        sources: The sources (a workspace's).
        keep: Rows of each source before this index are kept (see :class:`SourceRows`).
        save: Save each source's index in the index cache once it is read.
        skip_known: Rows a source knows already (restored from the index cache) are not
            given (a caller reading them from the source afterwards).
        say: Told each error (``PATH: message``) and notice, one line each; a source that
            fails to read is said and its rows read so far kept, and the next one read.
        progress: Told each source's scan progress.
        stopped: Polled at each step of a scan; reading ends when it turns true.
    """
    rowpool.for_command_line()
    for source in sources:
        rows = SourceRows(
            source,
            keep=keep,
            skip_known=skip_known,
            whole=True,
            say=lambda notice: say(f"trajtui: {notice}"),
        )
        warmed = False
        try:
            for step in rows.scan():
                if not warmed:  # the index cache is read: the rows it has are known
                    warmed = True
                    if source.known_prefix() < len(source):
                        # the workers a big file needs, forked now while this process may
                        # (the filler would start them from a thread: spawned, each
                        # importing the program again)
                        warm_up([source])
                if progress is not None:
                    progress(source, step)
                if stopped():
                    source.cancel()
                    return
                for _, entry in rows.read(wait=False):
                    yield source, entry
            for _, entry in rows.read(wait=True):
                yield source, entry
        except OSError as err:
            say(f"{source.path}: {err.strerror or err}")
        finally:
            rows.close()
        for _, entry in rows.read():
            yield source, entry
        if save:
            source.save_index()
