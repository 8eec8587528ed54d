"""Conformance: every forecast-agent sample is recognised and read in full.

The samples live outside the repository (``../shared/samples``, or ``$TRAJTUI_SAMPLES``).
Expectations are computed here independently, with the standard json module, from the same
files: which runs summary.json lists (and which run directories exist), each run's status,
score and number of steps, every step's input and output keys, every message key and every
source id.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from trajtui.core.formats import forecast
from trajtui.core.model import RunSummary
from trajtui.core.workspace import Workspace, open_paths

SAMPLES = Path(
    os.environ.get("TRAJTUI_SAMPLES", Path(__file__).resolve().parents[2] / "shared" / "samples")
)
FORECAST = SAMPLES / "forecast-agent"

pytestmark = pytest.mark.skipif(not FORECAST.is_dir(), reason=f"no samples at {FORECAST}")


def eval_dirs() -> list[Path]:
    if not FORECAST.is_dir():
        return []
    return sorted(p.parent for p in FORECAST.rglob("summary.json"))


def run_dirs() -> list[Path]:
    if not FORECAST.is_dir():
        return []
    return sorted(p.parent for p in FORECAST.rglob("trajectory.json"))


def read(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def scanned(path: Path) -> Workspace:
    ws = open_paths([str(path)])
    for _ in ws.scan():
        pass
    return ws


def expected_runs(root: Path) -> list[dict[str, Any]]:
    """What summary.json lists, plus run directories it does not list, in that order."""
    summary = read(root / "summary.json")
    rows = []
    listed = set()
    for entry in summary["runs"]:
        rid = entry.get("run_id", entry.get("task_id"))
        run_dir = root / (entry.get("output_dir") or f"runs/{rid}")
        listed.add(run_dir.resolve())
        rows.append({"ref": rid, "entry": entry, "dir": run_dir if run_dir.is_dir() else None})
    for run_dir in sorted((root / "runs").iterdir()) if (root / "runs").is_dir() else []:
        if run_dir.is_dir() and run_dir.resolve() not in listed:
            rows.append({"ref": run_dir.name, "entry": None, "dir": run_dir})
    return rows


def expected_status(entry: dict[str, Any] | None, run_dir: Path | None) -> str | None:
    if entry is not None and entry.get("status") not in (None, "", "pending"):
        return entry["status"]
    if run_dir is not None:
        return read(run_dir / "info.json").get("exit_status") or None
    return None


def check_run(ws: Workspace, ref: str, run_dir: Path) -> None:
    """Every step, message and source of one run matches its files and resolves."""
    traj = read(run_dir / "trajectory.json")
    target = ws.resolve(ref)
    run = target.source.run(target.index)
    assert run.problems == ()
    assert [(list(s.input_keys), s.output_key) for s in run.steps] == [
        (s["input"], s["output"]) for s in traj["steps"]
    ]
    assert [s.number for s in run.steps] == list(range(1, len(traj["steps"]) + 1))
    for step in run.steps:
        assert ws.resolve(step.ref).step == step.number
        context = forecast.step_context(run, step.number)
        assert context is not None and None not in context.messages
    assert run.pool is not None
    assert run.pool.keys() == [m["key"] for m in traj["messages"]]
    for item in traj["messages"]:
        message = run.pool.get(item["key"])
        assert message is not None and message.role == item["message"]["role"]
        assert ws.resolve(f"{ref}/msg:{item['key']}").message == item["key"]
    sources_path = run_dir / "sources.json"
    if sources_path.exists():
        payload = read(sources_path)
        assert run.board is not None
        assert run.board.source_ids() == list(payload["sources"])
        assert len(run.board.entries) == len(payload["source_board"])
        for sid in payload["sources"]:
            assert ws.resolve(f"{ref}/src:{sid}").board_source == sid
    else:
        board = read(run_dir / "info.json").get("board")
        assert run.board is not None if board is not None else run.board is None


@pytest.mark.parametrize("root", eval_dirs(), ids=lambda p: p.name)
def test_eval_sample_is_read_whole(root: Path) -> None:
    want = expected_runs(root)
    ws = scanned(root)
    assert len(ws.sources) == 1, ws.problems
    (source,) = ws.sources
    assert source.format == forecast.EVAL
    assert source.problems() == []
    got = [source.entry(i) for i in range(len(source))]
    assert all(isinstance(g, RunSummary) for g in got)
    rows = [g for g in got if isinstance(g, RunSummary)]
    assert [r.ref for r in rows] == [w["ref"] for w in want]
    for row, w in zip(rows, want, strict=True):
        steps = len(read(w["dir"] / "trajectory.json")["steps"]) if w["dir"] else None
        assert row.steps == steps, row.ref
        assert row.status == expected_status(w["entry"], w["dir"]), row.ref
        brier = ((w["entry"] or {}).get("evaluation") or {}).get("brier_score")
        assert row.score == brier and row.score_label == ("brier" if brier is not None else None)
        if w["entry"] is not None:
            assert row.title == w["entry"]["title"]
        if w["dir"] is not None:
            check_run(ws, row.ref, w["dir"])
        else:
            run = source.run(row.index)
            assert run.steps == () and run.pool is None


@pytest.mark.parametrize("run_dir", run_dirs(), ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_run_dir_sample_opens_alone(run_dir: Path) -> None:
    traj = read(run_dir / "trajectory.json")
    info = read(run_dir / "info.json")
    for path in (run_dir, run_dir / "trajectory.json"):
        ws = scanned(path)
        assert len(ws.sources) == 1, ws.problems
        (source,) = ws.sources
        assert source.format == forecast.RUN and source.problems() == []
        (row,) = [source.entry(i) for i in range(len(source))]
        assert isinstance(row, RunSummary)
        assert (row.ref, row.steps) == (run_dir.name, len(traj["steps"]))
        assert row.status == (info["exit_status"] or None)
        assert row.cost == info["cost_stats"]["total_cost"]
    ws = scanned(run_dir)
    assert ws.resolve("step-1").ref == f"{run_dir.name}/step-1"
    check_run(ws, run_dir.name, run_dir)


def test_every_sample_file_was_considered() -> None:
    evals = eval_dirs()
    assert len(evals) >= 3
    ws = scanned(FORECAST)
    assert sorted(s.path for s in ws.sources) == sorted(str(p) for p in evals)
    assert {s.format for s in ws.sources} == {forecast.EVAL}
    # the batch job *input* file is not an output: it is looked at and not recognised
    assert sorted(Path(p).name for p, _ in ws.ignored) == [
        "SOURCES.txt",
        "example_batch_job.input.jsonl",
    ]
