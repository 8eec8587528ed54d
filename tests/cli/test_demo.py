"""The demo data bundled with trajtui (``trajtui --demo``, ``make run``, README screenshots).

Every format is there with the runs it was built with, the only problem is the deliberate
half-written last line of the acp capture, and the references the README and screenshots use
resolve. The data is invented (see trajtui/demo/__init__.py); this test pins what it shows.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.formats.forecast.builders import board_of, call_of, pool_of
from tests.helpers.workspace import open_paths
from trajtui.core.model import Problem, Run, RunSummary
from trajtui.core.source import Source
from trajtui.core.workspace import Workspace
from trajtui.demo import DATA, demo_paths
from trajtui.formats.eval_results.detail import confusion
from trajtui.formats.forecast.detail import forecast_run
from trajtui.formats.ultraplan import UltraplanSource, Verdict

RUNS = {
    "acp-capture": 12,
    "acp-trials": 3,
    "forecast-eval": 4,
    "ultraplan": 2,
    "eval-results": 5,
}
"""Runs listed per format (the acp capture also lists one problem row)."""

MARATHON = "forecast-eval::marathon-record-2027"
TIDEWATER = "forecast-eval::tidewater-2-0-release"
RAINFALL = "forecast-eval::harlow-rainfall-q2-2027"
FERRY = "forecast-eval::port-easton-ferry-fare"
DIRECT = "results::20260203_094512_G1_allergy_V2"
RLM = "results::20260203_112037_G1_allergy_V2"
LEGACY = "results::20260130_151208_allergy_test"
BASELINE = "results::run_20260128_172240"
PLAN_OK = "ultraplan-project::04-01"
PLAN_MIXED = "ultraplan-project::04-02"
DEV = DATA / "eval-results" / "results" / "dev"


@pytest.fixture(scope="module")
def ws() -> Iterator[Workspace]:
    workspace = open_paths(demo_paths())
    for _ in workspace.scan():
        pass
    yield workspace
    workspace.close()


def entries(source: Source) -> list[RunSummary | Problem]:
    return [source.entry(i) for i in range(len(source))]


def statuses(source: Source) -> dict[str, tuple[str | None, int | None]]:
    """Every row of ``source`` (each one a run): reference -> (status, steps)."""
    out = {}
    for e in entries(source):
        assert isinstance(e, RunSummary), e
        out[e.ref] = (e.status, e.steps)
    return out


def source_of(ws: Workspace, fmt: str) -> Source:
    (found,) = [s for s in ws.sources if s.format.id == fmt]
    return found


def run(ws: Workspace, ref: str) -> Run:
    target = ws.resolve(ref)
    return target.source.run(target.index)


def business_id(run_dir: str, name: str) -> str:
    doc = json.loads((DEV / run_dir / "results.json").read_text(encoding="utf-8"))
    (found,) = [s["business_id"] for s in doc["results"] if s["name"] == name]
    return found


def test_one_entry_per_format() -> None:
    assert [Path(p).name for p in demo_paths()] == [
        "acp",
        "eval-results",
        "forecast-eval",
        "ultraplan-project",
    ]


def test_every_format_with_its_runs(ws: Workspace) -> None:
    counts: Counter[str] = Counter()
    for source in ws.sources:
        counts[source.format.id] += sum(isinstance(e, RunSummary) for e in entries(source))
    assert dict(counts) == RUNS
    assert ws.problems == []


def test_only_the_deliberate_problems(ws: Workspace) -> None:
    for source in ws.sources:
        entries(source)  # problems of JSON Lines records are found as they are read
    problems = [p for s in ws.sources for p in s.problems()]
    assert [(Path(p.path).name, p.line) for p in problems] == [("websearch-capture.jsonl", 10)]
    assert "ends early" in problems[0].message


@pytest.mark.parametrize(
    ("ref", "kind"),
    [
        ("websearch-capture.jsonl::websearch-17-step-5", "step"),
        ("websearch-trials.jsonl::search-102/trial-2", "trial"),
        (MARATHON, "run"),
        (f"{MARATHON}/step-3", "step"),
        (f"{MARATHON}/msg:A2", "message"),
        (f"{MARATHON}/src:S3", "source"),
        (f"{TIDEWATER}/step-2", "step"),
        (FERRY, "run"),
        (DIRECT, "run"),
        (f"{PLAN_MIXED}/step-2", "step"),
        (f"{PLAN_MIXED}/step-4", "step"),
    ],
)
def test_references_resolve(ws: Workspace, ref: str, kind: str) -> None:
    target = ws.resolve(ref)
    assert target.kind == kind
    assert ws.ref(target.source, target.ref) == ref


def test_eval_sample_references(ws: Workspace) -> None:
    bid = business_id("20260203_094512_G1_allergy_V2", "Nonna Lucia's Trattoria")
    target = ws.resolve(f"{DIRECT}/{bid}")
    assert target.kind == "step" and target.step is not None
    step = run(ws, DIRECT).steps[target.step - 1]
    assert step.stored_id == bid
    failed = business_id("20260203_112037_G1_allergy_V2", "Blue Heron Noodle Bar")
    assert ws.resolve(f"{RLM}/{failed}").step == 3


def test_forecast_runs(ws: Workspace) -> None:
    assert statuses(source_of(ws, "forecast-eval")) == {
        "marathon-record-2027": ("submitted", 8),
        "tidewater-2-0-release": ("submitted", 6),
        "harlow-rainfall-q2-2027": ("LimitsExceeded", 8),
        "port-easton-ferry-fare": ("BatchRunTimeoutError", None),
    }
    marathon = run(ws, MARATHON)
    assert marathon.summary.score == pytest.approx(0.0784)
    assert forecast_run(marathon).pool is not None and forecast_run(marathon).board is not None
    a2 = pool_of(marathon).get("A2")
    assert a2 is not None and a2.cited() == ["S3", "S2"]
    assert [e.source_id for e in board_of(marathon).entries] == ["S1", "S3", "S5", "S6"]
    messages = [m for m in pool_of(marathon).messages(pool_of(marathon).keys()) if m is not None]
    tools = {c.name for m in messages if m.role == "assistant" for c in m.tool_calls}
    assert tools == {"search", "add_source", "edit_note", "submit"}
    assert [m.key for m in messages if m.is_truncation_notice] == ["U1"]
    assert "U1" in call_of(marathon.steps[-1]).input_keys
    assert sum(m.is_board_state for m in messages) == len(marathon.steps)

    tidewater = run(ws, TIDEWATER)
    assert forecast_run(tidewater).pool is not None
    errors = [n for n, s in enumerate(tidewater.steps, 1) if s.error is not None]
    assert errors == [3, 5]  # a bad source id, then a submission missing an outcome
    step_2 = pool_of(tidewater).messages(call_of(tidewater.steps[1]).input_keys)
    assert any(m is not None and m.is_format_error for m in step_2)
    rainfall = run(ws, RAINFALL)
    assert rainfall.steps[5].error is not None and "Search limit" in rainfall.steps[5].error


def test_eval_runs(ws: Workspace) -> None:
    assert statuses(source_of(ws, "eval-results")) == {
        "run_20260128_172240": ("graded", 4),
        "20260130_151208_allergy_test": ("ungraded", 3),
        "20260203_094512_G1_allergy_V2": ("graded", 8),
        "20260203_112037_G1_allergy_V2": ("partial", 5),
        "20260203_140358_G1_allergy_V2": ("graded", 4),
    }
    table = confusion(run(ws, DIRECT))
    low, high, critical = "Low Risk", "High Risk", "Critical Risk"
    assert dict(table.counts) == {
        (low, low): 3,
        (low, high): 1,
        (high, low): 1,
        (high, high): 1,
        (critical, high): 1,
        (critical, critical): 1,
    }
    rlm = confusion(run(ws, RLM))
    assert rlm.count(None, None) == 2  # the failed sample and the parse error
    assert run(ws, LEGACY).summary.cost is not None
    assert run(ws, BASELINE).summary.score == 0.75


def test_ultraplan_plans_and_validation(ws: Workspace) -> None:
    source = source_of(ws, "ultraplan")
    assert statuses(source) == {
        "04-01": ("success", 3),
        "04-02": ("invalid", 5),
    }  # task 3 is INVALID
    assert isinstance(source, UltraplanSource)
    verdicts = {Path(r.path).name: (r.ref, r.judgement.verdict) for r in source.reports()}
    assert Counter(v for _, v in verdicts.values()) == {
        Verdict.VALID: 6,
        Verdict.INVALID: 1,
        Verdict.VALID_WITH_WARNINGS: 1,
    }
    assert verdicts["04-02-task-03-success.yaml"] == ("04-02/step-4", Verdict.INVALID)
    assert verdicts["04-02-task-04-success.yaml"][1] is Verdict.VALID_WITH_WARNINGS
    labels = {f.label.split(" (")[0] for f in run(ws, PLAN_MIXED).fields}
    assert {"architect verdict", "session", "retry log", "success criteria"} <= labels
    assert not {"architect verdict", "session"} & {
        f.label.split(" (")[0] for f in run(ws, PLAN_OK).fields
    }
