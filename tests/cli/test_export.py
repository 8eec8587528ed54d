"""``trajtui export``: what comes out is what the file says, in a shape other tools read."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from click.testing import CliRunner

from tests.formats.acp.builders import capture, step_message, step_thought, step_tool, write_jsonl
from trajtui.cli import cli

EVIL = "<script>alert(1)</script>\x1b]0;pwned\x07 =cmd|' /C calc'!A0"


def _file(tmp_path: Path) -> Path:
    long_output = "\n".join(f"line {n}" for n in range(40))
    return write_jsonl(
        tmp_path / "runs.jsonl",
        [
            capture(
                "web-1",
                [
                    step_thought("I will search the web for the answer to the question", 10),
                    step_tool(
                        "WebSearch",
                        "completed",
                        20,
                        input={"query": "anthropic ceo"},
                        output=long_output,
                        duration=250,
                    ),
                    step_message("Dario Amodei", 30),
                ],
                score={"pass": True, "score": 0.9, "reasoning": "correct"},
            ),
            capture("evil", [step_message(EVIL, 5)], input=EVIL, output=EVIL),
        ],
    )


def test_the_run_table_as_csv_has_the_run_list_columns_and_defuses_formulas(
    tmp_path: Path,
) -> None:
    out = CliRunner().invoke(cli, ["export", str(_file(tmp_path)), "-f", "csv"])
    assert out.exit_code == 0, out.output
    rows = list(csv.DictReader(io.StringIO(out.output)))
    assert [r["ref"] for r in rows] == ["web-1", "evil"]
    assert rows[0]["status"] == "pass" and rows[0]["score"] == "0.9"
    assert rows[0]["steps"] == "3" and rows[0]["tool_calls"] == "1"
    assert "\x1b" not in out.output and "\x07" not in out.output
    evil_title = rows[1]["title"]
    assert evil_title.startswith("<script>")  # text stays text


def test_a_csv_cell_that_a_spreadsheet_would_run_is_quoted(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "f.jsonl", [capture("=1+1", [], input="=HYPERLINK(x)")])
    out = CliRunner().invoke(cli, ["export", str(path), "-f", "csv"])
    row = next(csv.DictReader(io.StringIO(out.output)))
    assert row["ref"] == "'=1+1" and row["title"] == "'=HYPERLINK(x)"


def test_a_run_as_jsonl_is_its_record_exactly_as_in_the_file(tmp_path: Path) -> None:
    path = _file(tmp_path)
    out = CliRunner().invoke(cli, ["export", str(path), "web-1", "-f", "jsonl"])
    assert out.exit_code == 0, out.output
    assert out.output == path.read_text().splitlines()[0] + "\n"


def test_a_run_as_markdown_is_an_evaluation_record_with_step_ids(tmp_path: Path) -> None:
    out = CliRunner().invoke(cli, ["export", str(_file(tmp_path)), "web-1", "-f", "markdown"])
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert lines[0] == "## Evaluation Record: web-1"
    assert (
        "1. [THOUGHT] I will search the web for the answer to the question [→web-1-step-1]" in lines
    )
    assert "2. [TOOL:WebSearch] -> completed (250ms) [→web-1-step-2]" in lines
    assert "3. [MESSAGE] Dario Amodei [→web-1-step-3]" in lines
    assert "**Score:** 0.9" in lines and "**Status:** pass" in lines


def test_a_run_as_html_is_one_escaped_offline_page(tmp_path: Path) -> None:
    target = tmp_path / "out" / "evil.html"
    target.parent.mkdir()
    out = CliRunner().invoke(cli, ["export", str(_file(tmp_path)), "evil", "-o", str(target)])
    assert out.exit_code == 0, out.output
    page = target.read_text()
    assert page.startswith("<!doctype html>")
    assert "<script" not in page and "&lt;script&gt;" in page
    assert "\x1b" not in page and "\x07" not in page
    assert "src=" not in page and "http" not in page.replace("http-equiv", "")


def test_long_values_are_folded_in_html(tmp_path: Path) -> None:
    out = CliRunner().invoke(cli, ["export", str(_file(tmp_path)), "web-1", "-f", "html"])
    assert "<details><summary>40 lines</summary>" in out.output


def test_a_step_exports_alone(tmp_path: Path) -> None:
    path = _file(tmp_path)
    out = CliRunner().invoke(cli, ["export", str(path), "web-1-step-2", "-f", "jsonl"])
    assert json.loads(out.output)["input"] == {"query": "anthropic ceo"}
    out = CliRunner().invoke(cli, ["export", str(path), "web-1-step-2", "-f", "markdown"])
    assert "### web-1-step-2" in out.output and '"query": "anthropic ceo"' in out.output


def test_export_errors_are_one_line(tmp_path: Path) -> None:
    path = _file(tmp_path)
    out = CliRunner().invoke(cli, ["export", str(path), "nope"])
    assert out.exit_code == 2 and len(out.output.strip().splitlines()) == 1
    out = CliRunner().invoke(cli, ["export", str(path), "-f", "html"])
    assert out.exit_code == 2 and "csv, jsonl or markdown" in out.output


def test_markdown_keeps_html_in_the_file_as_text(tmp_path: Path) -> None:
    path = _file(tmp_path)
    table = CliRunner().invoke(cli, ["export", str(path), "-f", "markdown"]).output
    assert "&lt;script&gt;" in table and "<script" not in table
    record = CliRunner().invoke(cli, ["export", str(path), "evil", "-f", "markdown"]).output
    assert "**Input:** &lt;script&gt;alert(1)&lt;/script&gt;" in record


def test_exports_include_the_users_bookmarks_and_notes(tmp_path: Path) -> None:
    from trajtui.core import notes

    path = _file(tmp_path)
    notes.set_bookmark(str(path), "web-1", "run")
    notes.set_note(str(path), "web-1", "run", "check the <source>")
    notes.set_note(str(path), "web-1-step-2", "step", "search was too broad")
    md = CliRunner().invoke(cli, ["export", str(path), "web-1", "-f", "markdown"]).output
    assert "**Bookmark:** ★ — note: check the &lt;source&gt;" in md
    assert (
        "2. [TOOL:WebSearch] -> completed (250ms) [→web-1-step-2] — note: search was too broad"
        in md
    )
    page = CliRunner().invoke(cli, ["export", str(path), "web-1", "-f", "html"]).output
    assert "<th>your note</th><td>★ check the &lt;source&gt;</td>" in page
    rows = list(
        csv.DictReader(
            io.StringIO(CliRunner().invoke(cli, ["export", str(path), "-f", "csv"]).output)
        )
    )
    assert (rows[0]["bookmarked"], rows[0]["note"]) == ("True", "check the <source>")
    assert (rows[1]["bookmarked"], rows[1]["note"]) == ("False", "")
