"""Exports hold the file's text, not the screen's: a line break stays a line break.

The run list draws a title's line breaks as ``⏎`` (one row per run); CSV cells and the
Markdown of a run carried that glyph instead of the text's own line breaks. CSV quotes a
cell with line breaks; a Markdown record writes a value of several lines in a fence (literal,
whatever Markdown it holds); a Markdown table cell, one line by nature, reads as the text
would in a paragraph (a line break is a space there).
"""

from __future__ import annotations

import csv
import io
import sys
from pathlib import Path

from tests.formats.acp.builders import capture, step_message, write_jsonl
from tests.helpers import forked

QUESTION = "Use the web.\nWhat changed in the EKS API?"
ANSWER = "# Summary\nThe API changed.\n\n- item one"
REASONING = "Names the release.\nCites a source."


def _file(tmp_path: Path) -> Path:
    rec = capture(
        "web-1",
        [step_message("Found it", 5)],
        input=QUESTION,
        output=ANSWER,
        score={"pass": True, "score": 0.9, "reasoning": REASONING},
    )
    return write_jsonl(tmp_path / "runs.jsonl", [rec])


def _export(*args: str) -> str:
    done = forked.run(
        [sys.executable, "-m", "trajtui", "export", *args],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_csv_table_keeps_the_titles_line_breaks(tmp_path: Path) -> None:
    out = _export(str(_file(tmp_path)), "-f", "csv")
    assert "⏎" not in out
    (row,) = list(csv.DictReader(io.StringIO(out)))
    assert row["title"] == QUESTION


def test_the_markdown_table_has_no_display_glyph(tmp_path: Path) -> None:
    out = _export(str(_file(tmp_path)), "-f", "markdown")
    assert "⏎" not in out
    (row,) = [line for line in out.splitlines() if line.startswith("| web-1")]
    assert "Use the web. What changed in the EKS API?" in row


def test_a_runs_markdown_holds_its_values_line_for_line(tmp_path: Path) -> None:
    out = _export(str(_file(tmp_path)), "web-1", "-f", "markdown")
    assert "⏎" not in out
    for value in (QUESTION, ANSWER, REASONING):
        assert f"```\n{value}\n```" in out, out
    assert "\n# Summary" not in out.replace("```\n# Summary", "")  # never a heading of its own
