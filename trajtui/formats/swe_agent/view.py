"""What a SWE-agent run adds to the run header: its version, model, API calls and cost
named for what they are (``info.model_stats``).

Text from the file reaches the screen through :func:`~trajtui.core.io.text.visible`.
"""

from __future__ import annotations

from trajtui.core.io.text import visible
from trajtui.core.model import Run
from trajtui.formats.swe_agent.runs import SweRun
from trajtui.render.view import View


class SweView(View):
    """The SWE-agent view: a header line; steps show as the common screens draw them."""

    runs_name = "SWE-agent runs"

    def headline(self, run: Run) -> str | None:
        d = run.detail if isinstance(run.detail, SweRun) else None
        if d is None:
            return None
        parts: list[str] = []
        if d.version:
            parts.append(f"SWE-agent {d.version}")
        if d.model:
            parts.append(d.model)
        if d.api_calls is not None:
            parts.append(f"{d.api_calls:,} API call{'s' if d.api_calls != 1 else ''}")
        if d.instance_cost is not None:
            if d.cost_known:
                parts.append(f"instance_cost ${d.instance_cost:.4f}")
            else:
                parts.append("cost not known (instance_cost 0)")
        return visible(" · ".join(parts), keep_newlines=False) or None


VIEW = SweView()
