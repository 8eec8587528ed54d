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

from textual.notifications import Notifications
from textual.widgets import Input
from textual.widgets._toast import ToastRack

from tests.helpers.ui import settle, typed
from trajtui.demo import DATA
from trajtui.ui.app import TrajtuiApp, make_app


@dataclass(frozen=True)
class Scenario:
    """One screen.

    Attributes:
        name: File name of the screenshot (without ``.svg``).
        paths: What to open, relative to the demo data directory.
        keys: Keys to press (``wait`` lets the workers settle; ``type:TEXT`` types TEXT).
        size: Terminal size.
        goto: A reference to open at.
        about: What the screen shows.
        theme: A Textual theme to use instead of the default (dark) one.
        no_color: Run as if ``NO_COLOR`` were set.
    """

    name: str
    paths: tuple[str, ...]
    keys: tuple[str, ...] = ()
    size: tuple[int, int] = (120, 40)
    goto: str | None = None
    about: str = ""
    theme: str | None = None
    no_color: bool = False


CAPTURE = "acp/websearch-capture.jsonl"
TRIALS = "acp/websearch-trials.jsonl"
FORECAST = "forecast-eval"
ULTRAPLAN = "ultraplan-project"
EVAL = "eval-results"
EVERYTHING = ("acp", FORECAST, ULTRAPLAN, EVAL)
WIDE = (150, 40)
"""A terminal wide enough for the run list's every column beside the timeline with forecast
runs (seven numeric columns: at 120, one pane shows at a time)."""

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
    Scenario(
        "forecast-runs",
        (FORECAST,),
        size=WIDE,
        about="forecast agent: an eval's runs, one only in summary.json",
    ),
    Scenario(
        "forecast-step",
        (FORECAST,),
        goto="marathon-record-2027/step-3",
        size=WIDE,
        about="forecast agent: a model call",
    ),
    Scenario(
        "forecast-messages",
        (FORECAST,),
        ("M",),
        goto="marathon-record-2027/step-8",
        size=WIDE,
        about="what the model saw, + added, - dropped",
    ),
    Scenario(
        "forecast-sources",
        (FORECAST,),
        goto="marathon-record-2027/src:S3",
        size=WIDE,
        about="the source board",
    ),
    Scenario(
        "ultraplan-plan",
        (ULTRAPLAN,),
        ("j", "enter"),
        about="ultraplan: a plan's results and validation",
    ),
    Scenario(
        "ultraplan-result", (ULTRAPLAN,), goto="04-02/step-4", about="ultraplan: an INVALID result"
    ),
    Scenario(
        "eval-run",
        (EVAL,),
        goto="20260203_094512_G1_allergy_V2",
        about="eval results: accuracy and the confusion table",
    ),
    Scenario(
        "eval-sample",
        (EVAL,),
        goto="20260203_094512_G1_allergy_V2/kvL-3kLkft67s6l0c13d5k",
        about="eval results: a wrong sample",
    ),
    Scenario("demo-all", EVERYTHING, size=WIDE, about="everything at once: one group per source"),
    Scenario(
        "light",
        (CAPTURE,),
        goto="websearch-13-step-5",
        theme="textual-light",
        about="the light theme",
    ),
    Scenario(
        "no-color",
        (CAPTURE,),
        goto="websearch-13",
        no_color=True,
        about="NO_COLOR: glyphs and words carry the status",
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
    Scenario(
        "bookmarks",
        (CAPTURE,),
        ("j", "b", "enter", "j", "j", "A", "type:why retry?", "enter", "apostrophe"),
        about="the bookmarks panel: a run bookmarked, a step with a note",
    ),
    Scenario(
        "compare-runs",
        (CAPTURE,),
        ("c", "j", "j", "c", "n"),
        about="two runs compared: figures with B - A, timelines aligned, n: next difference",
    ),
    Scenario(
        "compare-steps",
        (CAPTURE,),
        ("c", "j", "j", "c", "n", "enter"),
        about="a compared pair of steps, side by side",
    ),
    Scenario(
        "compare-narrow",
        (CAPTURE,),
        ("c", "j", "j", "c"),
        size=(80, 24),
        about="80x24: two runs compared (figures neither side has make room)",
    ),
    Scenario(
        "search-all",
        EVERYTHING,
        ("slash", "type:rate", "enter", "down"),
        about="search every text of every run: hits with reference, field and the match",
    ),
    Scenario(
        "stats-trials",
        (TRIALS,),
        ("a",),
        about="the stats screen (a): outcomes, pass@k and pass^k by k with bars, tools",
    ),
    Scenario(
        "stats-grouped",
        EVERYTHING,
        ("a", "b"),
        about="stats over every format, grouped by format (b)",
    ),
    Scenario(
        "filter-query",
        (CAPTURE,),
        ("f", "type:tool:WebSearch duration>20s -status:pass"),
        about="the run-list filter: a query",
    ),
    Scenario(
        "filter-error",
        (CAPTURE,),
        ("f", *"tool:WebSearch scroe<0.5"),
        about="a query that does not parse: the problem underlined, the list kept",
    ),
    Scenario("filter-fields", (CAPTURE,), ("f", "question_mark"), about="? in the filter box"),
    Scenario(
        "step-filter",
        (CAPTURE,),
        ("j", "enter", "f", "type:kind:tool OR kind:thought", "enter"),
        about="the timeline's filter (f in the timeline): only the steps a query keeps",
    ),
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
    saved = os.environ.get("NO_COLOR")
    if scenario.no_color:
        os.environ["NO_COLOR"] = "1"
    try:
        app = make_app(list(scenario.paths), goto=scenario.goto)
    finally:
        if saved is None:
            os.environ.pop("NO_COLOR", None)
        else:
            os.environ["NO_COLOR"] = saved
    if scenario.theme is not None:
        app.theme = scenario.theme
    return app


TYPE = "type:"
"""A key that types the text after it: each character its own key event, sent at once
(:func:`tests.helpers.ui.typed`), the workers let finish after the whole text, not after
every character (a settle costs about 0.2 s)."""


async def drive(pilot: Any, scenario: Scenario) -> None:
    """Press the scenario's keys, letting every worker finish between them."""
    await settle(pilot)
    for key in scenario.keys:
        if key.startswith(TYPE):
            await typed(pilot, key.removeprefix(TYPE))
        else:
            await pilot.press(key)
        await settle(pilot)
    # Toasts expire after a time of their own: whether one is still up would depend on the
    # machine's speed, so snapshots are taken without them (Pilot tests check the notices).
    pilot.app.clear_notifications()
    # A text box's cursor blinks on a clock of its own: shown steadily for the picture.
    for box in pilot.app.screen.query(Input):
        box.cursor_blink = False
    for screen in pilot.app.screen_stack:  # a screen under a modal one keeps its toasts
        for rack in screen.query(ToastRack):
            rack.show(Notifications())
    await settle(pilot)
