"""Recognising forecast files and directories by content: eval summaries, run
directories, single-file (1.0) trajectories (decoded, or by their first and last bytes
while they are being written).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from typing import Any

from trajtui.core.io.discover import inside
from trajtui.core.values import string
from trajtui.formats.forecast.files import (
    INFO,
    SUMMARY,
    TRAJECTORY,
    head_matches,
    head_tail,
    read_small,
)

_EVAL_HEAD = re.compile(rb'^\s*\{\s*"(?:eval_config|batch_config)"\s*:')
_INFO_HEAD = re.compile(rb'^\s*\{\s*"cost_stats"\s*:')
_TRAJECTORY_HEAD = re.compile(rb'^\s*\{\s*"messages"\s*:\s*\[\s*(?:\{\s*"key"\s*:|\])')
_SINGLE_HEAD = re.compile(rb'^\s*\{\s*"info"\s*:\s*\{')
_SINGLE_HEAD_INFO = re.compile(rb'^\s*\{\s*"info"\s*:\s*\{\s*"cost_stats"\s*:')
_SINGLE_TAIL = re.compile(rb'"trajectory_format"\s*:\s*"[^"]*prophet[^"]*"\s*\}\s*$')


def is_eval_summary(value: Any) -> bool:
    """summary.json of an eval or batch: ``runs`` entries named by ``run_id``/``task_id``
    next to ``eval_config``/``batch_config`` (or ``total_cost`` with at least one run)."""
    if not isinstance(value, dict) or not isinstance(value.get("runs"), list):
        return False
    runs = value["runs"]
    if not all(isinstance(r, dict) and ("run_id" in r or "task_id" in r) for r in runs):
        return False
    if "eval_config" in value or "batch_config" in value:
        return True
    return "total_cost" in value and bool(runs)


def is_run_info(value: Any) -> bool:
    """info.json of a run: ``cost_stats``, or ``exit_status`` with ``submission``."""
    if not isinstance(value, dict):
        return False
    return isinstance(value.get("cost_stats"), dict) or (
        "exit_status" in value and "submission" in value
    )


def is_single_file(value: Any) -> bool:
    """A single-file (1.0) trajectory: ``info`` and a plain ``messages`` list, no ``steps``."""
    if not isinstance(value, dict) or "steps" in value:
        return False
    if not isinstance(value.get("info"), dict) or not isinstance(value.get("messages"), list):
        return False
    fmt = string(value.get("trajectory_format")) or ""
    return "prophet" in fmt or is_run_info(value["info"])


def looks_single_file(path: str) -> bool:
    """A pretty-printed 1.0 file, by its first and last bytes (it may be large or half-written)."""
    try:
        head, tail = head_tail(path)
    except OSError:
        return False
    if _SINGLE_HEAD_INFO.match(head):
        return True
    return _SINGLE_HEAD.match(head) is not None and _SINGLE_TAIL.search(tail) is not None


def is_eval_dir(path: str, files: Sequence[str]) -> bool:
    """``path`` holds an eval's summary.json (decoded, or the start of a half-written one)."""
    if SUMMARY not in files:
        return False
    summary = os.path.join(path, SUMMARY)
    return is_eval_summary(read_small(summary)) or head_matches(summary, _EVAL_HEAD)


def is_run_dir(path: str, files: Sequence[str]) -> bool:
    """``path`` is a run directory: a forecast info.json, or (while it is being rewritten)
    a trajectory.json or info.json that starts like one."""
    if INFO in files:
        info = os.path.join(path, INFO)
        if is_run_info(read_small(info)) or head_matches(info, _INFO_HEAD):
            return True
    return TRAJECTORY in files and head_matches(os.path.join(path, TRAJECTORY), _TRAJECTORY_HEAD)


def files_of(path: str) -> list[str]:
    """Names of the regular files in ``path`` (links only when they stay inside it)."""
    real = os.path.realpath(path)
    try:
        with os.scandir(path) as it:
            return [
                e.name for e in it if e.is_file() and (not e.is_symlink() or inside(real, e.path))
            ]
    except OSError:
        return []
