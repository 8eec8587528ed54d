"""A run's message pool and model calls as the file records them (:class:`Timeline`),
the keys a single-file trajectory is given, and the run's timestamps and duration.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from trajtui.core.model import Problem, Severity
from trajtui.core.values import mapping, num, sequence, string
from trajtui.formats.forecast.files import TRAJECTORY, RunFiles
from trajtui.formats.forecast.pool import MessagePool

KEY_PREFIX = {"system": "S", "user": "U", "assistant": "A", "tool": "T"}
"""Role -> key prefix, as the agent's recorder gives keys (``O`` for any other role)."""


def _keyed_entries(trajectory: dict[str, Any]) -> tuple[list[tuple[str, Any]], int]:
    """``(key, message)`` pairs of a recorder trajectory, and how many entries had no key."""
    entries: list[tuple[str, Any]] = []
    skipped = 0
    for item in sequence(trajectory.get("messages")):
        m = mapping(item)
        key = m.get("key")
        if isinstance(key, str):
            entries.append((key, m.get("message")))
        else:
            skipped += 1
    return entries, skipped


def single_file_keys(messages: Sequence[Any]) -> list[str]:
    """Keys for a plain message list: role prefix and a per-role count from 0."""
    counts: dict[str, int] = {}
    keys = []
    for raw in messages:
        role = string(mapping(raw).get("role")) or "other"
        prefix = KEY_PREFIX.get(role, "O")
        n = counts.get(prefix, 0)
        counts[prefix] = n + 1
        keys.append(f"{prefix}{n}")
    return keys


@dataclass(frozen=True, slots=True)
class RawStep:
    """One model call as the file records it: the keys it saw, the key it produced."""

    input_keys: tuple[str, ...]
    output_key: str | None
    raw: Any


def _recorded_steps(trajectory: dict[str, Any]) -> list[RawStep]:
    out = []
    for s in sequence(trajectory.get("steps")):
        m = mapping(s)
        keys = tuple(k for k in sequence(m.get("input")) if isinstance(k, str))
        out.append(RawStep(keys, string(m.get("output")), s))
    return out


def _single_file_steps(keys: Sequence[str], messages: Sequence[Any]) -> list[RawStep]:
    return [
        RawStep(tuple(keys[:i]), keys[i], raw)
        for i, raw in enumerate(messages)
        if mapping(raw).get("role") == "assistant"
    ]


@dataclass(frozen=True, slots=True)
class Timeline:
    """A run's message pool and model calls, before they become steps."""

    pool: MessagePool
    steps: tuple[RawStep, ...]
    problems: tuple[Problem, ...] = ()


def timeline(files: RunFiles, ref: str | None = None) -> Timeline | None:
    """The pool and raw steps of a run's trajectory, or None when it has none."""
    traj = files.trajectory
    if traj is None:
        return None
    if files.single:
        messages = sequence(traj.get("messages"))
        keys = single_file_keys(messages)
        return Timeline(
            MessagePool(list(zip(keys, messages, strict=True))),
            tuple(_single_file_steps(keys, messages)),
        )
    entries, skipped = _keyed_entries(traj)
    problems = []
    if skipped:
        where = os.path.join(files.path or "", TRAJECTORY)
        problems.append(
            Problem(where, None, f"{skipped} messages have no key (skipped)", Severity.WARNING, ref)
        )
    return Timeline(MessagePool(entries), tuple(_recorded_steps(traj)), tuple(problems))


def timestamp_of(raw: Any) -> float | None:
    return num(mapping(mapping(raw).get("extra")).get("timestamp"))


def first_timestamp(pool: MessagePool) -> float | None:
    """The earliest ``extra.timestamp`` of the run's messages (epoch seconds)."""
    span = timestamp_span(pool)
    return span[0] if span is not None else None


def _timestamps(pool: MessagePool) -> list[float]:
    return [t for t in (timestamp_of(pool.raw(k)) for k in pool.keys()) if t is not None]


def timestamp_span(pool: MessagePool) -> tuple[float, float] | None:
    """The earliest and latest ``extra.timestamp`` of the run's messages (epoch seconds),
    or None when no message has one."""
    found = _timestamps(pool)
    return (min(found), max(found)) if found else None


SPAN_LABEL = "span of message timestamps"
"""What a forecast run's duration is: from its first timestamped message to its last (the
agent records no run duration; the first model call's own time is not in it)."""


def run_duration(pool: MessagePool) -> float | None:
    """A run's duration in ms: the span of its messages' timestamps (None with fewer than
    two timestamped messages)."""
    found = _timestamps(pool)
    return (max(found) - min(found)) * 1000 if len(found) > 1 else None
