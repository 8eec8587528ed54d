"""A plan's own tasks: its top-level ``<task>`` elements, read a line at a time.

What a task's ``<action>`` quotes is none of them: example tasks (fenced or not), fences
nested in fences (:func:`~.markup.unfenced` blanks them), placeholders named like a tag
(``<task-description>``), the tags named in running text or inline code. A TDD plan's task
is its ``<feature>``; a plan written as plain Markdown has its ``## Task N`` (or ``## Step
N``) headings or the list under its ``## Tasks`` (:func:`plan_tasks`).

Every function here is pure and runs in time linear in its input, however hostile: lines
are looked at one at a time, a tag's attributes are looked for in a bounded stretch, and
where each element's closing tags are is found once, up front.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from trajtui.formats.ultraplan.markup import code_blanked

_OPEN_TAG = re.compile(r"<(?P<name>[A-Za-z][\w.:-]*)(?=[\s>/]|$)")
_CLOSE = re.compile(r"</(?P<name>[A-Za-z][\w.:-]*)>")
_ATTR_TOKEN = re.compile(r"[\w:-]+|\s+|\"[^\"]*\"?|'[^']*'?|.", re.S)
_HEADING = re.compile(r"^(?P<marks>#{2,6})[ \t]+(?P<text>\S.*)$")
_NUMBERED_HEADING = re.compile(r"^(?P<kind>Task|Step)[ \t]+\d+\b", re.I)
_LIST_ITEM = re.compile(r"^(?:\d+[.)]|[-*+])[ \t]+(?P<text>\S.*)$")
ATTRS_SPAN = 4096
"""Characters after ``<task`` in which its closing ``>`` is looked for (attributes may run
over several lines)."""


@dataclass(frozen=True, slots=True)
class PlanTask:
    """One ``<task>`` of a PLAN.md.

    Attributes:
        number: 1-based position among the plan's tasks.
        name: The ``<name>`` text, whitespace collapsed.
        files: The ``<files>`` entries (split on commas and lines).
        attrs: The task element's attributes (``type``, ``status``, ``completed_at``...).
        line: Line of the ``<task`` tag.
        end: Its last line (0 for a task that is a Markdown heading).
    """

    number: int
    name: str
    files: tuple[str, ...] = ()
    attrs: tuple[tuple[str, str], ...] = ()
    line: int = 0
    end: int = 0

    def attr(self, name: str) -> str | None:
        """An attribute's value, or None."""
        return next((v for k, v in self.attrs if k == name), None)


def _attrs(text: str) -> tuple[tuple[str, str], ...]:
    """``name="value"`` (or ``'value'``) pairs of a tag's attribute text, in one pass."""
    tokens = [t for t in _ATTR_TOKEN.findall(text) if not t.isspace()]
    out: list[tuple[str, str]] = []
    for i in range(len(tokens) - 2):
        name, eq, value = tokens[i : i + 3]
        quoted = value[:1] in ("'", '"') and len(value) > 1 and value[-1] == value[0]
        if eq == "=" and quoted and (name[:1].isalnum() or name[:1] in "_:-"):
            out.append((name, value[1:-1]))
    return tuple(out)


@dataclass(slots=True)
class _Task:
    """A task being read: where it starts, its attributes, and its name and files."""

    line: int
    attrs: tuple[tuple[str, str], ...]
    name: str | None = None
    files: str | None = None

    def keep(self, element: str, text: str) -> None:
        if element == "name" and self.name is None:
            self.name = text
        elif element == "files" and self.files is None:
            self.files = text

    def done(self, number: int, end: int) -> PlanTask:
        files = (part.strip() for part in re.split(r"[,\n]", self.files or ""))
        return PlanTask(
            number=number,
            name=" ".join(self.name.split()) if self.name is not None else "",
            files=tuple(f for f in files if f),
            attrs=self.attrs,
            line=self.line,
            end=end,
        )


def _task_attrs(body: str, at: int) -> tuple[tuple[str, str], ...]:
    """The attributes of the tag whose name ends at ``at`` in ``body`` (to its ``>``,
    looked for in :data:`ATTRS_SPAN` characters; none when the tag does not end there)."""
    end = body.find(">", at, at + ATTRS_SPAN)
    if end < 0:
        return ()
    text = body[at:end]
    return () if "<" in text else _attrs(text)


class _Closers:
    """Where each element's closing tags are, to tell an element that later lines hold from
    a tag no line closes (``<br>``, a tag named in text)."""

    def __init__(self, lines: list[str]) -> None:
        self.starts: dict[str, list[int]] = {}  # element -> lines starting with its closer
        self.least: dict[str, list[int]] = {}  # ... the least indentation from each on
        indents: dict[str, list[int]] = {}
        self.ends: dict[str, int] = {}  # element -> the last line of text ending with one
        for number, line in enumerate(lines):
            text = line.strip()
            first = _CLOSE.match(text)
            if first is not None:
                self.starts.setdefault(first["name"], []).append(number)
                indents.setdefault(first["name"], []).append(len(line) - len(line.lstrip()))
            last = _CLOSE.match(text, max(text.rfind("</"), 0))
            if last is not None and last.end() == len(text) and first is None:
                self.ends[last["name"]] = number
        for name, found in indents.items():
            least = found[:]
            for i in range(len(least) - 2, -1, -1):
                least[i] = min(least[i], least[i + 1])
            self.least[name] = least

    def later(self, name: str, after: int, indent: int) -> bool:
        """Whether a line after line ``after`` closes ``name`` opened at ``indent``."""
        if self.ends.get(name, -1) > after:
            return True
        starts = self.starts.get(name, [])
        i = bisect.bisect_right(starts, after)
        return i < len(starts) and self.least[name][i] <= indent


def _closes(text: str, indent: int, name: str, opened_at: int) -> bool:
    """Whether a line (``text``, stripped, at ``indent``) closes ``name`` opened at
    ``opened_at``: it starts with the closing tag, no more indented than the opening one
    (deeper, it closes an example inside), or is text that ends with it."""
    closer = f"</{name}>"
    if text.startswith(closer):
        return indent <= opened_at
    return text.endswith(closer) and not text.startswith(f"<{name}")


def top_level_tasks(body: str, element: str = "task") -> tuple[PlanTask, ...]:
    """The plan's own ``<task>`` (or other ``element``) elements, in order, read from
    ``body`` (the plan with its fences blanked, :func:`unfenced`) a line at a time, inline
    code blanked.

    A task starts at a line that begins with its ``<task`` tag (``<task-description>`` is
    another tag; a tag in inline code or in running text starts no task), and ends at its
    ``</task>``, ``</tasks>`` or the next task's tag (a planner may leave ``</task>`` out).
    Inside it, an element left open on its line (``<action>``) holds the lines up to its
    closing tag at its own indentation or less, or a line of text ending with it (or up
    to a ``</task>`` less indented than it, when the planner left its closing tag out):
    tasks in it are examples. A tag that no later line closes holds nothing. After
    ``</tasks>``, until another ``<tasks>``, task tags are examples too. Name and files are
    the task's first ``<name>`` and ``<files>``.
    """
    raws = body.split("\n")
    lines = [code_blanked(raw) for raw in raws]
    closers = _Closers(lines)
    opens = re.compile(rf"<{element}(?=[\s>/]|$)")
    end_tag, container, end_container = f"</{element}>", f"<{element}s", f"</{element}s>"
    tasks: list[PlanTask] = []
    task: _Task | None = None
    child: str | None = None  # the element of the task left open
    held: list[str] | None = None  # its text, when it is the task's name or files
    child_indent = 0
    after_tasks = False
    offset = 0

    def close(end: int) -> None:
        nonlocal task
        if task is not None:
            tasks.append(task.done(len(tasks) + 1, end))
            task = None

    for number, (raw, line) in enumerate(zip(raws, lines, strict=True)):
        at, offset = offset, offset + len(raw) + 1
        text = line.strip()
        indent = len(line) - len(line.lstrip())
        if task is not None and child is not None:
            if _closes(text, indent, child, child_indent):
                if held is not None:
                    closer = f"</{child}>"
                    end = line.find(closer) if text.startswith(closer) else line.rfind(closer)
                    task.keep(child, "\n".join([*held, raw[:end]]))
                child = held = None
                if text.endswith(end_tag):
                    close(number + 1)
            elif text.startswith(end_tag) and indent < child_indent:
                child = held = None
                close(number + 1)
            elif held is not None:
                held.append(raw)
            continue
        if not text:
            continue
        if opens.match(text):
            close(number)
            if not after_tasks:
                task = _Task(number + 1, _task_attrs(body, at + indent + len(element) + 1))
                _inline_elements(task, raw, line)
                if end_tag in line:
                    close(number + 1)
            continue
        if task is None:
            if text.startswith((f"{container}>", f"{container} ")):
                after_tasks = False
            elif text.startswith(end_container):
                after_tasks = True
            continue
        tag = _OPEN_TAG.match(text)
        if text.startswith(end_tag):
            close(number + 1)
        elif text.startswith(end_container):
            close(number + 1)
            after_tasks = True
        elif tag is not None and _left_open(tag["name"], line, indent, closers, number):
            child, child_indent = tag["name"], indent
            wanted = child in ("name", "files")
            held = [raw[line.find(">", indent) + 1 :]] if wanted else None
        else:
            _inline_elements(task, raw, line)
            if text.endswith(end_tag):
                close(number + 1)
    close(len(raws))
    return tuple(tasks)


def _left_open(name: str, line: str, indent: int, closers: _Closers, at: int) -> bool:
    """Whether the ``<name`` tag at the start of ``line`` (line ``at``, 0-based) opens an
    element that later lines hold: not closed on its line, not self-closing, and closed
    by a line after it."""
    end = line.find(">", indent)
    if end < 0 or line[end - 1] == "/" or f"</{name}>" in line[end:]:
        return False
    return closers.later(name, at, indent)


def _inline_elements(task: _Task, raw: str, line: str) -> None:
    """Keep the ``<name>`` and ``<files>`` that open and close on ``line`` (``raw`` with its
    inline code blanked, where the tags are looked for)."""
    for element in ("name", "files"):
        start = line.find(f"<{element}>")
        if start < 0:
            continue
        start += len(element) + 2
        end = line.find(f"</{element}>", start)
        if end >= 0:
            task.keep(element, raw[start:end])


def heading_tasks(body: str) -> tuple[PlanTask, ...]:
    """Tasks of a plan written as plain Markdown: its ``## Task N: name`` headings (else its
    ``## Step N: name`` ones), the shallowest of them; else the items of the list under
    its ``## Tasks`` heading (``body``: the plan, fences blanked)."""
    found: dict[str, list[tuple[int, str, int]]] = {"task": [], "step": []}
    listed: list[tuple[str, int]] = []
    under_tasks: int | None = None  # the level of the "Tasks" heading the lines are under
    for number, line in enumerate(body.split("\n"), 1):
        heading = _HEADING.match(line)
        if heading is not None:
            level, text = len(heading["marks"]), heading["text"].strip(" \t#")
            if under_tasks is not None and level <= under_tasks:
                under_tasks = None
            if text.lower() == "tasks":
                under_tasks = level
            numbered = _NUMBERED_HEADING.match(text)
            if numbered is not None:
                found[numbered["kind"].lower()].append((level, text, number))
        elif under_tasks is not None and (item := _LIST_ITEM.match(line)) is not None:
            listed.append((item["text"], number))
    headings = found["task"] or found["step"]
    top = min((level for level, _, _ in headings), default=0)
    named = [(text, n) for level, text, n in headings if level == top] or listed
    return tuple(
        PlanTask(number=i, name=" ".join(text.split()), line=n)
        for i, (text, n) in enumerate(named, 1)
    )


def plan_tasks(body: str) -> tuple[PlanTask, ...]:
    """A plan's tasks: its top-level ``<task>`` elements; in a TDD plan, which holds one
    ``<feature>`` instead, that; in a plan written as plain Markdown, :func:`heading_tasks`
    (``body``: the plan, fences blanked)."""
    return top_level_tasks(body) or top_level_tasks(body, "feature") or heading_tasks(body)


def outside_tasks(body: str, tasks: tuple[PlanTask, ...]) -> str:
    """``body`` with the lines of ``tasks`` blanked (line numbers kept): what is the plan's
    own, not something a task's action quotes."""
    lines = body.split("\n")
    for task in tasks:
        if task.end:
            lines[task.line - 1 : task.end] = [""] * (task.end - task.line + 1)
    return "\n".join(lines)
