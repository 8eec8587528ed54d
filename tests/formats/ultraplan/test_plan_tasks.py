"""A plan's task list is its own top-level ``<task>`` elements, whatever its actions hold
(issue 22, item 2.1: in ultraplan's own ``.planning``, fences nested in fences, placeholders
such as ``<task-description>``, tags named in text or inline code and example tasks in
actions swallowed real tasks or made up others in 6 of 93 plans)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.formats.ultraplan.builders import (
    PLAN_TRAPS,
    listed_tasks_plan,
    markdown_plan,
    planning_project,
    tdd_plan,
    trapped_plan,
    write_plan,
)
from tests.helpers import forked
from trajtui.formats.ultraplan import parse_plan

NAMES = ["Task 1: Write the core flow", "Task 2: Define passing", "Task 3: Add the examples"]


def shown_tasks(root: Path, ref: str, section: str = "tasks") -> list[str]:
    """The lines of the ``tasks`` (or other) section ``trajtui show`` prints for ``ref``."""
    out = forked.run(
        [sys.executable, "-m", "trajtui", "show", str(root), ref],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr
    lines = out.stdout.splitlines()
    start = lines.index(section) + 1
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


def test_criteria_named_in_an_action_are_not_the_plans(tmp_path: Path) -> None:
    root = planning_project(tmp_path / "proj")
    text = trapped_plan("03-exec", "4", NAMES, ["criteria named in the text"])
    write_plan(root, "03-04", text)
    assert shown_tasks(root, "03-04", "success criteria") == [
        f"[{n}] [ ] {name}" for n, name in enumerate(NAMES, 1)
    ]


def test_a_tdd_plans_task_is_its_feature(tmp_path: Path) -> None:
    root = planning_project(tmp_path / "proj")
    write_plan(root, "03-03", tdd_plan("03-exec", "3", "SVI volatility surface calibration"))
    assert shown_tasks(root, "03-03") == ["[1] - SVI volatility surface calibration — no result"]


def test_a_markdown_plan_of_steps_lists_its_steps_not_their_tests() -> None:
    doc = parse_plan(markdown_plan("20-01", ["Add the fixture", "Verify coverage"], kind="Step"))
    assert [(t.number, t.name) for t in doc.tasks] == [
        (1, "Step 1: Add the fixture"),
        (2, "Step 2: Verify coverage"),
    ]


def test_a_markdown_plan_lists_the_items_under_its_tasks_heading() -> None:
    doc = parse_plan(listed_tasks_plan(["Update the renderer", "Update the skill docs"]))
    assert [(t.name, t.line) for t in doc.tasks] == [
        ("Update the renderer", 13),
        ("Update the skill docs", 14),
    ]
