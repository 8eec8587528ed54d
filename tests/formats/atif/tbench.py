"""A terminal-bench job of our own, in the shape Harbor writes it: k attempts of each task,
the verifier's tests (CTRF reports), the job's figures. Built from :mod:`.builders`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.formats.atif.builders import (
    agent,
    call,
    result,
    trajectory,
    trial_result,
    user,
    write_json,
    write_trial,
)

REDACTED = "<<evallab-redacted: 2135 bytes, sha256:" + "9f2c" * 16 + ">>"
"""A first message as a redacting exporter leaves it (every trial's the same)."""

TB_TASKS = (
    "terminal-bench-html-js-filter-xss",
    "terminal-bench-html-js-fetch-retry",
    "terminal-bench-html-js-form-validate",
)
"""Three tasks whose names share their first 24 characters (Harbor cuts a task name to 32
for its trial names)."""


def ctrf_test(
    name: str, status: str = "passed", *, message: str | None = None, trace: str | None = None
) -> dict[str, Any]:
    """One test as pytest-json-ctrf writes it (``raw_status`` and a generic ``message`` on a
    failure, the assertion in ``trace``)."""
    test: dict[str, Any] = {
        "name": name,
        "status": status,
        "duration": 0.0011,
        "start": 1784212054.99,
        "stop": 1784212055.02,
        "retries": 0,
        "file_path": "test_outputs.py",
    }
    if status == "failed":
        test["raw_status"] = "call_failed"
        test["trace"] = trace or f"/tests/test_outputs.py:7: in {name}\nE   assert False"
        test["message"] = message or "The test failed in the call phase due to an assertion error"
    return test


def ctrf(tests: list[dict[str, Any]]) -> dict[str, Any]:
    """A ``verifier/ctrf.json`` (pytest-json-ctrf 0.3: no ``reportFormat`` key)."""
    statuses = [t["status"] for t in tests]
    return {
        "results": {
            "tool": {"name": "pytest", "version": "8.4.1"},
            "summary": {
                "tests": len(tests),
                "passed": statuses.count("passed"),
                "failed": statuses.count("failed"),
                "skipped": statuses.count("skipped"),
                "pending": 0,
                "other": 0,
                "start": 1784212054.96,
                "stop": 1784212055.07,
            },
            "tests": tests,
        }
    }


def tb_trial(
    directory: Path,
    task: str,
    suffix: str,
    reward: float | None,
    tests: list[dict[str, Any]] | None,
    *,
    exception: str | None = None,
    cost: float = 0.009,
) -> Path:
    """One attempt of ``task``: its first message redacted, its verifier's tests."""
    name = f"{task[:32]}__{suffix}"
    traj = trajectory(
        [
            user(1, REDACTED, at=0),
            agent(
                2, "", calls=[call("c1", "bash", keystrokes="ls\n")], results=[result("c1", "a")]
            ),
            agent(3, "Done.", at=5),
        ],
        final={"total_prompt_tokens": 2000, "total_completion_tokens": 100, "total_cost_usd": cost},
    )
    doc = trial_result(
        name,
        task,
        rewards=None if reward is None else {"reward": reward},
        exception=exception,
        cost=cost,
    )
    doc["source"] = "terminal-bench"
    trial = write_trial(directory / name, traj, doc)
    if exception is not None:
        doc["exception_info"]["exception_message"] = "docker compose up failed"
        write_json(trial / "result.json", doc, indent=4)
    if tests is not None:
        write_json(trial / "verifier" / "ctrf.json", ctrf(tests), indent=4)
        (trial / "verifier" / "reward.txt").write_text(f"{int(reward or 0)}\n", encoding="utf-8")
    return trial


def tb_job(directory: Path) -> Path:
    """A terminal-bench job, 2 attempts of each of :data:`TB_TASKS`:

    * filter-xss: fails ``test_filter_blocks_xss`` (reward 0), then passes (reward 1);
    * fetch-retry: passes twice;
    * form-validate: fails ``test_rejects_empty_email`` (reward 0), then a RuntimeError
      before the verifier ran (no reward).

    Its ``result.json`` is Harbor's (``n_completed_trials`` era): ``pass_at_k`` {"2": 2/3}
    (Harbor counts the attempt without a reward as failed), 1 error, its cost.
    """
    xss, fetch, form = TB_TASKS
    ok = [ctrf_test("test_outputs.py::test_page_loads")]
    failing_xss = ctrf_test(
        "test_outputs.py::test_filter_blocks_xss",
        "failed",
        trace="/tests/test_outputs.py:21: in test_filter_blocks_xss\n"
        '    assert "<script>" not in out\nE   AssertionError: <script> tag survived the filter',
    )
    failing_form = ctrf_test(
        "test_outputs.py::test_rejects_empty_email",
        "failed",
        message="The test failed in the call phase",
        trace="E   FileNotFoundError: [Errno 2] No such file or directory: '/app/form.js'",
    )
    trials = [
        tb_trial(directory, xss, "Ab3dE9k", 0.0, [*ok, failing_xss]),
        tb_trial(directory, xss, "Qw7rT2m", 1.0, [*ok, ctrf_test(failing_xss["name"])]),
        tb_trial(directory, fetch, "Zx9cV4b", 1.0, ok),
        tb_trial(directory, fetch, "Lk2jH8g", 1.0, ok),
        tb_trial(directory, form, "Mn5bV1c", 0.0, [failing_form]),
        tb_trial(directory, form, "Po0iU7y", None, None, exception="RuntimeError"),
    ]
    names = [t.name for t in trials]
    write_json(
        directory / "config.json",
        {"job_name": directory.name, "jobs_dir": "jobs", "n_attempts": 2, "agents": []},
    )
    write_json(
        directory / "result.json",
        {
            "id": "00000000-0000-4000-8000-00000000000a",
            "started_at": "2026-03-01T10:00:00",
            "updated_at": "2026-03-01T10:20:00",
            "finished_at": "2026-03-01T10:20:00",
            "n_total_trials": 6,
            "stats": {
                "n_completed_trials": 6,
                "n_errored_trials": 1,
                "n_running_trials": 0,
                "n_pending_trials": 0,
                "n_cancelled_trials": 0,
                "n_retries": 0,
                "evals": {
                    "terminus-2__model-x__terminal-bench": {
                        "n_trials": 5,
                        "n_errors": 1,
                        "metrics": [{"mean": 0.5}],
                        "pass_at_k": {"2": 2 / 3},
                        "reward_stats": {
                            "reward": {
                                "0.0": [names[0], names[4]],
                                "1.0": [names[1], names[2], names[3]],
                            }
                        },
                        "exception_stats": {"RuntimeError": [names[5]]},
                    }
                },
                "n_input_tokens": 24600,
                "n_cache_tokens": 21600,
                "n_output_tokens": 840,
                "cost_usd": 0.054,
            },
            "trial_results": [],
        },
    )
    return directory
