"""What Inspect logs add to the screens: the task, the model and the log's own status and
headline results in the run header; each scorer's value, answer and explanation in the run
detail. Read from the run's :class:`~.log.InspectRun` (``Run.detail``)."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from trajtui.core.io.text import one_line, visible
from trajtui.core.model import Run
from trajtui.formats.inspect.log import InspectRun
from trajtui.render.view import View


def _v(value: object) -> str:
    return visible(str(value), keep_newlines=False)


class InspectView(View):
    """Inspect logs: the log's figures in the header; the scores table."""

    runs_name = "Inspect samples"

    def headline(self, run: Run) -> str | None:
        detail = run.detail
        if not isinstance(detail, InspectRun):
            return None
        log = detail.log
        parts = []
        for label, value in (("task", log.task), ("model", log.model), ("log", log.status)):
            if value is not None:
                parts.append(f"{label} {_v(value)}")
        for scorer, metric, value in log.results:
            if scorer == log.headline:
                parts.append(f"{_v(metric)} {_v(value)} ({_v(scorer)}, as the log says)")
        return " · ".join(parts) or None

    def run_block(self, run: Run) -> RenderableType | None:
        detail = run.detail
        if not isinstance(detail, InspectRun) or not detail.scores:
            return None
        table = Table(box=None, padding=(0, 1), show_edge=False, header_style="bold")
        for name in ("scorer", "value", "answer", "explanation"):
            table.add_column(name)
        for scorer, value, answer, explanation in detail.scores:
            table.add_row(
                Text(_v(scorer)),
                Text(_v(value)),
                Text("" if answer is None else one_line(str(answer), 60)),
                Text("" if explanation is None else one_line(str(explanation), 80)),
            )
        return Group(Text("scores", style="bold"), table)


VIEW = InspectView()
"""The Inspect view (``Format.view`` names it)."""
