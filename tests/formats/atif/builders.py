"""Small ATIF fixtures of our own, in the shapes Harbor and other ATIF writers produce.

Never copies of the samples: invented tasks, calls and numbers, built from a few helpers.
:func:`job` writes the Harbor job directory most tests use (see its docstring).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

T0 = "2026-03-01T10:00:00Z"


def ts(seconds: float) -> str:
    """An ISO 8601 timestamp ``seconds`` after :data:`T0` (UTC, ``Z``, as Harbor writes)."""
    whole = int(seconds)
    ms = round((seconds - whole) * 1000)
    return f"2026-03-01T10:{whole // 60:02d}:{whole % 60:02d}.{ms:03d}Z"


def user(n: int, text: str, at: float | None = None, **extra: Any) -> dict[str, Any]:
    step: dict[str, Any] = {"step_id": n, "source": "user", "message": text}
    if at is not None:
        step["timestamp"] = ts(at)
    return {**step, **extra}


def system(
    n: int, text: str, results: list[dict[str, Any]] | None = None, **extra: Any
) -> dict[str, Any]:
    step: dict[str, Any] = {"step_id": n, "source": "system", "message": text}
    if results is not None:
        step["observation"] = {"results": results}
    return {**step, **extra}


def call(call_id: str, name: str, **arguments: Any) -> dict[str, Any]:
    return {"tool_call_id": call_id, "function_name": name, "arguments": arguments}


def result(call_id: str | None, content: Any, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"content": content}
    if call_id is not None:
        out["source_call_id"] = call_id
    return {**out, **extra}


def metrics(
    prompt: int, completion: int, cached: int = 0, cost: float | None = None
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "cached_tokens": cached,
    }
    if cost is not None:
        out["cost_usd"] = cost
    return out


def agent(
    n: int,
    text: str = "",
    *,
    calls: list[dict[str, Any]] | None = None,
    results: list[dict[str, Any]] | None = None,
    at: float | None = None,
    reasoning: str | None = None,
    usage: dict[str, Any] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    step: dict[str, Any] = {
        "step_id": n,
        "source": "agent",
        "model_name": "model-x",
        "message": text,
    }
    if at is not None:
        step["timestamp"] = ts(at)
    if reasoning is not None:
        step["reasoning_content"] = reasoning
    if calls is not None:
        step["tool_calls"] = calls
    if results is not None:
        step["observation"] = {"results": results}
    if usage is not None:
        step["metrics"] = usage
    return {**step, **extra}


def trajectory(
    steps: list[dict[str, Any]],
    *,
    version: str = "ATIF-v1.7",
    session: str = "sess-0001",
    agent_name: str = "terminus-2",
    final: dict[str, Any] | None = None,
    **root: Any,
) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "schema_version": version,
        "session_id": session,
        "agent": {"name": agent_name, "version": "1.0.0", "model_name": "provider/model-x"},
        "steps": steps,
    }
    if final is not None:
        doc["final_metrics"] = final
    doc.update(root)
    return doc


def fix_bug(version: str = "ATIF-v1.7") -> dict[str, Any]:
    """A user task, an agent step with two calls (a read, a failing command), an answer."""
    return trajectory(
        [
            user(1, "Fix the failing test in calc.py", at=0),
            agent(
                2,
                "Let me look at the code.",
                reasoning="The test fails on division; read the file first.",
                calls=[
                    call("call_1", "read_file", path="calc.py"),
                    call("call_2", "bash", command="pytest -q"),
                ],
                results=[
                    result("call_1", "def div(a, b):\n    return a * b\n"),
                    result("call_2", "1 failed", extra={"is_error": True}),
                ],
                usage=metrics(1200, 80, 1000, 0.004),
                at=3.5,
            ),
            agent(
                3,
                "",
                calls=[call("call_3", "edit_file", path="calc.py", new="return a / b")],
                results=[result("call_3", "edited")],
                usage=metrics(1400, 40, 1200, 0.003),
                at=7,
            ),
            agent(
                4,
                "Fixed: `div` multiplied instead of dividing.",
                usage=metrics(1500, 20, 1400, 0.002),
                at=9.25,
            ),
        ],
        version=version,
        final={
            "total_prompt_tokens": 4100,
            "total_completion_tokens": 140,
            "total_cached_tokens": 3600,
            "total_cost_usd": 0.009,
            "total_steps": 4,
        },
    )


def trial_result(
    trial: str,
    task: str,
    *,
    rewards: dict[str, Any] | None = None,
    exception: str | None = None,
    started: str = "2026-03-01T10:00:00Z",
    finished: str = "2026-03-01T10:02:30Z",
    cost: float | None = None,
) -> dict[str, Any]:
    """A trial's result.json (keys in Harbor's order)."""
    return {
        "id": "00000000-0000-4000-8000-000000000001",
        "task_name": task,
        "trial_name": trial,
        "trial_uri": f"file:///jobs/job-1/{trial}",
        "task_id": {"path": f"tasks/{task}"},
        "source": "demo-set",
        "task_checksum": "0" * 64,
        "config": {"trial_name": trial, "agent": {"name": "terminus-2"}},
        "agent_info": {
            "name": "terminus-2",
            "version": "1.0.0",
            "model_info": {"name": "model-x", "provider": "provider"},
        },
        "agent_result": {
            "n_input_tokens": 4100,
            "n_cache_tokens": 3600,
            "n_output_tokens": 140,
            "cost_usd": cost,
        },
        "verifier_result": None if rewards is None else {"rewards": rewards},
        "exception_info": None
        if exception is None
        else {
            "exception_type": exception,
            "exception_message": "Agent execution timed out after 900 seconds",
            "exception_traceback": "Traceback (most recent call last):\n  ...\n",
            "occurred_at": finished,
        },
        "started_at": started,
        "finished_at": finished,
    }


def write_json(path: Path, value: Any, *, indent: int | None = 2) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, indent=indent) + "\n", encoding="utf-8")
    return path


def write_trial(
    directory: Path,
    traj: dict[str, Any] | None,
    result_doc: dict[str, Any] | None,
    *,
    extra_files: dict[str, Any] | None = None,
) -> Path:
    """A trial directory: config.json, result.json (unless None: running), agent files."""
    write_json(
        directory / "config.json",
        {
            "trial_name": directory.name,
            "task": {"path": "t"},
            "agent": {"name": "terminus-2"},
            "job_id": "j",
        },
    )
    if result_doc is not None:
        write_json(directory / "result.json", result_doc, indent=4)
    if traj is not None:
        write_json(directory / "agent" / "trajectory.json", traj)
    for name, value in (extra_files or {}).items():
        write_json(directory / "agent" / name, value)
    return directory


def summarized() -> dict[str, Any]:
    """A trajectory whose step 3 hands the context to a summarization subagent (a file
    beside it) and which goes on in trajectory.cont-1.json."""
    return trajectory(
        [
            user(1, "Write the docs for the API"),
            agent(
                2,
                "Reading the API.",
                calls=[call("c1", "bash", keystrokes="ls\n")],
                results=[result("c1", "api.py")],
            ),
            system(
                3,
                "Performed context summarization and handoff to continue task.",
                results=[
                    {
                        "subagent_trajectory_ref": [
                            {
                                "session_id": "sess-0002-summarization-1-summary",
                                "trajectory_path": "trajectory.summarization-1-summary.json",
                                "extra": {"summary": "Context summarization 1: summary"},
                            }
                        ]
                    }
                ],
                extra={"context_management": {"type": "compaction", "boundary": "replace"}},
            ),
        ],
        session="sess-0002",
        continued_trajectory_ref="trajectory.cont-1.json",
    )


def summary_subagent() -> dict[str, Any]:
    return trajectory(
        [user(1, "Summarize the work so far."), agent(2, "So far: read api.py.")],
        session="sess-0002-summarization-1-summary",
        agent_name="terminus-2-summarization-summary",
        final={"total_prompt_tokens": 300, "total_completion_tokens": 12, "total_cost_usd": 0.0005},
    )


def continuation() -> dict[str, Any]:
    return trajectory(
        [
            user(1, "Write the docs for the API", is_copied_context=True),
            user(2, "Here is the summary; continue."),
            agent(3, "Docs written to API.md."),
        ],
        session="sess-0002-cont-1",
    )


def job(directory: Path) -> Path:
    """A Harbor job directory with five trials:

    * ``fix-bug__AAAA111``: passed (reward 1.0), fix_bug() at ATIF-v1.7 (a failed call);
    * ``fix-bug__BBBB222``: AgentTimeoutError, graded 0.0, fix_bug() at ATIF-v1.2;
    * ``add-docs__CCCC333``: rewards {"correctness": 0.75, "quality": 0.9}, a summarization
      subagent file and a continuation segment;
    * ``add-docs__DDDD444``: running (config.json only), its trajectory cut mid-write;
    * ``setup__EEEE555``: RuntimeError before the agent wrote anything.
    """
    write_json(
        directory / "config.json",
        {"job_name": directory.name, "jobs_dir": "jobs", "agents": [{"name": "terminus-2"}]},
    )
    write_json(
        directory / "result.json",
        {
            "id": "job-1",
            "started_at": "2026-03-01T10:00:00",
            "finished_at": None,
            "n_total_trials": 5,
            "stats": {"n_trials": 3, "n_errors": 2, "evals": {}},
        },
    )
    write_trial(
        directory / "fix-bug__AAAA111",
        fix_bug(),
        trial_result("fix-bug__AAAA111", "fix-bug", rewards={"reward": 1.0}),
    )
    write_trial(
        directory / "fix-bug__BBBB222",
        fix_bug("ATIF-v1.2"),
        trial_result(
            "fix-bug__BBBB222",
            "fix-bug",
            rewards={"reward": 0.0},
            exception="AgentTimeoutError",
            finished="2026-03-01T10:15:00Z",
        ),
    )
    write_trial(
        directory / "add-docs__CCCC333",
        summarized(),
        trial_result(
            "add-docs__CCCC333", "add-docs", rewards={"correctness": 0.75, "quality": 0.9}
        ),
        extra_files={
            "trajectory.summarization-1-summary.json": summary_subagent(),
            "trajectory.cont-1.json": continuation(),
        },
    )
    running = write_trial(directory / "add-docs__DDDD444", None, None)
    text = json.dumps(summarized(), indent=2)
    cut = text.index('"source": "system"')  # written up to the middle of step 3
    (running / "agent").mkdir()
    (running / "agent" / "trajectory.json").write_text(text[:cut], encoding="utf-8")
    failed = trial_result("setup__EEEE555", "setup", exception="RuntimeError")
    failed["exception_info"]["exception_message"] = "environment failed to start"
    write_trial(directory / "setup__EEEE555", None, failed)
    return directory


def write_long(path: Path, steps: int, output: str) -> None:
    """A trajectory of a task and ``steps`` agent steps, each with a call whose result is
    ``output`` (step N's output prefixed ``output of step N``), written step by step: the
    big trajectories of memory tests and the bench."""
    head = trajectory([])
    del head["steps"]
    with path.open("w") as f:
        f.write(json.dumps(head, indent=2)[:-2] + ',\n  "steps": [\n')
        f.write(json.dumps(user(1, "Make the suite pass", at=0), indent=2))
        for n in range(2, steps + 2):
            step = agent(
                n,
                f"step {n}: run it",
                calls=[call(f"call_{n}", "bash", command=f"make test-{n}")],
                results=[result(f"call_{n}", f"output of step {n}\n{output}")],
                usage=metrics(100, 10),
                at=n,
            )
            f.write(",\n" + json.dumps(step, indent=2))
        f.write('\n  ],\n  "final_metrics": {"total_prompt_tokens": 12345}\n}\n')
