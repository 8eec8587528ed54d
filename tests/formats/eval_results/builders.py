"""Small eval-results fixtures of our own, in the shapes of the real ADDM files (never copies of
the samples): results documents and their variants, per-sample documents with item logs, legacy
JSON Lines, test query dumps, and the forecast agent's summary.json for contrast."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def write_json(path: Path, obj: Any) -> Path:
    """Write ``obj`` pretty-printed, as ADDM does (``indent=2``), creating parent dirs."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(obj, indent=2), encoding="utf-8")
    return path


def write_lines(path: Path, objs: list[Any], *, tail: bytes = b"") -> Path:
    """Write one JSON value per line, then ``tail`` (raw bytes, e.g. a broken line)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"".join(json.dumps(o).encode() + b"\n" for o in objs) + tail)
    return path


# -- results documents ---------------------------------------------------------------------------


def sample(
    bid: str,
    name: str,
    verdict: str | None = "Low Risk",
    *,
    gt: str | None = None,
    correct: bool | None = None,
    graded: bool = True,
    **extra: Any,
) -> dict[str, Any]:
    """A direct-method sample with ``parsed`` (the seed format)."""
    response = json.dumps({"verdict": verdict, "evidences": [], "other_notes": None}, indent=2)
    s: dict[str, Any] = {
        "business_id": bid,
        "name": name,
        "response": response,
        "parsed": {"verdict": verdict, "evidences": [], "justification": {}, "other_notes": None},
        "verdict": verdict,
        "risk_score": None,
        "prompt_chars": 30123,
    }
    if graded:
        s["gt_verdict"] = gt
        s["correct"] = correct if correct is not None else (verdict == gt)
    s.update(extra)
    return s


def failed(bid: str, name: str, error: str = "Error code: 400 - bad temperature") -> dict[str, Any]:
    """A sample that failed: just its id, name and error."""
    return {"business_id": bid, "name": name, "error": error}


def parse_error(bid: str, name: str) -> dict[str, Any]:
    """An rlm sample whose response could not be parsed: verdict and gt null, correct true."""
    return {
        "business_id": bid,
        "name": name,
        "response": "{\\",
        "parsed": {"parse_error": "Could not parse result"},
        "verdict": None,
        "risk_score": None,
        "prompt_chars": 40001,
        "latency_ms": 31000.5,
        "gt_verdict": None,
        "correct": True,
    }


def rag_sample(bid: str, name: str, verdict: str = "Low Risk") -> dict[str, Any]:
    """A rag sample: retrieval fields, no ``parsed``."""
    return {
        "business_id": bid,
        "name": name,
        "response": f"Risk label: {verdict}\n\nRationale:\n- nothing found",
        "verdict": verdict,
        "risk_score": None,
        "prompt_chars": 41000,
        "embedding_tokens": 2000,
        "embedding_cost_usd": 0.0003,
        "reviews_retrieved": 20,
        "reviews_total": 120,
        "top_review_indices": [3, 1, 4],
        "cache_hit_embeddings": False,
        "cache_hit_retrieval": True,
        "gt_verdict": None,
        "correct": False,
    }


def results_doc(
    samples: list[Any],
    *,
    run_id: str = "G1_allergy_V2",
    method: str | None = "direct",
    model: str = "gpt-5-nano",
    k: Any = 50,
    accuracy: float = 0.0,
    correct: int = 0,
    total: int = 0,
    timestamp: str = "20260118_000000",
) -> dict[str, Any]:
    """A seed-format results.json (``method`` absent when None)."""
    doc: dict[str, Any] = {
        "run_id": run_id,
        "task_id": None,
        "policy_id": run_id,
        "gt_task_id": "G1a",
        "domain": "yelp",
    }
    if method is not None:
        doc["method"] = method
    doc.update(
        model=model,
        k=k,
        n=len(samples),
        timestamp=timestamp,
        accuracy=accuracy,
        correct=correct,
        total=total,
        auprc={},
        results=samples,
    )
    return doc


def baseline_v0(
    samples: list[Any],
    *,
    k: Any = 50,
    accuracy: float | None = None,
    correct: int | None = None,
    auprc: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The oldest baseline shape: ``task`` instead of ``run_id``/``method``."""
    doc: dict[str, Any] = {
        "task": "G1a",
        "domain": "yelp",
        "model": "gpt-4o-mini",
        "k": k,
        "n": len(samples),
        "timestamp": "20260115_180000",
    }
    if accuracy is not None:
        doc.update(accuracy=accuracy, correct=correct, total=len(samples))
    if auprc is not None:
        doc["auprc"] = auprc
    doc["results"] = samples
    return doc


def v0_sample(bid: str, name: str, verdict: str, gt: str | None = None) -> dict[str, Any]:
    """A baseline v0 sample (graded when ``gt`` is given)."""
    s: dict[str, Any] = {
        "business_id": bid,
        "name": name,
        "response": f"VERDICT: {verdict}\n",
        "verdict": verdict,
        "prompt_chars": 25000,
    }
    if gt is not None:
        s.update(gt_verdict=gt, correct=verdict == gt)
    return s


# -- the later per-sample shape --------------------------------------------------------------------


def per_sample_item(item_id: str, verdict: str, correct: bool, score: Any = 10) -> dict[str, Any]:
    """One ``per_sample_results`` entry."""
    return {
        "item_id": item_id,
        "scores": {
            "evidence_precision": None,
            "evidence_recall": None,
            "snippet_validity": None,
            "judgement_accuracy": None,
            "verdict_consistency": 1 if correct else 0,
        },
        "parsed": {"verdict": verdict, "score": score},
        "output": {"verdict": verdict, "evidences": []},
    }


def per_sample_doc(
    items: list[Any], *, accuracy: float, correct: int, total: int
) -> dict[str, Any]:
    """A later-shape results.json."""
    return {
        "metadata": {
            "policy_id": "G1_allergy_V2",
            "method": "amos",
            "model": "gpt-5-nano",
            "mode": "ondemand",
            "k": 50,
            "n_samples": len(items),
            "timestamp": "2026-01-27T10:00:00Z",
            "run_id": "run_1",
            "domain": "yelp",
            "gt_task_id": "G1a",
            "has_latency": True,
        },
        "method_meta": {"phase1": "cached"},
        "aggregate_scores": {"auprc": None, "macro_f1": 0.5},
        "usage_summary": {"total_llm_calls": 3, "total_cost_usd": 0.25, "total_latency_ms": 9000},
        "per_sample_results": items,
        "accuracy": accuracy,
        "correct": correct,
        "total": total,
        "auprc": {},
    }


def item_log(
    sample_id: str, verdict: str, gt: str, correct: bool, cost: float = 0.01
) -> dict[str, Any]:
    """``item_logs/<id>.json`` of a sample that ran."""
    return {
        "sample_id": sample_id,
        "verdict": verdict,
        "output": f'{{"verdict": "{verdict}"}}',
        "parsed": {"verdict": verdict},
        "ground_truth": gt,
        "correct": correct,
        "metrics": {
            "prompt_tokens": 1000,
            "completion_tokens": 200,
            "total_tokens": 1200,
            "cost_usd": cost,
            "latency_ms": 1500.0,
            "llm_calls": 1,
        },
    }


def error_log(sample_id: str, error: str, gt: str | None = None) -> dict[str, Any]:
    """``item_logs/<id>.json`` of a sample that failed."""
    log: dict[str, Any] = {
        "sample_id": sample_id,
        "error": error,
        "verdict": None,
        "correct": False,
    }
    if gt is not None:
        log["ground_truth"] = gt
    return log


def addm_summary(accuracy: float = 0.5) -> dict[str, Any]:
    """ADDM's own summary.json (later shape): same name as the forecast agent's."""
    return {
        "accuracy": accuracy,
        "n_samples": 3,
        "auprc": None,
        "aggregated_usage": {"total_cost_usd": 0.25},
    }


# -- legacy lines, query dumps, configs --------------------------------------------------------------


def legacy_line(sample_id: str, name: str, verdict: str = "Low", **extra: Any) -> dict[str, Any]:
    """One line of a legacy results.jsonl."""
    line: dict[str, Any] = {
        "sample_id": sample_id,
        "business_id": sample_id + "XYZ",
        "name": name,
        "model": "gpt-5-nano",
        "verdict": verdict,
        "confidence": "substantial",
        "verdict_reasoning": "Few incidents.",
        "parse_success": True,
        "prompt_tokens": 9000,
        "completion_tokens": 4000,
        "cost_usd": 0.002,
        "latency_ms": 40000.0,
    }
    line.update(extra)
    return line


def metrics_line(accuracy: float = 0.5) -> dict[str, Any]:
    """The closing metrics line of some legacy results.jsonl files."""
    return {
        "timestamp": "2026-01-18T21:24:37",
        "type": "metrics",
        "metrics": {"accuracy": accuracy},
        "metadata": {"run_id": "G1_allergy_V2", "n_samples": 2},
    }


def run_config() -> dict[str, Any]:
    """A run's config.json."""
    return {
        "timestamp": "20260117_150000",
        "model": "gpt-5-nano",
        "task": "allergy_safety_assessment",
        "domain": "yelp",
        "k": 50,
    }


def debug_capture(sample_id: str) -> dict[str, Any]:
    """``debug/<sample_id>.json``: the prompt and raw response of one sample."""
    return {
        "timestamp": "2026-01-17T15:17:59",
        "sample_id": sample_id,
        "model": "gpt-5-nano",
        "usage": {"prompt_tokens": 9000, "completion_tokens": 4000},
        "prompt": "You are an expert at analyzing restaurant reviews.",
        "response": '{"verdict": "Low"}',
    }


def query_dump(bid: str = "qcguEeAMP0XwFLYqhwX2hg", name: str = "Sweet Bakery") -> dict[str, Any]:
    """A ``test_queries`` single-query dump."""
    return {
        "timestamp": "20260117_151000",
        "model": "gpt-5-nano",
        "restaurant": {"name": name, "business_id": bid, "categories": "Bakeries"},
        "num_reviews": 50,
        "prompt": "You are an expert at analyzing restaurant reviews.",
        "response": '{"verdict": "Low"}',
        "usage": {
            "prompt_tokens": 9000,
            "completion_tokens": 4000,
            "latency_ms": 47000.0,
            "cost_usd": 0.004,
        },
    }


def forecast_summary() -> dict[str, Any]:
    """The forecast agent's eval summary.json (another format, same file name)."""
    return {
        "eval_config": {"model": "gpt-5"},
        "eval": "demo",
        "total_cost": 1.5,
        "runs": [
            {
                "run_id": "q-1",
                "title": "Will it rain?",
                "status": "submitted",
                "cost": 0.5,
                "submission": {"yes": 0.7},
                "evaluation": {"brier_score": 0.09},
                "error": None,
                "output_dir": "runs/q-1",
            }
        ],
    }


# -- a whole tree ------------------------------------------------------------------------------------

DEV_DIRECT = "20260118_010000_G1_allergy_V2"
DEV_FAILED = "20260118_020000_G1_allergy_V2"
DEV_PARSE = "20260118_030000_G1_allergy_V2"
DEV_RAG = "20260118_040000_G1_allergy_V2"
DEV_LEGACY = "20260117_150000_allergy_test"
DEV_CONFIG_ONLY = "20260117_160000_crossing_test"
BASE_V0 = "run_20260115_180000"
BASE_GRADED = "run_20260115_181000"
QUERY = "allergy_test_20260117_151000"


def make_tree(root: Path) -> Path:
    """A ``results/`` tree with one run of each seed-era variant; returns the tree root."""
    results = root / "results"
    dev = results / "dev"
    write_json(
        dev / DEV_DIRECT / "results.json",
        results_doc(
            [
                sample("bizA", "Bliss", "Low Risk", gt="Low Risk"),
                sample("bizB", "Table 31", "Low Risk", gt="High Risk"),
                sample("bizA", "Bliss again", "High Risk", gt="High Risk"),
            ],
            accuracy=2 / 3,
            correct=2,
            total=3,
        ),
    )
    write_json(
        dev / DEV_FAILED / "results.json",
        results_doc([failed("bizA", "Bliss"), sample("bizC", "Pesto", "Low Risk")], method="rlm"),
    )
    write_json(
        dev / DEV_PARSE / "results.json", results_doc([parse_error("bizA", "Bliss")], method="rlm")
    )
    write_json(
        dev / DEV_RAG / "results.json", results_doc([rag_sample("bizA", "Bliss")], method="rag")
    )
    write_lines(
        dev / DEV_RAG / "results.jsonl",
        [{"timestamp": "t", "sample_id": "bizA", "verdict": "Low Risk", "correct": False}],
    )
    write_lines(
        dev / DEV_LEGACY / "results.jsonl",
        [legacy_line("qcguEeAM", "Sweet Bakery"), legacy_line("zzTop", "Pizza", "High")],
    )
    write_json(dev / DEV_LEGACY / "config.json", run_config())
    write_json(dev / DEV_LEGACY / "debug" / "qcguEeAM.json", debug_capture("qcguEeAM"))
    write_json(dev / DEV_CONFIG_ONLY / "config.json", run_config())
    base = results / "baseline" / "G1a"
    write_json(
        base / f"{BASE_V0}.json", baseline_v0([v0_sample("bizA", "Bliss", "Low Risk")], k=50)
    )
    write_json(
        base / f"{BASE_GRADED}.json",
        baseline_v0(
            [
                v0_sample("bizA", "Bliss", "Low Risk", gt="Low Risk"),
                v0_sample("bizD", "Aladdin", "Low Risk", gt="Critical Risk"),
            ],
            k="ordinal_auprc",
            accuracy=0.5,
            correct=1,
            auprc={"auprc_ge_high": 0.1, "auprc_ge_critical": 0.1, "ordinal_auprc": 0.1},
        ),
    )
    write_json(results / "test_queries" / f"{QUERY}.json", query_dump())
    return results


def make_later_run(run_dir: Path) -> Path:
    """A later-shape run directory: results.json with per_sample_results, item_logs/ (one
    failed sample only there), ADDM's summary.json and run_manifest.json."""
    write_json(
        run_dir / "results.json",
        per_sample_doc(
            [
                per_sample_item("bizA", "Low Risk", True),
                per_sample_item("bizB", "High Risk", False),
            ],
            accuracy=0.5,
            correct=1,
            total=2,
        ),
    )
    logs = run_dir / "item_logs"
    write_json(logs / "_query_template.json", {"policy_id": "G1_allergy_V2", "query_text": "Q"})
    write_json(logs / "bizA.json", item_log("bizA", "Low Risk", "Low Risk", True, cost=0.01))
    write_json(logs / "bizB.json", item_log("bizB", "High Risk", "Low Risk", False, cost=0.02))
    write_json(
        logs / "bizC.json", error_log("bizC", "Max iterations (15) exceeded", gt="High Risk")
    )
    write_json(run_dir / "summary.json", addm_summary())
    write_json(run_dir / "run_manifest.json", {"policy_id": "G1_allergy_V2", "k": 50})
    return run_dir
