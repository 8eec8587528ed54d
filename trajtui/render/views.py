"""What each format adds to the screen: its *view*, looked up by format id, never by
``if fmt.id == ...`` branches in shared code.

A :class:`View` says what a format's runs add to the common screens: a line in the run
header, a block in the run detail, a badge on timeline lines, and extra panes of the TUI
(by name: ``messages``, ``sources``). A format without a view gets the plain one. Adding a
format's view is one class here (or in a module of its own) and one entry in :data:`VIEWS`.

Everything comes from the run's own fields (as in the file) or from typed objects the format
keeps for its view (``Run.detail``, ``Step.detail``); nothing is parsed back from display
strings, and nothing here reads files.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from trajtui.core.formats.eval_results import RESULTS
from trajtui.core.formats.eval_results.confusion import confusion
from trajtui.core.formats.forecast import EVAL as FORECAST_EVAL
from trajtui.core.formats.forecast import RUN as FORECAST_RUN
from trajtui.core.formats.ultraplan import FORMAT as ULTRAPLAN
from trajtui.core.formats.ultraplan import Judgement, Verdict
from trajtui.core.model import Run, Step
from trajtui.core.text import visible
from trajtui.render import fmt


class View:
    """The plain view: nothing beyond the common screens. Subclass and override.

    Attributes:
        panes: Extra panes of the TUI beside Detail, by name (``messages``, ``sources``).
    """

    panes: tuple[str, ...] = ()

    def headline(self, run: Run) -> str | None:
        """One line for the run header, beyond the common facts (None: nothing)."""
        return None

    def run_block(self, run: Run) -> RenderableType | None:
        """A block for the run detail, after its fields (None: nothing)."""
        return None

    def step_badge(self, step: Step) -> str | None:
        """A short word for a timeline line (None: nothing)."""
        return None


def field_value(run: Run, label: str) -> Any:
    """The value of the run's field ``label``, or None."""
    for field in run.fields:
        if field.label == label:
            return field.value
    return None


class EvalResultsView(View):
    """Eval results: accuracy as ``correct/total`` and the method/model/k in the header; the
    confusion table of verdict against ground truth in the detail."""

    def headline(self, run: Run) -> str | None:
        correct, total = field_value(run, "correct"), field_value(run, "total")
        parts = []
        if isinstance(correct, int) and isinstance(total, int) and not isinstance(correct, bool):
            parts.append(f"{correct}/{total} correct" if total else "0 of 0 graded")
        for label in ("method", "model", "k"):
            value = field_value(run, label)
            if value is not None:
                parts.append(f"{label} {visible(str(value), keep_newlines=False)}")
        return " · ".join(parts) or None

    def run_block(self, run: Run) -> RenderableType | None:
        return confusion_table(run)


class UltraplanView(View):
    """ultraplan: the validation verdicts of a plan's results in the header; INVALID and
    VALID_WITH_WARNINGS results marked on the timeline (from the step's judgement)."""

    def headline(self, run: Run) -> str | None:
        validation = field_value(run, "validation")
        return (
            f"validation: {visible(str(validation), keep_newlines=False)}" if validation else None
        )

    def step_badge(self, step: Step) -> str | None:
        judgement = step.detail
        if isinstance(judgement, Judgement) and judgement.verdict is not Verdict.VALID:
            return judgement.verdict.value
        return None


class ForecastView(View):
    """forecast-agent runs: the message pool and the source board in panes of their own."""

    panes = ("messages", "sources")


PLAIN = View()
_FORECAST = ForecastView()

VIEWS: dict[str, View] = {
    RESULTS.id: EvalResultsView(),
    ULTRAPLAN.id: UltraplanView(),
    FORECAST_EVAL.id: _FORECAST,
    FORECAST_RUN.id: _FORECAST,
}
"""The view of each format id that adds something to the screen."""


def view_of(format_id: str) -> View:
    """The view of a format (the plain view when it adds nothing)."""
    return VIEWS.get(format_id, PLAIN)


def headline(run: Run) -> str | None:
    """The run's format's header line."""
    return view_of(run.summary.format).headline(run)


def detail(run: Run) -> RenderableType | None:
    """The run's format's block in the run detail."""
    return view_of(run.summary.format).run_block(run)


def _label(value: str | None) -> str:
    return "null" if value is None else visible(str(value), keep_newlines=False)


def confusion_table(run: Run) -> RenderableType | None:
    """The confusion table of an eval run (rows: ground truth, columns: verdict)."""
    table_data = confusion(run)
    if not table_data.total:
        return None
    table = Table(title=None, box=None, padding=(0, 1), show_edge=False, header_style="bold")
    table.add_column("gt \\ verdict", style="bold")
    for verdict in table_data.verdict_labels:
        table.add_column(_label(verdict), justify="right")
    table.add_column("total", justify="right", style="dim")
    for gt in table_data.gt_labels:
        cells = []
        row_total = 0
        for verdict in table_data.verdict_labels:
            n = table_data.count(gt, verdict)
            row_total += n
            style = "green" if gt == verdict and gt is not None else ("red" if n else "dim")
            cells.append(Text(fmt.count(n) if n else "·", style=style))
        table.add_row(_label(gt), *cells, Text(fmt.count(row_total)))
    parts: list[RenderableType] = [
        Text("confusion: ground truth (rows) against verdict (columns)", style="bold"),
        table,
    ]
    if None in table_data.gt_labels or None in table_data.verdict_labels:
        parts.append(
            Text("null: the file has no value (failed samples have no verdict)", style="dim")
        )
    return Group(*parts)
