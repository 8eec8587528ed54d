"""What a mini-swe-agent run adds to the run header: its version, model, API calls and cost
named for what they are (``info.model_stats``)."""

from __future__ import annotations

from trajtui.core.model import Run
from trajtui.formats.mini_swe_agent.runs import MiniRun
from trajtui.render.headline import stats_headline
from trajtui.render.view import View


class MiniView(View):
    """The mini-swe-agent view: a header line; steps show as the common screens draw them."""

    runs_name = "mini-swe-agent runs"

    def headline(self, run: Run) -> str | None:
        d = run.detail if isinstance(run.detail, MiniRun) else None
        if d is None:
            return None
        return stats_headline(
            "mini-swe-agent", d.version, d.model, d.api_calls, d.instance_cost, d.cost_known
        )


VIEW = MiniView()
