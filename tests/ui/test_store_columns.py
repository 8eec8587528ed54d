"""Sorting and filtering read whole columns (at C speed) and give exactly the rows the
run-by-run way gives: checked on two sources of varied runs, every column, both ways."""

from __future__ import annotations

import json
import random
from array import array
from pathlib import Path

import pytest

from tests.formats.acp.builders import capture
from tests.helpers.workspace import open_paths
from trajtui.core.workspace import Workspace
from trajtui.ui import run_sort
from trajtui.ui.run_sort import NUMERIC_SORTS
from trajtui.ui.store import ENTRY, HEADER, SORT_CYCLE, Filter, RunStore


def _record(rng: random.Random, n: int) -> dict[str, object]:
    score: object = rng.choice([None, 0.0, 0.5, 1.0, rng.random(), 7, -1.5])
    rec: dict[str, object] = {
        "id": f"run-{rng.choice(['a', 'b', 'web'])}-{n:03d}",
        "input": rng.choice(["Find the CEO", "Use the table layout", "Compare prices", ""]),
        "trajectory": [
            {"type": "tool_call", "status": rng.choice(["completed", "failed"])}
            for _ in range(rng.randrange(4))
        ],
        "toolErrors": rng.choice([True, False]),
    }
    if rng.random() < 0.8:
        rec["timing"] = {"start": 0, "end": rng.choice([5, 5, 10, 1000, 0])}
    if score is not None:
        rec["score"] = {"pass": rng.random() < 0.5, "score": score}
    if rng.random() < 0.2:
        rec["metadata"] = {"timedOut": True}
    return rec


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    rng = random.Random(7)
    paths = []
    for name in ("one", "two"):
        path = tmp_path / f"{name}.jsonl"
        lines = [json.dumps(_record(rng, n)) for n in range(120)]
        lines.insert(17, "{not json")  # a problem row among the runs
        path.write_text("\n".join(lines) + "\n")
        paths.append(str(path))
    opened = open_paths(paths)
    for source in opened.sources:
        for _ in source.scan():
            pass
        for i in range(len(source)):
            source.entry(i)
    return opened


def _rows(store: RunStore, sort: str | None, reverse: bool, filt: Filter) -> list[tuple[int, ...]]:
    layout = store.plan(sort, reverse, filt)
    assert layout is not None
    return [tuple(row) for row in layout.rows]


COLUMNS = [c for c in SORT_CYCLE if c is not None] + ["tool calls"]


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("column", COLUMNS)
def test_sorting_by_column_gives_the_rows_of_sorting_run_by_run(
    ws: Workspace, column: str, reverse: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = RunStore(ws)
    store.count_new()
    fast = _rows(store, column, reverse, Filter())
    monkeypatch.setattr(run_sort, "_sorted_by_column", lambda *a, **k: None)
    slow = _rows(store, column, reverse, Filter())
    assert fast == slow
    assert len(fast) > 200


def test_the_numeric_sorts_are_taken_from_the_columns(ws: Workspace) -> None:
    runs = [
        (s, array("q", source.table.run_rows(len(source)))) for s, source in enumerate(ws.sources)
    ]
    for column in [*NUMERIC_SORTS, "ref"]:
        assert run_sort._sorted_by_column(ws.sources, runs, column, False) is not None, column


@pytest.mark.parametrize(
    "text",
    ["web", "find -ceo", "status:fail", "is:timeout web", "s:pass -table", "is:problem", "zzz"],
)
def test_filtering_by_column_gives_the_rows_of_filtering_run_by_run(
    ws: Workspace, text: str
) -> None:
    store = RunStore(ws)
    store.count_new()
    filt = Filter.parse(text)
    rows = _rows(store, None, False, filt)
    expected: list[tuple[int, ...]] = []
    for s, source in enumerate(ws.sources):
        shown = []
        for i in range(len(source)):
            entry = source.peek(i)
            assert entry is not None
            if filt.accepts(entry, source.label):
                shown.append((ENTRY, s, i))
        if shown:
            expected += [(HEADER, s, -1), *shown]  # the source's header, then its rows
    assert rows == expected


def test_reference_column_fits_the_first_refs_before_any_row_is_counted(tmp_path: Path) -> None:
    """The first screen of a big file shows rows before they are counted: the reference
    column must already be as wide as their references (it was 6 cells: ``short…``)."""
    path = tmp_path / "long-refs.jsonl"
    refs = [f"a-rather-long-reference-{n:04d}" for n in range(40)]
    path.write_text("".join(json.dumps(capture(r)) + "\n" for r in refs))
    opened = open_paths([str(path)])
    for _ in opened.sources[0].scan():
        pass
    store = RunStore(opened)  # nothing read or counted yet
    _, ref_width = store.widths()
    assert ref_width == len(refs[0])
