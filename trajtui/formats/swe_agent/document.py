"""A SWE-agent trajectory file (``.traj``): recognised by its first bytes (read in one pass
by :mod:`~.lean`).

SWE-agent writes one pretty-printed JSON object per run, rewritten after every step:
``trajectory`` (one item per step: ``action``, ``observation``, ``thought``...), ``history``
(the messages), ``info`` (exit status, submission, model stats) and, from 1.0,
``replay_config`` and ``environment``; 0.x puts ``environment`` first. Some demonstrations
hold only ``history``; a RetryAgent file holds ``attempts``, each a trajectory of its own.

Every step of 1.1 repeats the whole conversation sent to the model (``query``): the file
grows with the square of the run's length, and that copy is dropped as each file is read
(it is never shown, searched or kept: :class:`Item` passes over it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import msgspec

from trajtui.core.io import discover, safeio
from trajtui.core.io.jsonutil import JsonError, loads
from trajtui.core.values import mapping, sequence, string

SUFFIX = ".traj"
HEAD = 1024
DROPPED = ("query",)
"""Keys of a trajectory item never kept (the conversation copy of each step)."""

_BOM = rb"^(?:\xef\xbb\xbf)?\s*\{\s*"
_ENV = rb'(?:"environment"\s*:\s*"[^"\\]*"\s*,\s*)?'
_STEPS = re.compile(
    _BOM
    + _ENV
    + rb'"(?:trajectory"\s*:\s*\[\s*\{\s*"(?:action|observation|response|thought|query|execution_time|state|extra_info)"\s*:'
    + rb'|attempts"\s*:\s*\[\s*\{\s*"(?:trajectory|history|info)"\s*:)'
)
_HISTORY = re.compile(_BOM + _ENV + rb'"history"\s*:\s*\[\s*\{\s*"role"\s*:')
_ITEM_KEYS = {"action", "observation", "response", "thought"}


def looks_like(path: str) -> bool:
    """A file whose head is a SWE-agent trajectory's: ``trajectory`` items with
    ``action``/``observation``, ``attempts`` of trajectories, or (a ``.traj`` file)
    ``history`` alone.

    Raises:
        OSError: It cannot be read.
    """
    head = safeio.read_head(path, HEAD)
    if _STEPS.match(head):
        return True
    return path.endswith(SUFFIX) and _HISTORY.match(head) is not None


def looks_like_value(value: Any, path: str) -> bool:
    """The same, of a decoded (one-line) document."""
    obj = mapping(value)
    items = obj.get("trajectory")
    if isinstance(items, list):
        return bool(items) and bool(_ITEM_KEYS & set(mapping(items[0])))
    attempts = obj.get("attempts")
    if isinstance(attempts, list):
        return bool(attempts) and (
            "trajectory" in mapping(attempts[0]) or "history" in mapping(attempts[0])
        )
    return path.endswith(SUFFIX) and set(obj) == {"history"} and isinstance(obj["history"], list)


@dataclass(frozen=True, slots=True)
class Traj:
    """One trajectory (a file's, or one attempt of a RetryAgent file).

    Attributes:
        trajectory: The step items (without ``query``), or None when the file has none.
        history: The messages.
        info: ``info`` (empty when absent).
        replay_config: ``replay_config`` decoded (a JSON string in 1.1, an object in 1.0).
        environment: ``environment``.
        attempts: A RetryAgent file's attempts.
        warning: Something tolerated while decoding, or None.
    """

    trajectory: list[dict[str, Any]] | None
    history: list[Any]
    info: dict[str, Any]
    replay_config: dict[str, Any] = field(default_factory=dict)
    environment: str | None = None
    attempts: tuple[Traj, ...] = ()
    warning: str | None = None


def replay(value: Any) -> dict[str, Any]:
    if isinstance(value, str):
        try:
            value, _ = loads(value)
        except JsonError:
            return {}
    return mapping(value)


def traj_of(obj: dict[str, Any], warning: str | None = None) -> Traj:
    items = obj.get("trajectory")
    trajectory = None
    if isinstance(items, list):
        trajectory = [{k: v for k, v in mapping(i).items() if k not in DROPPED} for i in items]
    attempts = tuple(traj_of(mapping(a)) for a in sequence(obj.get("attempts")))
    return Traj(
        trajectory,
        sequence(obj.get("history")),
        mapping(obj.get("info")),
        replay(obj.get("replay_config")),
        string(obj.get("environment")),
        attempts,
        warning,
    )


class Item(msgspec.Struct):
    """A trajectory item as decoded: every key but ``query``, which msgspec passes over
    without building it (a 1.1 file is mostly that copy)."""

    action: Any = msgspec.UNSET
    observation: Any = msgspec.UNSET
    response: Any = msgspec.UNSET
    thought: Any = msgspec.UNSET
    execution_time: Any = msgspec.UNSET
    state: Any = msgspec.UNSET
    extra_info: Any = msgspec.UNSET


def stem(path: str) -> str:
    """The run's name from its file: ``f80e54.traj`` is ``f80e54``."""
    return discover.stem(path, (SUFFIX, ".json"))
