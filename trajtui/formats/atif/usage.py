"""A run's tokens and cost: a trial's own (its ``result.json``'s ``agent_result``: the
whole trial, subagents and continuations too, what the job's ``result.json`` sums), else its
trajectory's (``final_metrics``; tokens summed over the steps when it has none, said so in
the detail; a cost summed over steps is not taken as the run's)."""

from __future__ import annotations

from typing import Any

from trajtui.core.values import count, num
from trajtui.formats.atif.facts import Totals, totals
from trajtui.formats.atif.trajectory import Trajectory
from trajtui.formats.atif.trial import TrialResult


def _agent_result(trial: TrialResult | None) -> dict[str, Any]:
    return (trial.agent_result or {}) if trial is not None else {}


def run_tokens(
    trajectory: Trajectory | None, trial: TrialResult | None
) -> tuple[int | None, int | None]:
    """``(in, out)`` tokens of a run: a trial's own count (``agent_result``'s
    ``n_input_tokens``, ``n_output_tokens``: the whole trial, its subagents and continuations
    too, what the job's ``result.json`` sums), else the trajectory's totals
    (``final_metrics``, else the sum over its steps, copied context left out)."""
    result = _agent_result(trial)
    tokens_in = count(result.get("n_input_tokens"))
    tokens_out = count(result.get("n_output_tokens"))
    if tokens_in is None or tokens_out is None:
        sums = totals(trajectory) if trajectory is not None else Totals()
        if tokens_in is None and sums.prompt_tokens:
            tokens_in = count(sums.prompt_tokens.value)
        if tokens_out is None and sums.completion_tokens:
            tokens_out = count(sums.completion_tokens.value)
    return tokens_in, tokens_out


def tokens_source(trajectory: Trajectory | None, trial: TrialResult | None) -> str | None:
    """Where :func:`run_tokens`' input count comes from (``agent_result``,
    ``final_metrics``, ``sum over 3 steps``), or None when nothing counts them."""
    if count(_agent_result(trial).get("n_input_tokens")) is not None:
        return "agent_result"
    sums = totals(trajectory) if trajectory is not None else Totals()
    if sums.prompt_tokens is None:
        return None
    return sums.prompt_tokens.source.split(".")[0]


def run_cost(trajectory: Trajectory | None, trial: TrialResult | None) -> float | None:
    """A run's cost in USD: a trial's own (``agent_result.cost_usd``, what the job's
    ``result.json`` sums), else the trajectory's ``final_metrics.total_cost_usd`` (a sum over
    steps is not a run's cost: shown in the detail as the sum it is)."""
    cost = num(_agent_result(trial).get("cost_usd"))
    if cost is not None:
        return cost
    sums = totals(trajectory) if trajectory is not None else Totals()
    if sums.cost_usd is not None and sums.cost_usd.source.startswith("final"):
        return sums.cost_usd.value
    return None
