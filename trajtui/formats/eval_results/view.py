"""What eval results add to the screens: accuracy as ``correct/total`` and the method, model
and k in the run header; the confusion table of verdict against ground truth in the run
detail. Read from the run's :class:`~.detail.EvalRun` (``Run.detail``)."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from trajtui.core.io.text import visible
from trajtui.core.model import Run
from trajtui.formats.eval_results.detail import EvalRun, confusion
from trajtui.render import fmt
from trajtui.render.view import View


class EvalResultsView(View):
    """Eval results: the header's accuracy and settings; the confusion table."""

    def headline(self, run: Run) -> str | None:
        detail = run.detail
        if not isinstance(detail, EvalRun):
            return None
        correct, total = detail.correct, detail.total
        parts = []
        if isinstance(correct, int) and isinstance(total, int) and not isinstance(correct, bool):
            parts.append(f"{correct}/{total} correct" if total else "0 of 0 graded")
        for label, value in (("method", detail.method), ("model", detail.model), ("k", detail.k)):
            if value is not None:
                parts.append(f"{label} {visible(str(value), keep_newlines=False)}")
        return " · ".join(parts) or None

    def run_block(self, run: Run) -> RenderableType | None:
        return confusion_table(run)


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


VIEW = EvalResultsView()
"""The eval results view (``Format.view`` names it)."""
