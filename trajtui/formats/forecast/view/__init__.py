"""What forecast runs add to the screens (the forecast view): their message pool and source
board in panes of their own (:mod:`.panes`), their messages (``RUN/msg:KEY``) and web sources
(``RUN/src:SID``) shown whole, and the context of each model call in its detail
(:mod:`.render`)."""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType

from trajtui.core.model import Run, Step
from trajtui.formats.forecast.detail import forecast_run
from trajtui.formats.forecast.view import render
from trajtui.formats.forecast.view.panes import MESSAGES, SOURCES
from trajtui.render.view import View, ViewCommand


class ForecastView(View):
    """forecast-agent runs: the Messages and Sources panes, messages and sources by
    reference, a model call's context; ``[`` / ``]`` select a source mentioned in a detail."""

    panes = (MESSAGES, SOURCES)
    runs_name = "forecast runs"
    commands = (
        ViewCommand(
            "next-mention",
            "right_square_bracket",
            "next_mention",
            "Next mention",
            "Select the next source mention in the detail pane",
            "Move",
            screen_binding=False,
        ),
        ViewCommand(
            "prev-mention",
            "left_square_bracket",
            "prev_mention",
            "Previous mention",
            "Select the previous source mention in the detail pane",
            "Move",
            screen_binding=False,
        ),
        ViewCommand(
            "pool",
            "p",
            f"toggle_pane('{MESSAGES.name}')",
            "Whole pool",
            "Message pool: the step's context or every message",
            "View",
        ),
    )

    def step_body(
        self, run: Run, step: Step, *, max_lines: int | None, cli: bool
    ) -> list[RenderableType] | None:
        return render.step_body(run, step, max_lines=max_lines, cli=cli)

    def segment_object(self, run: Run, word: str, key: str) -> Any:
        return render.segment_object(run, word, key)

    def segment_text(self, run: Run, word: str, key: str) -> str | None:
        return render.segment_text(run, word, key)

    def render_segment(
        self, run: Run, word: str, key: str, *, ref: str | None = None, max_lines: int | None = None
    ) -> RenderableType:
        return render.render_segment(run, word, key, ref=ref, max_lines=max_lines)

    def mentions(self, run: Run) -> dict[str, str]:
        board = forecast_run(run).board
        return {} if board is None else {sid: sid for sid in board.board_source_ids()}


VIEW = ForecastView()
"""The forecast view (``Format.view`` names it)."""
