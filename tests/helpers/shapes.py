"""Small fixtures of our own for real-world shapes met on real files (issue 8): a capture
record that timed out (``metadata.timedOut``, ``signal: SIGTERM``) and still has a score,
trials files whose pass shares are easy to count by hand, eval runs that processed nothing,
and ultraplan projects with PLAN.md files and no result logs yet (with a SUMMARY.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.formats.acp.builders import capture, step_tool, trials, write_jsonl
from tests.formats.eval_results import builders as be
from tests.formats.ultraplan.builders import plan_md, project, write_plan


def timed_out(rid: str, *, passed: bool, score: float = 0.4, **extra: Any) -> dict[str, Any]:
    """A capture record the harness killed at its timeout, graded anyway (as in the headless
    codex files): ``metadata.timedOut: true``, ``signal: SIGTERM``, ``toolErrors: true``."""
    return capture(
        rid,
        tool_errors=True,
        score={"pass": passed, "score": score, "reasoning": "partial answer"},
        metadata={
            "category": "Learning",
            "trajectoryRichness": "full",
            "turnCount": 1,
            "exitCode": 0,
            "signal": "SIGTERM",
            "timedOut": True,
        },
        timing={"start": 1_769_162_423_201, "end": 1_769_162_603_216, "total": 180015},
        **extra,
    )


PASS_TABLE = {
    "all-pass": [True, True, True],
    "one-pass": [True, False, False],
    "no-pass": [False, False, False],
    "two-pass": [True, True, False],
}
"""Four prompts, three trials each. By hand: 6 of the 12 trials pass (pass@1 50.0%); 3 of
the 4 prompts have a passing trial (pass@3 75.0%); 1 of 4 has all three passing (pass^3
25.0%). Trial n lasts 1000 * n ms, so each record's trials sum to 6000 ms."""


def trials_file(path: Path) -> Path:
    """The :data:`PASS_TABLE` prompts as a trials file (with the harness's rates)."""
    return write_jsonl(path, [trials(rid, list(results)) for rid, results in PASS_TABLE.items()])


def tool_calls_capture(path: Path) -> Path:
    """Two captures: ``calls-1`` makes 2 tool calls (a paired WebSearch and a failed Read:
    1 tool error); ``flagged`` makes 1 completed call and its file flags ``toolErrors``."""
    return write_jsonl(
        path,
        [
            capture(
                "calls-1",
                [
                    step_tool("WebSearch", "pending", 10, input={"query": "q"}),
                    step_tool("toolu_01xyz", "completed", 20),
                    step_tool("Read", "failed", 30, error="ENOENT"),
                ],
                score={"pass": True, "score": 1.0},
            ),
            capture(
                "flagged",
                [step_tool("Bash", "completed", 10)],
                tool_errors=True,
                score={"pass": False, "score": 0.0},
            ),
        ],
    )


def empty_run_tree(root: Path) -> Path:
    """A results tree (``root/results``) with one run of two samples and three runs that
    processed nothing: ``"results": []`` with a run id and no ``k``; a legacy results.jsonl
    holding only its metrics line; an empty results.jsonl."""
    dev = root / "results" / "dev"
    be.write_json(
        dev / "20260118_100000_G1_allergy_V2" / "results.json",
        be.results_doc([be.sample("b1", "Cafe One", gt="Low Risk"), be.sample("b2", "Two")]),
    )
    be.write_json(
        dev / "20260118_110000_G1_allergy_V2" / "results.json",
        {"run_id": "G1_allergy_V2", "policy_id": "G1_allergy_V2", "accuracy": 0.0, "results": []},
    )
    be.write_lines(
        dev / "20260118_120000_allergy_test" / "results.jsonl",
        [{"timestamp": "2026-01-18T12:00:00", "type": "metrics", "metrics": {"n_samples": 0}}],
    )
    (dev / "20260118_130000_allergy_test").mkdir(parents=True)
    (dev / "20260118_130000_allergy_test" / "results.jsonl").write_bytes(b"")
    return root / "results"


TASKS = [
    ("Task 1: Create executor agent", ["src/agent.md"]),
    ("Task 2: Add execution protocol", ["src/protocol.md"]),
    ("Task 3: Write the tests", ["tests/test_agent.py"]),
]


def planned_project(root: Path) -> Path:
    """An ultraplan project with two plans and no result logs yet (as real projects have:
    ``.ultraplan/config.json`` and ``.planning/phases/*/NN-NN-PLAN.md``): 03-01 has its first
    task checked in ``<success_criteria>`` and a SUMMARY.md beside it; 03-02 has neither."""
    project(root)
    criteria: list[tuple[str, bool | None]] = [
        ("Task 1: Create executor agent (completed 2026-01-26)", True),
        ("Task 2: Add execution protocol", False),
        ("Reports are written", None),
    ]
    plan = write_plan(root, "03-01", plan_md("03-sequential-execution", "01", TASKS, criteria))
    (plan.parent / "03-01-SUMMARY.md").write_text(
        "---\nphase: 03-sequential-execution\nplan: 01\nduration: 4min\n---\n\n"
        "# Phase 3 Plan 1: Executor agent Summary\n\nThe executor agent exists.\n",
        encoding="utf-8",
    )
    write_plan(
        root,
        "03-02",
        plan_md(
            "03-sequential-execution", "02", TASKS[:1], [("Task 1: Create executor agent", False)]
        ),
        folder="03-exec",
    )
    return root
