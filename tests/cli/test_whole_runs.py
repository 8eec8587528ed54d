"""A run's export and ``diff`` hold the whole run: every trial of a trials record (each with
its steps and its grader's reasoning), and each side's grader's reasoning in ``diff`` (text:
a line each, folded; ``--json``: whole), for two runs and for two sources.

``export trials.jsonl websearch-120 -f markdown`` held only trial 1's 3 steps and no
reasoning, where the record has 5 trials, 13 steps and 5 reasonings; ``diff`` printed no
reasoning at all."""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.formats.acp.builders import capture, step_message, step_tool, write_jsonl
from tests.helpers import forked

LONG_WHY = "Deterministic: 50/70 (basic=10, tools=15, clean=25, sources=0). " + " ".join(
    f"point {n} of the judge's long explanation." for n in range(60)
)


def run(*args: str, columns: int = 100) -> subprocess.CompletedProcess[str]:
    env = {"COLUMNS": str(columns), "PATH": "/usr/bin:/bin"}
    return forked.run(
        [sys.executable, "-m", "trajtui", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


def _trial(n: int, steps: int, passed: bool) -> dict[str, Any]:
    trajectory: list[Any] = [
        step_tool(f"item_{2 * k + 1}", "completed", 1000 * n, duration=0) for k in range(steps - 1)
    ]
    trajectory.append(step_message(f"answer of trial {n}", 1000 * n))
    return {
        "trialNum": n,
        "output": f"answer of trial {n}",
        "trajectory": trajectory,
        "duration": 1000 * n,
        "pass": passed,
        "score": 0.8 if passed else 0.2,
        "reasoning": f"trial {n} judged: {'cites a source' if passed else 'no value given'}",
    }


def trials_file(tmp_path: Path, name: str = "trials.jsonl") -> Path:
    """``web-120``: 3 trials of 3, 1 and 2 steps (6 in all), each with its reasoning;
    ``web-7``: 2 trials."""
    rec = {
        "id": "web-120",
        "input": "What is the fear and greed index today?",
        "k": 3,
        "trials": [_trial(1, 3, False), _trial(2, 1, True), _trial(3, 2, True)],
        "passRate": 2 / 3,
        "passAtK": 1.0,
        "passExpK": 0.3,
    }
    other = {
        "id": "web-7",
        "input": "Who is the CEO?",
        "k": 2,
        "trials": [_trial(1, 2, True), _trial(2, 2, True)],
    }
    return write_jsonl(tmp_path / name, [rec, other])


def test_a_trials_record_exported_as_markdown_holds_every_trial(tmp_path: Path) -> None:
    out = run("export", str(trials_file(tmp_path)), "web-120", "-f", "markdown")
    assert out.returncode == 0, out.stderr
    text = out.stdout
    for trial, steps in ((1, 3), (2, 1), (3, 2)):
        for n in range(1, steps + 1):
            assert f"[→web-120/trial-{trial}/step-{n}]" in text, (trial, n, text)
        assert f"trial {trial} judged: " in text, text
    assert len(re.findall(r"\[→web-120/trial-\d/step-\d\]", text)) == 6
    assert text.count("**Reasoning:**") == 3


def test_a_trials_record_exported_as_html_holds_every_trial(tmp_path: Path) -> None:
    out = run("export", str(trials_file(tmp_path)), "web-120", "-f", "html")
    assert out.returncode == 0, out.stderr
    page = html.unescape(out.stdout)
    for trial, steps in ((1, 3), (2, 1), (3, 2)):
        for n in range(1, steps + 1):
            assert f"id='web-120/trial-{trial}/step-{n}'" in page, (trial, n)
        assert f"trial {trial} judged: " in page
        assert f"answer of trial {trial}" in page


def _graded_captures(tmp_path: Path) -> Path:
    steps = [step_tool("WebSearch", "completed", 10, input={"q": "x"}), step_message("A", 20)]
    return write_jsonl(
        tmp_path / "runs.jsonl",
        [
            capture("good", steps, score={"pass": True, "score": 0.85, "reasoning": LONG_WHY}),
            capture("bad", steps, score={"pass": False, "score": 0.3, "reasoning": "no source"}),
        ],
    )


def _grader_lines(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if line.startswith("grader ")]


def test_diff_of_two_runs_gives_each_sides_reasoning_a_line_each(tmp_path: Path) -> None:
    path = _graded_captures(tmp_path)
    out = run("diff", str(path), "good", "bad", columns=100)
    assert out.returncode == 0, out.stderr  # the same steps: only the graders differ
    lines = _grader_lines(out.stdout)
    assert len(lines) == 2, out.stdout
    a, b = lines
    assert a.startswith("grader A  Deterministic: 50/70") and a.endswith("…"), a
    assert len(a) <= 100, a  # folded to the width
    assert b == "grader B  no source", b
    data = json.loads(run("diff", str(path), "good", "bad", "--json").stdout)
    assert data["a"]["reasoning"] == [{"ref": "good", "text": LONG_WHY}]
    assert data["b"]["reasoning"] == [{"ref": "bad", "text": "no source"}]


def test_diff_of_two_trials_records_compares_every_trial_with_its_reasoning(
    tmp_path: Path,
) -> None:
    path = trials_file(tmp_path)
    out = run("diff", str(path), "web-120", "web-7")
    assert out.returncode == 1, out.stderr
    steps = next(line for line in out.stdout.splitlines() if line.startswith("steps"))
    assert steps.split()[1:3] == ["6", "4"], steps  # every trial's steps, not trial 1's
    assert "trial-3/step-2" in out.stdout, out.stdout
    assert _grader_lines(out.stdout) == [
        "grader A trial-1  trial 1 judged: no value given",
        "grader A trial-2  trial 2 judged: cites a source",
        "grader A trial-3  trial 3 judged: cites a source",
        "grader B trial-1  trial 1 judged: cites a source",
        "grader B trial-2  trial 2 judged: cites a source",
    ]
    data = json.loads(run("diff", str(path), "web-120", "web-7", "--json").stdout)
    assert [r["ref"] for r in data["a"]["reasoning"]] == [
        "web-120/trial-1",
        "web-120/trial-2",
        "web-120/trial-3",
    ]
    assert data["a"]["steps"] == 6


def test_diff_of_two_sources_gives_each_prompts_reasoning(tmp_path: Path) -> None:
    before = _graded_captures(tmp_path)
    (tmp_path / "after").mkdir()
    after = write_jsonl(
        tmp_path / "after" / "runs.jsonl",
        [
            capture("good", [], score={"pass": False, "score": 0.1, "reasoning": "now wrong"}),
            capture("bad", [], score={"pass": True, "score": 0.9, "reasoning": "now right"}),
        ],
    )
    out = run("diff", str(before), str(after))
    assert out.returncode == 1, out.stderr
    lines = out.stdout.splitlines()
    good = next(k for k, line in enumerate(lines) if line.startswith("good "))
    assert lines[good + 1].strip().startswith("grader A  Deterministic: 50/70"), lines
    assert lines[good + 1].endswith("…") and len(lines[good + 1]) <= 100
    assert lines[good + 2].strip() == "grader B  now wrong", lines
    data = json.loads(run("diff", str(before), str(after), "--json").stdout)
    rows = {r["ref"]: r for r in data["rows"]}
    assert rows["good"]["a"]["reasoning"] == [{"ref": "good", "text": LONG_WHY}]
    assert rows["bad"]["b"]["reasoning"] == [{"ref": "bad", "text": "now right"}]


def test_diff_of_two_trials_sources_gives_each_trials_reasoning(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    a, b = trials_file(tmp_path), trials_file(tmp_path / "b")
    data = json.loads(run("diff", str(a), str(b), "--json").stdout)
    rows = {r["ref"]: r for r in data["rows"]}
    assert [r["text"] for r in rows["web-7"]["a"]["reasoning"]] == [
        "trial 1 judged: cites a source",
        "trial 2 judged: cites a source",
    ]
