"""A mini-swe-agent trajectory file: recognised by its first and last bytes, read whole.

``mini`` writes one pretty-printed JSON document per run (``indent=2``): an object
``{info, messages, trajectory_format}`` (``mini-swe-agent-1`` from 1.x, ``-1.1`` from 2.x;
a batch run adds ``instance_id`` after it), or, in the oldest files, a bare array of
messages. ``trajectory_format`` is the last key, so a file is told by its tail; the
bare list has nothing naming it but its ``.traj.json`` name and its messages.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from trajtui.core.io import discover, safeio
from trajtui.core.io.jsonutil import JsonError, error_line, loads
from trajtui.core.values import mapping, sequence, string

SUFFIX = ".traj.json"
FORMAT_PREFIX = "mini-swe-agent"

HEAD = 512
TAIL = 4096
_MARK = re.compile(rb'"trajectory_format"\s*:\s*"mini-swe-agent[^"\\]*"')
_INFO_HEAD = re.compile(
    rb'^(?:\xef\xbb\xbf)?\s*\{\s*"info"\s*:\s*\{\s*"(?:model_stats|exit_status)"\s*:'
)
_LIST_HEAD = re.compile(rb'^(?:\xef\xbb\xbf)?\s*\[\s*\{\s*"role"\s*:\s*"(?:system|user)"')


def marked(value: Any) -> bool:
    """A decoded document that names the format (``trajectory_format: mini-swe-agent…``)."""
    fmt = string(mapping(value).get("trajectory_format"))
    return fmt is not None and fmt.startswith(FORMAT_PREFIX)


def marked_file(path: str) -> bool:
    """A file whose tail names the format (the last key of every ``mini`` trajectory).

    Raises:
        OSError: It cannot be read.
    """
    _, tail = safeio.read_head_tail(path, 0, TAIL)
    return _MARK.search(tail) is not None


def named_file(path: str) -> bool:
    """A ``.traj.json`` file that starts as ``mini`` writes one (``info`` first, with
    ``model_stats`` or ``exit_status``), or is an array of chat messages (the oldest
    shape): one whose tail does not name the format (a fork's keys after it).

    Raises:
        OSError: It cannot be read.
    """
    if not path.endswith(SUFFIX):
        return False
    head = safeio.read_head(path, HEAD)
    return _INFO_HEAD.match(head) is not None or _LIST_HEAD.match(head) is not None


@dataclass(frozen=True, slots=True)
class Traj:
    """One trajectory as read.

    Attributes:
        info: The ``info`` object (empty for the bare list).
        messages: The messages, as in the file.
        trajectory_format: ``trajectory_format`` (None for the bare list).
        instance_id: ``instance_id`` (batch runs), or None.
        warning: Something tolerated while decoding (invalid UTF-8...), or None.
    """

    info: dict[str, Any]
    messages: list[Any]
    trajectory_format: str | None
    instance_id: str | None
    warning: str | None = None


class Unreadable(Exception):
    """The file is not a trajectory: ``line`` (or None) and a one-line ``message``."""

    def __init__(self, line: int | None, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


def parse(data: bytes) -> Traj:
    """The trajectory in ``data``.

    Raises:
        Unreadable: It is not JSON, or not a trajectory's shape.
    """
    try:
        value, warning = loads(data)
    except JsonError as err:
        raise Unreadable(error_line(data), str(err)) from None
    if isinstance(value, list):
        return Traj({}, value, None, None, warning)
    if not isinstance(value, dict) or not isinstance(value.get("messages"), list):
        raise Unreadable(1, "not a mini-swe-agent trajectory (no messages array)")
    return Traj(
        mapping(value.get("info")),
        sequence(value.get("messages")),
        string(value.get("trajectory_format")),
        string(value.get("instance_id")),
        warning,
    )


def read(path: str) -> Traj:
    """The trajectory in the file ``path``.

    Raises:
        OSError: It cannot be read.
        Unreadable: It is not a trajectory.
    """
    return parse(safeio.read_bytes(path))


def stem(path: str) -> str:
    """The run's name from its file: ``x.traj.json`` is ``x``."""
    return discover.stem(path, (SUFFIX, ".json"))
