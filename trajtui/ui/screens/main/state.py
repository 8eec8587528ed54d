"""The main screen's state: one typed object that every part of the screen reads.

What the screen shows (the run, its subject, the view modes), where loading is, and the
requests under way (a reference to go to, a sort or filter, a search of whole inputs) live
here and nowhere else; the widgets hold only what they draw. Tests read it too
(``screen.state.loading_done``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from trajtui.core.model import Problem, Run
from trajtui.core.source import Target
from trajtui.ui.subjects import NoSubject, SegmentSubject, Subject

if TYPE_CHECKING:
    from textual.timer import Timer

    from trajtui.core import notes
    from trajtui.ui.screens.compare import SideSpec
    from trajtui.ui.screens.grep import GrepResult
    from trajtui.ui.store import Filter
    from trajtui.ui.widgets.match_context import MatchContext


class Wake:
    """What the screen's worker threads wait on instead of sleeping in a loop: the UI
    thread notifies it when something they wait for changes (see :data:`WAKES`), when it
    wants rows read, and when the screen goes (its workers are cancelled)."""

    def __init__(self) -> None:
        self._changed = threading.Condition()

    def notify(self) -> None:
        """Wake every thread waiting (each looks again at what it waits for)."""
        with self._changed:
            self._changed.notify_all()

    def wait_for(self, ready: Callable[[], bool], timeout: float) -> bool:
        """Wait until ``ready()`` (looked at each time the screen notifies), at most
        ``timeout`` seconds. Returns what ``ready()`` last said."""
        timeout = max(0.0, min(timeout, threading.TIMEOUT_MAX))
        with self._changed:
            return self._changed.wait_for(ready, timeout)


WAKES = frozenset({"first_drawn", "pending_goto", "goto_since", "inputs_asked"})
"""The fields a worker thread waits on: setting one notifies :attr:`MainState.wake`."""

SETTLES = frozenset(
    {"loading_done", "counting", "run_wanted", "pending_goto", "goto_target", "goto_since"}
)
"""The fields :attr:`MainState.unsettled` reads: setting one calls :attr:`MainState.changed`."""


@dataclass(slots=True)
class MainState:
    """Everything the main screen's parts share.

    Attributes:
        run: The run on screen (read whole), if any.
        run_key: ``(source, entry)`` of the run selected in the run list.
        run_problem: Why the selected entry could not be read, when it could not.
        subject: What the detail pane shows.
        raw: Objects are shown as they are in the file (``r``).
        unfold: Long values are shown in full (``o``).
    """

    wanted: tuple[str | None, bool, Filter]
    """The sort and filter asked for last (applied once arranged, maybe in a worker)."""
    run: Run | None = None
    run_key: tuple[int, int] | None = None
    run_problem: Problem | None = None
    subject: Subject = field(default_factory=NoSubject)
    raw: bool = False
    unfold: bool = False

    # -- the run under the cursor ------------------------------------------------------------
    run_token: int = 0
    """Number of the latest run asked for (older answers are dropped)."""
    run_moved: float = 0.0
    """When the run list's cursor last moved to another run (monotonic seconds)."""
    run_wanted: Timer | None = None
    """Reads the run under the cursor once moves pause (moves in quick succession)."""

    # -- going to a reference ----------------------------------------------------------------
    links_back: list[str] = field(default_factory=list)
    """The steps runs were opened from by their links (``open_link``), the last last:
    ``link_back`` returns to it."""
    pending_goto: str | None = None
    """A reference to go to once indexing has found it."""
    pending_mark: str | None = None
    """The reference of the run (or trial) marked for compare before a reload: marked
    again once the files are read."""
    goto_target: Target | None = None
    """What a reference names inside the run being read for it."""
    goto_since: float | None = None
    """When the reference being gone to was found (None: none is on its way to the screen);
    the loader leaves the interpreter to it meanwhile."""

    # -- loading -------------------------------------------------------------------------------
    progress: dict[int, tuple[float, int, bool]] = field(default_factory=dict)
    """Each source's ``(share indexed, summaries read, done)``."""
    loading_done: bool = False
    """Every source is indexed and summarised (until appended records are read)."""
    counting: bool = False
    """A slice of counting is due on a timer."""
    counted: bool = True
    """Every summary read is counted (the title's numbers are whole)."""
    grew: bool = False
    """Rows were added and not drawn yet."""
    shown_any: bool = False
    """The run list has drawn a row."""
    first_drawn: bool = False
    """The first screen is drawn: a run, and the rows on screen read (indexing a big file
    waits for it, a moment at most)."""
    last_title: float = 0.0
    """When the title was last drawn (monotonic seconds)."""
    revisions: dict[int, int] = field(default_factory=dict)
    """``Source.revision`` of each source, when it was last counted."""
    revised: bool = False
    """A listed row was replaced (a partial row read on) and is not drawn yet."""
    partial_sources: set[int] = field(default_factory=set)
    """Sources listed with partial rows, not read whole yet."""

    # -- changes on disk -----------------------------------------------------------------------
    changed_noted: set[int] = field(default_factory=set)
    """Sources whose change on disk was told."""
    following: set[int] = field(default_factory=set)
    """Sources whose appended records are being read."""
    stay_at_end: bool = False
    """Go to the last row once appended records are read (following at the end)."""
    checking: bool = False
    """A look for changes on disk is under way."""
    last_look: float = field(default_factory=time.monotonic)
    looks: int = 0
    tree_marks: dict[str, object] = field(default_factory=dict)
    """How each opened directory (or unreadable path) was at the last look."""
    unread: set[str] | None = None
    """Opened paths nothing was read from."""

    # -- finding -------------------------------------------------------------------------------
    search_origin: Any = None
    """The pane the ``/`` prompt searches."""
    arrangement: int = 0
    """Number of the latest sort or filter asked for (the latest keystroke wins)."""
    inputs_asked: int = 0
    """Number of the latest search of the filter's words in whole inputs."""
    grep: GrepResult | None = None
    """The hits of the search screen, while ``n``/``N`` move between them."""
    grep_mark: tuple[str, MatchContext] | None = None
    """The match to mark in the detail once the hit being opened is selected, and the text
    around it (which of the matches on screen it is)."""
    sql_query: str = ""
    """The query of the query screen (``Q``), typed again at its next opening."""

    # -- extra panes ---------------------------------------------------------------------------
    pane_whole: set[str] = field(default_factory=set)
    """Panes that follow the step and list every row instead (their toggle)."""
    pane_subjects: dict[str, SegmentSubject] = field(default_factory=dict)
    """What each extra pane's preview shows."""

    # -- marks and compare ---------------------------------------------------------------------
    marks: dict[tuple[int, str], notes.Note] = field(default_factory=dict)
    """``(source index, reference in the source)`` -> its bookmark or note."""
    marked: SideSpec | None = None
    """Side A, once ``c`` marked it."""

    wake: Wake = field(default_factory=Wake, repr=False, compare=False)
    """Notified when a field of :data:`WAKES` changes."""
    changed: Callable[[], None] | None = field(default=None, repr=False, compare=False)
    """Called when a field of :data:`SETTLES` changes (the screen's settled signal)."""

    def __setattr__(self, name: str, value: object) -> None:
        object.__setattr__(self, name, value)
        if name in WAKES:
            wake = getattr(self, "wake", None)  # (None while the dataclass is made)
            if wake is not None:
                wake.notify()
        if name in SETTLES:
            changed = getattr(self, "changed", None)
            if changed is not None:
                changed()

    @property
    def unsettled(self) -> list[str]:
        """What the screen started and is still on its way, in words (empty: settled)."""
        out = []
        if not self.loading_done:
            out.append("reading the files")
        if self.counting:
            out.append("counting the runs read")
        if self.run_wanted is not None:
            out.append("the run under the cursor (read once moves pause)")
        if self.pending_goto is not None:
            out.append(f"going to {self.pending_goto!r} (still to find)")
        if self.goto_target is not None or self.goto_since is not None:
            out.append("a reference gone to (its run still to read and draw)")
        return out
