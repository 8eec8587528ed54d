"""A plan's task list is its own top-level ``<task>`` elements, whatever its actions hold
(issue 22, item 2.1: in ultraplan's own ``.planning``, fences nested in fences, placeholders
such as ``<task-description>``, tags named in text or inline code and example tasks in
actions swallowed real tasks or made up others in 6 of 93 plans)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.formats.ultraplan.builders import PLAN_TRAPS, planning_project, trapped_plan, write_plan
from trajtui.formats.ultraplan import parse_plan

NAMES = ["Task 1: Write the core flow", "Task 2: Define passing", "Task 3: Add the examples"]


def shown_tasks(root: Path, ref: str) -> list[str]:
    """The lines of the ``tasks`` section ``trajtui show`` prints for ``ref``."""
    out = subprocess.run(
        [sys.executable, "-m", "trajtui", "show", str(root), ref],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr
    lines = out.stdout.splitlines()
    start = lines.index("tasks") + 1
    end = next((n for n in range(start, len(lines)) if not lines[n].startswith(" ")), len(lines))
    return [line.strip() for line in lines[start:end]]


@pytest.mark.parametrize("trap", sorted(PLAN_TRAPS))
def test_a_plan_lists_its_own_tasks_whatever_an_action_holds(tmp_path: Path, trap: str) -> None:
    root = planning_project(tmp_path / "proj")
    write_plan(root, "03-04", trapped_plan("03-exec", "4", NAMES, [trap]))
    assert shown_tasks(root, "03-04") == [
        f"[{n}] [ ] {name} — no result" for n, name in enumerate(NAMES, 1)
    ]


def test_every_shape_at_once_keeps_each_tasks_line_name_and_files() -> None:
    text = trapped_plan("03-exec", "4", NAMES, sorted(PLAN_TRAPS))
    doc = parse_plan(text, "03-04-PLAN.md")
    openers = [n for n, line in enumerate(text.splitlines(), 1) if line == '<task type="auto">']
    assert [(t.number, t.name, t.line, t.files) for t in doc.tasks] == [
        (n, name, line, ("ref.md",))
        for n, (name, line) in enumerate(zip(NAMES, openers, strict=True), 1)
    ]
    assert [c.text for c in doc.criteria] == NAMES


def test_a_task_without_its_closing_tag_ends_where_the_next_begins() -> None:
    text = "\n".join(
        [
            "<tasks>",
            '<task type="auto">',
            "  <name>Task 1: A</name>",
            "  <action>Do A.</action>",
            '<task type="checkpoint:human-verify" gate="blocking">',
            "  <name>Task 2: B</name>",
            "  <action>",
            "Look at `<task>` and <task> in the text.",
            "  </action>",
            "</task>",
            "</tasks>",
            "",
            "<output>",
            '<task type="auto"> after the tasks is an example',
            "</output>",
        ]
    )
    doc = parse_plan(text)
    assert [(t.name, t.line, t.attr("type")) for t in doc.tasks] == [
        ("Task 1: A", 2, "auto"),
        ("Task 2: B", 5, "checkpoint:human-verify"),
    ]
