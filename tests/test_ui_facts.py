"""The ``label value · label value`` lines over a run's timeline and in the detail pane.

Each fact is a label and its value: a line too narrow for all of them breaks between facts,
never between a label and its value (``cost`` at the end of one line and ``$0.0105`` at the
start of the next), and the timeline's one-line header shows the facts that fit, whole.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.builders import capture, write_jsonl
from tests.ui_helpers import running, screen_lines, settle

LABELS = ("status", "steps", "score", "tool calls", "tool errors", "duration", "cost", "line")


def _fixture(tmp_path: Path) -> Path:
    rec = capture(
        "websearch-1",
        score={"pass": True, "score": 0.92},
        metadata={"category": "ui"},
        cost=0.0105,
    )
    return write_jsonl(tmp_path / "results.jsonl", [rec])


def _facts(line: str) -> list[str]:
    """The facts of a line (``label value`` pieces between ``·``), border glyphs stripped."""
    inner = line.strip().strip("│▎▊┃ ")
    return [part.strip() for part in inner.split("·") if part.strip()]


def _cut_facts(line: str) -> list[str]:
    """The labels on ``line`` shown without their value (at its end, or before a ``·``)."""
    body = line.rstrip().rstrip("│▎▊┃ ").rstrip()
    return [
        label
        for label in LABELS
        if re.search(rf"(^|[│ ]|·\s+){re.escape(label)}(\s+·|$)", body.lstrip("│ "))
    ]


async def test_no_width_cuts_a_fact_from_its_value(tmp_path: Path) -> None:
    """At every width from 100 to 130 columns (two panes side by side), the timeline's header and the run's detail
    show each label with its value."""
    path = _fixture(tmp_path)
    async with running([str(path)], size=(130, 40)) as (pilot, app, _screen):
        seen_header = seen_wrap = False
        for width in range(130, 99, -1):
            await pilot.resize_terminal(width, 40)
            await settle(pilot, pause=0.01)
            lines = screen_lines(app)
            header = next(line for line in lines if "status ✓ pass" in line[width // 3 :])
            right = header[header.index("status", width // 3) :]
            seen_header |= "tool calls 1" not in right
            assert not _cut_facts(right), f"at {width}: {right!r}"
            start = next(i for i, line in enumerate(lines) if i > 15 and "status ✓ pass" in line)
            end = next(i for i in range(start, len(lines)) if not lines[i].strip("│ "))
            detail = lines[start:end]  # the run's facts in the detail, down to a blank line
            seen_wrap |= len(detail) > 1
            for line in detail:
                assert not _cut_facts(line), f"at {width}: {line!r}"
        assert seen_header and seen_wrap  # the header was too narrow, the detail wrapped
