"""``trajtui ls --where QUERY``: only matching rows, grep-like exit codes, one-line errors;
``ls --json`` carries what queries read (metadata, tools, tokens)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.test_commands import run
from tests.formats.acp.builders import capture, step_tool, trials, write_jsonl


@pytest.fixture
def runs_file(tmp_path: Path) -> Path:
    recs = [
        capture(
            "bash-1",
            [step_tool("Bash", "completed", 5), step_tool("Read", "failed", 9)],
            metadata={"agent": "codex", "category": "ui"},
            duration=90_000,
            score={"pass": False, "score": 0.3},
        ),
        capture("read-2", [step_tool("Read", "completed", 5)], metadata={"agent": "claude"}),
        capture("late-3", [], errors=["Request timed out after 60000ms"], duration=60_000),
    ]
    return write_jsonl(tmp_path / "runs.jsonl", recs)


@pytest.mark.parametrize(
    ("query", "refs"),
    [
        ("tool:Bash", ["bash-1"]),
        ("status:timeout OR tool_errors>0", ["bash-1", "late-3"]),
        ("duration>=60s -agent:codex", ["late-3"]),
        ('agent:"claude" OR (score<0.5 category:ui)', ["bash-1", "read-2"]),
    ],
)
def test_ls_where_lists_only_the_matching_runs(
    runs_file: Path, query: str, refs: list[str]
) -> None:
    out = run("ls", str(runs_file), "--where", query)
    assert out.returncode == 0, out.stderr
    assert [line.split()[0] for line in out.stdout.splitlines()[1:]] == refs
    as_json = run("ls", str(runs_file), "--where", query, "--json")
    assert [json.loads(line)["ref"] for line in as_json.stdout.splitlines()] == refs


def test_ls_where_that_matches_nothing_exits_1_and_says_so(runs_file: Path) -> None:
    out = run("ls", str(runs_file), "--where", "steps>100")
    assert out.returncode == 1
    assert out.stdout == ""
    assert out.stderr.strip() == "no runs match: steps>100"


@pytest.mark.parametrize(
    ("query", "line"),
    [
        ("scroe<0.5", "trajtui: --where: col 1: unknown field 'scroe': did you mean score?"),
        ("tool:Bash (status:pass", "trajtui: --where: col 11: this '(' is not closed"),
        ("duration>60", "trajtui: --where: col 10: duration takes a duration with its unit"),
        ("agnet:codex", "trajtui: --where: col 1: unknown field 'agnet': did you mean agent?"),
    ],
)
def test_ls_where_with_a_bad_query_is_one_line_and_exit_2(
    runs_file: Path, query: str, line: str
) -> None:
    out = run("ls", str(runs_file), "--where", query)
    assert out.returncode == 2
    assert len(out.stderr.splitlines()) == 1 and out.stderr.startswith(line), out.stderr
    assert "Traceback" not in out.stderr


def test_ls_json_carries_metadata_tools_and_tokens(tmp_path: Path) -> None:
    path = write_jsonl(
        tmp_path / "t.jsonl", [trials("t-1", [True, False], metadata={"category": "web"})]
    )
    row = json.loads(run("ls", str(path), "--json").stdout.splitlines()[0])
    assert row["metadata"] == {"category": "web"}
    assert row["tools"] == ["WebSearch"]  # the completions, named by call id, are no tool
    assert row["tokens_in"] is None and row["tokens_out"] is None  # the file says none


def test_ls_help_teaches_where_with_examples() -> None:
    out = run("ls", "--help")
    assert "--where QUERY" in out.stdout
    assert "trajtui ls runs.jsonl --where 'status:timeout OR tool_errors>0'" in out.stdout


LONG_PREAMBLE = "You are a careful research assistant. " * 8  # 304 characters


@pytest.mark.parametrize(
    ("query", "refs"),
    [
        ("vercel", ["deep-1"]),  # past the input's first 200 characters: not in its title
        ('"pricing page"', ["deep-1"]),
        ("input:vercel", ["deep-1"]),
        ("-vercel", ["flat-2"]),
        ("nowhere", []),
    ],
)
def test_ls_where_words_match_the_whole_input(tmp_path: Path, query: str, refs: list[str]) -> None:
    path = write_jsonl(
        tmp_path / "inputs.jsonl",
        [
            capture("deep-1", [], input=LONG_PREAMBLE + "\n\nSite: vercel.com, the pricing page"),
            capture("flat-2", [], input="Find the CEO of Anthropic"),
        ],
    )
    out = run("ls", str(path), "--where", query, "--json")
    assert out.returncode == (0 if refs else 1), out.stderr
    assert [json.loads(line)["ref"] for line in out.stdout.splitlines()] == refs
