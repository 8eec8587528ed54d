"""ultraplan logs: PLAN.md parsed (tasks, fenced examples, frontmatter, success criteria)."""

from __future__ import annotations

import pytest

from tests.formats.ultraplan.builders import (
    CRITERIA,
    TASKS,
    plan_md,
)
from trajtui.formats.ultraplan import (
    parse_plan,
)

# -- PLAN.md ---------------------------------------------------------------------------------


def test_plan_md_skips_fenced_examples() -> None:
    doc = parse_plan(plan_md("03-sequential-execution", "01", TASKS, CRITERIA), "03-01-PLAN.md")
    assert doc.plan_id == "03-01"
    assert [t.name for t in doc.tasks] == [t for t, _ in TASKS]
    assert doc.tasks[1].files == ("src/agent.md", "src/protocol.md")
    assert doc.tasks[0].attr("type") == "auto"
    assert [(c.text, c.checked, c.completed) for c in doc.criteria] == [
        ("Task 1: Create executor agent", True, "2026-01-26"),
        ("Task 2: Add execution protocol", False, None),
        ("Reports are written", None, None),
    ]
    assert doc.criteria[0].shown() == ("[x] Task 1: Create executor agent (completed 2026-01-26)")
    assert doc.objective is not None and doc.objective.startswith("Build the executor agent.")


def test_plan_md_fences_tildes_unclosed_and_status_attributes() -> None:
    text = "\n".join(
        [
            '<task type="auto" status="completed" completed_at="2026-01-26T10:00:00Z">',
            "<name>Task 1: Real</name>",
            "</task>",
            "~~~",
            "<task><name>Task 2: In tildes</name></task>",
            "~~~",
            "<success_criteria>",
            "  * [X] upper-case box",
            "  1. [ ] numbered",
            "</success_criteria>",
            "````md",
            "```",
            "- [x] still inside the four-backtick fence",
            "````",
            "```",
            "<success_criteria>",
            "- [x] unclosed fence hides this",
        ]
    )
    doc = parse_plan(text)
    assert [t.name for t in doc.tasks] == ["Task 1: Real"]
    assert doc.tasks[0].attr("status") == "completed"
    assert [(c.text, c.checked) for c in doc.criteria] == [
        ("upper-case box", True),
        ("numbered", False),
    ]


@pytest.mark.parametrize(
    ("front", "plan_id"),
    [
        ("phase: 03-sequential-execution\nplan: 05", "03-05"),
        ("phase: 06-claude-tasks-sync\nplan: 3", "06-03"),
        ("phase: 02.5-tasks-api-spike\nplan: 03", "02.5-03"),
        ("phase: 3\nplan: 1", "03-01"),
        ("plan_id: 09-02", "09-02"),
        # quick tasks' phases are not numbered: the phase is kept whole
        ("phase: quick-3\nplan: 01", "quick-3-01"),
        ("phase: quick\nplan: 261006-h3r", "quick-261006-h3r"),
        # a plan split in two (LokulMem's 07-03a and 07-03b)
        ("phase: 07-extraction-contradiction\nplan: 03a", "07-03a"),
        # a quick task whose plan names its whole id
        ('phase: "20"\nplan: "20-01"', "20-01"),
        ("phase: unknown\nplan: [1]", None),
        ("title: no plan", None),
    ],
)
def test_plan_id_from_frontmatter(front: str, plan_id: str | None) -> None:
    assert parse_plan(f"---\n{front}\n---\n<objective>x</objective>\n").plan_id == plan_id


def test_plan_md_with_broken_frontmatter_says_so() -> None:
    doc = parse_plan("---\nphase: [oops\n---\n<task><name>Task 1: A</name></task>\n")
    assert doc.plan_id is None and doc.note is not None and doc.note_line == 3
    assert [t.name for t in doc.tasks] == ["Task 1: A"]
