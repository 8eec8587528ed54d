"""The engine of one-run files (core/jsonl/session.py), with a toy format: each line
``{"t": "say", "text": ...}`` is a step, ``{"t": "call", "id": ...}`` a step whose result
is the later line ``{"t": "result", "id": ..., "ok": ...}``, anything else no step."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import orjson
import pytest

from trajtui.core.jsonl import indexcache, lazysteps
from trajtui.core.jsonl.session import Line, SessionSource, SessionState, StepRow
from trajtui.core.model import Kind, Outcome, Run, RunSummary, Step
from trajtui.core.source import FormatInfo

TOY = FormatInfo("toy-session", "toy session")


class ToyFold:
    def __init__(self) -> None:
        self.lines = 0
        self.calls: dict[str, int] = {}
        self.failed = 0
        self.title = ""

    def add(self, line: Line, state: SessionState) -> None:
        self.lines += 1
        try:
            obj = orjson.loads(line.data)
        except orjson.JSONDecodeError:
            state.problem(line.number, "not JSON")
            return
        if not isinstance(obj, dict):
            return
        t = obj.get("t")
        if t == "say":
            self.title = self.title or str(obj.get("text"))
            state.step(state.keep(line))
        elif t == "call":
            self.calls[str(obj.get("id"))] = state.step(state.keep(line))
        elif t == "result":
            at = self.calls.get(str(obj.get("id")))
            if at is not None:
                state.link(at, state.keep(line))
            if obj.get("ok") is False:
                self.failed += 1

    def summary(self, ref: str, partial: bool) -> RunSummary:
        return RunSummary(
            ref=ref,
            index=0,
            format=TOY.id,
            status="reading" if partial else "done",
            outcome=Outcome.RUNNING if partial else Outcome.DONE,
            tool_calls=len(self.calls),
            failed_tool_calls=self.failed,
            title=self.title,
            metadata=(("lines", str(self.lines)),),
        )


class ToyFormat:
    info = TOY

    def __init__(self) -> None:
        self.built = 0

    def fold(self, path: str) -> ToyFold:
        return ToyFold()

    def steps(self, ref: str, rows: Sequence[StepRow], read: Callable[[int], Any]) -> list[Step]:
        out = []
        for row in rows:
            self.built += 1
            obj = read(row.line) or {}
            result = read(row.link) if row.link >= 0 else None
            n = row.position + 1
            if obj.get("t") == "call":
                ok = None if result is None else result.get("ok")
                outcome = Outcome.NONE if ok is None else (Outcome.DONE if ok else Outcome.ERROR)
                out.append(
                    Step(
                        f"{ref}/step-{n}", n, Kind.TOOL_CALL, "call", outcome=outcome, tools=("x",)
                    )
                )
            else:
                out.append(Step(f"{ref}/step-{n}", n, Kind.MESSAGE, str(obj.get("text"))))
        return out

    def build(self, summary: RunSummary, steps: Sequence[Step], path: str) -> Run:
        return Run(summary=summary, steps=steps, path=path)


def _write(path: Path, objs: list[Any], tail: bytes = b"") -> None:
    path.write_bytes(b"".join(json.dumps(o).encode() + b"\n" for o in objs) + tail)


def _scan(src: SessionSource) -> None:
    for _ in src.scan():
        pass


@pytest.fixture(autouse=True)
def _no_cache() -> Any:
    indexcache.configure(enabled=False)
    yield
    indexcache.reset()


def test_a_file_is_one_run_its_lines_steps_and_results_linked(tmp_path: Path) -> None:
    p = tmp_path / "s.jsonl"
    _write(
        p,
        [
            {"t": "say", "text": "hello"},
            {"t": "noise"},
            {"t": "call", "id": "a"},
            {"t": "call", "id": "b"},
            {"t": "result", "id": "b", "ok": False},
            {"t": "result", "id": "a", "ok": True},
            {"t": "say", "text": "bye"},
        ],
    )
    src = SessionSource(str(p), ToyFormat(), "s")
    assert len(src) == 0  # nothing is listed before every line is read
    _scan(src)
    assert len(src) == 1 and src.complete
    summary = src.entry(0)
    assert isinstance(summary, RunSummary)
    assert (summary.ref, summary.title, summary.tool_calls, summary.failed_tool_calls) == (
        "s",
        "hello",
        2,
        1,
    )
    run = src.run(0)
    assert len(run.steps) == 4
    assert [s.title for s in run.steps] == ["hello", "call", "call", "bye"]
    assert [s.outcome for s in run.steps[1:3]] == [Outcome.DONE, Outcome.ERROR]
    assert run.steps[-1].ref == "s/step-4"
    assert src.resolve("s/step-3").step == 3


def test_steps_are_built_a_window_at_a_time_and_only_a_few_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lazysteps, "WINDOW", 4)
    monkeypatch.setattr(lazysteps, "WINDOWS_KEPT", 2)
    p = tmp_path / "s.jsonl"
    _write(p, [{"t": "say", "text": f"m{k}"} for k in range(40)])
    fmt = ToyFormat()
    src = SessionSource(str(p), fmt, "s")
    _scan(src)
    steps = src.run(0).steps
    assert steps[37].title == "m37"
    assert fmt.built == 4  # one window, not the 40 steps
    assert [s.title for s in steps][:3] == ["m0", "m1", "m2"]
    assert fmt.built == 44
    assert steps[37].title == "m37"  # among the last windows built: kept
    assert fmt.built == 44
    assert steps[5].title == "m5"  # its window was dropped: built again
    assert fmt.built == 48


def test_a_broken_line_is_its_problem_and_a_half_written_last_line_is_not_read(
    tmp_path: Path,
) -> None:
    p = tmp_path / "s.jsonl"
    _write(
        p, [{"t": "say", "text": "a"}], tail=b'{"t": "say"\n{"t": "say", "text": "b"}\n{"t": "sa'
    )
    src = SessionSource(str(p), ToyFormat(), "s")
    _scan(src)
    assert [str(x) for x in src.problems()] == [
        f"{p}:2: not JSON",
        f"{p}:4: truncated last line (no newline: still being written?): not read",
    ]
    assert len(src.run(0).steps) == 2
    # the writer finishes the line: read on from where the scan stopped
    with p.open("ab") as f:
        f.write(b'y", "text": "c"}\n')
    assert src.changed() == "appended"
    _scan(src)
    src.forget_cache()
    assert [s.title for s in src.run(0).steps] == ["a", "b", "c"]
    assert [x.line for x in src.problems()] == [2]
    row = src.partial()
    assert row is not None and dict(row.metadata)["lines"] == "4"


def test_the_second_open_of_an_unchanged_file_reads_only_the_index_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    indexcache.configure(enabled=True)
    p = tmp_path / "data" / "s.jsonl"
    p.parent.mkdir()
    _write(
        p,
        [
            {"t": "say", "text": "a"},
            {"t": "call", "id": "x"},
            {"t": "result", "id": "x", "ok": False},
            "oops",
        ],
    )
    p.write_bytes(p.read_bytes() + b"{bad\n")
    first = SessionSource(str(p), ToyFormat(), "s")
    _scan(first)
    assert first.save_index()
    second = SessionSource(str(p), ToyFormat(), "s")

    def no_fold(path: str) -> ToyFold:
        raise AssertionError("folded again")

    fmt = ToyFormat()
    second = SessionSource(str(p), fmt, "s")
    monkeypatch.setattr(fmt, "fold", no_fold, raising=False)
    _scan(second)
    assert second.entry(0) == first.entry(0)
    assert [str(x) for x in second.problems()] == [str(x) for x in first.problems()]
    assert [s.outcome for s in second.run(0).steps] == [Outcome.NONE, Outcome.ERROR]
