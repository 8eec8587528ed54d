"""Small SWE-agent trajectories of our own, in the shapes SWE-agent writes: 1.1 (function
calling, ``tool`` history messages, ``replay_config`` a JSON string, ``query`` on every
step), 0.x (``state`` a JSON string, text actions ending in a newline, demonstrations in
the history), a cost-limited run (its synthetic last step), a history-only demonstration,
a RetryAgent file (``attempts``) and the run and batch directories (``.pred``,
``preds.json``). Never copies of real runs: invented tasks, commands and numbers.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

TASK = "Say hello and create hello.py"
PATCH = "diff --git a/hello.py b/hello.py\nnew file mode 100644\n--- /dev/null\n+++ b/hello.py\n@@ -0,0 +1 @@\n+print(1)\n"
PROMPT = (
    "<uploaded_files>\n/repo\n</uploaded_files>\nI've uploaded a python code repository. "
    f"Consider the following PR description:\n\n<pr_description>\n{TASK}\n</pr_description>\n\nCan you help me?"
)


def replay_config(model: str = "anthropic/claude-sonnet-4-5") -> str:
    return json.dumps(
        {"env": {"deployment": {"type": "docker"}}, "agent": {"model": {"name": model}}}
    )


def item(
    action: str, observation: str, thought: str, seconds: float, query: int = 0
) -> dict[str, Any]:
    return {
        "action": action,
        "observation": observation,
        "response": thought,
        "thought": thought,
        "execution_time": seconds,
        "state": {"working_dir": "/repo"},
        "query": [{"role": "user", "content": "x" * 50} for _ in range(query)],
        "extra_info": {},
    }


def history(actions: list[tuple[str, str, str]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [
        {
            "role": "system",
            "content": "You are a helpful assistant.",
            "agent": "main",
            "message_type": "system_prompt",
        },
        {
            "role": "user",
            "content": [{"type": "text", "text": PROMPT}],
            "agent": "main",
            "message_type": "observation",
        },
    ]
    for n, (thought, action, obs) in enumerate(actions):
        call = f"call_{n}"
        out.append(
            {
                "role": "assistant",
                "content": thought,
                "thought": thought,
                "action": action,
                "agent": "main",
                "tool_calls": [
                    {
                        "function": {"arguments": json.dumps({"command": action}), "name": "bash"},
                        "id": call,
                        "type": "function",
                    }
                ],
                "message_type": "action",
            }
        )
        out.append(
            {
                "role": "tool",
                "content": [{"type": "text", "text": f"OBSERVATION:\n{obs}"}],
                "agent": "main",
                "message_type": "observation",
                "tool_call_ids": [call],
            }
        )
    return out


STEPS_11 = [
    ("THOUGHT: say hello.", "echo hello", "\r\nhello\n\r\n"),
    (
        "THOUGHT: list.",
        "ls /definitely/missing",
        "ls: cannot access '/definitely/missing': No such file or directory\n",
    ),
    (
        "THOUGHT: write it.",
        "str_replace_editor create /repo/hello.py --file_text 'print(1)'",
        "File created successfully",
    ),
    ("THOUGHT: submit.", "submit", PATCH),
]


def v11_run(
    status: str | None = "submitted",
    cost: float = 0.0421,
    model: str = "anthropic/claude-sonnet-4-5",
) -> dict[str, Any]:
    info: dict[str, Any] = {
        "swe_agent_hash": "unavailable",
        "swe_agent_version": "1.1.0",
        "swe_rex_version": "1.4.0",
        "swe_rex_hash": "unavailable",
        "submission": PATCH,
        "exit_status": status,
        "edited_files30": "",
        "model_stats": {
            "instance_cost": cost,
            "tokens_sent": 5200,
            "tokens_received": 180,
            "api_calls": 4,
        },
    }
    if status is None:
        del info["exit_status"], info["submission"]
    return {
        "trajectory": [
            item(a, o, t, 0.25 * (n + 1), query=n + 2) for n, (t, a, o) in enumerate(STEPS_11)
        ],
        "history": history(STEPS_11),
        "info": info,
        "replay_config": replay_config(model),
        "environment": "main",
    }


def limited_run() -> dict[str, Any]:
    steps = STEPS_11[:2]
    traj = [item(a, o, t, 0.5) for t, a, o in steps]
    traj.append(
        {
            "action": "",
            "observation": "",
            "response": "Exit due to cost limit",
            "thought": "Exit due to cost limit",
            "execution_time": 0.0,
            "state": {},
            "extra_info": {},
        }
    )
    return {
        "trajectory": traj,
        "history": history(steps),
        "info": {
            "swe_agent_version": "1.1.0",
            "submission": None,
            "exit_status": "exit_cost",
            "edited_files30": "Empty. No edited files found.",
            "model_stats": {
                "instance_cost": 0,
                "tokens_sent": 1033,
                "tokens_received": 24,
                "api_calls": 3,
            },
        },
        "replay_config": replay_config("openai/gpt-mock"),
        "environment": "main",
    }


def v0_run() -> dict[str, Any]:
    """0.x: no replay_config, state a JSON string, actions ending in a newline, a demonstration
    first in the history, model_stats with total_cost."""
    issue = "We're currently solving the following issue within our repository. Here's the issue text:\nISSUE:\nDivision by zero in ratio()\n\nINSTRUCTIONS:\nsolve it"
    acts = [
        ("open ratio.py\n", "[File: ratio.py (3 lines total)]"),
        ("edit 2:2\n    return a / b if b else 0\nend_of_edit\n", "File updated."),
        ("submit\n", PATCH),
    ]
    return {
        "environment": "swe_main",
        "trajectory": [
            {
                "action": a,
                "observation": o,
                "response": f"DISCUSSION\nstep {n}\n\n```\n{a}```",
                "state": '{"open_file": "n/a", "working_dir": "/repo"}\n',
                "thought": f"DISCUSSION\nstep {n}\n\n",
            }
            for n, (a, o) in enumerate(acts)
        ],
        "history": [
            {
                "role": "system",
                "content": "SETTING: you are an autonomous programmer.",
                "agent": "primary",
            },
            {
                "role": "user",
                "content": "Here is a demonstration ... --- DEMONSTRATION --- ...",
                "agent": "primary",
                "is_demo": True,
            },
            {"role": "user", "content": issue, "agent": "primary"},
        ],
        "info": {
            "exit_status": "submitted",
            "submission": PATCH,
            "model_stats": {
                "total_cost": 3.2,
                "instance_cost": 0.53,
                "tokens_sent": 52000,
                "tokens_received": 320,
                "api_calls": 3,
            },
        },
    }


def history_only() -> dict[str, Any]:
    return {"history": history(STEPS_11[:2])}


def retry_run() -> dict[str, Any]:
    """A RetryAgent file: two attempts, the second the best."""
    first = v11_run("exit_format", 0.01)
    second = v11_run("submitted", 0.02)
    return {
        "attempts": [{k: a[k] for k in ("trajectory", "history", "info")} for a in (first, second)],
        "info": {
            "exit_status": "submitted",
            "submission": PATCH,
            "best_attempt_idx": 1,
            "model_stats": {
                "instance_cost": 0.03,
                "tokens_sent": 10400,
                "tokens_received": 360,
                "api_calls": 8,
            },
        },
        "replay_config": replay_config(),
        "environment": "main",
    }


def write(path: Path, value: Any) -> Path:
    """Written as SWE-agent writes it: pretty JSON, indent 2."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, indent=2))
    return path


def pred(path: Path, instance: str, patch: str | None, model: str = "swe-out") -> Path:
    return write(path, {"model_name_or_path": model, "instance_id": instance, "model_patch": patch})


def run_dir(out: Path, instance: str = "f80e54", run: dict[str, Any] | None = None) -> Path:
    """``sweagent run`` output: OUT/<id>/<id>.traj, .pred, .patch and config.yaml."""
    d = out / instance
    write(d / f"{instance}.traj", run if run is not None else v11_run())
    pred(d / f"{instance}.pred", instance, PATCH)
    (d / f"{instance}.patch").write_text(PATCH)
    (d / "config.yaml").write_text("agent:\n  model:\n    name: anthropic/claude-sonnet-4-5\n")
    (d / f"{instance}.info.log").write_text("INFO run\n")
    return d


def batch(out: Path) -> Path:
    """``sweagent run-batch`` output: instance directories and preds.json."""
    run_dir(out, "django__django-1", v11_run())
    run_dir(out, "django__django-2", limited_run())
    write(
        out / "preds.json",
        {
            i: {"model_name_or_path": "swe-out", "instance_id": i, "model_patch": p}
            for i, p in (("django__django-1", PATCH), ("django__django-2", None))
        },
    )
    (out / "run_batch_exit_statuses.yaml").write_text(
        "instances_by_exit_status:\n  submitted:\n  - django__django-1\n"
    )
    return out
