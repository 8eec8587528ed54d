"""Messages posted by the TUI's workers (threads post, the screen reacts)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textual.message import Message

from trajtui.core.jsonl.index import ScanProgress
from trajtui.core.model import Problem, Run
from trajtui.core.workspace import Workspace


@dataclass
class Loaded(Message):
    """The loader read more of a source.

    Attributes:
        source: Index of the source.
        progress: Indexing progress.
        read: Entries whose summaries are read.
        done: The source is indexed and every summary read.
        error: Why reading stopped early, if it did.
    """

    source: int
    progress: ScanProgress
    read: int
    done: bool = False
    error: str | None = None

    def can_replace(self, message: Message) -> bool:
        """A newer progress message of the same source supersedes an older one."""
        return (
            isinstance(message, Loaded)
            and message.source == self.source
            and not message.done
            and not message.error
        )


@dataclass
class RunLoaded(Message):
    """A run was read whole (or could not be).

    Attributes:
        source: Index of the source.
        entry: Index of the run in the source.
        token: Which request this answers (older answers are ignored).
        run: The run, or None.
        problem: Why it could not be read.
    """

    source: int
    entry: int
    token: int
    run: Run | None
    problem: Problem | None = None


@dataclass
class KeysMisread(Message):
    """A source's keys were taken from the heads of its lines while indexing, and one
    record proved to spell its key again later in its line: the file must be read again
    with every key checked.

    Attributes:
        source: Index of the source.
        record: The record whose key was wrong.
    """

    source: int
    record: int


@dataclass
class AllLoaded(Message):
    """Every source is indexed and summarised."""


@dataclass
class ChangedOnDisk(Message):
    """The sources were looked at for changes on disk (the look is over).

    Attributes:
        changes: ``(source index, how)`` for each source that changed: ``appended``,
            ``truncated``, ``replaced``, ``deleted`` or ``unreadable``.
    """

    changes: tuple[tuple[int, str], ...]
    trees: tuple[str, ...] = ()
    """Opened directories whose files changed (names added or removed), when following."""
    lost: tuple[str, ...] = ()
    """Opened paths with nothing readable that changed on disk (a file that may be back)."""


@dataclass
class Opened(Message):
    """The paths are open (a worker opened them).

    Attributes:
        ws: What was opened.
        settings: The saved settings, when they were read too (at start).
        goto: The reference to open the main screen at.
    """

    ws: Workspace
    settings: dict[str, Any] | None
    goto: str | None
