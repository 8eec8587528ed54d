"""Small mini-swe-agent trajectories of our own, in the shapes the real ``mini`` writes
(``mini-swe-agent-1.1`` with native tool calls and a final ``exit`` message,
``mini-swe-agent-1`` with fenced ```` ```bash ```` actions, the bare list of the oldest
files) and a SWE-bench batch directory (``<instance>/<instance>.traj.json`` with
``preds.json``). Never copies of real runs: invented tasks, commands and numbers.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

T0 = 1795699800.0
TASK = "Please solve this issue: The parser drops the last row of a CSV file.\n\nYou can execute bash commands."
PATCH = "diff --git a/csv.py b/csv.py\n--- a/csv.py\n+++ b/csv.py\n@@ -1 +1 @@\n-rows[:-1]\n+rows\n"
SUBMIT = "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git diff"


def config(model: str = "anthropic/claude-sonnet-4-5", tracking: str = "default") -> dict[str, Any]:
    return {
        "agent": {"system_template": "You are a helpful assistant.", "step_limit": 250},
        "agent_type": "minisweagent.agents.default.DefaultAgent",
        "model": {"model_name": model, "model_kwargs": {}, "cost_tracking": tracking},
        "model_type": "minisweagent.models.litellm_model.LitellmModel",
        "environment": {"image": "docker.io/swebench/sweb.eval.x86_64.pallets__csv-7:latest"},
        "environment_type": "minisweagent.environments.docker.DockerEnvironment",
    }


def usage(prompt: int, completion: int) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "model": "claude-sonnet-4-5",
        "choices": [{"message": {"role": "assistant", "content": "…"}}],
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        },
    }


def call(
    n: int, thought: str, commands: list[str], t: float, tokens: tuple[int, int], cost: float
) -> dict[str, Any]:
    """An assistant message of 1.1 calling ``bash`` once per command."""
    ids = [f"call_{n}_{i}" for i in range(len(commands))]
    return {
        "content": thought,
        "role": "assistant",
        "tool_calls": [
            {
                "function": {"arguments": json.dumps({"command": c}), "name": "bash"},
                "id": i,
                "type": "function",
            }
            for c, i in zip(commands, ids, strict=True)
        ],
        "function_call": None,
        "provider_specific_fields": None,
        "extra": {
            "actions": [
                {"command": c, "tool_call_id": i} for c, i in zip(commands, ids, strict=True)
            ],
            "response": usage(*tokens),
            "cost": cost,
            "timestamp": T0 + t,
        },
    }


def result(call_id: str, output: str, code: int, t: float, exception: str = "") -> dict[str, Any]:
    content = json.dumps({"returncode": code, "output": output}, indent=2)
    return {
        "content": content,
        "extra": {
            "raw_output": output,
            "returncode": code,
            "timestamp": T0 + t,
            "exception_info": exception,
        },
        "tool_call_id": call_id,
        "role": "tool",
    }


def toolcall_run(
    status: str = "Submitted", submission: str = PATCH, *, cost: float = 0.0123
) -> dict[str, Any]:
    """A 1.1 run: a passing call, a failing one, two calls in one turn, then the submit
    (its result recorded as not executed), and the exit message."""
    messages = [
        {
            "role": "system",
            "content": "You are a helpful assistant that can interact with a computer.",
        },
        {"role": "user", "content": TASK},
        call(1, "THOUGHT: look at the parser.", ["cat csv.py"], 1.0, (1000, 40), 0.004),
        result("call_1_0", "rows[:-1]\n", 0, 1.5),
        call(2, "THOUGHT: run the tests.", ["pytest -q", "ls missing"], 2.0, (1200, 50), 0.004),
        result("call_2_0", "1 failed\n", 1, 3.0),
        result("call_2_1", "ls: cannot access 'missing'\n", 2, 3.2),
        {
            "role": "user",
            "content": "Please always provide EXACTLY ONE action.",
            "extra": {"interrupt_type": "FormatError"},
        },
        call(3, "THOUGHT: done.", [SUBMIT], 4.0, (1400, 30), 0.0043),
        result("call_3_0", "", -1, 4.5, "action was not executed"),
        {"role": "exit", "content": "", "extra": {"exit_status": status, "submission": submission}},
    ]
    return {
        "info": {
            "model_stats": {"instance_cost": cost, "api_calls": 3},
            "config": config(),
            "mini_version": "2.4.6",
            "exit_status": status,
            "submission": submission,
        },
        "messages": messages,
        "trajectory_format": "mini-swe-agent-1.1",
    }


def v1_run(status: str = "Submitted", submission: str | None = "") -> dict[str, Any]:
    """A 1.x run: fenced ```bash actions, observations as user messages, no exit message."""
    messages = [
        {"role": "system", "content": "You are a helpful assistant."},
        {
            "role": "user",
            "content": "<pr_description>\nMake greet() say hello.\n</pr_description>",
            "timestamp": T0,
        },
        {
            "role": "assistant",
            "content": "THOUGHT: try it.\n\n```bash\necho hello\n```",
            "timestamp": T0 + 2,
            "extra": {},
        },
        {
            "role": "user",
            "content": "<returncode>0</returncode>\n<output>\nhello\n</output>",
            "timestamp": T0 + 3,
        },
        {
            "role": "assistant",
            "content": "THOUGHT: list.\n\n```bash\nls /nope\n```",
            "timestamp": T0 + 4,
            "extra": {},
        },
        {
            "role": "user",
            "content": "<returncode>2</returncode>\n<output>\nls: /nope: No such file\n</output>",
            "timestamp": T0 + 5,
        },
        {
            "role": "assistant",
            "content": "THOUGHT: submit.\n\n```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```",
            "timestamp": T0 + 6,
            "extra": {},
        },
        {"role": "user", "content": "", "timestamp": T0 + 7},
    ]
    return {
        "info": {
            "exit_status": status,
            "submission": submission,
            "model_stats": {"instance_cost": 0.0, "api_calls": 3},
            "mini_version": "1.17.5",
            "config": config("openai/gpt-5-mini", "ignore_errors"),
        },
        "messages": messages,
        "trajectory_format": "mini-swe-agent-1",
    }


def bare_list() -> list[dict[str, Any]]:
    """The oldest shape: a JSON array of messages, actions in fenced blocks."""
    return [
        {"role": "system", "content": "You are a helpful assistant."},
        {"role": "user", "content": "Please solve this issue: print the date"},
        {"role": "assistant", "content": "Let me see.\n\n```mswea_bash_command\ndate\n```"},
        {"role": "user", "content": "<returncode>0</returncode>\n<output>\nThu Nov 26\n</output>"},
        {
            "role": "assistant",
            "content": "Done.\n\n```mswea_bash_command\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```",
        },
        {"role": "user", "content": ""},
    ]


def write(path: Path, value: Any) -> Path:
    """Written as mini writes it: pretty JSON, indent 2."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, indent=2))
    return path


def batch(root: Path) -> Path:
    """A SWE-bench batch output: two instances with trajectories (one submitted, one
    limited), and preds.json naming a third instance that has none."""
    ids = ("pallets__csv-7", "pallets__csv-9")
    first = toolcall_run()
    first["instance_id"] = ids[0]
    second = toolcall_run("LimitsExceeded", "", cost=0.5)
    second["instance_id"] = ids[1]
    write(root / ids[0] / f"{ids[0]}.traj.json", first)
    write(root / ids[1] / f"{ids[1]}.traj.json", second)
    model = "anthropic/claude-sonnet-4-5"
    preds = {
        i: {"model_name_or_path": model, "instance_id": i, "model_patch": p}
        for i, p in ((ids[0], PATCH), (ids[1], ""), ("pallets__csv-3", PATCH))
    }
    write(root / "preds.json", preds)
    (root / "exit_statuses_1795699900.0.yaml").write_text(
        "instances_by_exit_status:\n  Submitted:\n  - pallets__csv-7\n  LimitsExceeded:\n  - pallets__csv-9\n"
    )
    (root / "minisweagent.log").write_text("batch log\n")
    return root
