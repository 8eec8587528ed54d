"""The continuation segments and subagent trajectories of a trajectory, found without
reading them.

* **Continuations**: ``<stem>.cont-N.json`` files beside ``<stem>.json`` (terminus-2 writes
  one per segment, each naming the next in ``continued_trajectory_ref``; the directory
  listing finds the whole chain without reading any), and the file the trajectory's
  ``continued_trajectory_ref`` names. Listed as ``RUN/cont-N``.
* **Subagent files**: every ``subagent_trajectory_ref`` with a ``trajectory_path``
  (relative to the referencing trajectory's directory), e.g.
  ``trajectory.summarization-1-summary.json``: listed as ``RUN/summarization-1-summary``.
  A path that leaves the opened directory (or a URL) is not read; a file that does not
  exist is a warning (Harbor's own golden files have such dangling references).
* **Embedded subagents** (ATIF-v1.7 ``subagent_trajectories``): listed as
  ``RUN/<trajectory_id>``; references with that ``trajectory_id`` lead to them.

A name that would read as a step or trial reference (``step-3``) gets ``sub-`` before it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass

from trajtui.core.io.discover import inside
from trajtui.core.io.text import one_line
from trajtui.core.model import Problem, Severity
from trajtui.formats.atif import layout
from trajtui.formats.atif.trajectory import SubagentRef, Trajectory

_RESERVED = re.compile(r"^(?:step|trial|cont)-\d+$")


@dataclass(frozen=True, slots=True)
class Child:
    """A run listed under another.

    Attributes:
        kind: ``continuation``, ``subagent`` (a file) or ``embedded``.
        parent: The parent run's reference.
        key: What identifies it under its parent (its file's real path, ``id:<id>``).
        name: The last part of its reference (``cont-1``, ``summarization-1-summary``).
        path: Its file; for an embedded subagent, the parent's file.
        index: The position of an embedded subagent in ``subagent_trajectories``.
        title: What the run list says of it.
    """

    kind: str
    parent: str
    key: str
    name: str
    path: str
    index: int | None
    title: str


def stem_of(path: str) -> str:
    """The file name without ``.json``."""
    name = os.path.basename(path)
    return name[: -len(".json")] if name.endswith(".json") and len(name) > 5 else name


def short_name(stem: str, path: str) -> str:
    """``summarization-1-summary`` for ``trajectory.summarization-1-summary.json`` beside
    ``trajectory.json``: the file's name without the parent's stem and ``.json``."""
    name = stem_of(path)
    if name.startswith(stem + ".") and len(name) > len(stem) + 1:
        name = name[len(stem) + 1 :]
    name = name.replace("::", ":")  # "::" separates a source from a reference
    return f"sub-{name}" if _RESERVED.match(name) else name


def child_keys(trajectory: Trajectory, ref: SubagentRef) -> list[str]:
    """The keys a subagent reference of ``trajectory`` may be listed under."""
    keys = []
    if ref.trajectory_id is not None:
        keys.append(f"id:{ref.trajectory_id}")
    if ref.trajectory_path is not None:
        path = os.path.join(os.path.dirname(trajectory.path), ref.trajectory_path)
        keys.append(os.path.realpath(path))
    return keys


def continuations(trajectory: Trajectory, root_real: str) -> list[tuple[str, str]]:
    """``(name, path)`` of the trajectory's continuation segments, in order."""
    folder = os.path.dirname(trajectory.path)
    stem = stem_of(trajectory.path)
    files, _ = layout.listing(folder, root_real)
    pattern = re.compile(re.escape(stem) + r"\.cont-(\d{1,9})\.json$")
    found = sorted((int(m[1]), name) for name in files if (m := pattern.match(name)))
    out = [(f"cont-{n}", os.path.join(folder, name)) for n, name in found]
    ref = trajectory.continued_ref
    if ref is not None and "://" not in ref:
        path = os.path.join(folder, ref)
        known = {os.path.realpath(p) for _, p in out}
        if (
            inside(root_real, path)
            and os.path.lexists(path)
            and os.path.realpath(path) not in known
        ):
            out.insert(0, (short_name(stem, path), path))
    return out


def find_children(
    parent: str, trajectory: Trajectory, root_real: str, watch: Callable[[str], None]
) -> tuple[list[Child], list[Problem]]:
    """The runs to list under ``parent`` for its trajectory, and warnings about references
    that lead nowhere (``watch`` is told every file looked for)."""
    out: list[Child] = []
    problems: list[Problem] = []
    for name, path in continuations(trajectory, root_real):
        title = f"continuation of {parent} ({os.path.basename(path)})"
        out.append(Child("continuation", parent, os.path.realpath(path), name, path, None, title))
    ids: set[str] = set()
    for n, entry in enumerate(trajectory.embedded):
        tid = entry.get("trajectory_id")
        name = str(tid) if isinstance(tid, (str, int)) and str(tid) else f"subagent-{n + 1}"
        if name in ids:
            continue
        ids.add(name)
        agent = entry.get("agent")
        who = agent.get("name") if isinstance(agent, dict) else None
        title = f"{one_line(who, 60) if isinstance(who, str) else 'subagent'}: embedded in {parent}"
        short = short_name("", name).replace("/", "_")
        out.append(Child("embedded", parent, f"id:{name}", short, trajectory.path, n, title))
    for step in trajectory.steps:
        for result in step.results:
            for ref in result.subagents:
                if ref.trajectory_id is not None and ref.trajectory_id in ids:
                    continue  # an embedded subagent, listed above
                found = _file_child(parent, trajectory, step.number, ref, root_real, watch)
                if isinstance(found, Child):
                    out.append(found)
                else:
                    message = f"step {step.number}: {found}"
                    problems.append(
                        Problem(trajectory.path, step.line, message, Severity.WARNING, parent)
                    )
    return out, problems


def _file_child(
    parent: str,
    trajectory: Trajectory,
    number: int,
    ref: SubagentRef,
    root_real: str,
    watch: Callable[[str], None],
) -> Child | str:
    """The run a subagent file is listed as, or why it is not."""
    rel = ref.trajectory_path
    if rel is None:
        if ref.trajectory_id:
            return f"trajectory_id {ref.trajectory_id!r} is not in subagent_trajectories"
        return "a subagent reference with neither trajectory_path nor trajectory_id"
    path = os.path.join(os.path.dirname(trajectory.path), rel)
    if "://" in rel or not inside(root_real, path):
        return f"subagent trajectory {rel!r} is outside the opened directory (not read)"
    watch(path)
    if not os.path.lexists(path):
        return f"subagent trajectory {rel!r} does not exist"
    about = ref.extra.get("summary") if isinstance(ref.extra, dict) else None
    said = one_line(about, 120) if isinstance(about, str) else os.path.basename(path)
    title = f"subagent of {parent}, step {number}: {said}"
    name = short_name(stem_of(trajectory.path), path)
    return Child("subagent", parent, os.path.realpath(path), name, path, None, title)
