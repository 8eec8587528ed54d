"""What a forecast run and its steps hold beyond the neutral model, for the forecast view:
:class:`ForecastRun` (``Run.detail``: the message pool and the source board) and
:class:`ModelCall` (``Step.detail``: the keys of what the model saw and produced).

Shared code never reads these: it asks the run's view (``trajtui.render.views``), which
reads them through :func:`forecast_run` and :func:`model_call`.
"""

from __future__ import annotations

from dataclasses import dataclass

from trajtui.core.formats.forecast.board import SourceBoard
from trajtui.core.formats.forecast.pool import MessagePool
from trajtui.core.model import Run, Step


@dataclass(frozen=True, slots=True)
class ForecastRun:
    """A forecast run's own objects (``Run.detail``).

    Attributes:
        pool: The message pool (None when the run has no trajectory).
        board: The source board (None when the run has no ``sources.json`` or ``info.board``).
    """

    pool: MessagePool | None
    board: SourceBoard | None


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
