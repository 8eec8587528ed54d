"""What a forecast run and its steps hold beyond the neutral model, for the forecast view:
:class:`ForecastRun` (``Run.detail``: the message pool and the source board) and
:class:`ModelCall` (``Step.detail``: the keys of what the model saw and produced).

Shared code never reads these: it asks the run's view (:mod:`trajtui.formats.forecast.view`),
which reads them through :func:`forecast_run` and :func:`model_call`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from trajtui.core.model import Run, Step
from trajtui.formats.forecast.board import SourceBoard
from trajtui.formats.forecast.pool import MessagePool

MESSAGE, SOURCE = "msg", "src"
"""The reference segments of a forecast run: ``RUN/msg:KEY`` (a message of the pool) and
``RUN/src:SID`` (a web source of the board)."""


@dataclass(frozen=True, slots=True)
class ForecastRun:
    """A forecast run's own objects (``Run.detail``).

    Attributes:
        pool: The message pool (None when the run has no trajectory).
        board: The source board (None when the run has no ``sources.json`` or ``info.board``).
    """

    pool: MessagePool | None
    board: SourceBoard | None

    search_skips = frozenset({"input"})
    """Step attributes search leaves out: a model call's input is the messages of the pool
    it saw, searched once each as messages (:meth:`search_texts`)."""

    def search_texts(self, run: Run) -> Iterator[tuple[str, str, str, str]]:
        """The pool's messages no step produced (system, user and tool messages: a model
        call's own answer is searched as its step's output; of the source board's states,
        added before every step, the last), as ``(ref, field, kind,
        text)``: a message's text and its tool calls' arguments."""
        if self.pool is None:
            return
        produced = set()
        for step in run.steps:
            call = model_call(step)
            if call is not None and call.output_key is not None:
                produced.add(call.output_key)
        messages = [m for m in self.pool.messages(self.pool.keys()) if m is not None]
        boards = [m.key for m in messages if m.is_board_state]
        last_board = boards[-1] if boards else None
        for message in messages:
            key = message.key
            if key in produced or (message.is_board_state and key != last_board):
                continue  # the board as it ends holds every earlier one's notes
            ref = f"{run.ref}/msg:{key}"
            if message.text:
                yield ref, f"{message.role} message", "message", message.text
            for tool_call in message.tool_calls:
                if isinstance(tool_call.arguments, str):
                    yield ref, f"{tool_call.name} arguments", "tool", tool_call.arguments


NO_RUN = ForecastRun(None, None)
"""What a run of another format (or one without files) has: neither pool nor board."""


def forecast_run(run: Run) -> ForecastRun:
    """The forecast objects of ``run`` (:data:`NO_RUN` for a run of another format)."""
    return run.detail if isinstance(run.detail, ForecastRun) else NO_RUN


@dataclass(frozen=True, slots=True)
class ModelCall:
    """A forecast step's own facts (``Step.detail``).

    Attributes:
        input_keys: The keys of the messages the model saw, in order.
        output_key: The key of the message it produced, or None.
    """

    input_keys: tuple[str, ...]
    output_key: str | None


def model_call(step: Step) -> ModelCall | None:
    """The model call a forecast step is (None for a step of another format)."""
    return step.detail if isinstance(step.detail, ModelCall) else None
