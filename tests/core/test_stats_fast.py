"""``trajtui stats`` counts each run from the fields it needs, made with its row on every core
(:class:`~trajtui.core.stats.facts.StepFacts`), and keeps them in the index cache: the
figures are the ones reading every run whole gives, for every record shape (odd and broken
lines included, each still one problem line), and a second ``stats`` of an unchanged file
reads no line."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.core.cached import entry_file, rewrite_entry
from tests.formats.acp.builders import (
    START,
    capture,
    step_message,
    step_tool,
    summary,
    trials,
    write_jsonl,
)
from tests.helpers.workspace import open_paths
from tests.samples.locate import acp_captures
from trajtui.cli import cli
from trajtui.core.io.jsonutil import dumps_line
from trajtui.core.jsonl import cachefile, rowpool
from trajtui.core.jsonl.reader import JsonlReader
from trajtui.core.rows import KEEP_ALL, read_rows
from trajtui.core.stats.collect import collect, grouped
from trajtui.formats.registry import figures


def _calls() -> list[dict[str, Any]]:
    """Tool calls in the shapes real captures write them, and odd ones."""
    return [
        step_message("thinking", 10),
        step_tool("Bash", "pending", 100),  # completed by its call id, duration given
        step_tool("toolu_01abc", "completed", 300, duration=200),
        step_tool("Read", "pending", 400),  # failed, duration from the timestamps
        step_tool("toolu_01def", "failed", 450),
        step_tool("google_web_search", "in_progress", 500),  # a Gemini call id
        step_tool("google_web_search-1770691532470-cc1f5be1acd028", "completed", 700),
        step_tool("Grep", "pending", 800, duration=12.5),  # never completed
        step_tool("item_3", "pending", 900),  # Codex: opened and completed by its id
        step_tool("item_3", "completed", 950, duration=10**30),
        step_tool("", "completed", 1000),  # unnamed
        step_tool("Edit", "completed", START + 1200),  # an epoch timestamp, one half
        {"type": "tool_call", "name": 7, "status": None, "timestamp": "late"},
        {"type": "tool_call", "name": "Glob", "status": "pending", "duration": True},
        {"type": "tool_call", "name": "toolu_01ghi", "status": "completed", "duration": 1e300},
        {"type": "plan", "entries": []},
    ]


def _records(directory: Path) -> Path:
    """Every record shape a capture file holds, broken lines among them."""
    lines = [
        json.dumps(capture("c1", _calls(), score={"pass": True, "score": 1.0})),
        json.dumps(capture("c2", metadata={"agent": "A", "timedOut": True})),
        '{"id": "broken", "trajectory": [}',  # not JSON: one problem line
        "[1, 2]",  # not an object
        json.dumps(capture("steps-not-objects", ["just a string", 3])),
        json.dumps({"input": "no id", "trajectory": []}),
        json.dumps(capture("c1", [step_tool("Bash", "completed", 5)])),  # a repeated id
        json.dumps(
            capture(
                "epoch",
                [
                    step_tool("Read", "pending", START + 10),
                    step_tool("toolu_9", "completed", START + 70),
                ],
            )
        ),
    ]
    huge = json.dumps(capture("huge", [step_tool("Bash", "completed", 1, duration=123)]))
    lines.append(huge.replace("123", "1e999"))  # a number past a float: infinite
    raw = json.dumps(capture("bad-utf8", note="XX")).encode().replace(b"XX", b"\xff\xfe")
    data = "\n".join(lines).encode() + b"\n" + raw + b"\n"
    path = directory / "captures.jsonl"
    path.write_bytes(data)
    return path


def _others(directory: Path) -> list[Path]:
    return [
        _records(directory),
        write_jsonl(
            directory / "trials.jsonl",
            [trials("t1", [True, False, None]), trials("t2", [True, True])],
        ),
        write_jsonl(
            directory / "summary.jsonl",
            [summary("s1", ["Bash", "Read", "Bash", ""]), summary("s2", [])],
        ),
    ]


def _figures(paths: list[Path], *, fast: bool) -> tuple[list[Any], list[str]]:
    """The JSON figures of ``paths`` (by agent too) and every problem said: each run read
    whole, or counted from the step facts made with its row."""
    ws = open_paths([str(p) for p in paths])
    if fast:
        for source in ws.sources:
            source.want_step_facts()
    for _ in read_rows(ws.sources, keep=KEEP_ALL):
        pass
    parts = figures()
    got = collect(ws.sources, ws.ref, parts=parts)
    problems = [str(p) for s in ws.sources for p in s.problems()]
    problems += [str(p) for p in got.problems]
    data = [dumps_line(g.data) for g in grouped(got.runs, "agent", parts)]  # NaN too
    if fast:  # the fast path was taken: runs counted without being read again
        assert any(s.step_facts(0) is not None for s in ws.sources)
    ws.close()
    return data, problems


def test_step_facts_give_the_figures_of_whole_runs(tmp_path: Path) -> None:
    paths = _others(tmp_path)
    assert _figures(paths, fast=True) == _figures(paths, fast=False)


def test_step_facts_made_by_the_workers_give_the_same_figures(
    tmp_path: Path, workers: None
) -> None:
    paths = _others(tmp_path)
    assert _figures(paths, fast=True) == _figures(paths, fast=False)


@pytest.mark.parametrize("path", acp_captures(), ids=lambda p: p.name)
def test_step_facts_of_the_real_samples(path: Path, workers: None) -> None:
    assert _figures([path], fast=True) == _figures([path], fast=False)


def _no_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading a record here (to build its run whole) fails the test."""

    def refuse(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("a record was read again")

    for name in ("raw", "record", "records"):
        monkeypatch.setattr(JsonlReader, name, refuse)


def test_stats_reads_no_run_whole_and_a_second_stats_no_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = [c for c in _calls() if c.get("type") == "tool_call"][:10]
    path = write_jsonl(
        tmp_path / "cap.jsonl",
        [capture(f"r{i}", calls, score={"pass": i % 2 == 0}) for i in range(40)],
    )
    (whole, *_), _ = _figures([path], fast=False)  # each run read whole
    expected = whole + "\n"
    runner = CliRunner()
    with monkeypatch.context() as m:
        _no_reading(m)
        first = runner.invoke(cli, ["stats", "--json", str(path)])
        assert first.exit_code == 0, first.output
        assert first.stdout == expected
        # the second reads nothing of the file but what checks it is unchanged
        m.setattr(rowpool, "rows_of", lambda job: pytest.fail("a row was decoded again"))
        second = runner.invoke(cli, ["stats", "--json", str(path)])
    assert second.exit_code == 0, second.output
    assert second.stdout == expected
    figures_ = json.loads(whole)
    assert figures_["runs"] == 40 and figures_["tools"]["by_tool"]["Bash"]["calls"] == 40


def test_a_broken_line_is_one_problem_line_on_the_fast_path(tmp_path: Path) -> None:
    path = _records(tmp_path)
    runner = CliRunner()
    fast = runner.invoke(cli, ["stats", "--json", str(path)])
    again = runner.invoke(cli, ["stats", "--json", str(path)])  # from the index cache
    for out in (fast, again):
        assert out.exit_code == 0
        said = [line for line in out.stderr.splitlines() if ":3:" in line]
        assert len(said) == 1 and said[0].startswith(f"{path}:3: ")
    assert fast.stdout == again.stdout


def _forged(change: Callable[[dict[str, bytes]], None]) -> Callable[[Path], None]:
    """Rewrite the index cache's entry for a file with its step facts changed (a valid
    checksum: only the content is wrong)."""

    def rewrite(path: Path) -> None:
        rewrite_entry(entry_file(path), lambda _header, sections: change(sections))

    return rewrite


def _tool_code_out_of_range(s: dict[str, bytes]) -> None:
    s["facts.codes"] = (999).to_bytes(4, sys.byteorder) + s["facts.codes"][4:]


def _a_call_fewer(s: dict[str, bytes]) -> None:
    s["facts.states"] = s["facts.states"][:-1]


def _a_duration_as_text(s: dict[str, bytes]) -> None:
    s["facts.kinds"] = b"\x03" + s["facts.kinds"][1:]
    s["facts.odd"] = cachefile.pack_values(["5 s"])


@pytest.mark.parametrize(
    "change",
    [_tool_code_out_of_range, _a_call_fewer, _a_duration_as_text],
    ids=lambda c: c.__name__,
)
def test_forged_step_facts_in_the_cache_are_not_believed(
    tmp_path: Path, change: Callable[[dict[str, bytes]], None]
) -> None:
    calls = [step_tool("Bash", "pending", 100), step_tool("toolu_1", "completed", 300, duration=7)]
    path = write_jsonl(tmp_path / "cap.jsonl", [capture(f"r{i}", calls) for i in range(5)])
    runner = CliRunner()
    first = runner.invoke(cli, ["stats", "--json", str(path)])
    assert json.loads(first.stdout)["tools"]["by_tool"]["Bash"]["calls"] == 5
    _forged(change)(path)
    again = runner.invoke(cli, ["stats", "--json", str(path)])
    assert again.exit_code == 0 and again.stdout == first.stdout
