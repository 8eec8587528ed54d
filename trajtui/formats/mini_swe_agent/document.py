"""A mini-swe-agent trajectory file: recognised by its first and last bytes (read in one
pass by :mod:`~.lean`).

``mini`` writes one pretty-printed JSON document per run (``indent=2``): an object
``{info, messages, trajectory_format}`` (``mini-swe-agent-1`` from 1.x, ``-1.1`` from 2.x;
a batch run adds ``instance_id`` after it), or, in the oldest files, a bare array of
messages. ``trajectory_format`` is the last key, so a file is told by its tail; the
bare list has nothing naming it but its ``.traj.json`` name and its messages.
"""

from __future__ import annotations

import re
from typing import Any

from trajtui.core.io import discover, safeio
from trajtui.core.values import mapping, string

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


def stem(path: str) -> str:
    """The run's name from its file: ``x.traj.json`` is ``x``."""
    return discover.stem(path, (SUFFIX, ".json"))
