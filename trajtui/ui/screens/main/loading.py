"""Loading: the main screen's thread workers and what it does with their progress.

The loader indexes and summarises every source (rows on screen first), then saves the index
of each in the index cache (:mod:`trajtui.core.indexcache`); a run is read whole
in its own worker; a reference is resolved in another; the files are watched for changes.
Workers only post messages or call back on the UI thread: nothing here waits on I/O.
"""

from __future__ import annotations

import time

from textual import on, work
from textual.worker import Worker, get_current_worker

from trajtui.core.index import FileChanged, ScanProgress
from trajtui.core.jsonl_source import JsonlSource
from trajtui.core.model import Problem
from trajtui.core.refs import RefError
from trajtui.core.source import LoadError, Source
from trajtui.core.text import visible
from trajtui.ui import failures
from trajtui.ui.messages import AllLoaded, ChangedOnDisk, Loaded, RunLoaded
from trajtui.ui.screens.main.selection import Selection
from trajtui.ui.widgets.run_list import ColumnHeader

SUMMARY_BUDGET = 0.03
"""Seconds of summarising between two chunks of indexing."""
COUNT_BUDGET = 0.02
"""Seconds of counting summaries on the UI thread at a time (the rest on the next tick)."""


class Loading(Selection):
    """The workers of the main screen, and the progress they report."""

    def _start_loading(self) -> None:
        self.load_sources()

    @on(Worker.StateChanged)
    def _hand_failure_to_app(self, event: Worker.StateChanged) -> None:
        """A worker of the screen failed: the app tells it and logs it."""
        failures.hand_to_app(self, event)

    @work(thread=True, exclusive=True, group="loader", exit_on_error=False)
    def load_sources(self, only: tuple[int, ...] | None = None) -> None:
        """Index and summarise every source (or those in ``only``, to read what was
        appended), visible rows first; post progress."""
        worker = get_current_worker()
        for s, source in enumerate(self.ws.sources):
            if only is not None and s not in only:
                continue
            read = 0  # summaries already read are kept: starting over only looks them up
            try:
                for progress in source.scan():
                    if worker.is_cancelled:
                        source.cancel()
                        return
                    read = self._summarise(s, source, read, SUMMARY_BUDGET)
                    self.post_message(Loaded(s, progress, read))
                while read < len(source) and not worker.is_cancelled:
                    read = self._summarise(s, source, read, 0.05)
                    self.post_message(Loaded(s, _done_progress(source), read))
            except (OSError, FileChanged) as err:
                self.post_message(
                    Loaded(s, _done_progress(source), read, done=True, error=str(err))
                )
                continue
            self.post_message(Loaded(s, _done_progress(source), read, done=True))
            if not worker.is_cancelled:
                source.save_index()  # for the next open (here, off the UI thread)
        # Keep serving requests for rows drawn later (e.g. after a sort), then stop.
        self.post_message(AllLoaded())

    def _summarise(self, s: int, source: Source, read: int, budget: float) -> int:
        """Read summaries for a while: rows on screen first, then in file order."""
        deadline = time.monotonic() + budget
        requests = self.store.requests
        while requests:
            try:
                rs, ri = requests.popleft()
            except IndexError:
                break
            src = self.ws.sources[rs]
            if ri < len(src) and src.peek(ri) is None:
                src.entry(ri)
        n = len(source)
        read = max(read, source.known_prefix())  # restored from the index cache, or read
        while read < n:
            source.entry(read)
            read += 1
            if not read & 63:
                time.sleep(0)  # let the UI thread have the interpreter now and then
            if time.monotonic() > deadline:
                break
        return read

    def on_loaded(self, message: Loaded) -> None:
        self._progress[message.source] = (message.progress.fraction, message.read, message.done)
        if message.error:
            self.notify(
                f"{self.ws.sources[message.source].path}: {message.error}",
                severity="error",
                timeout=8,
            )
        grew = self.store.extend()
        self._count()
        if grew:
            self.run_list.grow()
        if message.done or grew or time.monotonic() - self._last_title > 0.25:
            self.run_list.redraw()
            self.query_one("#columns", ColumnHeader).refresh()
            self._update_title()
        if self.run is None and self.run_problem is None and self._pending_goto is None:
            self._select_first_run()
        if self._pending_goto is not None:
            self._try_pending_goto(final=False)

    def _count(self) -> None:
        """Count the summaries read so far, :data:`COUNT_BUDGET` at a time: a run list
        restored whole from the index cache is counted over a few ticks, keys answered
        between them."""
        if self.store.count_new(budget=COUNT_BUDGET) or self._counting:
            return
        self._counting = True
        self.set_timer(0.005, self._count_more)

    def _count_more(self) -> None:
        self._counting = False
        self._count()
        self.run_list.redraw()
        self.query_one("#columns", ColumnHeader).refresh()
        self._update_title()

    def on_all_loaded(self, message: AllLoaded) -> None:
        self._loading_done = True
        self.run_list.reading = False
        self.run_list.redraw()
        for s in self._following:
            # The last record was read again (it had no newline): count afresh.
            self.store.recount(s)
            self.run_list.redraw()
        if self._following and self.run_problem is not None and self.run_key is not None:
            self._load_run(*self.run_key)
        self._following.clear()
        if not self.store.ordered:
            self._refresh_rows(keep=True)
        self._update_title()
        if self._pending_goto is not None:
            self._try_pending_goto(final=True)

    # -- one run -----------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="run", exit_on_error=False)
    def _read_run(self, s: int, i: int, token: int) -> None:
        source = self.ws.sources[s]
        try:
            run = source.run(i)
        except LoadError as err:
            self.post_message(RunLoaded(s, i, token, None, err.problem))
            return
        except (OSError, FileChanged) as err:
            self.post_message(RunLoaded(s, i, token, None, Problem(source.path, None, str(err))))
            return
        self.post_message(RunLoaded(s, i, token, run))

    # -- references ------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="goto", exit_on_error=False)
    def resolve_goto(self, ref: str, final: bool) -> None:
        """Resolve a reference (may read one run) and select it."""
        try:
            target = self.ws.resolve(ref)
        except RefError as err:
            if not final and not all(s.complete for s in self.ws.sources):
                self.app.call_from_thread(self._defer_goto, ref)
                return
            self.app.call_from_thread(self._goto_failed, ref, str(err))
            return
        self.app.call_from_thread(self.select_target, target)

    # -- changes on disk ---------------------------------------------------------------------

    def _check_changes(self) -> None:
        """Look for changes on disk (every 2 s), unless the last look is still on."""
        if not self._checking:
            self._checking = True
            self._look_for_changes()

    @work(thread=True, group="changes", exit_on_error=False)
    def _look_for_changes(self) -> None:
        """How each source changed on disk (a stat each: off the UI thread, where a slow
        disk or a hung network mount cannot freeze the screen)."""
        found: list[tuple[int, str]] = []
        try:
            for s, source in enumerate(self.ws.sources):
                try:
                    how = source.changed()
                except OSError:
                    how = "unreadable"
                if how:
                    found.append((s, how))
        finally:
            self.post_message(ChangedOnDisk(tuple(found)))

    def on_changed_on_disk(self, message: ChangedOnDisk) -> None:
        """Follow files that grow (a run still being written); tell about other changes."""
        self._checking = False
        for s, how in message.changes:
            source = self.ws.sources[s]
            if how == "appended" and isinstance(source, JsonlSource):
                if self._loading_done:
                    self._loading_done = False
                    self.run_list.reading = True
                    self._following.add(s)
                    self.load_sources((s,))
                continue
            source.forget_cache()
            if s not in self._changed_noted:
                self._changed_noted.add(s)
                path = visible(source.path, keep_newlines=False)
                self.notify(f"{path} {how} on disk: R reloads", severity="warning", timeout=10)
                self._update_title()


def _done_progress(source: Source) -> ScanProgress:
    return ScanProgress(1, 1, len(source), finished=True)
