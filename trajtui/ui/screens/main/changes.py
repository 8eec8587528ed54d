"""Changes on disk: a part of the main screen, composed into it (not one of its layers).

Every :data:`FOLLOW_EVERY` seconds when following (``F``, ``--follow``), else every
:data:`LOOK_EVERY` seconds, a thread worker stats each source, the opened paths nothing was
read from and (when following) walks the opened directories; it posts
:class:`~trajtui.ui.messages.ChangedOnDisk`, which the screen hands to :meth:`DiskWatch.changed`.
Records appended to a file are read where they are; other changes are told, or read again
when following. The part reaches the screen only through :class:`Watched`.
"""

from __future__ import annotations

import os
import time
from functools import partial
from typing import Protocol

from textual.widget import Widget

from trajtui.core.io import remote
from trajtui.core.io.text import visible
from trajtui.ui.host import host
from trajtui.ui.messages import ChangedOnDisk
from trajtui.ui.screens.main.panes import Panes
from trajtui.ui.screens.main.watching import path_mark, tree_mark, unread_paths

FOLLOW_EVERY = 0.5
"""Seconds between two looks for changes on disk when following."""
LOOK_EVERY = 2.0
"""Seconds between two looks for changes on disk otherwise."""
TREE_EVERY = 4
"""Opened directories are walked for new files every this many looks when following."""


class Watched(Panes, Protocol):
    """What the disk watch needs of the screen it watches for."""

    def read_appended(self, source: int) -> None:
        """Read the records appended to ``source`` (every other one is read)."""

    def at_end(self) -> bool:
        """The run list's cursor is on its last row."""

    def shown_ref(self) -> str | None:
        """The reference of the run on screen, as the user types it (None: no run)."""

    def update_title(self) -> None:
        """Draw the header line and the run list's titles again."""


class DiskWatch:
    """Looks for changes on disk and acts on them, for one main screen."""

    def __init__(self, screen: Watched, node: Widget) -> None:
        """Args:
        screen: The screen watched for.
        node: The same screen as a DOM node (its workers, toasts and messages).
        """
        self.screen = screen
        self.node = node

    @property
    def following(self) -> bool:
        """The user follows the files (``F``, ``--follow``)."""
        return host(self.node).follow

    def tick(self) -> None:
        """Every :data:`FOLLOW_EVERY` seconds: look for changes when following, else every
        :data:`LOOK_EVERY` seconds."""
        state = self.screen.state
        now = time.monotonic()
        if self.following or now - state.last_look >= LOOK_EVERY:
            state.last_look = now
            self.check()

    def toggle_follow(self) -> None:
        """``F``: follow the files, or stop."""
        follow = not self.following
        host(self.node).follow = follow
        if follow:
            self.screen.state.tree_marks.clear()
            self.check()
            self.node.notify(
                "following: new records and files appear as they are written; at the end, "
                "the view stays at the end (F stops)",
                timeout=4,
            )
        else:
            self.node.notify("stopped following (changes are still noticed every 2 s)", timeout=3)
        self.screen.update_title()

    def check(self) -> None:
        """Look for changes on disk, unless the last look is still on."""
        state = self.screen.state
        if not state.checking:
            state.checking = True
            self.node.run_worker(
                partial(self._look, self.following),
                thread=True,
                group="changes",
                exit_on_error=False,
            )

    def _look(self, follow: bool) -> None:
        """How each source changed on disk (a stat each: off the UI thread, where a slow
        disk or a hung network mount cannot freeze the screen); whether an opened path
        with nothing readable (missing, empty, a directory, a link loop) changed, so it
        may be back; when following, also which opened directories have files added or
        removed (walked every few looks)."""
        state, ws = self.screen.state, self.screen.ws
        found: list[tuple[int, str]] = []
        trees: list[str] = []
        lost: list[str] = []
        try:
            for s, source in enumerate(ws.sources):
                try:
                    how = source.changed()
                except OSError:
                    how = "unreadable"
                if how:
                    found.append((s, how))
            state.looks += 1
            walk = follow and (state.looks % TREE_EVERY == 1 or not state.tree_marks)
            paths = host(self.node).paths
            if state.unread is None:
                state.unread = set(unread_paths(paths, ws.sources))
            opened = host(self.node).path_marks
            for path in paths:
                if path in state.unread:
                    mark: object = path_mark(path)
                    state.tree_marks.setdefault(path, opened.get(path, mark))
                elif os.path.isdir(path) and walk:
                    mark = ("tree", tree_mark(path))
                else:
                    continue  # a file: its source tells how it changed
                if state.tree_marks.setdefault(path, mark) != mark:
                    state.tree_marks[path] = mark
                    (lost if path in state.unread else trees).append(path)
        finally:
            self.node.post_message(ChangedOnDisk(tuple(found), tuple(trees), tuple(lost)))

    def changed(self, message: ChangedOnDisk) -> None:
        """Follow files that grow (a run still being written); tell about other changes,
        and when following, read again what was truncated, replaced or added to, and wait
        for what was deleted to come back."""
        screen, node = self.screen, self.node
        state = screen.state
        state.checking = False
        follow = self.following
        again: list[str] = []
        for s, how in message.changes:
            source = screen.ws.sources[s]
            if how == "appended" and source.follows_appends:
                if state.loading_done:
                    state.stay_at_end = follow and screen.at_end()
                    screen.read_appended(s)
                continue
            source.forget_cache()
            path = visible(remote.shown(source.path), keep_newlines=False)
            if follow and how != "deleted":
                again.append(f"{path} {how} on disk")
                continue
            if s not in state.changed_noted:
                state.changed_noted.add(s)
                then = "waiting for it to come back" if follow else "R reloads"
                node.notify(f"{path} {how} on disk: {then}", severity="warning", timeout=10)
                screen.update_title()
        for p in message.lost:
            shown = visible(p, keep_newlines=False)
            if follow:
                again.append(f"{shown} changed on disk")
            else:
                node.notify(f"{shown} changed on disk: R reloads", severity="warning", timeout=10)
        if follow:
            again.extend(
                f"files added to or removed from {visible(p, keep_newlines=False)}"
                for p in message.trees
            )
        if again:
            node.notify("; ".join(again) + ": read again", timeout=6)
            ref = screen.shown_ref()
            if screen.at_end() or ref is None:
                host(node).reload(None, to_end=True)
            else:
                host(node).reload(ref)
