"""Helpers for Pilot and snapshot tests: fixture files and a settled app."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

from textual import events
from textual.app import App
from textual.keys import _character_to_key
from textual.pilot import Pilot
from textual.worker import WorkerState

from tests.formats.acp.builders import (
    capture,
    step_message,
    step_thought,
    step_tool,
    trials,
    write_jsonl,
)
from trajtui.core.model import Problem
from trajtui.ui.app import TrajtuiApp, make_app
from trajtui.ui.screens.main import MainScreen
from trajtui.ui.store import ENTRY
from trajtui.ui.textual_private import screen_strips


def capture_fixture(directory: Path, name: str = "results.jsonl") -> Path:
    """A capture file with passes, failures, a timeout, chunks, a tool pair and a bad line."""
    chunks = [
        step_message(w, 900 + i) for i, w in enumerate(["The ", "CEO ", "is ", "Dario ", "Amodei."])
    ]
    recs = [
        capture("websearch-1", score={"pass": True, "score": 0.92, "reasoning": "names the CEO"}),
        capture(
            "websearch-2",
            [
                step_thought("Let me search.", 100),
                step_tool("WebSearch", "pending", 200, input={"query": "anthropic ceo"}),
                step_tool(
                    "toolu_01abc",
                    "completed",
                    2300,
                    output=[{"title": "Anthropic", "url": "https://example.org"}],
                ),
                step_tool(
                    "Read",
                    "failed",
                    2500,
                    input={"file_path": "src/main.tf"},
                    error="ENOENT",
                    duration=40,
                ),
                *chunks,
            ],
            tool_errors=True,
            score={"pass": False, "score": 0.31},
        ),
        capture(
            "websearch-3",
            [],
            output="",
            tool_errors=True,
            errors=["Request timed out after 60000ms"],
        ),
        capture(
            "websearch-4",
            score={"pass": True, "score": 0.8},
            input="Compare [bold]pnpm[/bold] and bun",
        ),
    ]
    return write_jsonl(directory / name, recs, raw_lines={3: b'{"id":"websearch-x","input":"tru'})


def trials_fixture(directory: Path, name: str = "trials.jsonl") -> Path:
    """Two trials records."""
    return write_jsonl(
        directory / name,
        [trials("search-1", [True, False, True]), trials("search-2", [False, False])],
    )


def hostile_fixture(directory: Path) -> Path:
    """Text that tries to act: markup, escape sequences, bidi overrides."""
    evil = "[@click=app.quit]click me[/] [bold]bold?[/bold] \x1b[31mred\x1b[0m \x1b]0;title\x07 \x1b]52;c;aGk=\x07 \u202edesrever\u202c zero\u200bwidth"
    rec = capture(
        "evil-[bold]1",
        [
            step_message(evil, 10),
            step_tool(
                "[link=http://x]Bash[/link]", "completed", 20, input={"command": evil}, output=evil
            ),
        ],
        input=evil,
        output=evil,
    )
    return write_jsonl(directory / "evil.jsonl", [rec])


SETTLE_TIMEOUT = 60.0
"""Seconds a test waits for the app to settle before it fails, saying what never did: a
hang's deadline (a 100,000-run list took over 30 s to settle at load 15 on 2 cores)."""


async def settle(
    pilot: Any, pause: float = 0.05, *, failures: bool = False, timeout: float = SETTLE_TIMEOUT
) -> None:
    """Wait for the app's settled signal (:meth:`TrajtuiApp.settled`: the paths open, every
    file read and counted, no run or reference on its way), then for every worker (those
    of a screen over the main one too) and the frame that draws what they did. A worker
    that failed fails the test, unless ``failures`` says the test expects one; an app that
    does not settle within ``timeout`` seconds fails it, naming what never settled."""
    app: TrajtuiApp = pilot.app
    try:
        async with asyncio.timeout(timeout):
            while True:
                await app.settled()
                await wait_workers(app, failures=failures)
                await pilot.pause(pause)
                if not app.unsettled() and not _busy(app):
                    break  # (what the workers did started nothing new)
    except TimeoutError:
        what = [*app.unsettled(), *_busy(app)]
        raise AssertionError(
            f"the app did not settle within {timeout:g} s: {'; '.join(what) or 'workers'}"
        ) from None


async def typed(pilot: Any, text: str) -> None:
    """Type ``text`` into the focused widget as a quick typist or a paste over SSH sends it:
    each character its own key event, handled in order as ``pilot.press`` hands them, but
    sent at once (``press`` waits twice a key for the app to be idle: about 90 ms a key),
    then wait for the app to be idle once. For a test about what a whole query does, not
    what each key shows on its way."""
    app = pilot.app
    for char in text:
        # the key's name as Pilot and the terminal driver give it ("space", "colon"...)
        key = events.Key(_character_to_key(char), char)
        key.set_sender(app)
        app.post_message(key)
    await pilot.pause()


async def until(pilot: Any, done: Any, timeout: float = SETTLE_TIMEOUT) -> None:
    """Wait as a person would (the timers running) until ``done()`` is true, then settle;
    fail after ``timeout`` seconds showing the screen (or at once if the TUI ended). The
    deadline is a hang's, not a speed's: a loaded machine is slow, not wrong."""
    deadline = time.monotonic() + timeout
    while not done():
        assert pilot.app.is_running, f"the TUI ended (exit {pilot.app.return_code})"
        assert time.monotonic() < deadline, "not shown in time:\n" + "\n".join(
            screen_lines(pilot.app)
        )
        await pilot.pause(0.1)
    await settle(pilot)


def _busy(app: Any) -> list[str]:
    """Workers running or pending anywhere, and a screen's search waiting for typing to
    pause (the search screen's ``pending``)."""
    out = [
        f"{type(w.node).__name__}'s {w.group} worker"
        for w in app.workers
        if w.state in (WorkerState.PENDING, WorkerState.RUNNING)
    ]
    if getattr(app.screen, "pending", False):
        out.append(f"{type(app.screen).__name__}'s search waiting for typing to pause")
    return out


@asynccontextmanager
async def running(
    paths: list[str],
    *,
    size: tuple[int, int] = (120, 40),
    goto: str | None = None,
    notifications: bool = False,
    failures: bool = False,
) -> AsyncIterator[tuple[Pilot[int], TrajtuiApp, MainScreen]]:
    """A settled app on ``paths`` and its main screen (``notifications``: show toasts;
    ``failures``: a worker is expected to fail)."""
    app: TrajtuiApp = make_app(paths, goto=goto)
    async with app.run_test(size=size, notifications=notifications) as pilot:
        await settle(pilot, failures=failures)
        screen = app.screen
        assert isinstance(screen, MainScreen)
        yield pilot, app, screen


def listed(screen: MainScreen) -> list[str]:
    """The run list's rows, top to bottom: a run's reference, "problem", or "unread" for a
    row whose record is indexed and not read yet (following a file as it grows)."""
    out = []
    for kind, source, i in screen.store.rows:
        entry = screen.ws.sources[source].peek(i)
        assert kind == ENTRY
        if entry is None:
            out.append("unread")
        else:
            out.append("problem" if isinstance(entry, Problem) else entry.ref)
    return out


def list_rows(screen: MainScreen) -> list[str]:
    """The run list's rows as drawn at its width, top to bottom (every row, on screen or not)."""
    run_list = screen.run_list
    width = run_list.size.width
    return [run_list.render_row(i, width).plain for i in range(run_list.row_count)]


class PagerHost(App[object]):
    """An app that is never run, for calling the pager directly: it has the opened
    ``paths`` and a ``suspend`` that does nothing (there is no terminal to give back)."""

    def __init__(self, paths: Sequence[str] = ()) -> None:
        super().__init__()
        self.paths = list(paths)

    @contextmanager
    def suspend(self) -> Iterator[None]:
        yield


def main_screen(app: TrajtuiApp) -> MainScreen:
    """The app's screen, a main screen (a new one after ``R`` reloads)."""
    screen = app.screen
    assert isinstance(screen, MainScreen)
    return screen


async def wait_workers(app: Any, *, failures: bool = False) -> None:
    """Wait for every worker; a worker cancelled by a newer one (exclusive groups) is fine,
    and one that failed too when ``failures`` is True."""
    from textual.worker import WorkerCancelled, WorkerFailed

    for _ in range(10):
        try:
            await app.workers.wait_for_complete()
            return
        except WorkerCancelled:
            continue
        except WorkerFailed:
            if not failures:
                raise
            continue


def screen_lines(app: Any) -> list[str]:
    """The screen as text, one string per row (what a person reads)."""
    strips = screen_strips(app.screen)
    return ["".join(segment.text for segment in strip) for strip in strips]


def reads(text: str, phrase: str) -> bool:
    """``phrase`` is in ``text`` as a person reads it across the pane's wrapping: a line
    wrapped at a blank (the blank dropped) or a long word folded where the pane ends (a path
    longer than the pane, as under a long TMPDIR)."""
    return any(phrase in text.replace("\n", join) for join in ("", " ")) or phrase in text


def terminal_output(app: Any) -> str:
    """What the driver would write to the terminal for the whole screen: text and escape
    sequences, exactly as Textual renders them."""
    console = app.console
    return "\n".join(strip.render(console) for strip in screen_strips(app.screen))


def foreign_controls(output: str) -> list[str]:
    """Anything in ``output`` that is not text or Textual's own colour and cursor sequences:
    OSC (window title, clipboard, hyperlinks), BEL, C1 controls, bidi overrides."""
    import re

    found = []
    for pattern in (r"\x1b\]", r"\x1bP", r"\x07", r"[\x80-\x9f]", r"[\u202a-\u202e\u2066-\u2069]"):
        found += re.findall(pattern, output)
    # ESC may only start a CSI sequence (colours, cursor moves)
    found += re.findall(r"\x1b(?!\[)", output)
    return found


class Held:
    """``owner.name`` (a method a worker thread runs, such as a source's end of reading)
    waits once reached until :meth:`release`: what is on screen meanwhile is what a user
    sees before it has run.

    Use it as ``held = Held(monkeypatch, SessionSource, "_finish")``, then ``await
    held.until(pilot, shown)`` and ``held.release()`` in a ``finally``.
    """

    def __init__(self, monkeypatch: Any, owner: type, name: str) -> None:
        self.gate = threading.Event()
        self.reached = threading.Event()
        original = getattr(owner, name)

        def held(obj: Any, *args: Any, **kwargs: Any) -> Any:
            self.reached.set()
            self.gate.wait(60)
            return original(obj, *args, **kwargs)

        monkeypatch.setattr(owner, name, held)

    async def until(self, pilot: Any, shown: Callable[[], object]) -> None:
        """Wait (at most 30 s) until the method is reached and ``shown()`` is true, then for
        the frame that draws it."""
        for _ in range(600):
            await pilot.pause(0.05)
            if shown() and self.reached.is_set():
                break
        assert self.reached.is_set(), "the held method was never reached"
        await pilot.pause(0.3)

    def release(self) -> None:
        """Let the method run."""
        self.gate.set()
