"""Conformance: every real eval-results sample of a supported shape is recognised and read in
full.

The samples live outside the repository (see :mod:`tests.samples.locate`). What the tree holds was
read by hand (``jq`` and ``SOURCES.txt``), not computed by code like trajtui's: which files
are runs, how many samples each has, whether they failed or were graded, the accuracy the
file states, and a few named samples' ids and verdicts.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.workspace import open_paths
from tests.samples.locate import require
from trajtui.core.model import Problem, RunSummary, Severity
from trajtui.core.source import Source
from trajtui.core.workspace import Workspace

EVAL = require("eval-results")
TREE = EVAL / "results"

V2 = "G1_allergy_V2"
# run reference -> (its file under results/, samples, status, accuracy shown).
# status: "error" when every sample has an "error"; "graded" when "total" > 0 or a sample has
# a gt_verdict; else "ungraded". The accuracy is none when the file graded nothing
# ("accuracy": 0 with "total": 0 is 0 of 0, not an accuracy of 0).
RUNS: dict[str, tuple[str, int, str, float | None]] = {
    "run_20260115_182234": ("baseline/G1a/run_20260115_182234.json", 1, "ungraded", None),
    "run_20260115_182323": ("baseline/G1a/run_20260115_182323.json", 5, "ungraded", None),
    "run_20260115_183109": ("baseline/G1a/run_20260115_183109.json", 5, "graded", 0.8),
    "run_20260115_183358": ("baseline/G1a/run_20260115_183358.json", 10, "graded", 0.9),
    "20260117_151712_allergy_test": (
        "dev/20260117_151712_allergy_test/results.jsonl",
        1,
        "ungraded",
        None,
    ),
    **{
        f"{stamp}_{V2}": (f"dev/{stamp}_{V2}/results.json", 1, status, None)
        for stamp, status in [
            ("20260117_224737", "error"),
            ("20260117_224758", "ungraded"),
            ("20260117_225036", "ungraded"),
            ("20260117_225425", "ungraded"),
            ("20260117_225602", "ungraded"),
            ("20260117_225850", "ungraded"),
            ("20260117_225930", "ungraded"),
            ("20260117_225940", "ungraded"),
            ("20260117_230038", "ungraded"),
            ("20260117_230131", "ungraded"),
            ("20260117_230231", "ungraded"),
            ("20260118_001429", "ungraded"),
            ("20260118_002046", "error"),
            ("20260118_002401", "ungraded"),
            ("20260118_005745", "error"),
            ("20260118_011208", "ungraded"),
            ("20260118_011403", "ungraded"),
            ("20260118_011520", "ungraded"),
            ("20260118_212406", "ungraded"),
            ("20260118_212457", "ungraded"),
        ]
    },
    "allergy_test_20260117_151000": (
        "test_queries/allergy_test_20260117_151000.json",
        1,
        "ungraded",
        None,
    ),
}

BASELINE_IDS = [
    "e2l19ABu1xIn9hnvWukJ3Q",
    "Jq65KuNzC_Uee3TJB9Xv-Q",
    "Bih0eT_lbbCUwKmGYpX0hw",
    "gKZuvwFRHcO2Y6XfyWO7lA",
    "2BRbu3cBbH2bCgzN3DVc8w",
]


def scanned(path: Path) -> tuple[Workspace, Source]:
    ws = open_paths([str(path)])
    assert ws.problems == []
    (source,) = ws.sources
    for _ in source.scan():
        pass
    assert source.format.id == "eval-results"
    return ws, source


def listed(source: Source) -> dict[str, RunSummary]:
    out = {}
    for i in range(len(source)):
        entry = source.entry(i)
        if isinstance(entry, Problem):  # a run directory that wrote no results is listed
            assert entry.severity is Severity.WARNING and "no results file" in entry.message
            continue
        assert isinstance(entry, RunSummary), entry
        out[entry.ref] = entry
    return out


def test_the_facts_cover_the_sample_tree() -> None:
    claimed = {path for path, *_ in RUNS.values()}
    assert all((TREE / p).is_file() for p in claimed)
    assert (
        len(list(TREE.rglob("*.json*"))) == 31
    )  # 26 runs, 2 configs, a debug capture, 2 companions


def test_the_tree_is_one_source_with_every_run() -> None:
    ws, source = scanned(TREE)
    runs = listed(source)
    assert sorted(runs) == sorted(RUNS)
    for ref, (_, samples, status, accuracy) in RUNS.items():
        assert (runs[ref].steps, runs[ref].status, runs[ref].score) == (samples, status, accuracy)
        assert runs[ref].format == "eval-results"
    assert [p for p in source.problems() if p.severity is Severity.ERROR] == []


@pytest.mark.parametrize("ref", sorted(RUNS))
def test_every_sample_resolves_by_its_reference(ref: str) -> None:
    ws, source = scanned(TREE)
    index = source.find(ref)
    assert index is not None
    run = source.run(index)
    assert [s.number for s in run.steps] == list(range(1, RUNS[ref][1] + 1))
    for step in run.steps:
        assert step.kind.value == "sample"
        target = ws.resolve(step.ref)
        assert (target.ref, target.index, target.step) == (step.ref, index, step.number)


def test_samples_are_named_by_their_ids() -> None:
    ws, source = scanned(TREE)

    def step_refs(ref: str) -> list[str]:
        index = source.find(ref)
        assert index is not None
        return [s.ref for s in source.run(index).steps]

    for run in ("run_20260115_182323", "run_20260115_183109"):
        assert step_refs(run) == [f"{run}/{sid}" for sid in BASELINE_IDS]
    assert step_refs("20260117_151712_allergy_test") == ["20260117_151712_allergy_test/qcguEeAM"]
    assert step_refs("allergy_test_20260117_151000") == [
        "allergy_test_20260117_151000/qcguEeAMP0XwFLYqhwX2hg"
    ]


@pytest.mark.parametrize("ref", sorted(RUNS))
def test_each_results_file_opens_alone(ref: str) -> None:
    path, samples, status, _ = RUNS[ref]
    _, source = scanned(TREE / path)
    (run,) = listed(source).values()
    assert (run.ref, run.steps, run.status) == (ref, samples, status)


def test_files_of_other_kinds_are_not_claimed() -> None:
    for other in (
        "dev/20260117_151712_allergy_test/config.json",
        "dev/20260117_153544_coyote_crossing_test/config.json",
        "dev/20260117_151712_allergy_test/debug/qcguEeAM.json",
    ):
        ws = open_paths([str(TREE / other)])
        assert ws.sources == [], other


def test_quirks_are_shown_as_the_files_say() -> None:
    ws, source = scanned(TREE)

    def steps(ref: str) -> list[tuple[str | None, str | None]]:
        index = source.find(ref)
        assert index is not None
        return [(s.status, s.error) for s in source.run(index).steps]

    # one wrong prediction among five graded
    assert steps("run_20260115_183109") == [("wrong", None)] + [("correct", None)] * 4
    assert steps("run_20260115_182323") == [("ungraded", None)] * 5  # no ground truth
    # a failed sample: its "error" is its status and its message
    ((status, error),) = steps(f"20260117_224737_{V2}")
    assert status == "error" and error is not None
    assert error.startswith("Error code: 400 - {'error': {'message': \"Unsupported value:")
    assert steps(f"20260118_002046_{V2}") == [
        ("error", "Max iterations (15) exceeded without FINAL()")
    ]
    # "correct": true although both verdicts are null (None == None), and a parse error
    assert steps(f"20260118_001429_{V2}") == [("correct", "parse error: Could not parse result")]


def test_companions_of_the_sample_runs() -> None:
    ws, source = scanned(TREE)
    (config_only,) = [p for p in source.problems() if "no results file" in p.message]
    assert config_only.path.endswith("20260117_153544_coyote_crossing_test")
    for ref in (f"20260118_212406_{V2}", f"20260118_212457_{V2}"):  # results.json and .jsonl
        index = source.find(ref)
        assert index is not None
        assert "results.jsonl" in [f.label for f in source.run(index).fields]
