"""PLAN.md files: telling them by content, finding every one, and naming each as a run.

What is a plan
    A Markdown file named as the planner names plans (``03-05-PLAN.md``), or one whose name
    has the word ``PLAN`` in it (``PLAN.md``, ``PLAN_03-05_capture.md``: a name only says
    which files are worth reading) and whose content is a plan's: a YAML frontmatter naming
    its ``phase`` and ``plan`` (or ``plan_id``), or a ``<tasks>`` element of ``<task>``
    elements. A file called ``...PLAN.md`` that is not one is said so (a warning naming
    it), never passed over in silence.

Plan ids
    The file name's ``NN-MM`` (``03-05-PLAN.md``), else the frontmatter's (``phase: 03-...``
    + ``plan: 5`` is ``03-05``; ``phase: quick-3`` + ``plan: 01`` is ``quick-3-01``), else
    the name without ``PLAN.md`` (or, for a bare ``PLAN.md``, its folder's name).

Plans kept aside, several files for one plan
    Every file is a run. A plan in a project's ``.planning/phases`` tree (or at the top of
    ``.planning``, or in a ``.planning`` with no ``phases``, or in none: a folder of saved
    plans) is listed under its plan id. One kept beside the phases (a backup of an old phase layout, a
    finished milestone's archive, a quick task) is listed under the folder that holds its
    phase folder and the id (``phases-v1-backup/01-01``, ``v1.0-phases/02-03``,
    ``quick/quick-3-01``), whether or not a current plan has its id, so that a bare id
    always means a plan of the current phases and no name depends on which other files
    exist. Of several files for one plan, the one under a ``phases`` directory (then the
    shallowest) is the one result logs are matched with; a second one elsewhere is listed
    under its folder too.

Where
    A project's plans are in ``.planning/`` (any depth) and at its top level; a folder of
    plans (a ``.planning`` directory, a ``phases`` directory or one phase directory, a
    folder of saved PLAN files) holds them at any depth. Nothing outside the opened
    directory is read.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from trajtui.core.format_api import Reach, Scope
from trajtui.core.io import safeio
from trajtui.core.io.discover import Walked, inside, walk
from trajtui.core.io.yamlsafe import YamlError
from trajtui.core.io.yamlsafe import load as load_yaml
from trajtui.core.model import Problem, Severity
from trajtui.core.values import mapping
from trajtui.formats.ultraplan.ids import PLAN_ID, natural_key
from trajtui.formats.ultraplan.markup import split_frontmatter, unfenced
from trajtui.formats.ultraplan.plan import plan_id_of, summary_path

HEAD = 16384
"""Bytes of a Markdown file read to tell whether it is a plan."""
PROBE_DIRS = 24
"""Directories looked into, per level, when deciding whether a directory holds plans."""
_NUMBERED = re.compile(rf"^(?P<plan>{PLAN_ID})-PLAN\.md$", re.I)
_PLAN_WORD = re.compile(r"(?:^|[-_.])PLAN(?:[-_.]|$)", re.I)
_TASK_TAG = re.compile(r"<task[\s>]")
NOT_A_PLAN = (
    "named as a plan, but no frontmatter naming its phase and plan and no <tasks> "
    "element: not a plan (not listed)"
)


@dataclass(frozen=True, slots=True)
class PlanFile:
    """One PLAN.md found.

    Attributes:
        ref: The run it is listed as (its plan id, or the id under its folder).
        plan_id: The plan it is for.
        path: The file.
        primary: It is the plan's first file (result logs are matched with it).
    """

    ref: str
    plan_id: str
    path: str
    primary: bool


def plan_named(name: str) -> bool:
    """A file name worth reading as a plan: Markdown whose name has the word ``PLAN`` in it
    (``03-05-PLAN.md``, ``PLAN.md``, ``PLAN_03-05_capture.md``)."""
    if not name.lower().endswith(".md"):
        return False
    return _PLAN_WORD.search(name[: -len(".md")]) is not None


def _named_as_plan(name: str) -> bool:
    """Called ``PLAN.md`` or ``...-PLAN.md`` as the planner names its plans (so one that is
    no plan is said so)."""
    stem = name[: -len(".md")] if name.lower().endswith(".md") else name
    return stem == "PLAN" or stem.endswith(("-PLAN", "_PLAN", ".PLAN"))


def identify(path: str, root_real: str) -> tuple[str | None, str | None]:
    """``(plan id, None)`` for a plan, ``(None, why)`` for a file that is none (``why``
    None: it is not named so that it must be one).

    A plan is named ``NN-MM-PLAN.md`` (the planner's own naming), or has a frontmatter
    naming its plan, or a ``<tasks>`` element with ``<task>`` elements outside code fences
    (a planner's workflow documents mention PLAN.md, ``<objective>`` and ``<task_commit>``:
    they are no plans).
    """
    if not inside(root_real, path):
        return None, None
    name = os.path.basename(path)
    try:
        head = safeio.read_head(path, HEAD).decode("utf-8", errors="replace")
    except OSError as err:
        return None, f"not read: {err.strerror or err}"
    numbered = _NUMBERED.match(name)
    if numbered is not None:
        return numbered["plan"], None
    _, front_text = split_frontmatter(head.splitlines())
    front: dict[str, object] = {}
    if front_text is not None:
        try:
            front = mapping(load_yaml(front_text, path))
        except YamlError:
            front = {}  # parse_plan says why, with its line
    found = plan_id_of(front)
    if found:
        return found, None
    body = unfenced(head)
    if "<tasks>" not in body or _TASK_TAG.search(body) is None:
        return None, NOT_A_PLAN if _named_as_plan(name) else None
    stem = re.sub(r"[-_.]?PLAN$", "", name[: -len(".md")], flags=re.I)
    return stem or os.path.basename(os.path.dirname(os.path.abspath(path))) or name, None


def holds_plans(path: str, root_real: str, depth: int = 2, *, places: int = 1) -> bool:
    """At least ``places`` directories among ``path`` and those up to ``depth`` levels
    below it hold a plan (by content; at most :data:`PROBE_DIRS` directories a level are
    looked into)."""
    level = [path]
    found = 0
    for n in range(depth + 1):
        deeper: list[str] = []
        for folder in level:
            names = _names(folder, root_real)
            if names is None:
                continue
            dirs, files = names
            if plans_among(folder, files, root_real):
                found += 1
                if found >= places:
                    return True
            if n < depth:
                deeper.extend(os.path.join(folder, d) for d in dirs)
        level = deeper[:PROBE_DIRS]
    return False


def plans_among(folder: str, names: Iterable[str], root_real: str) -> bool:
    """Whether a file of ``names`` in ``folder`` is a plan (the first
    :data:`PROBE_DIRS` named so are read)."""
    candidates = [n for n in names if plan_named(n)][:PROBE_DIRS]
    return any(identify(os.path.join(folder, n), root_real)[0] for n in candidates)


def _names(folder: str, root_real: str) -> tuple[list[str], list[str]] | None:
    """Sorted subdirectory and file names of ``folder`` that stay inside ``root_real``."""
    dirs: list[str] = []
    files: list[str] = []
    try:
        with os.scandir(folder) as it:
            for entry in sorted(it, key=lambda e: e.name):
                if entry.is_symlink() and not inside(root_real, entry.path):
                    continue
                if entry.is_dir():
                    dirs.append(entry.name)
                elif entry.is_file():
                    files.append(entry.name)
    except OSError:
        return None
    return dirs, files


def find_plan_files(
    roots: Iterable[tuple[str, bool]],
    root_real: str,
    problems: list[Problem],
    *,
    skip: Callable[[str], bool] = lambda path: False,
) -> list[PlanFile]:
    """Every plan under ``roots`` (``(directory, walk below it)`` pairs), in order of their
    refs. Files named as plans that are none, and directories that could not be read, are
    added to ``problems`` as warnings; directories for which ``skip`` is true (another
    format's) are not looked into."""
    found: list[tuple[str, str]] = []
    for root, below in roots:
        if not os.path.isdir(root) or not inside(root_real, root):
            continue
        if not below:
            names = _names(root, root_real)
            found.extend(_plans_in(root, names[1] if names else [], root_real, problems))
            continue
        walker = walk(root)
        for place in walker:
            if skip(place.path):
                place.dirs.clear()
                continue
            found.extend(_plans_in(place.path, place.files, root_real, problems))
        problems.extend(walker.problems)
    return _named(found)


def _plans_in(
    folder: str, names: Iterable[str], root_real: str, problems: list[Problem]
) -> Iterable[tuple[str, str]]:
    for name in names:
        if not plan_named(name):
            continue
        path = os.path.join(folder, name)
        plan_id, why = identify(path, root_real)
        if plan_id is not None:
            yield plan_id, path
        elif why is not None:
            problems.append(Problem(path, None, why, Severity.WARNING))


def _rank(path: str) -> tuple[int, int, tuple[object, ...]]:
    parts = Path(path).parts
    return (0 if "phases" in parts else 1, len(parts), natural_key(path))


def _named(found: list[tuple[str, str]]) -> list[PlanFile]:
    """Each file as a run: under the plan id when it is the plan's first file (by
    :func:`_rank`) and not kept outside the project's phases (:func:`kept_aside`), else
    under ``FOLDER/ID``. The first file of a plan is the one result logs go with."""
    out: list[PlanFile] = []
    firsts: set[str] = set()
    for plan_id, path in sorted(found, key=lambda c: _rank(c[1])):
        first = plan_id not in firsts
        firsts.add(plan_id)
        if first and not kept_aside(path):
            out.append(PlanFile(plan_id, plan_id, path, primary=True))
            continue
        folder = os.path.dirname(os.path.abspath(path))
        if re.match(r"^\d", os.path.basename(folder)):  # a phase folder: name its parent
            folder = os.path.dirname(folder)
        where = os.path.basename(folder)
        out.append(PlanFile(f"{where}/{plan_id}" if where else plan_id, plan_id, path, first))
    out.sort(key=lambda p: natural_key(p.ref))
    return out


def kept_aside(path: str) -> bool:
    """Whether a plan is kept in a project's ``.planning`` beside its ``phases`` tree (not
    in it, nor at the top of ``.planning``): a backup of an old layout
    (``phases-v1-backup/``), a finished milestone's archive (``milestones/v1.0-phases/``),
    a quick task (``quick/``). Such a plan is named after its folder, whether or not the
    current phases have a plan of its id: a bare id is always a plan of the current phases,
    and a plan's name does not change when another file comes or goes."""
    parts = Path(os.path.abspath(path)).parts[:-1]
    if ".planning" not in parts:
        return False
    top = len(parts) - parts[::-1].index(".planning")
    below = parts[top:]
    return (
        bool(below) and below[0] != "phases" and os.path.isdir(os.path.join(*parts[:top], "phases"))
    )


# -- what a claim reads --------------------------------------------------------------------------


class ProjectScope(Scope):
    """A project's: ``.ultraplan`` and ``.planning`` as a whole, and the plans (and their
    SUMMARY.md) at its top level; the rest of the project is left to the walk."""

    def reach_dir(self, place: Walked) -> Reach:
        path = os.path.normpath(place.path)
        at_top = os.path.dirname(path) == self.root
        if at_top and os.path.basename(path) in (".ultraplan", ".planning"):
            return Reach.ALL
        return Reach.NONE

    def reach_file(self, place: Walked, name: str) -> Reach:
        if os.path.normpath(place.path) != self.root:
            return Reach.NONE
        return _plan_or_summary(place, name)


class PlansScope(Scope):
    """A folder of plans': its plans and their SUMMARY.md, at any depth; the rest (other
    files, directories another format claims) is left to the walk."""

    def reach_dir(self, place: Walked) -> Reach:
        return Reach.OTHERS

    def reach_file(self, place: Walked, name: str) -> Reach:
        return _plan_or_summary(place, name)


def _plan_or_summary(place: Walked, name: str) -> Reach:
    path = os.path.join(place.path, name)
    real = os.path.realpath(place.path)
    if plan_named(name):
        plan_id, why = identify(path, real)
        return Reach.ALL if plan_id is not None or why is not None else Reach.NONE
    if name.upper().endswith("SUMMARY.MD"):
        for other in place.files:
            if plan_named(other) and summary_path(os.path.join(place.path, other)) == path:
                return Reach.ALL
    return Reach.NONE
