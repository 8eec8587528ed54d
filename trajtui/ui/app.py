"""The trajtui Textual app: thin. The main screen owns the behaviour.

:func:`make_app` is the one factory, used by the CLI and by the tests.
"""

from __future__ import annotations

import asyncio
import base64
import os
import sys
import threading
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from functools import partial
from typing import Any

from textual import work
from textual.app import App, SystemCommand
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.markup import escape
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.worker import Worker, WorkerState, get_current_worker

from trajtui.core import signals
from trajtui.core.io.text import visible
from trajtui.core.model import Problem
from trajtui.core.workspace import Workspace, open_paths
from trajtui.formats.registry import formats
from trajtui.ui import clipboard, failures, heap, textual_private
from trajtui.ui import settings as settings_mod
from trajtui.ui.commands import COMMANDS
from trajtui.ui.host import Host
from trajtui.ui.messages import Opened
from trajtui.ui.screens.main import MainScreen
from trajtui.ui.screens.main.watching import path_mark, unread_paths
from trajtui.ui.screens.opening import OpeningScreen

TIDY_EVERY = 1.0
"""Seconds between looks for a screen left whose objects were kept (:mod:`trajtui.ui.heap`)."""


class TrajtuiCommands(Provider):
    """The commands of the screen on top in the command palette (ctrl+p): on the main
    screen every command of the table; on another screen (compare, stats, search...) the
    keys that screen and its focused widget bind, run where they are bound."""

    def _commands(self) -> list[tuple[str, str, Callable[[], Awaitable[object]]]]:
        screen = self.screen
        out: list[tuple[str, str, Callable[[], Awaitable[object]]]] = []
        if not isinstance(screen, MainScreen):
            seen: set[str] = set()
            for node, binding, enabled, tooltip in screen.active_bindings.values():
                action = binding.action
                if not enabled or not binding.description or action in seen:
                    continue
                if action in ("app.command_palette", "command_palette"):
                    continue
                seen.add(action)
                key = self.app.get_key_display(binding)
                title = f"{binding.description[:1].upper()}{binding.description[1:]}  ({key})"
                out.append(
                    (
                        escape(title),
                        escape(tooltip or ""),
                        partial(self.app.run_action, action, node),
                    )
                )
            return out
        for c in COMMANDS:
            if c.action == "app.command_palette":
                continue
            if screen.check_action(c.action, ()) is None:
                continue
            # The palette reads prompts and help as markup: escaped, they show as they are.
            out.append(
                (
                    escape(f"{c.title}  ({c.key_label})"),
                    escape(c.help),
                    partial(self._run, c.action),
                )
            )
        return out

    async def discover(self) -> Hits:
        for title, help_text, run in self._commands():
            yield DiscoveryHit(title, run, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help_text, run in self._commands():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), run, help=help_text)

    async def _run(self, action: str) -> None:
        screen = self.app.screen
        if isinstance(screen, MainScreen):
            await screen.run_action(action)
        else:
            await self.app.run_action(action)


NOTICES_KEPT = 200
"""Toasts a session remembers (:attr:`TrajtuiApp.notices`)."""


@dataclass(frozen=True, slots=True)
class Notice:
    """One toast as shown: its text (made visible) and its severity."""

    message: str
    severity: str


class TrajtuiApp(App[int]):
    """Inspect trajectories and eval results.

    The paths are opened and the settings read in a worker: the first screen says what is
    being opened, and the main screen replaces it when they are (and again on reload).
    """

    TITLE = "trajtui"
    COMMANDS = App.COMMANDS | {TrajtuiCommands}
    ENABLE_COMMAND_PALETTE = True

    def __init__(
        self,
        paths: Sequence[str],
        *,
        goto: str | None = None,
        opening: Future[Workspace] | None = None,
        follow: bool = False,
    ) -> None:
        """Set up the app; nothing is read until it runs (see :meth:`_open`).

        Args:
            paths: What to open.
            goto: A reference to open at.
            follow: Start following (``--follow``; ``F`` toggles it).
            opening: The paths being opened already (by :func:`run_app`): the app takes
                the result instead of opening them again, and quits with 1 when nothing
                can be read (the command line then says why).
        """
        super().__init__()
        self.paths = list(paths)
        self.goto = goto
        self.follow = follow
        self.notices: deque[Notice] = deque(maxlen=NOTICES_KEPT)
        """Every toast of this session, the latest last (a toast goes after a few seconds;
        what it said is kept here)."""
        """New records and files are shown as they are written (kept across reloads)."""
        self._opening = opening
        self._reload_to_end = False
        self._reload_mark: str | None = None
        """The reference marked for compare when a reload began (marked again after it)."""
        self.exit_if_unreadable = opening is not None
        self.ws: Workspace | None = None
        """What is open (None until the opening worker is done)."""
        self.settings: dict[str, Any] | None = None
        """The settings (None until they are read)."""
        self._theme_chosen: str | None = None
        self._unsaved: dict[str, Any] = {}
        """Settings this session changed and has not written yet (only those are written:
        another session's changes to the others stay)."""
        self._settings_lock = threading.Lock()
        self._settings_writing = threading.Lock()
        self.path_marks: dict[str, object] = {}
        """How each opened path was (:func:`path_mark`) when it was last opened."""
        self.strict_keys: set[str] = set()
        """Files found to spell a record's key twice: indexed with every key checked."""
        self.main: MainScreen | None = None
        """The main screen (None until the paths are open, and when nothing could be)."""
        self._main_made = asyncio.Event()
        """Set once the paths are open and the main screen made (cleared by a reload)."""

    def on_mount(self) -> None:
        # SIGINT, SIGTERM and SIGHUP quit as q does: the terminal is given back as it was
        loop = asyncio.get_running_loop()
        self._signal_taker = signals.push(
            lambda signum: loop.call_soon_threadsafe(self._ended, signum)
        )
        self.push_screen(OpeningScreen(self.paths))
        self._open(self.goto, read_settings=True)
        self.set_interval(TIDY_EVERY, self._tidy_heap)

    def _tidy_heap(self) -> None:
        """A screen whose objects were kept out of the collector's sight was left: free
        it (see :mod:`trajtui.ui.heap`)."""
        heap.tidy(self.screen_stack)
        heap.give_back()

    @work(thread=True, exclusive=True, group="open", exit_on_error=False)
    def _open(self, goto: str | None, *, read_settings: bool) -> None:
        """Read the settings (at start) and open the paths, off the UI thread."""
        settings = settings_mod.load() if read_settings else None
        opening, self._opening = self._opening, None
        # before they are read: a path that changes after, the screen sees change
        marks = {path: path_mark(path) for path in self.paths}
        ws = opening.result() if opening is not None else open_paths(self.paths, formats())
        self.path_marks = marks
        if get_current_worker().is_cancelled:  # a newer reload took over
            ws.close()
            return
        self.post_message(Opened(ws, settings, goto))

    def on_opened(self, message: Opened) -> None:
        if not self.screen_stack:  # opened while the app quit: nothing to show it on
            message.ws.close()
            return
        if message.settings is not None:
            self._use_settings(message.settings)
        old, self.ws = self.ws, message.ws
        if not message.ws.sources and self.exit_if_unreadable and old is None:
            self._main_made.set()  # (none will be: nothing is left to settle)
            self.exit(1)  # at start only: the command line says why; a reload waits
            return
        mark, self._reload_mark = self._reload_mark, None
        screen = MainScreen(message.ws, goto=message.goto, mark=mark if old is not None else None)
        self.main = screen
        self._main_made.set()
        # following starts at the end (as less +F), unless a reference says where
        first_follow = self.follow and old is None and message.goto is None
        screen.state.stay_at_end = self._reload_to_end or first_follow
        self._reload_to_end = False
        self.switch_screen(screen)
        if old is not None:
            old.close()
            gone = self._unreadable(message.ws)
            if not gone:
                self.notify("reloaded", timeout=2)
            then = "waiting for it to come back" if self.follow else "R reloads once it is back"
            for problem in gone:
                self.notify(f"{visible(str(problem), keep_newlines=False)}: {then}", timeout=10)

    def _unreadable(self, ws: Workspace) -> list[Problem]:
        """What is wrong with each opened path nothing could be read from."""
        unread = set(unread_paths(self.paths, ws.sources))
        return [p for p in ws.problems if p.path in unread]

    def _use_settings(self, settings: dict[str, Any]) -> None:
        """Take the settings read at start; a theme chosen meanwhile wins over the saved one."""
        self.settings = settings
        chosen = self._theme_chosen
        if chosen is not None:
            self.watch_theme(chosen)
            return
        theme = settings.get("theme")
        if isinstance(theme, str) and theme in self.available_themes:
            self.theme = theme
        kept = settings_mod.kept_modes(settings)
        if kept:  # a mode from an earlier session is never on silently
            self.notify(f"from your settings: {', '.join(kept)}", timeout=6)

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Show a toast. Its text is shown as it is, whatever ``markup`` says: toasts name
        runs, files and references from the data (every widget's ``notify`` lands here)."""
        if timeout is None:
            timeout = self.NOTIFICATION_TIMEOUT
        self.notices.append(Notice(visible(message), severity))
        super().notify(
            visible(message),
            title=visible(title, keep_newlines=False),
            severity=severity,
            timeout=timeout,
            markup=False,
        )

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """The one place a failed worker is reported (the screens and widgets hand theirs
        here): its traceback goes to the log, then a one-line notice says what failed."""
        if event.state is not WorkerState.ERROR:
            return
        worker = event.worker
        if worker.group == "failure-log":
            self.notify(failures.notice(worker, None), severity="error", timeout=10)
            return
        self._log_failure(worker)

    @work(thread=True, group="failure-log", exit_on_error=False)
    def _log_failure(self, worker: Worker[Any]) -> None:
        """Write ``worker``'s failure to the log (off the UI thread), then tell it."""
        log = failures.write_entry(failures.entry(worker), opened=self.paths)
        self.call_from_thread(
            self.notify, failures.notice(worker, log), severity="error", timeout=10
        )

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand(
            "Dark / light", "Switch between the dark and the light theme", self.toggle_theme
        )

    def watch_theme(self, theme: str) -> None:
        if self.settings is None:  # not read yet: remembered when they are
            self._theme_chosen = theme
            return
        self.remember("theme", theme)

    def remember(self, key: str, value: object) -> None:
        """Change a setting and write it to the settings file (in a worker)."""
        if self.settings is None or self.settings.get(key) == value:
            return
        self.settings[key] = value
        with self._settings_lock:
            self._unsaved[key] = value
        self._save_settings()

    @work(thread=True, group="settings", exit_on_error=False)
    def _save_settings(self) -> None:
        """Write the settings changed and not written yet (the latest value of each)."""
        with self._settings_writing:  # one write at a time, each of the latest values
            with self._settings_lock:
                changes = dict(self._unsaved)
            settings_mod.save(changes, opened=self.paths)
            with self._settings_lock:
                for key, value in changes.items():
                    if self._unsaved.get(key) == value:
                        del self._unsaved[key]

    def toggle_theme(self) -> None:
        """Switch between the dark and light themes."""
        self.theme = "textual-light" if self.current_theme.dark else "textual-dark"

    def copy_text(self, text: str, what: str) -> None:
        """``y`` / ``Y``: copy ``text`` (``what`` it is, for the toast), and say what was
        done with it: inside tmux also through tmux's paste buffer, and what tmux lets
        through (:mod:`trajtui.ui.clipboard`)."""
        self.copy_to_clipboard(text)
        if clipboard.in_tmux():
            self._copy_through_tmux(text, what)
        else:
            self.notify(clipboard.said(what, None), timeout=4)

    @work(thread=True, group="clipboard", exit_on_error=False)
    def _copy_through_tmux(self, text: str, what: str) -> None:
        done = clipboard.tmux_copy(text)
        self.call_from_thread(self.notify, clipboard.said(what, done), timeout=10)

    def copy_to_clipboard(self, text: str) -> None:
        """Copy with OSC 52; inside tmux also through its passthrough, so the outer
        terminal gets it whichever of tmux's clipboard settings is on."""
        super().copy_to_clipboard(text)
        if os.environ.get("TMUX"):
            encoded = base64.b64encode(text.encode("utf-8")).decode("ascii")
            textual_private.write_to_terminal(self, f"\x1bPtmux;\x1b\x1b]52;c;{encoded}\x07\x1b\\")

    def reload(self, ref: str | None = None, *, to_end: bool = False) -> None:
        """Open the paths again (after they changed on disk), keeping the selected run (or,
        with ``to_end``, going to the last run: following)."""
        if self.ws is not None:
            self.ws.cancel()
        self._reload_to_end = to_end
        self.main = None
        self._main_made.clear()
        screen = self.screen
        marked = screen.state.marked if isinstance(screen, MainScreen) else None
        self._reload_mark = marked.ref if marked is not None else None
        self._open(ref, read_settings=False)

    async def settled(self) -> None:
        """Wait until the app is settled: the paths open and the main screen settled
        (every file read and counted, no run or reference on its way, none of its workers
        running; after a reload, the new screen). Tests wait on this (with a timeout)."""
        while True:
            await self._main_made.wait()
            screen = self.main
            if screen is None:
                return
            await screen.settled()
            if screen is self.main:
                return

    def unsettled(self) -> list[str]:
        """What :meth:`settled` still waits for, in words (empty when settled)."""
        if not self._main_made.is_set():
            return ["opening the paths"]
        return self.main.unsettled() if self.main is not None else []

    def _ended(self, signum: int) -> None:
        """An ending signal arrived (:mod:`trajtui.core.signals`): quit, with its code."""
        self.exit(return_code=signals.exit_code(signum))

    def on_unmount(self) -> None:
        taker = getattr(self, "_signal_taker", None)
        if taker is not None:
            signals.pop(taker)
        heap.release()
        with self._settings_writing:  # a change not written yet: this is the last chance
            if self._unsaved:
                settings_mod.save(dict(self._unsaved), opened=self.paths)
                self._unsaved.clear()
        if self.ws is not None:
            self.ws.cancel()
            self.ws.close()


def make_app(paths: Sequence[str], *, goto: str | None = None, follow: bool = False) -> TrajtuiApp:
    """The app for ``paths`` (the CLI and the tests use this)."""
    return TrajtuiApp(paths, goto=goto, follow=follow)


OPEN_BEFORE_TUI = 1.0
"""Seconds :func:`run_app` waits for the paths to open before it starts the TUI."""


def no_terminal() -> str | None:
    """The first of standard input, output and error that is not a terminal (the viewer
    reads keys from the first and draws on the last, as Textual does), or None."""
    for name, stream in (
        ("standard input", sys.__stdin__),
        ("standard output", sys.__stdout__),
        ("standard error", sys.__stderr__),
    ):
        try:
            if stream is None or not os.isatty(stream.fileno()):
                return name
        except (OSError, ValueError):
            return name
    return None


def run_app(paths: Sequence[str], *, goto: str | None = None, follow: bool = False) -> int:
    """Run the TUI; returns the exit code. Nothing readable: problems on stderr, exit 1; no
    terminal to run in (:func:`no_terminal`): one line, exit 2.

    The paths are opened in a thread. What opens within :data:`OPEN_BEFORE_TUI` (nearly
    everything) is known before the TUI starts: nothing readable is then said on stderr
    without ever taking the screen. A slower open (a big tree) shows the TUI's opening
    screen meanwhile.
    """
    opening: Future[Workspace] = Future()

    def open_them() -> None:
        try:
            opening.set_result(open_paths(paths, formats()))
        except BaseException as err:
            opening.set_exception(err)

    threading.Thread(target=open_them, name="trajtui-open", daemon=True).start()
    try:
        ws: Workspace | None = opening.result(timeout=OPEN_BEFORE_TUI)
    except TimeoutError:
        ws = None
    if ws is None or ws.sources:
        missing = no_terminal()
        if missing:
            print(
                f"trajtui: the viewer needs a terminal ({missing} is not one); for output use: "
                "trajtui ls, show, grep, export, stats (trajtui --help)",
                file=sys.stderr,
            )
            if ws is not None:
                ws.close()
            return 2
        # The loader thread parses records while the UI thread draws: hand the interpreter
        # over more often than every 5 ms, so a key press never waits behind a parse.
        sys.setswitchinterval(0.001)
        app = TrajtuiApp(paths, goto=goto, opening=opening, follow=follow)
        app.run()
        ws = app.ws
        if ws is None or ws.sources:
            return app.return_code or 0
    for problem in ws.problems:
        print(visible(str(problem), keep_newlines=False), file=sys.stderr)
    ws.close()
    return 1


_HOST: type[Host] = TrajtuiApp
"""The app is what its screens need (:mod:`trajtui.ui.host`): mypy checks it here."""
