"""Screens worth looking at: shared by the snapshot tests and ``make screenshots``.

Each scenario opens the bundled demo data (relative paths, so no absolute path is on
screen), presses keys with the workers settled between them, and names the result.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from trajtui.demo import DATA
from trajtui.ui.app import TrajtuiApp, make_app


@dataclass(frozen=True)
class Scenario:
    """One screen.

    Attributes:
        name: File name of the screenshot (without ``.svg``).
        paths: What to open, relative to the demo data directory.
        keys: Keys to press (``wait`` lets the workers settle).
        size: Terminal size.
        goto: A reference to open at.
        about: What the screen shows.
    """

    name: str
    paths: tuple[str, ...]
    keys: tuple[str, ...] = ()
    size: tuple[int, int] = (120, 40)
    goto: str | None = None
    about: str = ""


CAPTURE = "acp/websearch-capture.jsonl"
TRIALS = "acp/websearch-trials.jsonl"

SCENARIOS: tuple[Scenario, ...] = (
    Scenario("acp-runs", (CAPTURE,), about="acp-harness capture: the run list with a problem row"),
    Scenario(
        "acp-timeline",
        (CAPTURE,),
        ("j", "j", "j", "j", "j", "j", "enter"),
        about="the step timeline of a run",
    ),
    Scenario(
        "acp-detail", (CAPTURE,), goto="websearch-17-step-6", about="a tool call's input and output"
    ),
    Scenario(
        "acp-problem",
        (CAPTURE,),
        ("G", "k", "k", "k"),
        about="a broken line, shown as a marked row",
    ),
    Scenario(
        "acp-merged",
        (CAPTURE,),
        ("j", "j", "j", "j", "j", "j", "enter", "m", "G"),
        about="streamed chunks merged",
    ),
    Scenario(
        "trials-timeline",
        (TRIALS,),
        ("j", "enter"),
        about="acp-harness trials: each trial and its steps",
    ),
    Scenario("narrow-runs", (CAPTURE,), size=(80, 24), about="80x24: one pane at a time"),
    Scenario(
        "narrow-timeline",
        (CAPTURE,),
        ("j", "enter"),
        size=(80, 24),
        about="80x24: the timeline, with a breadcrumb",
    ),
    Scenario(
        "narrow-detail",
        (CAPTURE,),
        ("j", "enter", "j", "j", "j", "enter"),
        size=(80, 24),
        about="80x24: a step",
    ),
    Scenario("help", (CAPTURE,), ("question_mark",), about="every key"),
)


@contextmanager
def in_demo_dir() -> Iterator[None]:
    """Run with the demo data directory as the working directory."""
    old = os.getcwd()
    os.chdir(DATA)
    try:
        yield
    finally:
        os.chdir(old)


def build(scenario: Scenario) -> TrajtuiApp:
    """The app for a scenario (call inside :func:`in_demo_dir`)."""
    return make_app(list(scenario.paths), goto=scenario.goto)


async def drive(pilot: Any, scenario: Scenario) -> None:
    """Press the scenario's keys, letting every worker finish between them."""
    await settle(pilot)
    for key in scenario.keys:
        await pilot.press(key)
        await settle(pilot)
    await settle(pilot)


async def settle(pilot: Any) -> None:
    """Wait until the workers are done and the screen has caught up."""
    for _ in range(3):
        await pilot.pause(0.02)
        await pilot.app.workers.wait_for_complete()
    await pilot.pause(0.02)
