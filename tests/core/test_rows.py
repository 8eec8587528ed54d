"""The one row pipeline (:mod:`trajtui.core.rows`): every row of every source in file
order, problems included, as the scan finds them; decoded on every core or read in place,
the same rows; what is kept is what was asked; a source that fails is one line and the
next is still read."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.formats.acp.builders import capture, write_jsonl
from tests.helpers.workspace import open_paths
from trajtui.core.model import Problem, RunSummary
from trajtui.core.rows import KEEP_ALL, SourceRows, read_rows
from trajtui.core.source import Entry, Source


def _capture(directory: Path, n: int = 10, broken_at: int = 4) -> Path:
    records = [capture(f"r{k}") for k in range(n)]
    return write_jsonl(directory / "c.jsonl", records, raw_lines={broken_at: b'{"id": "half'})


def _shown(entry: Entry) -> str:
    return f"line {entry.line}" if isinstance(entry, Problem) else entry.ref


@pytest.mark.parametrize("parallel", [False, True])
def test_every_row_in_file_order_problems_included(
    tmp_path: Path, parallel: bool, request: pytest.FixtureRequest
) -> None:
    if parallel:
        request.getfixturevalue("workers")
    ws = open_paths([str(_capture(tmp_path))])
    got = [_shown(e) for _, e in read_rows(ws.sources)]
    ws.close()
    assert got == ["r0", "r1", "r2", "r3", "line 5", "r4", "r5", "r6", "r7", "r8", "r9"]


def test_every_kind_of_source_and_every_source_in_turn(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = _capture(tmp_path / "a", 2, 1)
    second = write_jsonl(tmp_path / "b" / "c.jsonl", [capture("x")])
    ws = open_paths([str(first), str(second)])
    got = [(s.path, _shown(e)) for s, e in read_rows(ws.sources)]
    ws.close()
    assert [r for _, r in got] == ["r0", "line 2", "r1", "x"]
    assert [p for p, _ in got] == [str(first)] * 3 + [str(second)]


def test_rows_are_kept_only_below_keep(tmp_path: Path) -> None:
    ws = open_paths([str(write_jsonl(tmp_path / "c.jsonl", [capture(f"r{k}") for k in range(6)]))])
    (source,) = ws.sources
    assert len(list(read_rows(ws.sources, keep=2))) == 6
    assert [source.peek(i) is not None for i in range(6)] == [True, True] + [False] * 4
    ws.close()


def test_known_rows_are_skipped_when_asked(tmp_path: Path) -> None:
    ws = open_paths([str(write_jsonl(tmp_path / "c.jsonl", [capture(f"r{k}") for k in range(6)]))])
    (source,) = ws.sources
    assert len(list(read_rows(ws.sources, keep=KEEP_ALL))) == 6
    rows = SourceRows(source, skip_known=True)
    for _ in rows.scan():
        pass
    assert list(rows.read()) == []
    assert rows.done == 6
    ws.close()


def test_a_source_that_fails_is_one_line_and_the_next_is_read(tmp_path: Path) -> None:
    class Failing(Source):
        path = "gone.jsonl"
        label = "gone"

        def __len__(self) -> int:
            return 0

        def scan(self) -> Iterator[object]:  # type: ignore[override]
            yield from ()
            raise OSError(5, os.strerror(5))

        def entry(self, i: int, *, keep: bool = True) -> Entry:
            raise AssertionError

        def _make_run(self, i: int, entry: RunSummary) -> object:  # type: ignore[override]
            raise AssertionError

        def find(self, run_ref: str) -> int | None:
            return None

        def run_refs(self) -> list[str]:
            return []

        def problems(self) -> list[Problem]:
            return []

    ws = open_paths([str(write_jsonl(tmp_path / "c.jsonl", [capture("x")]))])
    said: list[str] = []
    got = [_shown(e) for _, e in read_rows([Failing(), *ws.sources], say=said.append)]
    ws.close()
    assert said == [f"gone.jsonl: {os.strerror(5)}"]
    assert got == ["x"]


def test_stopped_ends_reading(tmp_path: Path) -> None:
    ws = open_paths([str(write_jsonl(tmp_path / "c.jsonl", [capture(f"r{k}") for k in range(6)]))])
    assert list(read_rows(ws.sources, stopped=lambda: True)) == []
    ws.close()
