"""Recognising ATIF files and Harbor's job and trial directories, by content.

Only the first :data:`HEAD` bytes of a file are read to tell what it is (its top-level keys:
:func:`~trajtui.core.io.jsonutil.head_object`), so a directory of big files is told at once.

* An **ATIF file** is a JSON object with a ``schema_version`` starting ``ATIF``; or one with
  a version-like ``schema_version`` (``"1.4"``: other writers drop the prefix) and a
  ``steps`` array or an ``agent`` object; or, without a version, with ``steps``, ``agent``
  and ``session_id``. Agents' native logs (gemini-cli, mini-swe-agent, OpenHands event
  lists) and a JSON array under the name ``trajectory.json`` are not ATIF.
* A **trial directory** holds a ``result.json`` naming its ``trial_name`` and
  ``task_name``, or (still running) a ``config.json`` with a ``trial_name`` and its
  ``task`` or ``agent``, or an ``agent/trajectory.json`` that is ATIF.
* A **job directory** holds a ``result.json`` with ``n_total_trials``, or a
  ``config.json`` with a ``job_name`` and what a job configures (``jobs_dir``, ``agents``,
  ``datasets``, ``tasks``, ``orchestrator``); its trials are its subdirectories that are
  trial directories.
* An **agent directory** (what Harbor mounts as ``/logs/agent``) holds an ATIF
  ``trajectory.json``, maybe with continuation segments and subagent files beside it.

Nothing is read outside the directory opened (links out of it are not followed).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from trajtui.core.format_api import Reach, Scope
from trajtui.core.io import safeio
from trajtui.core.io.discover import SKIP_DIRS, Walked, inside
from trajtui.core.io.jsonutil import head_object
from trajtui.formats.atif.ident import version_of

HEAD = 64 << 10
"""Bytes read to tell what a file is."""
TRAJECTORY = "trajectory.json"
RESULT = "result.json"
CONFIG = "config.json"
AGENT = "agent"

JOB, TRIAL, AGENT_DIR = "job", "trial", "agent"
_JOB_KEYS = ("jobs_dir", "agents", "datasets", "tasks", "orchestrator", "n_attempts")


def head_keys(path: str) -> dict[str, Any] | None:
    """The top-level keys of the JSON object a file starts with (containers as ``{}`` and
    ``[]``), or None when it cannot be read or does not start an object."""
    try:
        head = safeio.read_head(path, HEAD)
    except OSError:
        return None
    return head_object(head)


def looks_atif(keys: dict[str, Any] | None) -> bool:
    """Whether an object with these top-level keys is an ATIF trajectory."""
    if not keys:
        return False
    schema = keys.get("schema_version")
    steps = isinstance(keys.get("steps"), list)
    agent = isinstance(keys.get("agent"), dict)
    if isinstance(schema, str) and version_of(schema) is not None:
        return schema.lstrip().lower().startswith("atif") or steps or agent
    return steps and agent and "session_id" in keys


def is_atif_file(path: str) -> bool:
    """Whether ``path`` starts like an ATIF trajectory."""
    return looks_atif(head_keys(path))


def is_trial_head(keys: dict[str, Any] | None) -> bool:
    """A trial's ``result.json`` (or, ``config.json`` of one still running)."""
    if not keys or not isinstance(keys.get("trial_name"), str):
        return False
    return isinstance(keys.get("task_name"), str) or "task" in keys or "agent" in keys


def is_job_head(keys: dict[str, Any] | None) -> bool:
    """A job's ``result.json`` or ``config.json``."""
    if not keys:
        return False
    if "n_total_trials" in keys:
        return True
    return isinstance(keys.get("job_name"), str) and any(k in keys for k in _JOB_KEYS)


def dir_kind(path: str, files: Sequence[str], dirs: Sequence[str]) -> str | None:
    """:data:`JOB`, :data:`TRIAL`, :data:`AGENT_DIR` or None for the directory ``path``
    holding ``files`` and subdirectories ``dirs``."""
    names = set(files)
    for name in (RESULT, CONFIG):
        if name in names:
            keys = head_keys(os.path.join(path, name))
            if is_job_head(keys):
                return JOB
            if is_trial_head(keys):
                return TRIAL
    if AGENT in dirs and is_atif_file(os.path.join(path, AGENT, TRAJECTORY)):
        return TRIAL
    if TRAJECTORY in names and is_atif_file(os.path.join(path, TRAJECTORY)):
        return AGENT_DIR
    return None


def listing(path: str, root_real: str) -> tuple[list[str], list[str]]:
    """``(files, dirs)``: the regular files and subdirectories of ``path`` that resolve
    inside ``root_real``, by name; empty when it cannot be read."""
    files: list[str] = []
    dirs: list[str] = []
    try:
        with os.scandir(path) as it:
            entries = sorted(it, key=lambda e: e.name)
    except OSError:
        return files, dirs
    for entry in entries:
        try:
            if entry.is_symlink() and not inside(root_real, entry.path):
                continue
            if entry.is_dir():
                if entry.name not in SKIP_DIRS:
                    dirs.append(entry.name)
            elif entry.is_file():
                files.append(entry.name)
        except OSError:
            continue
    return files, dirs


def trial_dirs(job: str, root_real: str, dirs: Sequence[str]) -> list[str]:
    """The subdirectories of the job directory ``job`` that are trial directories."""
    out = []
    for name in dirs:
        sub = os.path.join(job, name)
        files, subdirs = listing(sub, root_real)
        if dir_kind(sub, files, subdirs) == TRIAL:
            out.append(sub)
    return out


class JobScope(Scope):
    """A job directory's: its ``result.json`` and ``config.json`` and its trial
    directories (each read as a whole); anything else in it is left to the walk."""

    def reach_dir(self, place: Walked) -> Reach:
        path = os.path.normpath(place.path)
        if os.path.dirname(path) == self.root and dir_kind(path, place.files, place.dirs) == TRIAL:
            return Reach.ALL
        return Reach.OTHERS

    def reach_file(self, place: Walked, name: str) -> Reach:
        at_root = os.path.normpath(place.path) == self.root
        return Reach.ALL if at_root and name in (RESULT, CONFIG) else Reach.NONE


class AgentScope(Scope):
    """An agent directory's: its ``trajectory.json`` and the files beside it named after
    it (``trajectory.cont-1.json``, ``trajectory.summarization-1-summary.json``: its
    continuations and subagents); anything else in it is left to the walk."""

    def reach_dir(self, place: Walked) -> Reach:
        return Reach.NONE

    def reach_file(self, place: Walked, name: str) -> Reach:
        at_root = os.path.normpath(place.path) == self.root
        ours = name == TRAJECTORY or (name.startswith("trajectory.") and name.endswith(".json"))
        return Reach.ALL if at_root and ours else Reach.NONE


@dataclass(frozen=True, slots=True)
class Place:
    """Where one run's files are.

    Attributes:
        trajectory: The ATIF file (None: a trial without one).
        trial_dir: The trial directory, or None for a trajectory on its own.
    """

    trajectory: str | None
    trial_dir: str | None = None
