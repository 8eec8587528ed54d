# mypy: ignore-errors
"""Run the real mini-swe-agent offline and print what the agent itself counted (dev-only).

Run by ``tests/upstream`` with the upstream venv's python (``make upstream-check``):
``python write_mini.py OUT.traj.json WORKDIR`` runs mini-swe-agent's DefaultAgent with its
own scripted test model (``DeterministicToolcallModel``) and the local environment in
WORKDIR: a command that works, one that fails, then the submission. It prints one JSON
line of the agent's own counts.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import yaml
from minisweagent import __version__, package_dir
from minisweagent.agents.default import DefaultAgent
from minisweagent.environments.local import LocalEnvironment
from minisweagent.models.test_models import DeterministicToolcallModel, make_toolcall_output


def call(n: int, command: str) -> dict:
    cid = f"call_{n}"
    return make_toolcall_output(
        f"Step {n}: run {command!r}.",
        [
            {
                "id": cid,
                "type": "function",
                "function": {"name": "bash", "arguments": json.dumps({"command": command})},
            }
        ],
        [{"command": command, "tool_call_id": cid}],
    )


if __name__ == "__main__":
    out, workdir = Path(sys.argv[1]), sys.argv[2]
    config = yaml.safe_load((Path(package_dir) / "config" / "mini.yaml").read_text())
    model = DeterministicToolcallModel(
        outputs=[
            call(1, "echo hello"),
            call(2, "ls /nonexistent-upstream-check-dir"),
            call(3, "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && echo done"),
        ]
    )
    agent_config = {**config["agent"], "output_path": out}
    agent = DefaultAgent(model, LocalEnvironment(cwd=workdir), **agent_config)
    result = agent.run("Say hello, list a missing dir, then submit.")
    observations = [m for m in agent.messages if m.get("role") == "tool"]
    print(
        json.dumps(
            {
                "version": __version__,
                "format": json.loads(out.read_text()).get("trajectory_format"),
                "exit_status": result.get("exit_status"),
                "submission": result.get("submission"),
                "messages": len(agent.messages),
                "api_calls": agent.n_calls,
                "cost": agent.cost,
                "tool_calls": sum(
                    len(m.get("extra", {}).get("actions", []))
                    for m in agent.messages
                    if m.get("role") == "assistant"
                ),
                "observations": len(observations),
                "failed": sum(
                    1 for m in observations if m.get("extra", {}).get("returncode") not in (0, -1)
                ),
            }
        )
    )
