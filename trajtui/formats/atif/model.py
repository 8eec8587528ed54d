"""The objects an ATIF trajectory is read into (:mod:`~.trajectory` reads them): a
:class:`Trajectory` and its steps (:class:`AtifStep`), each with its tool calls
(:class:`ToolCall`), observation results (:class:`ToolResult`, maybe naming subagent
trajectories: :class:`SubagentRef`) and per-step :class:`Metrics`. Plain, typed and frozen:
no parsing and no view in here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from trajtui.core.model import Problem
from trajtui.core.values import string


@dataclass(frozen=True, slots=True)
class Metrics:
    """One step's (or one LLM call's) numbers, each None when the file does not say."""

    prompt_tokens: float | None = None
    completion_tokens: float | None = None
    cached_tokens: float | None = None
    cost_usd: float | None = None


@dataclass(frozen=True, slots=True)
class SubagentRef:
    """A ``subagent_trajectory_ref`` entry: a file next to the trajectory
    (``trajectory_path``) or an embedded trajectory of the root (``trajectory_id``)."""

    trajectory_path: str | None
    trajectory_id: str | None
    session_id: str | None
    extra: Any = None


@dataclass(frozen=True, slots=True)
class ToolCall:
    """A tool call of an agent step.

    Attributes:
        call_id: ``tool_call_id`` (``id``, ``call_id`` in other writers), or None.
        name: ``function_name`` (``name``, ``tool_name``), or None.
        arguments: As in the file (an object, or a JSON string some writers use).
        raw: The call as in the file.
    """

    call_id: str | None
    name: str | None
    arguments: Any
    raw: Any


@dataclass(frozen=True, slots=True)
class ToolResult:
    """An observation result.

    Attributes:
        call_id: ``source_call_id`` (the call it answers), or None.
        content: As in the file: a string, a list of content parts, or None.
        failed: True or False when the file says whether the tool failed (``is_error``,
            ``result.success``), None when it does not.
        subagents: Its ``subagent_trajectory_ref`` entries.
        raw: The result as in the file.
    """

    call_id: str | None
    content: Any
    failed: bool | None
    subagents: tuple[SubagentRef, ...]
    raw: Any


@dataclass(frozen=True, slots=True)
class AtifStep:
    """One ATIF step.

    Attributes:
        position: 1-based position in the document.
        number: What ``step-N`` calls it: its ``step_id``, or its position when the ids
            cannot name every step (missing, repeated, not integers).
        line: The line it starts on.
        step_id: ``step_id`` as in the file, when it is an integer.
        source: ``system``, ``user`` or ``agent`` (anything else as written), or None.
        timestamp: ``timestamp`` as in the file.
        time: The timestamp in seconds since the epoch, when it parses.
        text: The message as text (content parts joined, media named), or None.
        reasoning: ``reasoning_content``.
        model_name: ``model_name``.
        calls: Its tool calls.
        results: Its observation results.
        metrics: ``metrics``, or None.
        copied: ``is_copied_context`` is true (a replay of an earlier segment).
        raw: The step as in the file.
    """

    position: int
    number: int
    line: int | None
    step_id: int | None
    source: str | None
    timestamp: str | None
    time: float | None
    text: str | None
    reasoning: str | None
    model_name: str | None
    calls: tuple[ToolCall, ...]
    results: tuple[ToolResult, ...]
    metrics: Metrics | None
    copied: bool
    raw: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Trajectory:
    """An ATIF document.

    Attributes:
        path: The file it was read from.
        schema_version: As in the file.
        version: ``(major, minor)`` read from it (prefix or not), or None.
        session_id: ``session_id``.
        trajectory_id: ``trajectory_id`` (ATIF-v1.7).
        agent: ``agent`` as in the file (``{}`` when absent).
        steps: The steps that could be read, in file order.
        final_metrics: ``final_metrics`` as in the file, or None.
        continued_ref: ``continued_trajectory_ref``: the next segment's file.
        embedded: ``subagent_trajectories`` entries (whole documents), by position.
        root: The document without its steps.
        problems: What could not be read, or was read with a fix-up.
        complete: The document was read to its end (no JSON error).
        body: For a file read in bounded memory, what reads a step's body again
            (``body(step)``: the step whole; its steps are then :func:`lightened
            <trajtui.formats.atif.trajectory.lighten>`); None when every step is whole.
    """

    path: str
    schema_version: str | None
    version: tuple[int, int] | None
    session_id: str | None
    trajectory_id: str | None
    agent: dict[str, Any]
    steps: tuple[AtifStep, ...]
    final_metrics: dict[str, Any] | None
    continued_ref: str | None
    embedded: tuple[dict[str, Any], ...]
    root: dict[str, Any]
    problems: tuple[Problem, ...]
    complete: bool
    body: Callable[[AtifStep], AtifStep] | None = None

    @property
    def agent_name(self) -> str | None:
        """``agent.name``."""
        return string(self.agent.get("name"))

    @property
    def model_name(self) -> str | None:
        """``agent.model_name`` (``agent.model`` in other writers)."""
        return string(self.agent.get("model_name")) or string(self.agent.get("model"))
