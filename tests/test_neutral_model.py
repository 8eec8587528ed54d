"""The neutral model: facts that mean the same in every format (a step's tool and state, a
run's verdict and metadata), filled from what the file says and absent when it does not."""

from __future__ import annotations

from pathlib import Path

from tests.builders import capture, step_message, step_tool, write_jsonl
from trajtui.core.model import Kind, Outcome, StepState, Verdict
from trajtui.core.workspace import open_paths


def test_a_capture_fills_tool_names_states_and_metadata(tmp_path: Path) -> None:
    p = write_jsonl(
        tmp_path / "c.jsonl",
        [
            capture(
                "r1",
                [
                    step_tool("WebSearch", "pending", 100, input={"query": "q"}),
                    step_tool("toolu_01", "completed", 300, output="found"),
                    step_tool("Read", "failed", 400, error="ENOENT"),
                    step_message("done", 500),
                ],
                metadata={"category": "web", "agent": {"name": "claude", "effort": 3}},
                score={"pass": True, "score": 1.0},
            ),
            capture("r2", metadata={"timedOut": True}, score={"pass": True}),
        ],
    )
    ws = open_paths([str(p)])
    for _ in ws.scan():
        pass
    source = ws.sources[0]
    run = source.run(0)
    tools = [(s.kind, s.tool, s.state) for s in run.steps]
    assert tools == [
        (Kind.TOOL_CALL, "WebSearch", StepState.PENDING),
        (Kind.TOOL_CALL, "WebSearch", StepState.OK),  # the completing half, named by its id
        (Kind.TOOL_CALL, "Read", StepState.FAILED),
        (Kind.MESSAGE, None, StepState.UNKNOWN),
    ]
    assert all(s.tokens_in is None and s.cost is None for s in run.steps)  # the file says none
    assert run.metadata == (("category", "web"), ("agent.name", "claude"), ("agent.effort", "3"))
    assert run.summary.outcome.verdict is Verdict.PASS
    timed_out = source.run(1)
    assert timed_out.summary.outcome is Outcome.TIMEOUT
    assert timed_out.summary.outcome.verdict is Verdict.TIMEOUT  # whatever its score says
    ws.close()


def test_verdicts_of_every_outcome() -> None:
    assert {o: o.verdict for o in Outcome} == {
        Outcome.PASS: Verdict.PASS,
        Outcome.FAIL: Verdict.FAIL,
        Outcome.PARTIAL: Verdict.FAIL,
        Outcome.ERROR: Verdict.ERROR,
        Outcome.TIMEOUT: Verdict.TIMEOUT,
        Outcome.RUNNING: Verdict.UNKNOWN,
        Outcome.SKIPPED: Verdict.UNKNOWN,
        Outcome.DONE: Verdict.UNKNOWN,
        Outcome.NONE: Verdict.UNKNOWN,
    }
