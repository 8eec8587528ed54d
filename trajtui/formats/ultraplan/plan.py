"""PLAN.md parsing: frontmatter, objective, tasks and success criteria (pure functions).

Fenced code blocks are skipped, however a planner nests them (:mod:`~.markup`: they hold
example checkboxes and example tags); the plan's own tasks (:mod:`~.tasks`: its top-level
``<task>`` elements, a TDD plan's ``<feature>``, the ``## Task N:`` headings of a plan
written as plain Markdown), and, outside them, the items of its ``<success_criteria>``
with their checkbox state, its ``<objective>`` and its first heading are read. A plan's
id comes from its frontmatter: ``plan_id``, or ``phase: 03-...`` + ``plan: 5``
(``03-05``). Where PLAN.md files are looked for is
:func:`trajtui.formats.ultraplan.layout.find_plans`.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any

from trajtui.core.io.yamlsafe import YamlError
from trajtui.core.io.yamlsafe import load as load_yaml
from trajtui.core.values import mapping, string
from trajtui.formats.ultraplan.ids import TASK_PREFIX, as_int
from trajtui.formats.ultraplan.markup import sections, split_frontmatter, unfenced
from trajtui.formats.ultraplan.tasks import PlanTask, outside_tasks, plan_tasks

__all__ = [
    "Criterion",
    "PlanDoc",
    "PlanTask",
    "SummaryDoc",
    "parse_plan",
    "parse_summary",
    "plan_id_of",
    "summary_path",
    "task_checkbox",
]


@dataclass(frozen=True, slots=True)
class Criterion:
    """One item of a PLAN.md's ``<success_criteria>`` list.

    Attributes:
        text: The item's text, without its checkbox and ``(completed DATE)`` note.
        checked: True for ``[x]``, False for ``[ ]``, None for a free-text item.
        completed: The ``(completed YYYY-MM-DD)`` date, when the item has one.
        line: Its line in the file.
    """

    text: str
    checked: bool | None
    completed: str | None = None
    line: int = 0

    def shown(self) -> str:
        """``[x] text (completed DATE)``, ``[ ] text`` or ``- text``."""
        box = {True: "[x] ", False: "[ ] ", None: "- "}[self.checked]
        done = f" (completed {self.completed})" if self.completed else ""
        return f"{box}{self.text}{done}"


@dataclass(frozen=True, slots=True)
class PlanDoc:
    """What trajtui reads from a PLAN.md.

    Attributes:
        path: The file (None for text parsed on its own).
        plan_id: The plan it is for (from its frontmatter), or None.
        frontmatter: The YAML frontmatter (empty when absent or unreadable).
        objective: The ``<objective>`` text, or None.
        tasks: The ``<task>`` elements, fenced examples skipped.
        criteria: The ``<success_criteria>`` items, fenced examples skipped.
        note: Why the frontmatter was not read, when it was not.
        note_line: The file's 1-based line the note is about, when known.
        heading: Its first ``#`` heading (what a plan written as plain Markdown is called).
    """

    path: str | None
    plan_id: str | None
    frontmatter: dict[str, Any] = field(default_factory=dict)
    objective: str | None = None
    tasks: tuple[PlanTask, ...] = ()
    criteria: tuple[Criterion, ...] = ()
    note: str | None = None
    note_line: int | None = None
    heading: str | None = None

    @property
    def title(self) -> str | None:
        """What the plan is about: its ``<objective>``, else its first heading."""
        return self.objective or self.heading


@dataclass(frozen=True, slots=True)
class SummaryDoc:
    """A plan's SUMMARY.md (written when a plan is done, next to its PLAN.md).

    Attributes:
        path: The file.
        frontmatter: Its YAML frontmatter (empty when absent or unreadable).
        body: The text after the frontmatter.
        note: Why the frontmatter was not read, when it was not.
        note_line: The file's 1-based line the note is about, when known.
    """

    path: str
    frontmatter: dict[str, Any] = field(default_factory=dict)
    body: str = ""
    note: str | None = None
    note_line: int | None = None


# Every pattern here runs in time linear in its input, however hostile (a PLAN.md is
# written by an agent): no two adjacent parts can match the same text, and elements are
# found with str.find rather than a lazy ``.*?`` retried from every opening tag.
_HEADING = re.compile(r"^#{1,6}[ \t]+(?P<text>\S[^\n]*)$", re.M)
_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?:\[(?P<box>[ xX])\]\s*)?(?P<text>\S(?:.*\S)?)\s*$")
_COMPLETED = re.compile(r"\(completed\s+(\d{4}-\d{2}-\d{2})\)\s*$", re.I)


def _element(text: str, tag: str) -> str | None:
    """The text of the first ``<tag>...</tag>`` of ``text`` (None when it has none)."""
    start = text.find(f"<{tag}>")
    if start < 0:
        return None
    start += len(tag) + 2
    end = text.find(f"</{tag}>", start)
    return None if end < 0 else text[start:end]


def plan_id_of(frontmatter: dict[str, Any]) -> str | None:
    """The plan id a PLAN.md's frontmatter names: ``plan_id``, or ``phase`` + ``plan``
    (``phase: 03-name`` + ``plan: 5`` is ``03-05``; a phase that is not numbered, as quick
    tasks have, is kept whole: ``phase: quick-3`` + ``plan: 01`` is ``quick-3-01``)."""
    explicit = string(frontmatter.get("plan_id"))
    if explicit:
        return explicit.strip()
    phase = frontmatter.get("phase")
    phase_text = str(phase).strip() if isinstance(phase, (str, int, float)) else ""
    plan = frontmatter.get("plan")
    number = as_int(plan)
    m = re.match(r"^(\d+(?:\.\d+)*)", phase_text)
    if m is None:
        plan_text = f"{number:02d}" if number is not None else (string(plan) or "").strip()
        if phase_text and plan_text and not isinstance(phase, bool):
            return f"{phase_text}-{plan_text}"
        return None
    head = m.group(1)
    if "." not in head and head.isdigit():
        head = f"{int(head):02d}"
    if number is not None:
        return f"{head}-{number:02d}"
    plan_text = (string(plan) or "").strip()
    split = re.fullmatch(r"(\d{1,6})([a-z])", plan_text)
    if split is not None:  # a plan split in two: ``plan: 03a`` (``07-03a-PLAN.md``)
        return f"{head}-{int(split[1]):02d}{split[2]}"
    whole = re.fullmatch(r"(\d+(?:\.\d+)*)-(\d{1,6})([a-z]?)", plan_text)
    if whole is not None and _same_phase(whole[1], head):  # ``plan: "20-01"``
        return f"{head}-{int(whole[2]):02d}{whole[3]}"
    return None


def _same_phase(a: str, b: str) -> bool:
    """``20`` and ``020`` are one phase; ``2.5`` and ``02.5`` too."""
    return [int(part) for part in a.split(".")] == [int(part) for part in b.split(".")]


def _plan_criteria(body: str) -> tuple[Criterion, ...]:
    found: list[Criterion] = []
    for first, section in sections(body, "success_criteria"):
        for offset, line in enumerate(section):
            m = _ITEM.match(line)
            if m is None:
                continue
            text = m["text"]
            done = _COMPLETED.search(text)
            box = m["box"]
            found.append(
                Criterion(
                    text=text[: done.start()].rstrip() if done else text,
                    checked=None if box is None else box != " ",
                    completed=done.group(1) if done else None,
                    line=first + offset,
                )
            )
    return tuple(found)


def parse_plan(text: str, path: str | None = None) -> PlanDoc:
    """Read a PLAN.md: frontmatter, objective, tasks and success criteria (a pure function).

    Args:
        text: The file's text.
        path: The file, kept on the result.
    """
    lines = text.splitlines()
    _, front_text = split_frontmatter(lines)
    front: dict[str, Any] = {}
    note = note_line = None
    if front_text is not None:
        try:
            front = mapping(load_yaml(front_text, path or "PLAN.md"))
        except YamlError as err:
            # The frontmatter starts on the file's line 2, after its opening ``---``.
            note, note_line = f"frontmatter not read: {err.message}", _file_line(err)
    body = unfenced(text)
    tasks = plan_tasks(body)
    own = outside_tasks(body, tasks)
    objective = _element(own, "objective")
    heading = _HEADING.search(own)
    return PlanDoc(
        path=path,
        plan_id=plan_id_of(front),
        frontmatter=front,
        objective=objective.strip() if objective is not None else None,
        tasks=tasks,
        criteria=_plan_criteria(own),
        note=note,
        note_line=note_line,
        heading=" ".join(heading["text"].strip(" \t#").split()) if heading else None,
    )


def parse_summary(text: str, path: str) -> SummaryDoc:
    """Read a SUMMARY.md: its frontmatter (safe YAML) and the text after it."""
    lines = text.splitlines()
    skip, front_text = split_frontmatter(lines)
    front: dict[str, Any] = {}
    note = note_line = None
    if front_text is not None:
        try:
            front = mapping(load_yaml(front_text, path))
        except YamlError as err:
            note, note_line = f"frontmatter not read: {err.message}", _file_line(err)
    return SummaryDoc(path, front, "\n".join(lines[skip:]).strip(), note, note_line)


def _file_line(err: YamlError) -> int:
    """The file's line a frontmatter error is about (the frontmatter starts on line 2; an
    error without a line is about the frontmatter as a whole, given as its first line)."""
    return err.line + 1 if err.line is not None else 2


def summary_path(plan_path: str) -> str:
    """Where a PLAN.md's SUMMARY.md is: ``03-05-PLAN.md`` -> ``03-05-SUMMARY.md`` beside it
    (``PLAN.md`` -> ``SUMMARY.md``)."""
    folder, name = os.path.split(plan_path)
    stem = name[: -len("PLAN.md")] if name.upper().endswith("PLAN.MD") else f"{name}-"
    return os.path.join(folder, f"{stem}SUMMARY.md")


def task_checkbox(task: PlanTask, criteria: tuple[Criterion, ...]) -> Criterion | None:
    """The ``<success_criteria>`` checkbox item that tracks ``task``, by the protocol's
    matching rules: the task's name exactly, one name starting with the other, or the same
    ``Task N:`` prefix; None when no checkbox item is for it."""
    boxes = [c for c in criteria if c.checked is not None]
    name = task.name
    for c in boxes:
        if c.text.strip() == name:
            return c
    number = TASK_PREFIX.match(name)
    if number is None:
        return None
    for c in boxes:
        text = c.text.strip()
        if name and (text.startswith(name) or name.startswith(text)):
            return c
    for c in boxes:
        theirs = TASK_PREFIX.match(c.text)
        if theirs is not None and theirs.group(1) == number.group(1):
            return c
    return None
