"""What a SWE-agent run adds to the run header: its version, model, API calls and cost
named for what they are (``info.model_stats``)."""

from __future__ import annotations

from trajtui.core.model import Run
from trajtui.formats.swe_agent.runs import SweRun
from trajtui.render.headline import stats_headline
from trajtui.render.view import View


class SweView(View):
    """The SWE-agent view: a header line; steps show as the common screens draw them."""

    runs_name = "SWE-agent runs"

    def headline(self, run: Run) -> str | None:
        d = run.detail if isinstance(run.detail, SweRun) else None
        if d is None:
            return None
        return stats_headline(
            "SWE-agent", d.version, d.model, d.api_calls, d.instance_cost, d.cost_known
        )


VIEW = SweView()
