"""The query language over one run's steps (the timeline's filter): every step field on a
small capture read through its format, and the errors a step query gives."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.formats.acp.builders import capture, step_message, step_thought, step_tool, write_jsonl
from tests.helpers.workspace import open_paths
from trajtui.core.model import Run
from trajtui.core.query import STEPS, QueryError, facts_of_step, parse


@pytest.fixture
def run(tmp_path: Path) -> Run:
    """One capture run: a thought, a search that worked, a Bash call that failed (with
    tokens and a duration), a read that is still pending, and the answer."""
    path = write_jsonl(
        tmp_path / "steps.jsonl",
        [
            capture(
                "r1",
                [
                    step_thought("I should search the registry first", 100),
                    step_tool(
                        "WebSearch",
                        "completed",
                        150,
                        input={"query": "anthropic ceo"},
                        output="Dario Amodei leads Anthropic",
                        duration=1200,
                    ),
                    step_tool(
                        "Bash",
                        "failed",
                        3000,
                        input={"command": "cat .env"},
                        output="permission denied",
                        duration=9000,
                    ),
                    step_tool("Read", "pending", 12000, input={"path": "notes.md"}),
                    step_message("The CEO is Dario Amodei.", 15000),
                ],
            )
        ],
    )
    ws = open_paths([str(path)])
    for _ in ws.scan():
        pass
    return ws.sources[0].run(0)


def numbers(run: Run, text: str) -> list[int]:
    """Numbers of the steps ``text`` keeps."""
    query = parse(text, scope=STEPS)
    return [s.number for s in run.steps if query.matches(facts_of_step(s))]


def test_the_fixture_reads_as_the_steps_the_tests_name(run: Run) -> None:
    assert [(s.number, s.kind.value, s.tool, s.status) for s in run.steps] == [
        (1, "thought", None, None),
        (2, "tool_call", "WebSearch", "completed"),
        (3, "tool_call", "Bash", "failed"),
        (4, "tool_call", "Read", "pending"),
        (5, "message", None, None),
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", [1, 2, 3, 4, 5]),
        ("registry", [1]),  # a thought's text
        ("anthropic", [2]),  # a tool's input and output (and no other step says it)
        ("denied", [3]),  # a tool's output
        ('"cat .env"', [3]),
        ("dario", [2, 5]),
        ("tool:bash", [3]),
        ("tool:web*", [2]),
        ("-kind:tool", [1, 5]),
        ("kind:thought OR kind:message", [1, 5]),
        ("is:error", [3]),
        ("status:fail", [3]),
        ("is:pending", [4]),
        ("status:ok", [2]),
        ("status:completed", [2]),
        ("input:notes.md", [4]),
        ("output:denied", [3]),
        ("duration>5s", [3]),
        ("duration<=1.2s", [2]),
        ("step>=4", [4, 5]),
        ("n:2", [2]),
        ("tool:bash OR (kind:message dario)", [3, 5]),
        ("ref:*-step-2", [2]),
    ],
)
def test_each_step_field_keeps_the_steps_it_names(run: Run, text: str, expected: list[int]) -> None:
    assert numbers(run, text) == expected


def test_a_step_field_that_does_not_exist_is_an_error_naming_the_step_fields() -> None:
    with pytest.raises(QueryError) as caught:
        parse("agent:codex", scope=STEPS)  # a run's metadata key, not a step's
    assert caught.value.start == 0 and caught.value.end == len("agent")
    assert "unknown field 'agent'" in str(caught.value)
    assert "step fields:" in str(caught.value) and "tool" in str(caught.value)
    with pytest.raises(QueryError, match="did you mean duration"):
        parse("duraton>5s", scope=STEPS)
    with pytest.raises(QueryError, match="takes a duration with its unit"):
        parse("duration>5", scope=STEPS)


def test_run_fields_stay_run_fields() -> None:
    """``steps>3`` chooses runs, and a step query has no ``steps`` field."""
    assert not parse("steps>3").empty
    with pytest.raises(QueryError, match="unknown field 'steps'"):
        parse("steps>3", scope=STEPS)
