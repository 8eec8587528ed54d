"""``trajtui diff``: two runs side by side, aligned step by step, as a user reads it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.formats.acp.builders import capture, step_message, step_thought, step_tool, write_jsonl
from trajtui.cli import cli


def _steps(url: str, extra: bool = False, answer: str = "Dario Amodei is the CEO.") -> list[Any]:
    steps = [
        step_thought("I will search for the CEO of Anthropic", 100),
        step_tool("WebSearch", "completed", 150, input={"query": "anthropic ceo"}, output="Dario"),
        step_tool("WebFetch", "completed", 300, input={"url": url}, output="<html>"),
    ]
    if extra:
        steps.append(step_tool("Read", "failed", 350, input={"path": "notes.md"}, output="ENOENT"))
    steps.append(step_message(answer, 500))
    return steps


def _file(tmp_path: Path) -> Path:
    return write_jsonl(
        tmp_path / "runs.jsonl",
        [
            capture("good", _steps("https://anthropic.com/company"), score={"score": 0.9}),
            capture(
                "bad",
                _steps("https://anthropic.com/team", extra=True),
                score={"score": 0.4},
                duration=2000,
            ),
            capture("twin", _steps("https://anthropic.com/company"), score={"score": 0.9}),
        ],
    )


def test_diff_prints_figures_first_divergence_and_aligned_steps(tmp_path: Path) -> None:
    path = _file(tmp_path)
    out = CliRunner().invoke(cli, ["diff", str(path), "good", "bad"])
    assert out.exit_code == 1, out.output  # they differ, as diff says
    lines = out.output.splitlines()
    assert lines[0] == "A  good" and lines[1] == "B  bad"
    score = next(line for line in lines if line.startswith("score"))
    assert score.split() == ["score", "0.9", "0.4", "-0.5"]
    assert "first divergence: A step-3 / B step-3 (input differs: url)" in out.output
    steps = [line.split()[:3] for line in lines if line[:1] in "=~+-" and line[1:3] == "  "]
    assert steps == [
        ["=", "step-1", "step-1"],
        ["=", "step-2", "step-2"],
        ["~", "step-3", "step-3"],
        ["+", "·", "step-4"],
        ["=", "step-4", "step-5"],
    ]


def test_diff_of_the_same_steps_exits_0(tmp_path: Path) -> None:
    out = CliRunner().invoke(cli, ["diff", str(_file(tmp_path)), "good", "twin"])
    assert out.exit_code == 0, out.output
    assert "the timelines are the same: 4 steps, step for step" in out.output


def test_diff_json_carries_both_sides_counts_and_pairs(tmp_path: Path) -> None:
    out = CliRunner().invoke(cli, ["diff", str(_file(tmp_path)), "good", "bad", "--json"])
    assert out.exit_code == 1
    data = json.loads(out.output)
    assert data["a"]["ref"] == "good" and data["b"]["ref"] == "bad"
    assert (data["a"]["tool_calls"], data["b"]["tool_calls"]) == (2, 3)
    assert data["b"]["failed_tool_calls"] == 1
    assert data["first_divergence"] == 2
    assert data["counts"] == {"same": 3, "changed": 1, "only_a": 0, "only_b": 1}
    assert data["pairs"][3] == {
        "op": "+",
        "a": None,
        "b": "bad-step-4",
        "kind": "tool_call",
        "tool": "Read",
        "title": "Read",
        "similarity": 0.0,
        "why": None,
    }


def test_diff_across_two_files_with_qualified_refs(tmp_path: Path) -> None:
    before = write_jsonl(tmp_path / "before.jsonl", [capture("t1", _steps("https://a.com"))])
    after = write_jsonl(
        tmp_path / "after.jsonl",
        [capture("t1", _steps("https://a.com", answer="Dario Amodei is the CEO of Anthropic."))],
    )
    out = CliRunner().invoke(
        cli, ["diff", str(before), str(after), "before.jsonl::t1", "after.jsonl::t1"]
    )
    assert out.exit_code == 1, out.output
    assert "~  step-4     step-4" in out.output and "[text differs]" in out.output


def test_diff_errors_are_one_line_and_exit_2(tmp_path: Path) -> None:
    path = _file(tmp_path)
    out = CliRunner().invoke(cli, ["diff", str(path), "good", "nope"])
    assert out.exit_code == 2
    assert len(out.output.strip().splitlines()) == 1 and "nope" in out.output
    out = CliRunner().invoke(cli, ["diff", str(path), "good"])
    assert out.exit_code == 2
    assert "two references" in out.output


def test_diff_shows_hostile_titles_inert(tmp_path: Path) -> None:
    evil = "\x1b]0;pwned\x07[bold]x[/bold]"
    path = write_jsonl(
        tmp_path / "evil.jsonl",
        [capture("a", [step_message(evil, 1)]), capture("b", [step_message("hello", 1)])],
    )
    out = CliRunner().invoke(cli, ["diff", str(path), "a", "b"])
    assert "\x1b" not in out.output and "\x07" not in out.output
    assert "[bold]x[/bold]" in out.output  # literal, never interpreted


def _scored(rid: str, passed: bool | None, score: float | None) -> dict[str, Any]:
    rec = capture(rid, [step_message("answer", 1)])
    if passed is not None or score is not None:
        rec["score"] = {k: v for k, v in (("pass", passed), ("score", score)) if v is not None}
    return rec


def test_diff_of_two_sources_pairs_prompts_and_puts_flips_first(tmp_path: Path) -> None:
    a = write_jsonl(
        tmp_path / "before.jsonl",
        [
            _scored("p1", True, 0.9),
            _scored("p2", True, 0.8),
            _scored("p3", False, 0.2),
            _scored("p4", True, 0.7),
            _scored("gone", True, 1.0),
        ],
    )
    b = write_jsonl(
        tmp_path / "after.jsonl",
        [
            _scored("p1", True, 0.95),
            _scored("p2", False, 0.3),
            _scored("p3", True, 0.6),
            _scored("p4", True, 0.7),
            _scored("new", False, 0.0),
        ],
    )
    out = CliRunner().invoke(cli, ["diff", str(a), str(b)])
    assert out.exit_code == 1, out.output
    text = out.output
    assert "prompts in both: 4 · only in A: 1 · only in B: 1" in text
    # graded on both sides: p1..p4; A passed p1 p2 p4, B passed p1 p3 p4
    assert "A 75.0% (3/4) · B 75.0% (3/4)" in text
    assert "flips: pass→fail 1 · fail→pass 1" in text
    # means 2.6/4 = 0.65 and 2.55/4 = 0.6375 (0.637 in floats); B - A: +0.05, -0.5, +0.4,
    # 0 -> mean -0.0125. Scores within [0, 1], so differences within [-1, 1]: the Wilson
    # interval on (d + 1) / 2 = 0.525, 0.25, 0.7, 0.5: p = 0.49375, variance over n
    # 0.0257422, effective n = 4 * 0.2499609 / 0.0257422 = 38.8407, z = t(3) = 3.182;
    # d = 1 + z^2/n = 1.260686, centre (p + z^2/2n) / d = 0.495040, half z/d *
    # sqrt(p(1-p)/n + z^2/4n^2) = 2.524003 * 0.090075 = 0.227348: [0.267692, 0.722388],
    # back on [-1, 1]: [-0.465, +0.445]
    assert "A 0.650 · B 0.637 · paired difference -0.013, 95% CI [-0.465, +0.445] (wilson)" in text
    table = [line.split()[0] for line in text.splitlines()[text.splitlines().index("") + 6 :]]
    assert table[:7] == ["REF", "p2", "p3", "p1", "p4", "gone", "new"]

    data = json.loads(CliRunner().invoke(cli, ["diff", str(a), str(b), "--json"]).output)
    assert data["flips"] == {"pass_to_fail": 1, "fail_to_pass": 1}
    assert data["pass_a"] == {"passed": 3, "judged": 4}
    assert [r["ref"] for r in data["rows"]][:2] == ["p2", "p3"]
    assert data["paired_score_difference"]["n"] == 4
    assert data["paired_score_difference"]["interval"] == "wilson"
    low, high = data["paired_score_difference"]["ci95"]
    assert low == pytest.approx(-0.464617, abs=1e-5) and high == pytest.approx(0.444777, abs=1e-5)


def test_diff_of_a_source_with_itself_exits_0(tmp_path: Path) -> None:
    a = write_jsonl(tmp_path / "a.jsonl", [_scored("p1", True, 0.9), _scored("p2", False, 0.1)])
    out = CliRunner().invoke(cli, ["diff", str(a), str(a)])
    assert out.exit_code == 0, out.output
    assert "flips: pass→fail 0 · fail→pass 0" in out.output


def test_diff_as_markdown_and_html_says_the_same_escaped(tmp_path: Path) -> None:
    path = _file(tmp_path)
    md = CliRunner().invoke(cli, ["diff", str(path), "good", "bad", "-f", "markdown"])
    assert md.exit_code == 1
    assert "| score | 0.9 | 0.4 | -0.5 |" in md.output
    assert "| ~ | step-3 | step-3 | WebFetch | input differs: url |" in md.output
    page = CliRunner().invoke(cli, ["diff", str(path), "good", "bad", "-f", "html"]).output
    assert page.startswith("<!doctype html>") and "<script" not in page
    assert "<tr class='changed'><td>~</td><td>step-3</td>" in page
    two = CliRunner().invoke(cli, ["diff", str(path), str(path), "-f", "html"])
    assert two.exit_code == 2 and "two runs" in two.output
