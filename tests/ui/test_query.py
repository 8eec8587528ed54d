"""Pilot tests of the run-list filter's query language (issue 11, part 2): typing a query
filters, a query that does not parse is pointed at and leaves the list as it was, an empty
result says so with the query, and ``?`` lists the fields."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input

from tests.formats.acp.builders import capture, step_tool, write_jsonl
from tests.helpers.ui import listed, running, screen_lines, settle, typed


def _text(app: object) -> str:
    return "\n".join(screen_lines(app))


@pytest.fixture
def runs(tmp_path: Path) -> str:
    recs = [
        capture(
            "slow-bash",
            [step_tool("Bash", "completed", 10), step_tool("Read", "failed", 20)],
            metadata={"agent": "codex", "category": "ui"},
            duration=90_000,
            score={"pass": False, "score": 0.2},
        ),
        capture(
            "quick-read",
            [step_tool("Read", "completed", 10)],
            metadata={"agent": "claude", "category": "db"},
            duration=2_000,
            score={"pass": True, "score": 0.9},
        ),
        capture(
            "timed-out",
            [],
            errors=["Request timed out after 60000ms"],
            metadata={"agent": "codex", "category": "db"},
            duration=60_000,
        ),
    ]
    return str(write_jsonl(tmp_path / "runs.jsonl", recs))


QUERIES = [
    ("tool:Bash", ["slow-bash"]),
    ("duration>60s", ["slow-bash"]),
    ("agent:codex -status:timeout", ["slow-bash"]),
    ("score<0.5 OR status:timeout", ["slow-bash", "timed-out"]),
    ("(category:db OR tool_errors>0) -quick", ["slow-bash", "timed-out"]),
    ("metadata.category:ui", ["slow-bash"]),
]
"""Queries typed into the filter box, and the runs each keeps (one session types them all:
each starts from an empty box)."""


async def test_typing_a_query_filters_the_run_list(runs: str) -> None:
    async with running([runs]) as (pilot, app, screen):
        for query, shown in QUERIES:
            await pilot.press("f")
            await typed(pilot, query)
            await settle(pilot)
            assert listed(screen) == shown, query
            await pilot.press("escape")  # clears the box and the filter
            await settle(pilot)
            assert listed(screen) == ["slow-bash", "quick-read", "timed-out"]


async def test_a_query_that_does_not_parse_is_pointed_at_and_the_list_stays(runs: str) -> None:
    async with running([runs]) as (pilot, app, screen):
        await pilot.press("f", *"tool:Read")
        await settle(pilot)
        assert listed(screen) == ["slow-bash", "quick-read"]
        screen.query_one("#filter", Input).insert_text_at_cursor(" scroe<0.5")  # pasted
        await settle(pilot)
        lines = screen_lines(app)
        message = next((ln for ln in lines if "unknown field 'scroe'" in ln), None)
        assert message is not None, "\n".join(lines)
        assert "did you mean score?" in message
        # carets right under the field name in the box above
        box_line = lines[lines.index(message) - 2]
        at = box_line.index("tool:Read scroe<0.5")
        caret = lines[lines.index(message) - 1]
        assert caret[at + len("tool:Read ") :].startswith("^^^^^ ")
        assert listed(screen) == ["slow-bash", "quick-read"]  # left as it was
        await pilot.press("backspace", *"6")
        await pilot.press("ctrl+u", *"agent:codx")  # a key no run has: named, not matched
        await settle(pilot)
        assert "unknown field 'agent'" not in _text(app)
        assert "no runs match: agent:codx" in _text(app)


async def test_an_unknown_metadata_key_is_an_error_naming_the_keys_it_resembles(
    runs: str,
) -> None:
    async with running([runs]) as (pilot, app, screen):
        await pilot.press("f")
        screen.query_one("#filter", Input).insert_text_at_cursor("categroy:ui")  # pasted
        await settle(pilot)
        text = _text(app)
        assert "unknown field 'categroy': did you mean category?" in text
        assert listed(screen) == ["slow-bash", "quick-read", "timed-out"]


async def test_an_empty_result_says_no_runs_match_with_the_query(runs: str) -> None:
    async with running([runs]) as (pilot, app, screen):
        await pilot.press("f", *"steps>100")
        await settle(pilot)
        assert "no runs match: steps>100" in _text(app)


async def test_a_question_mark_in_the_filter_box_lists_the_fields(runs: str) -> None:
    async with running([runs], size=(120, 40)) as (pilot, app, screen):
        await pilot.press("f", *"tool:Bash ?")
        await settle(pilot)
        text = _text(app)
        for name, example in (
            ("duration", "duration>60s"),
            ("tokens", "tokens>100k"),
            ("tool", "tool:Bash"),
            ("metadata.KEY", "agent:codex"),
        ):
            line = next((ln for ln in text.splitlines() if f"│ {name} " in ln), "")
            assert example in line, (name, text)
        await pilot.press("escape")
        await settle(pilot)
        assert "tokens>100k" not in _text(app)
        box = screen.query_one("#filter", Input)
        assert box.value == "tool:Bash " and app.focused is box  # back to typing, ? gone
        assert listed(screen) == ["slow-bash"]


async def test_escape_clears_the_query_its_message_and_the_filter(runs: str) -> None:
    async with running([runs]) as (pilot, app, screen):
        await pilot.press("f", *"(tool:Bash")
        await settle(pilot)
        assert "this '(' is not closed" in _text(app)
        await pilot.press("escape")
        await settle(pilot)
        assert "not closed" not in _text(app)
        assert listed(screen) == ["slow-bash", "quick-read", "timed-out"]


LONG_PREAMBLE = "You are a careful research assistant. " * 8  # 304 characters: past the title


@pytest.fixture
def inputs(tmp_path: Path) -> str:
    recs = [
        capture("deep-1", [], input=LONG_PREAMBLE + "\n\nSite: vercel.com, the pricing page"),
        capture("flat-2", [], input="Find the CEO of Anthropic"),
        capture("deep-3", [], input=LONG_PREAMBLE + "\n\nSite: example.org"),
    ]
    return str(write_jsonl(tmp_path / "inputs.jsonl", recs))


WHOLE_INPUT_QUERIES = [
    ("vercel", ["deep-1"]),
    ('"pricing page"', ["deep-1"]),
    ("verc*page", ["deep-1"]),
    ("input:vercel", ["deep-1"]),
    ("-input:vercel", ["flat-2", "deep-3"]),
    ("-vercel", ["flat-2", "deep-3"]),
    ("anthropic OR example.org", ["flat-2", "deep-3"]),
]
"""Queries whose words are only past the titles (one session types them all)."""


async def test_words_in_the_filter_are_found_in_the_whole_input(inputs: str) -> None:
    async with running([inputs]) as (pilot, app, screen):
        for query, refs in WHOLE_INPUT_QUERIES:
            await pilot.press("f")
            await typed(pilot, query)
            await settle(pilot, 0.1)
            assert listed(screen) == refs, query
            await pilot.press("escape")
            await settle(pilot, 0.1)
