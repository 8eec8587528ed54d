"""PLAN.md text: what is code (fenced blocks, inline code), frontmatter and sections.

Plans are written by LLM agents: Markdown holding XML-ish elements, whose task actions
quote whole documents, with fences nested in fences (a ```` ```markdown ```` block holding
a ```` ```yaml ```` one, each closed by a bare fence: read as CommonMark reads them, the
outer block's end opens a fence that hides the rest of the plan) and the tags named in
inline code (``the `<success_criteria>` section``). :func:`unfenced` and
:func:`code_blanked` say what is code; :func:`sections` finds the plan's own elements.
Which tasks are the plan's is :mod:`~.tasks`.

Every function here is pure and runs in time linear in its input, however hostile (a
PLAN.md is written by an agent): lines are looked at one at a time, open elements are
found by name in a map, and inline code spans are paired in one pass.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

_FENCE = re.compile(r"^\s*(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
_TICKS = re.compile(r"`+")
_LONE_OPEN = re.compile(r"^<(?P<name>[A-Za-z][\w.:-]*)(?:\s[^<>]*)?>$")
_LONE_CLOSE = re.compile(r"^</(?P<name>[A-Za-z][\w.:-]*)>$")


def split_frontmatter(lines: list[str]) -> tuple[int, str | None]:
    """A leading YAML frontmatter: ``(number of lines it spans, its YAML text)``; ``(0, None)``
    when there is none."""
    if not lines or lines[0].strip() != "---":
        return 0, None
    for i in range(1, len(lines)):
        if lines[i].strip() in ("---", "..."):
            return i + 1, "\n".join(lines[1:i])
    return 0, None


def unfenced(text: str) -> str:
    """``text`` with fenced code blocks (and a leading YAML frontmatter) blanked out.

    Lines keep their numbers. A fence opens with three or more backticks or tildes (any
    indentation: plans nest them in XML elements; ``\\`\\`\\``` and ```` ```a``` ```` are
    text) and closes with a bare line of at least as many of the same character. Fences
    nest as planners write them: inside a fence, a fence with an info string
    (```` ```yaml ````) opens an inner one, and a bare fence closes the innermost (and,
    longer than it, those around it it is as long as). However a planner's fences pair
    up, none outlives the element it opened in: the line that closes that element alone
    (``</action>``, as indented as its opening line or less, and not the end of one the
    fences quote) closes every fence.
    """
    lines = text.splitlines()
    skip, _ = split_frontmatter(lines)
    out: list[str] = [""] * skip
    stack: list[tuple[str, int]] = []
    elements = _Open()
    opened_in: tuple[str, int] | None = None  # the innermost of them when a fence opened
    depth = 0  # how many of its tags the fences opened, alone on a line, left open
    for line in lines[skip:]:
        m = _FENCE.match(line)
        if m is not None and m["fence"][0] == "`" and "`" in m["info"]:
            m = None
        if not stack:
            out.append(line if m is None else "")
            if m is not None:
                stack.append((m["fence"][0], len(m["fence"])))
                opened_in, depth = elements.innermost(), 0
            else:
                elements.track(line)
            continue
        if opened_in is not None:
            quoted = _alone(line, opened_in[0])  # the element's own tags, in the fence
            if quoted == "open":
                depth += 1
            elif quoted == "close" and depth:
                depth -= 1
            elif quoted == "close" and len(line) - len(line.lstrip()) <= opened_in[1]:
                stack.clear()
                out.append(line)
                elements.track(line)
                continue
        out.append("")
        if m is None:
            continue
        char, length = m["fence"][0], len(m["fence"])
        if m["info"].strip():
            stack.append((char, length))
            continue
        inner_char, inner = stack[-1]
        if char != inner_char or length < inner:
            continue
        stack.pop()
        while stack and stack[-1][0] == char and inner < stack[-1][1] <= length:
            inner = stack.pop()[1]
    return "\n".join(out)


class _Open:
    """Elements open outside fences, each opened alone on its line (``<action>``): a
    stack, with where each name is in it."""

    def __init__(self) -> None:
        self.stack: list[tuple[str, int]] = []
        self.at: dict[str, list[int]] = {}

    def innermost(self) -> tuple[str, int] | None:
        return self.stack[-1] if self.stack else None

    def track(self, line: str) -> None:
        """An opening tag alone on ``line`` opens one; a closing tag alone closes it and
        those opened after it."""
        text = line.strip()
        if not text.startswith("<") or not text.endswith(">"):
            return
        shut = _LONE_CLOSE.match(text)
        if shut is not None:
            where = self.at.get(shut["name"])
            down_to = where[-1] if where else len(self.stack)
            while len(self.stack) > down_to:
                name, _ = self.stack.pop()
                self.at[name].pop()
            return
        opened = _LONE_OPEN.match(text)
        if opened is not None:
            self.at.setdefault(opened["name"], []).append(len(self.stack))
            self.stack.append((opened["name"], len(line) - len(line.lstrip())))


def _alone(line: str, name: str) -> str | None:
    """``"open"`` when ``line`` is a ``<name ...>`` tag alone, ``"close"`` when it is
    ``</name>`` alone, else None."""
    text = line.strip()
    if text == f"</{name}>":
        return "close"
    if text.startswith(f"<{name}") and (opened := _LONE_OPEN.match(text)) is not None:
        return "open" if opened["name"] == name else None
    return None


def code_blanked(line: str) -> str:
    """``line`` with its inline code spans (```` `<task>` ````, ```` ``a`b`` ````) blanked
    (to NULs: a span that starts a line leaves no indentation), columns kept; a backtick
    run with no run of its length after it is text."""
    if "`" not in line:
        return line
    runs = [(m.start(), m.end()) for m in _TICKS.finditer(line)]
    by_length: dict[int, list[int]] = {}
    for i, (start, end) in enumerate(runs):
        by_length.setdefault(end - start, []).append(i)
    next_of = dict.fromkeys(by_length, 0)
    pieces: list[str] = []
    done = i = 0
    while i < len(runs):
        start, end = runs[i]
        same = by_length[end - start]
        k = next_of[end - start]
        while k < len(same) and same[k] <= i:
            k += 1
        next_of[end - start] = k
        if k == len(same):
            i += 1
            continue
        close = runs[same[k]][1]
        pieces += [line[done:start], "\0" * (close - start)]
        done, i = close, same[k] + 1
    pieces.append(line[done:])
    return "".join(pieces)


def sections(body: str, tag: str) -> Iterator[tuple[int, list[str]]]:
    """The ``<tag>`` elements of ``body`` that start a line (outside inline code): each as
    its first line's number and its lines (the text after the opening tag to the closing
    one, or to the end of ``body``)."""
    start, end = f"<{tag}>", f"</{tag}>"
    held: list[str] | None = None
    first = 0
    for number, raw in enumerate(body.split("\n"), 1):
        if held is None:
            line = code_blanked(raw)
            text = line.lstrip()
            if not text.startswith(start):
                continue
            at = len(line) - len(text) + len(start)
            raw, line, first, held = raw[at:], line[at:], number, []
        else:
            line = code_blanked(raw)
        stop = line.find(end)
        if stop >= 0:
            held.append(raw[:stop])
            yield first, held
            held = None
        else:
            held.append(raw)
    if held is not None:
        yield first, held
