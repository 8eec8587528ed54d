"""Harbor's ATIF (Agent Trajectory Interchange Format) trajectories and job directories.

About thirty agents write ATIF through Harbor (``"schema_version": "ATIF-v1.N"``; the spec
is ``rfcs/0001-trajectory-format.md`` in the Harbor repository, the Pydantic models in
``src/harbor/models/trajectories/``). Every version (1.0 to 1.8) is read the same way, every
field whatever the declared version, leniently: other writers drift from the spec (a
``schema_version`` without its prefix, tool calls as ``id``/``name``, tool results as steps
of their own, several named rewards), and a broken or half-written file gives
``PATH:LINE: message`` problems while every step before the break still shows.

What is read
    A Harbor job directory (``result.json``, ``config.json``, one directory per trial), one
    trial directory (``result.json``, ``agent/trajectory.json``), an agent directory, or an
    ATIF file on its own, each recognised by content, never by a name alone.

Runs and steps
    A run is a trial (ref: its ``trial_name``) or a lone trajectory (ref: its file name
    without ``.json``). Its score is its reward (``verifier_result.rewards``: the one named
    ``reward``, else said by name); its outcome pass, fail or partial by that reward, error
    or timeout by its exception (``AgentTimeoutError`` is a timeout); its duration the
    trial's, else the span of the step timestamps; its tokens and cost the trial's
    ``agent_result`` (what the job's ``result.json`` sums), else ``final_metrics``' (tokens
    and cost summed over the steps are shown as sums); its title its first user message, or
    its task when that is redacted or empty. A trial also shows its verifier's tests
    (``verifier/*.json`` CTRF reports), the other attempts of its task in the job, and the
    job's own ``result.json`` figures. Its steps are the ATIF steps, ``RUN/step-N``
    with N the ``step_id``; tool calls are paired with their results by ``tool_call_id``.
    Continuation segments (``RUN/cont-1``) and subagent trajectories
    (``RUN/summarization-1-summary``, ``RUN/<trajectory_id>``) are runs listed under theirs,
    read only when opened.

Modules
    Pure readers (no trajtui view): :mod:`~.document` (a JSON document with the line of each
    step, what precedes a break kept), :mod:`~.trajectory` (a trajectory read into the
    typed objects of :mod:`~.model`),
    :mod:`~.facts` (pairing, counts, totals, span), :mod:`~.trial` (a trial's result and
    verdict), :mod:`~.verifier` (its verifier's test reports), :mod:`~.job` (the job's own
    ``result.json``), :mod:`~.layout` (recognising files and directories). Glue:
    :mod:`~.timeline` (runs, steps and fields of trajtui's model), :mod:`~.lazy` (a
    trajectory file streamed once in bounded memory, its timeline built from its steps'
    spans a window at a time), :mod:`~.detail` (what a
    run keeps for its view and search), :mod:`~.source` (:class:`AtifSource`) and
    :mod:`~.claim` (:data:`ATIF`, the registered format).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from trajtui.core.lazynames import lazy_names
from trajtui.formats.atif.claim import ATIF
from trajtui.formats.atif.ident import FORMAT, version_of

if TYPE_CHECKING:
    from trajtui.formats.atif.document import Document, read_document
    from trajtui.formats.atif.facts import (
        Pairing,
        Totals,
        pair_results,
        tool_call_counts,
        totals,
    )
    from trajtui.formats.atif.source import AtifSource
    from trajtui.formats.atif.trajectory import (
        AtifStep,
        ToolCall,
        ToolResult,
        Trajectory,
        parse_trajectory,
    )
    from trajtui.formats.atif.trial import TrialResult, read_trial_result, verdict

_LAZY = {
    "Document": "document",
    "read_document": "document",
    "Pairing": "facts",
    "Totals": "facts",
    "pair_results": "facts",
    "tool_call_counts": "facts",
    "totals": "facts",
    "AtifSource": "source",
    "AtifStep": "trajectory",
    "ToolCall": "trajectory",
    "ToolResult": "trajectory",
    "Trajectory": "trajectory",
    "parse_trajectory": "trajectory",
    "TrialResult": "trial",
    "read_trial_result": "trial",
    "verdict": "trial",
}
"""The readers, imported when first named (the registry needs only :data:`ATIF`: a
command that meets no ATIF file never imports them)."""

if not TYPE_CHECKING:  # (for mypy, the names are the imports above)
    __getattr__ = lazy_names(__name__, _LAZY)


__all__ = [
    "ATIF",
    "FORMAT",
    "AtifSource",
    "AtifStep",
    "Document",
    "Pairing",
    "ToolCall",
    "ToolResult",
    "Totals",
    "Trajectory",
    "TrialResult",
    "pair_results",
    "parse_trajectory",
    "read_document",
    "read_trial_result",
    "tool_call_counts",
    "totals",
    "verdict",
    "version_of",
]
