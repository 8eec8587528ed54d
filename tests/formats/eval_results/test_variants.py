"""Eval results: each variant of a results file read as the file says it (graded runs, failed
samples, parse errors, RAG samples, the oldest baseline, legacy JSONL, test-query dumps, the
later shape with and without item logs)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.formats.eval_results import builders as b
from tests.formats.eval_results.opened import field, one_source, run_of, summaries
from tests.helpers.workspace import open_paths
from trajtui.core.model import Kind, Outcome

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
