"""A run header's line for an agent that keeps its own model stats (its version, the model,
API calls and the cost as it wrote them), the same words for every format that has them.

Text from the file reaches the screen through :func:`~trajtui.core.io.text.visible`.
"""

from __future__ import annotations

from trajtui.core.io.text import visible


def stats_headline(
    program: str,
    version: str | None,
    model: str | None,
    api_calls: int | None,
    instance_cost: float | None,
    cost_known: bool,
) -> str | None:
    """``mini-swe-agent 1.9.0 · anthropic/claude · 31 API calls · instance_cost $0.1234``:
    what is known, named for what the file calls it; a cost of 0 written for an unknown
    price says so (``cost not known (instance_cost 0)``), never ``$0``."""
    parts: list[str] = []
    if version:
        parts.append(f"{program} {version}")
    if model:
        parts.append(model)
    if api_calls is not None:
        parts.append(f"{api_calls:,} API call{'s' if api_calls != 1 else ''}")
    if instance_cost is not None:
        if cost_known:
            parts.append(f"instance_cost ${instance_cost:.4f}")
        else:
            parts.append("cost not known (instance_cost 0)")
    return visible(" · ".join(parts), keep_newlines=False) or None
