"""Loading: the main screen's thread workers and what it does with their progress.

The loader indexes and summarises every source (rows on screen first), then saves the index
of each in the index cache (:mod:`trajtui.core.jsonl.indexcache`); a run is read whole
in its own worker; a reference is resolved in another; the files are watched for changes.
Workers only post messages or call back on the UI thread: nothing here waits on I/O.
"""

from __future__ import annotations

import time

from textual import on, work
from textual.worker import Worker, get_current_worker

from trajtui.core.io.text import visible
from trajtui.core.jsonl.index import FileChanged, ScanProgress
from trajtui.core.model import Problem
from trajtui.core.refs import RefError
from trajtui.core.rows import SourceRows
from trajtui.core.source import LoadError, Source
from trajtui.ui import failures, heap
from trajtui.ui.host import host
from trajtui.ui.messages import AllLoaded, KeysMisread, Loaded, RunLoaded
from trajtui.ui.screens.main.selection import Selection
from trajtui.ui.widgets.run_list import ColumnHeader

SUMMARY_BUDGET = 0.03
"""Seconds of summarising between two chunks of indexing."""
FIRST_SCREEN_WAIT = 0.5
"""Seconds indexing waits at most, after the first screenful, for the first screen drawn."""
FIRST_SCREEN_FROM = 32 << 20
"""Bytes left to index from which indexing waits for the first screen (less is indexed in
a few hundredths of a second)."""
GOTO_WAIT = 1.0
"""Seconds reading waits at most for a run gone to (``--goto``, ``:``) to be drawn."""
SEEKING_PROGRESS_EVERY = 0.25
"""Seconds between progress updates while indexing looks for a reference to go to."""
COUNT_BUDGET = 0.02
"""Seconds of counting summaries on the UI thread at a time (the rest on the next tick)."""
COUNT_PAUSE = 0.02
"""Seconds between two slices of counting (the UI thread's time for keys and drawing)."""
PROGRESS_EVERY = 0.25
"""Seconds between two progress messages while a scan lists no new row (a session being
read: each message is a turn of the UI thread the loader waits for)."""


class Loading(Selection):
    """The workers of the main screen, and the progress they report."""

    def _start_loading(self) -> None:
        heap.keep(self.app.screen_stack)  # the app and its widgets: no full collection walks them
        self.load_sources()

    @on(Worker.StateChanged)
    def _hand_failure_to_app(self, event: Worker.StateChanged) -> None:
        """A worker of the screen changed state: the settled signal follows; one that
        failed, the app tells and logs."""
        self._settle_changed()
        failures.hand_to_app(self, event)

    @work(thread=True, exclusive=True, group="loader", exit_on_error=False)
    def load_sources(self, only: tuple[int, ...] | None = None) -> None:
        """Index and summarise every source (or those in ``only``, to read what was
        appended), visible rows first; post progress."""
        worker = get_current_worker()
        posted = 0.0  # when progress was last posted
        strict = host(self).strict_keys
        for s, source in enumerate(self.ws.sources):
            if only is not None and s not in only:
                continue
            # every row is read (in workers, in file order), each key checked then (the
            # scan does not read every byte of every line to check them); not corrected:
            # references are on screen as they are read
            source.partial_rows = True  # (a session is listed at once, revised as read)
            rows = SourceRows(
                source,
                defer_keys=only is None and source.path not in strict,
                correct_keys=False,
                skip_known=True,  # restored from the index cache, or read: not again
                say=self._tell_from_thread,
            )
            read = 0
            listed = -1  # entries listed when progress was last posted
            try:
                for progress in rows.scan():
                    if worker.is_cancelled:
                        source.cancel()
                        return
                    # Until a run is shown, or while a reference is still to find further
                    # on, indexing comes first: only rows on screen are read (the row
                    # workers start after the first screen, not against it).
                    seeking = self.state.pending_goto is not None or (
                        self.state.run is None and self.state.run_problem is None
                    )
                    read = self._summarise(s, rows, SUMMARY_BUDGET, wait=False, more=not seeking)
                    if self._misread(s, rows):
                        return
                    if posted and self._quiet(progress, posted, listed == len(source)):
                        continue
                    posted, listed = time.monotonic(), len(source)
                    self.post_message(Loaded(s, progress, read))
                    self._goto_first(worker)
                    if (
                        s == 0
                        and progress.records
                        and progress.total - progress.done >= FIRST_SCREEN_FROM
                    ):
                        read = self._first_screen_first(worker, s, rows, progress)
                while read < len(source) and not worker.is_cancelled:
                    self._goto_first(worker)  # (a reference given with : meanwhile too)
                    read = self._summarise(s, rows, 0.05, wait=True)
                    if self._misread(s, rows):
                        return
                    self.post_message(Loaded(s, _done_progress(source), read))
            except (OSError, FileChanged) as err:
                self.post_message(
                    Loaded(s, _done_progress(source), read, done=True, error=str(err))
                )
                continue
            finally:
                rows.close()
            self.post_message(Loaded(s, _done_progress(source), read, done=True))
            if not worker.is_cancelled:
                source.save_index()  # for the next open (here, off the UI thread)
        # Keep serving requests for rows drawn later (e.g. after a sort), then stop.
        self.post_message(AllLoaded())

    def _first_screen_first(
        self, worker: Worker[None], s: int, rows: SourceRows, progress: ScanProgress
    ) -> int:
        """With the first screenful of runs indexed, let the first screen be drawn before
        indexing the rest of a big file (they share the interpreter): wait until a run and
        the rows on screen are drawn, reading those rows meanwhile, at most
        :data:`FIRST_SCREEN_WAIT` (never for a reference to go to). Returns the rows read
        in file order (as :meth:`_summarise`)."""
        deadline = time.monotonic() + FIRST_SCREEN_WAIT
        read = rows.done
        state, requests = self.state, self.store.requests

        def over() -> bool:
            return state.first_drawn or state.pending_goto is not None or worker.is_cancelled

        # woken by the screen: the first screen drawn, a reference given, rows drawn unread
        while not over() and (left := deadline - time.monotonic()) > 0:
            state.wake.wait_for(lambda: over() or bool(requests), left)
            if requests:
                read = self._summarise(s, rows, 0.02, more=False)
                self.post_message(Loaded(s, progress, read))
        return read

    def _quiet(self, progress: ScanProgress, posted: float, same: bool) -> bool:
        """Progress goes unposted while a reference to go to is still to find: drawing it
        would take turns at the interpreter from the indexing that finds it (posted every
        :data:`SEEKING_PROGRESS_EVERY`, and at once when the reference is indexed); and
        while the scan lists nothing new (``same``: a session read whole), every
        :data:`PROGRESS_EVERY`."""
        if progress.finished:
            return False
        if same and time.monotonic() - posted < PROGRESS_EVERY:
            return True
        ref = self.state.pending_goto
        if ref is None:
            return False
        if time.monotonic() - posted >= SEEKING_PROGRESS_EVERY:
            return False
        return not self.ws.knows(ref)

    def _goto_first(self, worker: Worker[None]) -> None:
        """While a reference found is on its way to the screen (its run read, built and
        drawn), leave the interpreter to it: wait, at most :data:`GOTO_WAIT`."""
        state = self.state
        while (since := state.goto_since) is not None and not worker.is_cancelled:
            left = since + GOTO_WAIT - time.monotonic()
            if left <= 0:
                return
            # woken when the reference is drawn (or another given), or the screen goes
            state.wake.wait_for(lambda: state.goto_since != since or worker.is_cancelled, left)

    def _misread(self, s: int, rows: SourceRows) -> bool:
        """A key taken from a line's head proved wrong: say so (the file is read again)."""
        record = rows.misread
        if record is None:
            return False
        rows.source.cancel()
        self.post_message(KeysMisread(s, record))
        return True

    def _tell_from_thread(self, line: str) -> None:
        """Say what the row workers' pipeline tells (a worker that died), as a toast."""
        self.app.call_from_thread(self.notify, line, severity="warning", timeout=10)

    def on_keys_misread(self, message: KeysMisread) -> None:
        """Read the files again, this one with every key checked while indexing."""
        source = self.ws.sources[message.source]
        app = host(self)
        app.strict_keys.add(source.path)
        line = source.line_of(message.record) or 0
        self.notify(
            f"{visible(source.path, keep_newlines=False)}:{line}: a record spells its key "
            "twice; reading the file again with every key checked",
            severity="warning",
            timeout=8,
        )
        ref = self.state.pending_goto
        if ref is None and self.state.run is not None:
            ref = self.display_ref(self.state.run.ref)
        # after the screen's own pending callbacks (a screen replaced before they ran
        # leaves Textual's tabs looking for what is gone)
        self.call_after_refresh(app.reload, ref)

    def _summarise(
        self, s: int, rows: SourceRows, budget: float, *, wait: bool = True, more: bool = True
    ) -> int:
        """Read summaries for a while: rows on screen first, then (when ``more``) in file
        order (through the row pipeline, on every core when the source can; without
        ``wait`` only the rows its workers have finished). Returns the rows read in file
        order."""
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
                self.store.answered = True
        if not more:
            return max(rows.done, rows.source.known_prefix())
        note = self.store.note_read
        for i, entry in rows.read(wait=wait, until=deadline):
            note(s, i, entry)
            if not i & 63:
                time.sleep(0)  # let the UI thread have the interpreter now and then
        return rows.done

    def on_loaded(self, message: Loaded) -> None:
        self.state.progress[message.source] = (
            message.progress.fraction,
            message.read,
            message.done,
        )
        if message.error:
            self.notify(
                f"{self.ws.sources[message.source].path}: {message.error}",
                severity="error",
                timeout=8,
            )
        self.state.grew = self.store.extend() or self.state.grew
        source = self.ws.sources[message.source]
        if source.revision != self.state.revisions.get(message.source, 0):
            # a row listed partial was revised (a session read on): counted and drawn again
            self.state.revisions[message.source] = source.revision
            self.store.recount(message.source)
            self.state.revised = True
            self.state.partial_sources.add(message.source)
        if message.done and message.source in self.state.partial_sources:
            self.state.partial_sources.discard(message.source)
            self._reload_revised(message.source)
        self._count()
        # Drawn at most 4 times a second while loading: the UI thread's turns at the
        # interpreter are turns the loader waits for.
        answered, self.store.answered = self.store.answered, False
        if (
            message.done
            or answered
            or time.monotonic() - self.state.last_title > 0.25
            or not self.state.shown_any
        ):
            if self.state.grew:
                self.run_list.grow()
                self.state.grew = False
                self.state.shown_any = self.store.shown > 0
            if self.state.revised:
                self.state.revised = False
                self.run_list.redraw()
            self.run_list.loaded_more()
            self.query_one("#columns", ColumnHeader).refresh()
            self._fit_columns()
            self._update_title()
        if not self.state.first_drawn:  # rows drawn unread are read first: tell the loader
            self.call_after_refresh(self.state.wake.notify)
        if (
            self.state.run is None
            and self.state.run_problem is None
            and self.state.pending_goto is None
            and self.state.goto_since is None  # (a reference found, on its way: not the first run)
        ):
            self._select_first_run()
        if self.state.pending_goto is not None:
            self._try_pending_goto(final=False)

    def _reload_revised(self, s: int) -> None:
        """Source ``s`` was listed partial and is now read whole: the shown run, if it is
        one of its runs, is read again (its timeline and figures complete)."""
        key = self.state.run_key
        if key is not None and key[0] == s:
            self._load_run(*key)

    def _count(self) -> bool:
        """Count the summaries read so far, :data:`COUNT_BUDGET` at a time, the rest after
        :data:`COUNT_PAUSE` (a run list restored whole from the index cache, or rows read
        faster than counted, are counted over several ticks, keys answered between them).
        Returns True when every summary read is counted."""
        done = self.state.counted = self.store.count_new(budget=COUNT_BUDGET)
        if not done and not self.state.counting:
            self.state.counting = True
            self.set_timer(COUNT_PAUSE, self._count_more)
        return done

    def _count_more(self) -> None:
        self.state.counting = False
        # while files are read, the numbers are drawn with the progress (4 times a second)
        if self._count() or self.state.loading_done:
            self.run_list.loaded_more()
            self.query_one("#columns", ColumnHeader).refresh()
            self._fit_columns()
            self._update_title()

    def on_all_loaded(self, message: AllLoaded) -> None:
        self.state.loading_done = True
        heap.keep(self.app.screen_stack)  # the summaries read: no full collection walks them
        self.run_list.reading = False
        self.run_list.redraw()
        for s in self.state.following:
            # The last record was read again (it had no newline): count afresh.
            self.store.recount(s)
            self.run_list.redraw()
        key = self.state.run_key
        if key is not None and (
            (self.state.following and self.state.run_problem is not None)
            # the last run of a followed file: it may have grown (a session's steps)
            or (key[0] in self.state.following and key[1] == len(self.ws.sources[key[0]]) - 1)
        ):
            self._load_run(*key)
        self.state.following.clear()
        if not self.store.ordered:
            self._refresh_rows(keep=self.cursor_run())
        self._update_title()
        self._follow_to_end()
        wanted = self.state.wanted[2]
        if wanted.active:  # runs read since the words were searched
            self._search_inputs(wanted)
        if self.state.pending_goto is not None:
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

    # -- what the disk watch (changes.py) asks of the screen ------------------------------

    def read_appended(self, source: int) -> None:
        """Read the records appended to ``source`` (every other one is read)."""
        self.state.loading_done = False
        self.run_list.reading = True
        self.state.following.add(source)
        self.load_sources((source,))

    def at_end(self) -> bool:
        """The run list's cursor is on its last row (following keeps it there)."""
        rows = self.run_list.row_count
        return rows == 0 or self.run_list.cursor >= rows - 1

    def shown_ref(self) -> str | None:
        """The reference of the run on screen as the user types it (None: no run)."""
        run = self.state.run
        return None if run is None else self.display_ref(run.ref)

    def update_title(self) -> None:
        """Draw the header line and the run list's titles again."""
        self._update_title()

    def _follow_to_end(self) -> None:
        """After appended records were read: to the last row, if the cursor was at the end."""
        if self.state.stay_at_end:
            self.state.stay_at_end = False
            self.run_list.action_last()


def _done_progress(source: Source) -> ScanProgress:
    return ScanProgress(1, 1, len(source), finished=True)
