"""``--where`` speaks one query language in grep, stats, export and diff, as in ls."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from click.testing import CliRunner

from tests.formats.acp.builders import capture, step_message, step_tool, write_jsonl
from trajtui.cli import cli


def _runs(tmp_path: Path, name: str = "runs.jsonl") -> Path:
    return write_jsonl(
        tmp_path / name,
        [
            capture(
                "a",
                [
                    step_tool("Bash", "failed", 1, input={"cmd": "ls"}),
                    step_message("rate limit", 2),
                ],
                score={"pass": False, "score": 0.1},
                metadata={"agent": "codex"},
            ),
            capture(
                "b",
                [step_message("rate limit hit again", 1)],
                score={"pass": True, "score": 0.9},
                metadata={"agent": "claude"},
            ),
            capture("c", [step_message("all good", 1)], score={"pass": True, "score": 0.8}),
        ],
    )


def test_grep_searches_only_the_runs_the_query_keeps(tmp_path: Path) -> None:
    path = _runs(tmp_path)
    every = CliRunner().invoke(cli, ["grep", str(path), "rate limit", "--json"])
    assert {json.loads(x)["run"] for x in every.stdout.splitlines()} == {"a", "b"}
    some = CliRunner().invoke(
        cli, ["grep", str(path), "rate limit", "--json", "--where", "agent:codex"]
    )
    assert some.exit_code == 0
    assert {json.loads(x)["run"] for x in some.stdout.splitlines()} == {"a"}
    none = CliRunner().invoke(cli, ["grep", str(path), "rate limit", "--where", "score>0.95"])
    assert none.exit_code == 1


def test_stats_counts_only_the_runs_the_query_keeps(tmp_path: Path) -> None:
    out = CliRunner().invoke(
        cli, ["stats", str(_runs(tmp_path)), "--json", "--where", "-tool:Bash"]
    )
    assert out.exit_code == 0, out.output
    first = json.loads(out.stdout.splitlines()[0])
    assert (first["runs"], first["refs"]) == (2, ["b", "c"])
    assert first["outcomes"]["pass"]["num"] == 2


def test_export_table_keeps_the_runs_the_query_keeps(tmp_path: Path) -> None:
    out = CliRunner().invoke(
        cli, ["export", str(_runs(tmp_path)), "-f", "csv", "--where", "status:pass score<0.85"]
    )
    assert out.exit_code == 0, out.output
    assert [r["ref"] for r in csv.DictReader(io.StringIO(out.output))] == ["c"]


def test_diff_of_sources_pairs_only_the_prompts_the_query_keeps(tmp_path: Path) -> None:
    a, b = _runs(tmp_path, "a.jsonl"), _runs(tmp_path, "b.jsonl")
    out = CliRunner().invoke(cli, ["diff", str(a), str(b), "--json", "--where", "status:pass"])
    assert [r["ref"] for r in json.loads(out.output)["rows"]] == ["b", "c"]


def test_a_bad_query_is_one_line_and_exit_2_everywhere(tmp_path: Path) -> None:
    path = str(_runs(tmp_path))
    for argv in (
        ["grep", path, "x", "--where", "scroe<1"],
        ["stats", path, "--where", "scroe<1"],
        ["export", path, "--where", "scroe<1"],
        ["diff", path, path, "--where", "(status:pass"],
    ):
        out = CliRunner().invoke(cli, argv)
        assert out.exit_code == 2, (argv, out.output)
        lines = out.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("trajtui: --where: col "), (argv, lines)
