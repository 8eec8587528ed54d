"""The ``label value · label value`` lines over a run's timeline and in the detail pane.

Each fact is a label and its value: a line too narrow for all of them breaks between facts,
never between a label and its value (``cost`` at the end of one line and ``$0.0105`` at the
start of the next), and the timeline's one-line header shows the facts that fit, whole.
"""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from tests.formats.acp.builders import capture, write_jsonl
from tests.helpers.ui import running, screen_lines, settle
from trajtui.cli import cli

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
    """At every width from 100 to 130 columns with the timeline beside the run list, its
    header shows each label with its value."""
    path = _fixture(tmp_path)
    async with running([str(path)], size=(130, 40)) as (pilot, app, screen):
        seen_header = False
        for width in range(130, 99, -1):
            await pilot.resize_terminal(width, 40)
            await settle(pilot, pause=0.01)
            if screen.narrow:  # one pane at a time: no timeline beside the list
                continue
            lines = screen_lines(app)
            header = next(line for line in lines if "status ✓ pass" in line[width // 3 :])
            right = header[header.index("status", width // 3) :]
            seen_header |= "tool calls 1" not in right
            assert not _cut_facts(right), f"at {width}: {right!r}"
        assert seen_header  # the header was too narrow for every fact at some width


def test_show_breaks_the_facts_between_facts_at_every_width(tmp_path: Path) -> None:
    """The run's facts as ``show`` prints them (the detail pane's renderable), in 50 to 100
    columns: no line ends on a label whose value went to the next line."""
    path = _fixture(tmp_path)
    wrapped = False
    for width in range(50, 101, 5):
        shown = CliRunner().invoke(
            cli, ["show", str(path), "websearch-1"], env={"COLUMNS": str(width)}
        )
        assert shown.exit_code == 0, shown.output
        lines = shown.stdout.splitlines()
        start = next(i for i, line in enumerate(lines) if line.startswith("status"))
        end = lines.index("", start)
        wrapped |= end - start > 1
        for line in lines[start:end]:
            assert not _cut_facts(line), f"at {width}: {line!r}"
    assert wrapped
