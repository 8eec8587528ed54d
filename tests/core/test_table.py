"""The run list's summaries of a big file, kept by column: every value comes back as it was."""

from __future__ import annotations

import math
from dataclasses import fields
from pathlib import Path

import orjson

from trajtui.core.jsonl.table import EMPTY, PROBLEM, RUN, CountRow, SummaryTable
from trajtui.core.model import Outcome, Problem, RunSummary


def _refs(i: int) -> str:
    return f"r{i}"


def test_every_field_comes_back_as_it_was_put() -> None:
    table = SummaryTable(_refs)
    odd = RunSummary(
        ref="r3#2",  # not what the source would call row 3
        index=3,
        format="acp-capture",
        status="timeout",
        outcome=Outcome.TIMEOUT,
        steps=10**400,  # a 401-digit integer stays exact
        tool_errors=True,
        failed_tool_calls=0,
        tool_calls=2**60,
        duration_ms=-0.0,
        duration_label="sum of 5 trials",
        score=float("nan"),
        score_label="score",
        passed=False,
        attempts=True,  # a flag where a count was expected stays a flag
        graded=None,
        passes=5,
        file_metrics=(("passRate", 0.5),),
        cost=float("inf"),
        title="Use ydc-server and answer",
        line=9,
    )
    plain = RunSummary(ref="r0", index=0, format="acp-capture", status="done", outcome=Outcome.PASS)
    table.put(3, odd)
    table.put(0, plain)
    back = table.get(3)
    assert isinstance(back, RunSummary)
    assert isinstance(back.score, float) and math.isnan(back.score)
    for name in (f.name for f in fields(RunSummary) if f.name != "score"):
        want, got = getattr(odd, name), getattr(back, name)
        assert (type(got), got) == (type(want), want), name
    assert back.duration_ms is not None and math.copysign(1.0, back.duration_ms) == -1.0
    assert table.get(0) == plain
    assert table.get(1) is None and table.kind(1) == EMPTY  # not read yet
    assert (table.kind(0), table.kind(3)) == (RUN, RUN)
    assert table.value(3, "ref") == "r3#2" and table.value(0, "ref") == "r0"
    assert table.value(3, "steps") == 10**400 and table.value(3, "status") == "timeout"
    assert table.outcome(3) is Outcome.TIMEOUT
    # the row as the run list's counts read it: the same values, exactly
    counted = table.count_row(3)
    assert isinstance(counted, CountRow) and counted.ref == "r3#2"
    for name in (name for name in CountRow._fields if name != "score"):
        want, got = getattr(odd, name), getattr(counted, name)
        assert (type(got), got) == (type(want), want), name
    assert counted.score is not None and math.isnan(counted.score)
    assert table.count_row(0) == (
        "r0",
        "",
        "done",
        Outcome.PASS,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
    )
    assert table.count_row(1) is None


def test_problems_and_forgotten_rows() -> None:
    table = SummaryTable(_refs)
    problem = Problem("f.jsonl", 7, "invalid JSON")
    table.put(1, problem)
    table.put(2, RunSummary(ref="r2", index=2, format="f", status="x", outcome=Outcome.NONE))
    assert table.get(1) is problem and table.kind(1) == PROBLEM
    assert table.count_row(1) is problem
    table.forget(2)
    assert table.get(2) is None and table.kind(2) == EMPTY
    table.put(1, RunSummary(ref="r1", index=1, format="f", status="ok", outcome=Outcome.DONE))
    assert table.kind(1) == RUN  # a problem row read again as a run
    assert len(table) == 3


def test_the_run_list_sorts_and_filters_a_big_file_by_its_columns(tmp_path: Path) -> None:
    """Through the source's columns: numbers the parser accepts (1e999, 31-digit integers)
    sort among the others, runs without a score last, and the filter sees every row."""
    from tests.formats.acp.builders import capture
    from tests.helpers.workspace import open_paths
    from trajtui.ui.store import RunStore

    scores = {"a": 0.5, "b": None, "c": "1e999", "d": "1" + "0" * 30, "e": -2, "f": 0.25}
    lines = []
    for rid, score in scores.items():
        rec = capture(
            rid,
            input=f"question {rid}",
            score=None if score is None else {"pass": True, "score": 0},
        )
        line = orjson.dumps(rec).decode()
        if score is not None:
            line = line.replace('"score":0', f'"score":{score}')
        lines.append(line)
    (tmp_path / "big.jsonl").write_text("\n".join(lines) + "\n")
    ws = open_paths([str(tmp_path / "big.jsonl")])
    for _ in ws.scan():
        pass
    source = ws.sources[0]
    for i in range(len(source)):
        source.entry(i)
    store = RunStore(ws)
    store.count_new()

    def refs() -> list[str]:
        return [source.row_value(row[2], "ref") for row in store.rows]

    assert refs() == ["a", "b", "c", "d", "e", "f"]
    store.set_sort("score")
    assert refs() == ["e", "f", "a", "d", "c", "b"]
    store.set_sort("score", reverse=True)
    assert refs() == ["c", "d", "a", "f", "e", "b"]
    store.set_filter("question d")
    assert refs() == ["d"]
    store.set_filter("zzz")
    assert refs() == []
