"""Eval results: recognising each shape, grouping a results tree, references, statuses,
companions, broken inputs, the confusion table, and the CLI on a fixture tree."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.formats.eval_results import builders as b
from tests.helpers.workspace import open_paths
from trajtui.core.io.detect import sniff
from trajtui.core.io.discover import walk
from trajtui.core.model import Kind, Outcome, Problem, Run, RunSummary, Severity, Step
from trajtui.core.source import LoadError, Source
from trajtui.formats import eval_results as er
from trajtui.formats.eval_results.confusion import confusion_of
from trajtui.formats.eval_results.detail import confusion
from trajtui.formats.eval_results.shapes import (
    PER_SAMPLE,
    QUERY,
    RECORD,
    RESULTS_DOC,
    head_shape,
    object_shape,
)
from trajtui.formats.eval_results.tree import unique_tails

# -- helpers -------------------------------------------------------------------------------------


def scanned(paths: list[Path]) -> tuple[list[Source], list[Problem]]:
    ws = open_paths([str(p) for p in paths])
    for source in ws.sources:
        for _ in source.scan():
            pass
    return ws.sources, ws.problems


def one_source(path: Path) -> Source:
    sources, problems = scanned([path])
    assert problems == []
    (source,) = sources
    assert source.format.id == "eval-results"
    return source


def summaries(source: Source) -> dict[str, RunSummary]:
    return {
        e.ref: e for e in (source.entry(i) for i in range(len(source))) if isinstance(e, RunSummary)
    }


def run_of(source: Source, ref: str) -> Run:
    index = source.find(ref)
    assert index is not None, ref
    return source.run(index)


def field(obj: Run | Step, label: str) -> object:
    for f in obj.fields:
        if f.label == label:
            return f.value
    raise KeyError(label)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    return b.make_tree(tmp_path)


# -- recognising files -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("obj", "shape"),
    [
        (b.results_doc([b.sample("x", "X")]), RESULTS_DOC),
        (b.results_doc([], method=None), RESULTS_DOC),
        (b.results_doc([b.failed("x", "X")]), RESULTS_DOC),
        (b.baseline_v0([b.v0_sample("x", "X", "Low Risk")], k="ordinal_auprc"), RESULTS_DOC),
        (
            b.per_sample_doc(
                [b.per_sample_item("x", "Low Risk", True)], accuracy=1, correct=1, total=1
            ),
            PER_SAMPLE,
        ),
        (b.query_dump(), QUERY),
        (b.legacy_line("s1", "X"), RECORD),
        (b.forecast_summary(), None),
        (b.addm_summary(), None),
        (b.run_config(), None),
        (b.debug_capture("s1"), None),
        (b.item_log("s1", "Low Risk", "Low Risk", True), None),
        (b.metrics_line(), None),
        ({"results": [{"id": 1}]}, None),
        ([b.sample("x", "X")], None),
    ],
)
def test_object_shape(obj: object, shape: str | None) -> None:
    assert object_shape(obj) == shape
    head = json.dumps(obj, indent=2).encode()
    if shape in (RESULTS_DOC, PER_SAMPLE, QUERY):
        assert head_shape(head) == shape
    else:
        assert head_shape(head) is None


def test_head_shape_reads_a_half_written_document() -> None:
    text = json.dumps(b.results_doc([b.sample("x", "X"), b.sample("y", "Y")]), indent=2).encode()
    half = text[: len(text) // 2]
    assert head_shape(half) == RESULTS_DOC
    later = json.dumps(b.per_sample_doc([], accuracy=0, correct=0, total=0), indent=2).encode()
    cut = later[: later.index(b'"usage_summary"')]  # per_sample_results not reached yet
    assert head_shape(cut) == PER_SAMPLE


def test_open_file_recognises_by_content_not_name(tmp_path: Path) -> None:
    cases = {
        "anything.json": (b.results_doc([b.sample("x", "X")]), True),
        "minified.json": (None, True),
        "summary.json": (b.forecast_summary(), False),
        "addm-summary.json": (b.addm_summary(), False),
        "config.json": (b.run_config(), False),
        "results.json": ({"results": [1, 2, 3], "accuracy": 0.5}, False),
        "x.json": (b.query_dump(), True),
    }
    for name, (obj, ours) in cases.items():
        path = tmp_path / name
        if obj is None:
            path.write_text(json.dumps(b.results_doc([b.sample("x", "X")])))
        else:
            b.write_json(path, obj)
        got = er.open_file(str(path), sniff(str(path)), None)
        assert (got is not None) is ours, name
    legacy = b.write_lines(tmp_path / "log.txt", [b.legacy_line("s1", "X"), b.metrics_line()])
    assert er.open_file(str(legacy), sniff(str(legacy)), None) is not None
    acp_like = b.write_lines(tmp_path / "other.jsonl", [{"id": "x", "trajectory": []}])
    assert er.open_file(str(acp_like), sniff(str(acp_like)), None) is None


def test_opening_reads_nothing_until_the_scan(tree: Path) -> None:
    ws = open_paths([str(tree)])
    (source,) = ws.sources
    assert len(source) == 0 and not source.complete
    progress = list(source.scan())
    files = [p for p in progress if not p.finished]
    assert len(files) >= 8 and files[-1].done == files[-1].total
    # Every results file is a run; the run directory that wrote none is a warning row.
    assert progress[-1].finished and len(source) == len(summaries(source)) + 1


# -- grouping and naming ---------------------------------------------------------------------------


def test_a_tree_is_one_source_with_a_run_per_results_file(tree: Path) -> None:
    sources, problems = scanned([tree.parent])  # opened above the tree: the tree is found
    assert problems == []
    (source,) = sources
    assert os.path.normpath(source.path) == os.path.normpath(tree)
    runs = summaries(source)
    assert set(runs) == {
        b.DEV_DIRECT,
        b.DEV_FAILED,
        b.DEV_PARSE,
        b.DEV_RAG,
        b.DEV_LEGACY,
        b.BASE_V0,
        b.BASE_GRADED,
        b.QUERY,
    }
    assert {r: s.steps for r, s in runs.items()} == {
        b.DEV_DIRECT: 3,
        b.DEV_FAILED: 2,
        b.DEV_PARSE: 1,
        b.DEV_RAG: 1,
        b.DEV_LEGACY: 2,
        b.BASE_V0: 1,
        b.BASE_GRADED: 2,
        b.QUERY: 1,
    }
    assert all(s.format == "eval-results" for s in runs.values())
    warnings = [p for p in source.problems() if p.severity is Severity.WARNING]
    assert len(warnings) == 1 and warnings[0].path.endswith(b.DEV_CONFIG_ONLY)
    assert "no results file" in warnings[0].message


@pytest.mark.parametrize(
    ("sub", "runs"), [("results/dev", 5), ("results/baseline", 2), ("results/baseline/G1a", 2)]
)
def test_opening_a_mode_or_task_directory(tmp_path: Path, sub: str, runs: int) -> None:
    b.make_tree(tmp_path)
    assert len(summaries(one_source(tmp_path / sub))) == runs


def test_a_run_directory_opened_alone(tree: Path) -> None:
    source = one_source(tree / "dev" / b.DEV_DIRECT)
    assert list(summaries(source)) == [b.DEV_DIRECT]
    trailing = one_source(Path(str(tree / "dev" / b.DEV_DIRECT) + os.sep))
    assert list(summaries(trailing)) == [b.DEV_DIRECT]


def test_single_files_are_named_by_directory_or_stem(tree: Path) -> None:
    single = one_source(tree / "dev" / b.DEV_DIRECT / "results.json")
    assert list(summaries(single)) == [b.DEV_DIRECT]
    stem = one_source(tree / "baseline" / "G1a" / f"{b.BASE_V0}.json")
    assert list(summaries(stem)) == [b.BASE_V0]
    legacy = one_source(tree / "dev" / b.DEV_LEGACY / "results.jsonl")
    assert list(summaries(legacy)) == [b.DEV_LEGACY]
    # a file opened alone does not read its neighbours
    assert "config.json" not in [f.label for f in run_of(legacy, b.DEV_LEGACY).fields]


def test_repeated_run_directory_names_get_their_parents(tmp_path: Path) -> None:
    for method in ("direct", "rlm"):
        for n in (1, 2):
            b.write_json(
                tmp_path / "results" / "yelp" / method / "G1_K50" / f"run_{n}" / "results.json",
                b.results_doc([b.sample("x", "X")], method=method),
            )
    source = one_source(tmp_path / "results")
    assert set(summaries(source)) == {
        "direct/G1_K50/run_1",
        "direct/G1_K50/run_2",
        "rlm/G1_K50/run_1",
        "rlm/G1_K50/run_2",
    }
    ws = open_paths([str(tmp_path / "results")])
    assert ws.resolve("rlm/G1_K50/run_2/x").ref == "rlm/G1_K50/run_2/x"


def test_unique_tails() -> None:
    assert unique_tails([("r", "a", "x"), ("r", "b", "x"), ("r", "b", "y")]) == [
        "a/x",
        "b/x",
        "y",
    ]
    assert unique_tails([("r", "x"), ("r", "x")]) == ["r/x", "r/x"]


def test_claim_dir_decides_by_content(tmp_path: Path) -> None:
    b.make_tree(tmp_path / "project")
    (tmp_path / "project" / "src").mkdir()
    places = {
        os.path.relpath(p.path, tmp_path / "project"): p for p in walk(str(tmp_path / "project"))
    }
    assert er.claim_dir(places["."]) is None  # the project is not the tree
    assert er.claim_dir(places["results"]) is not None
    assert er.claim_dir(places["src"]) is None
    # a forecast eval dir (its summary.json) and a config-only run dir are not ours
    ev = tmp_path / "forecast"
    b.write_json(ev / "summary.json", b.forecast_summary())
    b.write_json(ev / "runs" / "q-1" / "info.json", {"exit_status": "submitted"})
    for place in walk(str(ev)):
        assert er.claim_dir(place) is None, place.path
    only = tmp_path / "only-config"
    b.write_json(only / "config.json", b.run_config())
    assert all(er.claim_dir(p) is None for p in walk(str(only)))


def test_forecast_summary_is_not_ours_and_ours_is_not_forecast(tmp_path: Path) -> None:
    ev = tmp_path / "forecast-eval"
    b.write_json(ev / "summary.json", b.forecast_summary())
    path = str(ev / "summary.json")
    assert er.open_file(path, sniff(path), None) is None
    run_dir = b.make_later_run(tmp_path / "run_1")
    sources, _ = scanned([run_dir])
    assert [s.format.id for s in sources] == ["eval-results"]
    summary = str(run_dir / "summary.json")
    assert er.open_file(summary, sniff(summary), None) is None


# -- references --------------------------------------------------------------------------------------


def test_references_resolve_to_samples(tree: Path) -> None:
    ws = open_paths([str(tree)])
    target = ws.resolve(f"{b.DEV_DIRECT}/bizB")
    assert (target.kind, target.step, target.ref) == ("step", 2, f"{b.DEV_DIRECT}/bizB")
    again = ws.resolve(f"{b.DEV_DIRECT}/bizA#2")
    assert again.step == 3
    assert ws.resolve(f"{b.DEV_DIRECT}/step-1").ref == f"{b.DEV_DIRECT}/bizA"
    assert ws.resolve(f"{b.DEV_LEGACY}/qcguEeAM").step == 1
    assert ws.resolve(f"{b.BASE_V0}/bizA").step == 1
    assert ws.resolve(f"{b.QUERY}/qcguEeAMP0XwFLYqhwX2hg").step == 1
    with pytest.raises(LookupError, match="no item 'nope'"):
        ws.resolve(f"{b.DEV_DIRECT}/nope")


def test_bare_sample_id_in_a_single_run_source(tree: Path) -> None:
    ws = open_paths([str(tree / "dev" / b.DEV_DIRECT / "results.json")])
    assert ws.resolve("bizB").ref == f"{b.DEV_DIRECT}/bizB"


def test_sample_without_usable_id_is_step_n(tmp_path: Path) -> None:
    p = b.write_json(
        tmp_path / "r" / "results.json",
        b.results_doc([{"business_id": "a/b", "name": "Slash"}, {"name": "No id"}, None]),
    )
    run = one_source(p).run(0)
    assert [s.ref for s in run.steps] == ["r/step-1", "r/step-2", "r/step-3"]
    assert [s.stored_id for s in run.steps] == ["a/b", None, None]
    assert run.steps[2].status == "error" and run.steps[2].error == "not an object: NoneType"
    assert open_paths([str(p)]).resolve("r/step-2").step == 2


# -- variants ------------------------------------------------------------------------------------------


def test_graded_run(tree: Path) -> None:
    source = one_source(tree)
    s = summaries(source)[b.DEV_DIRECT]
    assert (s.status, s.outcome, s.score, s.score_label) == (
        "graded",
        Outcome.DONE,
        2 / 3,
        "accuracy",
    )
    assert s.title == "G1_allergy_V2 · direct · gpt-5-nano · k=50"
    assert s.cost is None and s.tool_errors is None
    run = run_of(source, b.DEV_DIRECT)
    assert [(st.status, st.outcome) for st in run.steps] == [
        ("correct", Outcome.PASS),
        ("wrong", Outcome.FAIL),
        ("correct", Outcome.PASS),
    ]
    step = run.steps[1]
    assert step.kind is Kind.SAMPLE and step.title == "Table 31 · Low Risk (gt: High Risk)"
    assert step.stored_id == "bizB" and step.markdown is False
    assert step.text is not None and '"verdict": "Low Risk"' in step.text
    labels = [f.label for f in step.fields]
    assert labels[:4] == ["verdict", "gt_verdict", "correct", "risk_score"]
    assert "parsed" in labels and "response" not in labels
    for label, value in (("method", "direct"), ("k", 50), ("n", 3), ("correct", 2), ("total", 3)):
        assert field(run, label) == value
    assert run.summary == s and run.raw["run_id"] == "G1_allergy_V2"


def test_failed_sample_and_partial_run(tree: Path) -> None:
    source = one_source(tree)
    s = summaries(source)[b.DEV_FAILED]
    assert (s.status, s.outcome) == ("partial", Outcome.PARTIAL)
    run = run_of(source, b.DEV_FAILED)
    bad = run.steps[0]
    assert (bad.status, bad.outcome) == ("error", Outcome.ERROR)
    assert bad.error == "Error code: 400 - bad temperature" and bad.text is None
    assert bad.title == "Bliss · error: Error code: 400 - bad temperature"
    assert field(run, "errors") == 1


def test_all_failed_run_is_error(tmp_path: Path) -> None:
    p = b.write_json(tmp_path / "r" / "results.json", b.results_doc([b.failed("x", "X")]))
    s = summaries(one_source(p))["r"]
    assert (s.status, s.outcome, s.steps) == ("error", Outcome.ERROR, 1)


def test_parse_error_with_both_verdicts_null_is_shown_as_the_file_says(tree: Path) -> None:
    source = one_source(tree)
    assert summaries(source)[b.DEV_PARSE].status == "ungraded"
    (step,) = run_of(source, b.DEV_PARSE).steps
    assert (step.status, step.outcome) == ("correct", Outcome.PASS)
    assert step.error == "parse error: Could not parse result"
    assert step.title == "Bliss · no verdict (parse error)"
    assert step.duration_ms == 31000.5
    assert "gt_verdict is null" in str(field(step, "note"))
    assert field(run_of(source, b.DEV_PARSE), "parse errors") == 1


def test_rag_sample_keeps_retrieval_fields_and_the_side_log(tree: Path) -> None:
    source = one_source(tree)
    run = run_of(source, b.DEV_RAG)
    (step,) = run.steps
    labels = {f.label for f in step.fields}
    assert {"reviews_retrieved", "top_review_indices", "embedding_cost_usd"} <= labels
    assert "parsed" not in labels
    assert step.text is not None and step.text.startswith("Risk label: Low Risk")
    assert field(run, "results.jsonl") == [
        {"timestamp": "t", "sample_id": "bizA", "verdict": "Low Risk", "correct": False}
    ]
    assert field(run, "method") == "rag"


def test_oldest_baseline_shape(tree: Path) -> None:
    source = one_source(tree)
    runs = summaries(source)
    v0 = runs[b.BASE_V0]
    assert (v0.status, v0.score, v0.title) == ("ungraded", None, "G1a · gpt-4o-mini · k=50")
    (step,) = run_of(source, b.BASE_V0).steps
    assert (step.status, step.outcome) == ("ungraded", Outcome.NONE)
    graded = runs[b.BASE_GRADED]
    assert graded.title.endswith("k=ordinal_auprc") and graded.score == 0.5
    run = run_of(source, b.BASE_GRADED)
    assert field(run, "k") == "ordinal_auprc"
    assert field(run, "auprc") == {
        "auprc_ge_high": 0.1,
        "auprc_ge_critical": 0.1,
        "ordinal_auprc": 0.1,
    }


def test_legacy_jsonl_with_config_and_debug(tree: Path) -> None:
    source = one_source(tree)
    s = summaries(source)[b.DEV_LEGACY]
    assert s.cost == pytest.approx(0.004) and s.score is None
    run = run_of(source, b.DEV_LEGACY)
    assert field(run, "cost (sum of cost_usd over 2 of 2 samples)") == pytest.approx(0.004)
    assert field(run, "config.json") == b.run_config()
    first, second = run.steps
    assert first.stored_id == "qcguEeAM" and first.title == "Sweet Bakery · Low"
    assert first.input == "You are an expert at analyzing restaurant reviews."
    assert first.text == '{"verdict": "Low"}'  # the line has no response: the debug capture's
    assert second.input is None and second.text is None
    assert first.duration_ms == 40000.0


def test_legacy_metrics_line_and_broken_lines(tmp_path: Path) -> None:
    p = b.write_lines(
        tmp_path / "run" / "results.jsonl",
        [
            b.legacy_line("s1", "A"),
            b.legacy_line("s2", "B", parse_success=False),
            b.metrics_line(0.5),
        ],
        tail=b'{"sample_id": "s3", "verd',
    )
    source = one_source(tmp_path / "run")
    s = summaries(source)["run"]
    assert (s.steps, s.score, s.score_label) == (2, 0.5, "accuracy")
    assert s.title == "G1_allergy_V2 · gpt-5-nano"
    (problem,) = source.problems()
    assert (problem.path, problem.line, problem.ref) == (str(p), 4, "run")
    assert "invalid JSON" in problem.message
    run = source.run(0)
    assert run.steps[1].error == "parse error: parse_success is false"
    assert run.problems == (problem,)


def test_test_query_dump(tree: Path) -> None:
    source = one_source(tree)
    s = summaries(source)[b.QUERY]
    assert (s.steps, s.status, s.cost) == (1, "ungraded", 0.004)
    assert s.title == "test query · gpt-5-nano · Sweet Bakery"
    (step,) = run_of(source, b.QUERY).steps
    assert step.input == "You are an expert at analyzing restaurant reviews."
    assert step.text == '{"verdict": "Low"}' and step.duration_ms == 47000.0


def test_later_shape_with_item_logs_and_its_own_summary(tmp_path: Path) -> None:
    run_dir = b.make_later_run(tmp_path / "results" / "yelp" / "amos" / "G1_K50" / "run_1")
    source = one_source(tmp_path / "results")
    (s,) = summaries(source).values()
    assert s.ref == "run_1"
    assert (s.steps, s.status, s.score, s.cost) == (3, "partial", 0.5, 0.25)
    assert s.title == "run_1 · amos · gpt-5-nano · k=50"
    run = source.run(0)
    a, bb, c = run.steps
    assert [x.stored_id for x in run.steps] == ["bizA", "bizB", "bizC"]
    assert (a.status, bb.status, c.status) == ("correct", "wrong", "error")
    assert field(bb, "gt_verdict") == "Low Risk" and field(bb, "cost_usd") == 0.02
    assert bb.text == '{"verdict": "High Risk"}' and bb.duration_ms == 1500.0
    assert c.error == "Max iterations (15) exceeded" and field(c, "gt_verdict") == "High Risk"
    assert field(run, "summary.json") == b.addm_summary()
    assert field(run, "run_manifest.json") == {"policy_id": "G1_allergy_V2", "k": 50}
    assert field(run, "cost (sum of cost_usd over 2 of 3 samples)") == pytest.approx(0.03)
    assert "_query_template" not in [x.stored_id for x in run.steps]
    assert open_paths([str(run_dir)]).resolve("run_1/bizC").ref == "run_1/bizC"


def test_later_shape_without_item_logs_reads_scores(tmp_path: Path) -> None:
    doc = b.per_sample_doc(
        [b.per_sample_item("x", "Low Risk", True)], accuracy=1, correct=1, total=1
    )
    source = one_source(b.write_json(tmp_path / "r" / "results.json", doc))
    (step,) = source.run(0).steps
    assert step.status == "correct" and "verdict_consistency" in str(field(step, "note"))
    assert field(step, "verdict") == "Low Risk" and field(step, "risk_score") == 10


# -- broken inputs --------------------------------------------------------------------------------------


def test_half_written_results_file_is_a_problem_row(tree: Path) -> None:
    path = tree / "dev" / b.DEV_RAG / "results.json"
    text = path.read_bytes()
    path.write_bytes(text[: len(text) // 2])
    source = one_source(tree)
    rows = [source.entry(i) for i in range(len(source))]
    (problem,) = [r for r in rows if isinstance(r, Problem) and r.severity is Severity.ERROR]
    assert problem.path == str(path) and problem.line == text[: len(text) // 2].count(b"\n") + 1
    assert "ends early" in problem.message
    assert len(summaries(source)) == 7
    index = rows.index(problem)
    with pytest.raises(LoadError):
        source.run(index)


def test_invalid_json_reports_its_line(tmp_path: Path) -> None:
    path = tmp_path / "r" / "results.json"
    path.parent.mkdir()
    path.write_text('{\n  "run_id": "x",\n  "results": [\n    {"business_id": oops}\n  ]\n}\n')
    sources, _ = scanned([tmp_path / "r"])
    (source,) = sources
    (problem,) = source.problems()
    assert (problem.line, str(problem).split(": ")[0]) == (4, f"{path}:4")


def test_links_out_of_the_opened_directory_are_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    b.write_json(outside / "secret" / "results.json", b.results_doc([b.sample("s", "Secret")]))
    b.write_json(outside / "config.json", {"model": "secret", "k": 1})
    tree = b.make_tree(tmp_path / "in")
    os.symlink(outside / "secret", tree / "dev" / "linked_run")
    legacy = tree / "dev" / b.DEV_LEGACY
    (legacy / "config.json").unlink()
    os.symlink(outside / "config.json", legacy / "config.json")
    source = one_source(tree)
    assert "linked_run" not in summaries(source) and "secret" not in summaries(source)
    run = run_of(source, b.DEV_LEGACY)
    assert "config.json" not in [f.label for f in run.fields]
    assert any("link out of the opened directory" in p.message for p in run.problems)


def test_nothing_is_written(tree: Path) -> None:
    def snapshot() -> dict[str, tuple[int, int]]:
        return {str(p): (p.stat().st_size, p.stat().st_mtime_ns) for p in tree.parent.rglob("*")}

    before = snapshot()
    source = one_source(tree)
    for i in range(len(source)):
        if isinstance(source.entry(i), RunSummary):
            source.run(i)
    assert snapshot() == before


def test_changed_when_a_run_is_added(tree: Path) -> None:
    source = one_source(tree)
    assert source.changed() is None
    b.write_json(tree / "dev" / "20990101_000000_new" / "results.json", b.results_doc([]))
    assert source.changed() == "changed"
    list(source.refresh())
    assert "20990101_000000_new" in summaries(source)
    assert summaries(source)["20990101_000000_new"].status == "empty"


# -- confusion table ------------------------------------------------------------------------------------


def test_confusion_of_keeps_null_and_orders_by_severity() -> None:
    table = confusion_of(
        [
            ("High Risk", "Low Risk"),
            ("Low Risk", "Low Risk"),
            ("Low Risk", "Low Risk"),
            (None, None),
            ("Critical Risk", None),
            (None, "Odd"),
        ]
    )
    assert table.gt_labels == ("Low Risk", "High Risk", "Critical Risk", None)
    assert table.verdict_labels == ("Low Risk", "Odd", None)
    assert table.count("Low Risk", "Low Risk") == 2
    assert table.count(None, None) == 1 and table.count("Critical Risk", None) == 1
    assert table.count("High Risk", "High Risk") == 0
    assert table.total == 6
    assert table.rows()[0] == {"gt_verdict": "Low Risk", "verdict": "Low Risk", "count": 2}


def test_confusion_of_non_text_values_and_empty() -> None:
    table = confusion_of([(1, {"v": 2})])
    assert table.count("1", '{"v":2}') == 1
    empty = confusion_of([])
    assert (empty.total, empty.gt_labels, empty.rows()) == (0, (), [])


def test_confusion_of_a_run(tree: Path) -> None:
    source = one_source(tree)
    table = confusion(run_of(source, b.DEV_DIRECT))
    assert table.count("Low Risk", "Low Risk") == 1
    assert table.count("High Risk", "Low Risk") == 1
    assert table.count("High Risk", "High Risk") == 1
    failed = confusion(run_of(source, b.DEV_FAILED))
    assert failed.count(None, None) == 1  # the failed sample: no verdict, no ground truth
    assert failed.count(None, "Low Risk") == 1 and failed.total == 2
    later = b.make_later_run(Path(source.path).parent / "later" / "run_9")
    run = one_source(later).run(0)
    assert confusion(run).count("High Risk", None) == 1
    assert confusion(run).count("Low Risk", "High Risk") == 1


# -- CLI ----------------------------------------------------------------------------------------------------


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "trajtui", *args], capture_output=True, text=True, timeout=60
    )


def test_cli_ls_and_json(tree: Path) -> None:
    out = cli("ls", str(tree))
    assert out.returncode == 0, out.stderr
    rows = {line.split()[0]: line for line in out.stdout.splitlines()[1:]}
    assert "• graded" in rows[b.DEV_DIRECT] and "0.6667" in rows[b.DEV_DIRECT]
    assert "! error" not in rows[b.DEV_DIRECT] and "◐ partial" in rows[b.DEV_FAILED]
    assert "no results file" in out.stderr and "Traceback" not in out.stderr
    objs = [json.loads(line) for line in cli("ls", str(tree), "--json").stdout.splitlines()]
    assert len(objs) == 8
    for key in ("ref", "format", "status", "steps", "tool_errors"):
        assert all(key in o for o in objs)
    by_ref = {o["ref"]: o for o in objs}
    assert by_ref[b.DEV_FAILED]["status"] == "partial" and by_ref[b.DEV_FAILED]["steps"] == 2
    assert by_ref[b.DEV_DIRECT]["score_label"] == "accuracy"
    assert {o["format"] for o in objs} == {"eval-results"}


def test_cli_show_run_and_sample(tree: Path) -> None:
    out = cli("show", str(tree), b.DEV_DIRECT)
    assert out.returncode == 0, out.stderr
    assert f"{b.DEV_DIRECT}/bizA" in out.stdout and "✗ wrong" in out.stdout
    assert "confusion" in out.stdout
    sample = cli("show", str(tree), f"{b.DEV_FAILED}/bizA")
    assert sample.returncode == 0 and "Error code: 400" in sample.stdout
    js = json.loads(cli("show", str(tree), f"{b.DEV_PARSE}/bizA", "--json").stdout)
    assert js["ref"] == f"{b.DEV_PARSE}/bizA" and js["parsed"] == {
        "parse_error": "Could not parse result"
    }
    missing = cli("show", str(tree), f"{b.DEV_DIRECT}/nope")
    assert missing.returncode == 1 and "no item 'nope'" in missing.stderr


def test_cli_reports_a_broken_file_with_its_line(tree: Path) -> None:
    path = tree / "dev" / b.DEV_RAG / "results.json"
    path.write_bytes(path.read_bytes()[:200])
    out = cli("ls", str(tree))
    assert out.returncode == 0
    line = 1 + path.read_bytes().rstrip(b"\n").count(b"\n")
    assert f"{path}:{line}: invalid JSON: ends early" in out.stderr


def test_a_scan_and_a_resolve_on_two_threads_list_each_run_once(tmp_path: Path) -> None:
    import threading

    from tests.helpers.workspace import open_paths

    root = tmp_path / "results"
    for i in range(60):
        b.write_json(
            root / "dev" / f"20260203_{i:06d}_G1" / "results.json",
            b.results_doc([b.sample(f"b{i}", "N")]),
        )
    for _ in range(5):
        ws = open_paths([str(root)])
        (source,) = ws.sources
        errors: list[BaseException] = []

        def scan(source: Any = source, errors: list[BaseException] = errors) -> None:
            try:
                for _ in source.scan():
                    pass
            except BaseException as err:  # pragma: no cover - reported below
                errors.append(err)

        threads = [threading.Thread(target=scan) for _ in range(2)]
        for t in threads:
            t.start()
        target = ws.resolve("20260203_000059_G1/b59")
        for t in threads:
            t.join()
        assert not errors
        assert target.item is None and target.step == 1
        refs = source.run_refs()
        assert len(refs) == 60 and not any("#" in r for r in refs)
