"""Loading: the main screen's thread workers and what it does with their progress.

The loader indexes and summarises every source (rows on screen first), then saves the index
of each in the index cache (:mod:`trajtui.core.jsonl.indexcache`); a run is read whole
in its own worker; a reference is resolved in another; the files are watched for changes.
Workers only post messages or call back on the UI thread: nothing here waits on I/O. A part
composed into the screen, reaching it through :class:`Loading`; the screen hands it the
workers' messages (:class:`~trajtui.ui.messages.Loaded` and the like).
"""

from __future__ import annotations

import time
from functools import partial
from typing import TYPE_CHECKING, Protocol

from textual.screen import Screen
from textual.worker import Worker, get_current_worker

from trajtui.core.io import remote
from trajtui.core.io.text import visible
from trajtui.core.jsonl.index import FileChanged, ScanProgress
from trajtui.core.model import Problem
from trajtui.core.refs import RefError
from trajtui.core.rows import SourceRows
from trajtui.core.source import LoadError, Source
from trajtui.ui import heap
from trajtui.ui.host import host
from trajtui.ui.messages import AllLoaded, KeysMisread, Loaded, RunLoaded
from trajtui.ui.screens.main.panes import Panes, Parts
from trajtui.ui.widgets.run_list import ColumnHeader

if TYPE_CHECKING:
    pass

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


class Loading(Panes, Parts, Protocol):
    """What the loader needs of the screen."""

    def cursor_run(self) -> tuple[int, int] | None:
        """``(source, entry)`` of the run the user is on."""

    def display_ref(self, ref: str) -> str:
        """``ref`` as the user types it."""


class Loader:
    """The workers of the main screen, and the progress they report."""

    def __init__(self, screen: Loading, node: Screen[None]) -> None:
        """Args:
        screen: The screen loaded for.
        node: The same screen as a Textual screen (its workers, messages and timers).
        """
        self.screen = screen
        self.node = node

    def start(self) -> None:
        """Start reading the sources, and their bookmarks."""
        # the app and its widgets: no full collection walks them
        heap.keep(self.node.app.screen_stack)
        self.load_sources()
        self.screen.bookmarks.read()

    def load_sources(self, only: tuple[int, ...] | None = None) -> None:
        """Index and summarise every source (or those in ``only``, to read what was
        appended), visible rows first; post progress (in a worker)."""
        self.node.run_worker(
            partial(self._load, only),
            name="load_sources",
            group="loader",
            exclusive=True,
            thread=True,
            exit_on_error=False,
        )

    def _load(self, only: tuple[int, ...] | None) -> None:
        worker = get_current_worker()
        posted = 0.0  # when progress was last posted
        strict = host(self.node).strict_keys
        for s, source in enumerate(self.screen.ws.sources):
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
                    seeking = self.screen.state.pending_goto is not None or (
                        self.screen.state.run is None and self.screen.state.run_problem is None
                    )
                    read = self._summarise(s, rows, SUMMARY_BUDGET, wait=False, more=not seeking)
                    if self._misread(s, rows):
                        return
                    if posted and self._quiet(progress, posted, listed == len(source)):
                        continue
                    posted, listed = time.monotonic(), len(source)
                    self.node.post_message(Loaded(s, progress, read))
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
                    self.node.post_message(Loaded(s, _done_progress(source), read))
            except (OSError, FileChanged) as err:
                self.node.post_message(
                    Loaded(s, _done_progress(source), read, done=True, error=str(err))
                )
                continue
            finally:
                rows.close()
            self.node.post_message(Loaded(s, _done_progress(source), read, done=True))
            if not worker.is_cancelled:
                source.save_index()  # for the next open (here, off the UI thread)
        # Keep serving requests for rows drawn later (e.g. after a sort), then stop.
        self.node.post_message(AllLoaded())

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
        state, requests = self.screen.state, self.screen.store.requests

        def over() -> bool:
            return state.first_drawn or state.pending_goto is not None or worker.is_cancelled

        # woken by the screen: the first screen drawn, a reference given, rows drawn unread
        while not over() and (left := deadline - time.monotonic()) > 0:
            state.wake.wait_for(lambda: over() or bool(requests), left)
            if requests:
                read = self._summarise(s, rows, 0.02, more=False)
                self.node.post_message(Loaded(s, progress, read))
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
        ref = self.screen.state.pending_goto
        if ref is None:
            return False
        if time.monotonic() - posted >= SEEKING_PROGRESS_EVERY:
            return False
        return not self.screen.ws.knows(ref)

    def _goto_first(self, worker: Worker[None]) -> None:
        """While a reference found is on its way to the screen (its run read, built and
        drawn), leave the interpreter to it: wait, at most :data:`GOTO_WAIT`."""
        state = self.screen.state
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
        self.node.post_message(KeysMisread(s, record))
        return True

    def _tell_from_thread(self, line: str) -> None:
        """Say what the row workers' pipeline tells (a worker that died), as a toast."""
        self.node.app.call_from_thread(self.node.notify, line, severity="warning", timeout=10)

    def keys_misread(self, message: KeysMisread) -> None:
        """Read the files again, this one with every key checked while indexing."""
        source = self.screen.ws.sources[message.source]
        app = host(self.node)
        app.strict_keys.add(source.path)
        line = source.line_of(message.record) or 0
        self.node.notify(
            f"{visible(remote.shown(source.path), keep_newlines=False)}:{line}: a record spells its key "
            "twice; reading the file again with every key checked",
            severity="warning",
            timeout=8,
        )
        ref = self.screen.state.pending_goto
        if ref is None and self.screen.state.run is not None:
            ref = self.screen.display_ref(self.screen.state.run.ref)
        # after the screen's own pending callbacks (a screen replaced before they ran
        # leaves Textual's tabs looking for what is gone)
        self.node.call_after_refresh(app.reload, ref)

    def _summarise(
        self, s: int, rows: SourceRows, budget: float, *, wait: bool = True, more: bool = True
    ) -> int:
        """Read summaries for a while: rows on screen first, then (when ``more``) in file
        order (through the row pipeline, on every core when the source can; without
        ``wait`` only the rows its workers have finished). Returns the rows read in file
        order."""
        deadline = time.monotonic() + budget
        requests = self.screen.store.requests
        while requests:
            try:
                rs, ri = requests.popleft()
            except IndexError:
                break
            src = self.screen.ws.sources[rs]
            if ri < len(src) and src.peek(ri) is None:
                src.entry(ri)
                self.screen.store.answered = True
        if not more:
            return max(rows.done, rows.source.known_prefix())
        note = self.screen.store.note_read
        for i, entry in rows.read(wait=wait, until=deadline):
            note(s, i, entry)
            if not i & 63:
                time.sleep(0)  # let the UI thread have the interpreter now and then
        return rows.done

    def loaded(self, message: Loaded) -> None:
        """A worker's progress: list the rows read, count them, draw (now and then)."""
        state, store = self.screen.state, self.screen.store
        state.progress[message.source] = (
            message.progress.fraction,
            message.read,
            message.done,
        )
        if message.error:
            self.node.notify(
                f"{remote.shown(self.screen.ws.sources[message.source].path)}: {message.error}",
                severity="error",
                timeout=8,
            )
        state.grew = store.extend() or state.grew
        source = self.screen.ws.sources[message.source]
        if source.revision != state.revisions.get(message.source, 0):
            # a row listed partial was revised (a session read on): counted and drawn again
            state.revisions[message.source] = source.revision
            store.recount(message.source)
            state.revised = True
            state.partial_sources.add(message.source)
        if message.done and message.source in state.partial_sources:
            state.partial_sources.discard(message.source)
            self._reload_revised(message.source)
        self._count()
        # Drawn at most 4 times a second while loading: the UI thread's turns at the
        # interpreter are turns the loader waits for.
        answered, store.answered = store.answered, False
        if (
            message.done
            or answered
            or time.monotonic() - state.last_title > 0.25
            or not state.shown_any
        ):
            if state.grew:
                self.screen.run_list.grow()
                state.grew = False
                state.shown_any = store.shown > 0
            if state.revised:
                state.revised = False
                self.screen.run_list.redraw()
            self.screen.run_list.loaded_more()
            self.node.query_one("#columns", ColumnHeader).refresh()
            self.screen.frame.fit_columns()
            self.screen.frame.update_title()
        if not state.first_drawn:  # rows drawn unread are read first: tell the loader
            self.node.call_after_refresh(state.wake.notify)
        if (
            state.run is None
            and state.run_problem is None
            and state.pending_goto is None
            and state.goto_since is None  # (a reference found, on its way: not the first run)
        ):
            self.screen.selection.select_first_run()
        if state.pending_goto is not None:
            self.screen.going.try_pending_goto(final=False)

    def _reload_revised(self, s: int) -> None:
        """Source ``s`` was listed partial and is now read whole: the shown run, if it is
        one of its runs, is read again (its timeline and figures complete)."""
        key = self.screen.state.run_key
        if key is not None and key[0] == s:
            self.screen.selection.load_run(*key)

    def _count(self) -> bool:
        """Count the summaries read so far, :data:`COUNT_BUDGET` at a time, the rest after
        :data:`COUNT_PAUSE` (a run list restored whole from the index cache, or rows read
        faster than counted, are counted over several ticks, keys answered between them).
        Returns True when every summary read is counted."""
        done = self.screen.state.counted = self.screen.store.count_new(budget=COUNT_BUDGET)
        if not done and not self.screen.state.counting:
            self.screen.state.counting = True
            self.node.set_timer(COUNT_PAUSE, self._count_more)
        return done

    def _count_more(self) -> None:
        self.screen.state.counting = False
        # while files are read, the numbers are drawn with the progress (4 times a second)
        if self._count() or self.screen.state.loading_done:
            self.screen.run_list.loaded_more()
            self.node.query_one("#columns", ColumnHeader).refresh()
            self.screen.frame.fit_columns()
            self.screen.frame.update_title()

    def all_loaded(self, message: AllLoaded) -> None:
        """Every source is read (or what was appended to it)."""
        state, store = self.screen.state, self.screen.store
        state.loading_done = True
        heap.keep(self.node.app.screen_stack)  # the summaries read: no full collection walks them
        self.screen.run_list.reading = False
        self.screen.run_list.redraw()
        for s in state.following:
            # The last record was read again (it had no newline): count afresh.
            store.recount(s)
            self.screen.run_list.redraw()
        key = state.run_key
        if key is not None and (
            (state.following and state.run_problem is not None)
            # the last run of a followed file: it may have grown (a session's steps)
            or (key[0] in state.following and key[1] == len(self.screen.ws.sources[key[0]]) - 1)
        ):
            self.screen.selection.load_run(*key)
        state.following.clear()
        if not store.ordered:
            self.screen.frame.refresh_rows(keep=self.screen.cursor_run())
        self.screen.frame.update_title()
        self._follow_to_end()
        wanted = state.wanted[2]
        if wanted.active:  # runs read since the words were searched
            self.screen.finding.search_inputs(wanted)
        if state.pending_goto is not None:
            self.screen.going.try_pending_goto(final=True)

    # -- one run -----------------------------------------------------------------------------

    def read_run(self, s: int, i: int, token: int) -> None:
        """Read entry ``i`` of source ``s`` whole (in a worker); post it as
        :class:`~trajtui.ui.messages.RunLoaded` with ``token``."""
        self.node.run_worker(
            partial(self._read_run, s, i, token),
            name="_read_run",
            group="run",
            exclusive=True,
            thread=True,
            exit_on_error=False,
        )

    def _read_run(self, s: int, i: int, token: int) -> None:
        source = self.screen.ws.sources[s]
        try:
            run = source.run(i)
        except LoadError as err:
            self.node.post_message(RunLoaded(s, i, token, None, err.problem))
            return
        except (OSError, FileChanged) as err:
            self.node.post_message(
                RunLoaded(s, i, token, None, Problem(remote.shown(source.path), None, str(err)))
            )
            return
        self.node.post_message(RunLoaded(s, i, token, run))

    # -- references ------------------------------------------------------------------------

    def resolve_goto(self, ref: str, final: bool) -> None:
        """Resolve a reference (may read one run) and select it (in a worker)."""
        self.node.run_worker(
            partial(self._resolve_goto, ref, final),
            name="resolve_goto",
            group="goto",
            exclusive=True,
            thread=True,
            exit_on_error=False,
        )

    def _resolve_goto(self, ref: str, final: bool) -> None:
        try:
            target = self.screen.ws.resolve(ref)
        except RefError as err:
            if not final and not all(s.complete for s in self.screen.ws.sources):
                self.node.app.call_from_thread(self.screen.going.defer_goto, ref)
                return
            self.node.app.call_from_thread(self.screen.going.goto_failed, ref, str(err))
            return
        self.node.app.call_from_thread(self.screen.going.select_target, target)

    def read_appended(self, source: int) -> None:
        """Read the records appended to ``source`` (every other one is read)."""
        self.screen.state.loading_done = False
        self.screen.run_list.reading = True
        self.screen.state.following.add(source)
        self.load_sources((source,))

    def _follow_to_end(self) -> None:
        """After appended records were read: to the last row, if the cursor was at the end."""
        if self.screen.state.stay_at_end:
            self.screen.state.stay_at_end = False
            self.screen.run_list.action_last()


def _done_progress(source: Source) -> ScanProgress:
    return ScanProgress(1, 1, len(source), finished=True)
