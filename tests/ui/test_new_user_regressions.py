"""Regression tests for problems found by trying trajtui as a new user would."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.formats.acp.builders import capture, write_jsonl
from tests.formats.forecast import builders as bf
from tests.helpers import forked
from tests.helpers.workspace import open_paths
from trajtui.core.io.jsonutil import dumps_line, loads
from trajtui.core.jsonl import index as index_mod
from trajtui.core.jsonl.index import LineIndex
from trajtui.core.model import RunSummary
from trajtui.core.workspace import Workspace
from trajtui.render import fmt


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return forked.run(
        [sys.executable, "-m", "trajtui", *args], capture_output=True, text=True, timeout=60
    )


def scanned(*paths: Path) -> Workspace:
    ws = open_paths([str(p) for p in paths])
    for _ in ws.scan():
        pass
    return ws


def test_run_ids_containing_the_source_separator(tmp_path: Path) -> None:
    p = write_jsonl(tmp_path / "odd.jsonl", [capture("a::b"), capture("plain")])
    other = write_jsonl(tmp_path / "other.jsonl", [capture("z")])
    ws = scanned(p, other)
    assert ws.resolve("a::b").ref == "a::b"
    assert ws.resolve("odd.jsonl::a::b-step-2").ref == "a::b-step-2"
    out = run("show", str(p), "a::b")
    assert out.returncode == 0 and "a::b" in out.stdout


def test_pass_share_counts_only_runs_with_a_verdict(tmp_path: Path) -> None:
    from trajtui.ui.store import RunStore

    recs = [
        capture("p", score={"pass": True, "score": 1}),
        capture("f", score={"pass": False, "score": 0}),
        capture("t", metadata={"timedOut": True}),
        capture("d"),
    ]
    ws = scanned(write_jsonl(tmp_path / "c.jsonl", recs))
    for i in range(4):
        ws.sources[0].entry(i)
    store = RunStore(ws)
    store.count_new()
    assert store.summary_line().startswith("4 runs · 50.0% pass")  # 1 of the 2 graded runs


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (0.999, "0.999"),
        (0.99996, "0.99996"),
        (0.625, "0.625"),
        (0.92, "0.92"),
        (1.0, "1"),
        (3100, "3,100"),
        (2 / 3, "0.6667"),
    ],
)
def test_numbers_are_not_rounded_into_lies(value: float, shown: str) -> None:
    assert fmt.number(value) == shown


def test_costs_keep_their_cents() -> None:
    assert [fmt.cost(v) for v in (0.0131, 0.0071, 0.0, 12.4)] == [
        "$0.0131",
        "$0.0071",
        "$0",
        "$12.40",
    ]


def test_a_lone_surrogate_escape_is_read_with_a_warning() -> None:
    value, warning = loads(b'{"id":"x","input":"cut \\ud83d here"}')
    assert value["input"] == "cut \ud83d here"
    assert warning is not None and "surrogate" in warning
    assert "\\ud83d" in dumps_line(value)


def test_big_integers_keep_every_digit_in_show_json(tmp_path: Path) -> None:
    p = tmp_path / "big.jsonl"
    p.write_text(
        '{"id":"b","input":"q","trajectory":[],"timing":{},"metadata":{"seed":123456789012345678901234567890}}\n'
    )
    out = run("show", str(p), "b", "--json")
    assert '"seed":123456789012345678901234567890' in out.stdout.replace(" ", "")


def test_json_output_escapes_c1_and_bidi_characters(tmp_path: Path) -> None:
    p = write_jsonl(tmp_path / "c.jsonl", [capture("c", input="a\u009b31m \u202eb \u200bc")])
    out = run("show", str(p), "c", "--json")
    assert "\u009b" not in out.stdout and "\u202e" not in out.stdout and "\u200b" not in out.stdout
    assert json.loads(out.stdout)["input"] == "a\u009b31m \u202eb \u200bc"


def test_a_file_reached_through_a_link_inside_is_read_once(tmp_path: Path) -> None:
    write_jsonl(tmp_path / "runs.jsonl", [capture("only")])
    (tmp_path / "alias.jsonl").symlink_to(tmp_path / "runs.jsonl")
    ws = open_paths([str(tmp_path)])
    assert len(ws.sources) == 1


def test_a_forecast_eval_copied_from_another_machine(tmp_path: Path) -> None:
    ev = tmp_path / "eval"
    entries = [bf.entry("fed", brier=0.05)]
    entries[0]["output_dir"] = "/home/someone/outputs/eval/runs/fed"
    bf.write_json(ev / "summary.json", bf.summary(entries))
    bf.run_dir(ev / "runs" / "fed", bf.fed_run())
    ws = scanned(ev)
    (source,) = ws.sources
    assert source.run_refs() == ["fed"]  # once, not once from summary.json and once from runs/
    summary = source.entry(0)
    assert isinstance(summary, RunSummary) and summary.steps and summary.score == 0.05
    assert any("read runs/fed instead" in p.message for p in source.problems())


def test_show_explains_a_reference_to_a_broken_line(tmp_path: Path) -> None:
    p = tmp_path / "c.jsonl"
    p.write_text(json.dumps(capture("good")) + '\n{"id":"half","input":"cut\n')
    out = run("show", str(p), "half")
    assert out.returncode == 1
    assert out.stderr.count(":2: ") == 1  # the problem once, inside the explanation
    assert "half is on a line that could not be read" in out.stderr


def test_usage_mistakes(tmp_path: Path) -> None:
    mistyped = run("lss", str(tmp_path))
    assert mistyped.returncode == 2 and "did you mean 'ls'" in mistyped.stderr
    bare = run()
    assert bare.returncode == 0 and "Commands:" in bare.stdout


def test_ls_into_a_closed_pipe_exits_0(tmp_path: Path) -> None:
    p = write_jsonl(tmp_path / "many.jsonl", [capture(f"r{i}") for i in range(3000)])
    shell = f"{sys.executable} -m trajtui ls {p} | head -1; exit ${{PIPESTATUS[0]}}"
    out = subprocess.run(["bash", "-c", shell], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr


def test_cancelling_while_a_long_line_is_read_does_not_mark_the_index_complete(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(index_mod, "CHUNK", 64)
    p = tmp_path / "long.jsonl"
    p.write_text(
        json.dumps({"id": "a"}) + "\n" + json.dumps({"id": "long", "pad": "x" * 5000}) + "\n"
    )
    ix = LineIndex(p)
    original = ix._find_newline

    def cancel_then_find(pos: int, size: int) -> int | None:
        ix.cancel()
        return original(pos, size)

    monkeypatch.setattr(ix, "_find_newline", cancel_then_find)
    list(ix.scan())
    assert not ix.complete
    monkeypatch.setattr(ix, "_find_newline", original)
    list(ix.scan())
    assert (ix.complete, [ix.key(i) for i in range(ix.count)]) == (True, ["a", "long"])
