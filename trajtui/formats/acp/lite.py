"""The fields of an acp-harness record a run-list row is made from, as msgspec structs.

msgspec decodes a record into one of these skipping every other field (the text of each
step, tool inputs and outputs) without building it: see :mod:`trajtui.core.jsonl.rowpool`. A
field the record lacks stays ``UNSET`` and is left out of the dict ``summarize`` gets;
each field is typed ``Any`` so a value of any type reaches ``summarize`` as it is in the
file (it judges types itself). Only lists of steps and trials are typed, so their items'
other fields are skipped: an item that is not an object makes the record be read the
ordinary way. Steps stay structs (``lite_kept``: a dict for each of a million steps would
be a third of a row's cost); ``tool_stats`` reads a step either way. ``tests/core/test_rowpool.py``
checks that a row made from these is the row made from the whole record.
"""

from __future__ import annotations

from typing import Any

from msgspec import UNSET, Struct, UnsetType, field


class StepLite(Struct):
    """A trajectory step: what tool-call counts and tool names need, and the statistics'
    call durations (``lite_facts``)."""

    type: Any = UNSET
    status: Any = UNSET
    name: Any = UNSET
    timestamp: Any = UNSET
    duration: Any = UNSET


class CaptureLite(Struct):
    """A capture record."""

    id: Any = UNSET
    input: Any = UNSET
    status: Any = UNSET
    errors: Any = UNSET
    metadata: Any = UNSET
    score: Any = UNSET
    timing: Any = UNSET
    toolErrors: Any = UNSET
    trajectory: list[StepLite] | UnsetType = UNSET


class TrialLite(Struct):
    """One trial of a trials record."""

    trialNum: Any = UNSET
    output: Any = UNSET
    trajectory: list[StepLite] | UnsetType = UNSET
    duration: Any = UNSET
    score: Any = UNSET
    reasoning: Any = UNSET
    outcome: Any = UNSET
    passed: Any = field(default=UNSET, name="pass")  # a Python keyword in the file


class TrialsLite(Struct):
    """A trials record."""

    id: Any = UNSET
    input: Any = UNSET
    passRate: Any = UNSET
    passAtK: Any = UNSET
    passExpK: Any = UNSET
    metadata: Any = UNSET
    trials: list[TrialLite] | UnsetType = UNSET


class SummaryLite(Struct):
    """A summary record."""

    id: Any = UNSET
    input: Any = UNSET
    toolCalls: Any = UNSET
    duration: Any = UNSET
