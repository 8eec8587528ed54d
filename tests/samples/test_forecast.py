"""Conformance: every forecast-agent sample is recognised and read in full.

The samples live outside the repository (see :mod:`tests.samples.locate`). Which runs each eval
directory lists, in which order, with which status, score and number of steps, was read by
hand (``jq`` over ``summary.json``, ``info.json`` and ``trajectory.json``); each run's steps,
messages and sources are compared with the keys its files hold.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.formats.forecast.builders import board_of, call_of, pool_of
from tests.helpers.workspace import open_paths
from tests.samples.locate import require
from trajtui.core.model import RunSummary
from trajtui.core.workspace import Workspace
from trajtui.formats import forecast
from trajtui.formats.forecast.detail import forecast_run
from trajtui.formats.forecast.steps import step_context

FORECAST = require("forecast-agent")
GENERATED = FORECAST / "generated_by_upstream_code"

LEGACY = "v0.1.4_batch_legacy_no_sources"
SKIP = "v0.1.6_eval_cost_limit_skip"
MIXED = "v0.1.6_eval_mixed_statuses"

# eval directory -> its runs as listed: (reference, status, steps, brier score). The order
# is summary.json's; a run summary.json lists but that has no directory has no steps.
EVALS: dict[str, list[tuple[str, str, int | None, float | None]]] = {
    LEGACY: [
        ("fed-march-2026", "submitted", 7, 0.0484),
        ("nba-finals-2026", "submitted", 5, None),
        ("stadium-bond", "LimitsExceeded", 12, None),
        ("temp-record-2026", "ContextWindowExceededError", 1, None),
    ],
    SKIP: [
        ("btc-150k", "submitted", 2, 0.12249999999999998),
        ("fed-march-2026-b", "skipped_cost_limit", None, None),
    ],
    MIXED: [
        ("fed-march-2026", "submitted", 7, 0.0484),
        ("nba-finals-2026", "submitted", 5, None),
        ("stadium-bond", "LimitsExceeded", 12, None),
        ("temp-record-2026", "ContextWindowExceededError", 1, None),
        ("hurricanes-2026", "BatchRunTimeoutError", None, None),
    ],
}

# run directory -> (exit status, steps, messages, cost_stats.total_cost)
RUN_DIRS: dict[str, tuple[str, int, int, float]] = {
    f"{LEGACY}/fed-march-2026": ("submitted", 7, 25, 0.012877),
    f"{LEGACY}/nba-finals-2026": ("submitted", 5, 19, 0.0070550000000000005),
    f"{LEGACY}/stadium-bond": ("LimitsExceeded", 12, 45, 0.054931999999999995),
    f"{LEGACY}/temp-record-2026": ("ContextWindowExceededError", 1, 4, 0.005411),
    f"{SKIP}/btc-150k": ("submitted", 2, 7, 0.066611),
    f"{MIXED}/fed-march-2026": ("submitted", 7, 23, 0.012877),
    f"{MIXED}/nba-finals-2026": ("submitted", 5, 17, 0.0070550000000000005),
    f"{MIXED}/stadium-bond": ("LimitsExceeded", 12, 43, 0.054931999999999995),
    f"{MIXED}/temp-record-2026": ("ContextWindowExceededError", 1, 4, 0.005411),
}


def read(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def scanned(path: Path) -> Workspace:
    ws = open_paths([str(path)])
    for _ in ws.scan():
        pass
    return ws


def test_the_facts_cover_every_sample() -> None:
    assert sorted(p.parent.name for p in GENERATED.rglob("summary.json")) == sorted(EVALS)
    found = sorted(
        f"{p.parent.parent.parent.name}/{p.parent.name}" for p in GENERATED.rglob("info.json")
    )
    assert found == sorted(RUN_DIRS)


def check_run(ws: Workspace, ref: str, run_dir: Path) -> None:
    """Every step, message and source of one run matches its files and resolves."""
    traj = read(run_dir / "trajectory.json")
    target = ws.resolve(ref)
    run = target.source.run(target.index)
    assert run.problems == ()
    assert [(list(call_of(s).input_keys), call_of(s).output_key) for s in run.steps] == [
        (s["input"], s["output"]) for s in traj["steps"]
    ]
    assert [s.number for s in run.steps] == list(range(1, len(traj["steps"]) + 1))
    for step in run.steps:
        assert ws.resolve(step.ref).step == step.number
        context = step_context(run, step.number)
        assert context is not None and None not in context.messages
    assert forecast_run(run).pool is not None
    assert pool_of(run).keys() == [m["key"] for m in traj["messages"]]
    for item in traj["messages"]:
        message = pool_of(run).get(item["key"])
        assert message is not None and message.role == item["message"]["role"]
        assert ws.resolve(f"{ref}/msg:{item['key']}").segment == ("msg", item["key"])
    sources_path = run_dir / "sources.json"
    if sources_path.exists():
        payload = read(sources_path)
        assert forecast_run(run).board is not None
        assert board_of(run).board_source_ids() == list(payload["sources"])
        assert len(board_of(run).entries) == len(payload["source_board"])
        for sid in payload["sources"]:
            assert ws.resolve(f"{ref}/src:{sid}").segment == ("src", sid)
    else:
        board = read(run_dir / "info.json").get("board")
        assert (
            forecast_run(run).board is not None
            if board is not None
            else forecast_run(run).board is None
        )


@pytest.mark.parametrize("name", sorted(EVALS))
def test_eval_sample_is_read_whole(name: str) -> None:
    root = GENERATED / name
    ws = scanned(root)
    assert len(ws.sources) == 1, ws.problems
    (source,) = ws.sources
    assert source.format == forecast.EVAL
    assert source.problems() == []
    rows = [source.entry(i) for i in range(len(source))]
    assert all(isinstance(r, RunSummary) for r in rows)
    got = [(r.ref, r.status, r.steps, r.score) for r in rows if isinstance(r, RunSummary)]
    assert got == EVALS[name]
    for row in rows:
        assert isinstance(row, RunSummary)
        assert row.score_label == ("brier" if row.score is not None else None)
        if row.steps is not None:
            check_run(ws, row.ref, root / "runs" / row.ref)
        else:
            run = source.run(row.index)
            assert run.steps == () and forecast_run(run).pool is None
    fed = rows[0]
    assert isinstance(fed, RunSummary) and fed.title == (
        "Will the Federal Reserve cut the federal funds rate at its March 2026 FOMC meeting?"
        if name != SKIP
        else "Will Bitcoin close above $150,000 on December 31, 2026?"
    )


@pytest.mark.parametrize("name", sorted(RUN_DIRS))
def test_run_dir_sample_opens_alone(name: str) -> None:
    run_dir = GENERATED / name.split("/")[0] / "runs" / name.split("/")[1]
    status, steps, messages, cost = RUN_DIRS[name]
    for path in (run_dir, run_dir / "trajectory.json"):
        ws = scanned(path)
        assert len(ws.sources) == 1, ws.problems
        (source,) = ws.sources
        assert source.format == forecast.RUN and source.problems() == []
        (row,) = [source.entry(i) for i in range(len(source))]
        assert isinstance(row, RunSummary)
        assert (row.ref, row.status, row.steps, row.cost) == (run_dir.name, status, steps, cost)
        run = source.run(0)
        assert forecast_run(run).pool is not None and len(pool_of(run).keys()) == messages
    ws = scanned(run_dir)
    assert ws.resolve("step-1").ref == f"{run_dir.name}/step-1"
    check_run(ws, run_dir.name, run_dir)


def test_every_sample_file_was_considered() -> None:
    ws = scanned(FORECAST)
    assert sorted(Path(s.path).name for s in ws.sources) == sorted(EVALS)
    assert {s.format for s in ws.sources} == {forecast.EVAL}
    # the batch job *input* file is not an output: it is looked at and not recognised
    assert sorted(Path(p).name for p, _ in ws.ignored) == [
        "SOURCES.txt",
        "example_batch_job.input.jsonl",
    ]
