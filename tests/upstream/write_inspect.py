# mypy: ignore-errors
"""Run the real Inspect AI offline and print what its own API reads back (dev-only).

Run by ``tests/upstream`` with the upstream venv's python (``make upstream-check``):
``python write_inspect.py LOG_DIR`` writes one ``.eval`` and one ``.json`` log of a tiny
task (3 samples x 2 epochs, a tool call, two scorers, one sample that errors) with
``mockllm/model``, then prints, as one JSON line per log, what ``read_eval_log`` reads.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from inspect_ai import Task, eval, task
from inspect_ai.dataset import Sample
from inspect_ai.event import ToolEvent
from inspect_ai.log import read_eval_log
from inspect_ai.model import ModelOutput, get_model
from inspect_ai.model._model import ModelAPI
from inspect_ai.scorer import includes, match
from inspect_ai.solver import generate, solver, use_tools
from inspect_ai.tool import ToolError, tool


# Inspect counts a tool definition's tokens with tiktoken, which downloads its vocabulary on
# first use: offline every sample would fail. About 4 characters a token instead.
async def _offline_count(self, text: str) -> int:
    return max(1, len(text) // 4)


ModelAPI.count_text_tokens = _offline_count


@tool
def add():
    async def execute(x: int, y: int):
        """Add two numbers.

        Args:
            x: First number.
            y: Second number.
        """
        if x < 0:
            raise ToolError("negative numbers are not supported")
        return x + y

    return execute


def outputs():
    """The model's answers, per generate() call in order (max_samples=1: one at a time)."""
    seq = []
    for answer in ("2", "3"):  # epoch 1 right, epoch 2 wrong
        seq += [
            ModelOutput.for_tool_call("mockllm/model", "add", {"x": 1, "y": 1}),
            ModelOutput.from_content("mockllm/model", f"The answer is {answer}"),
            ModelOutput.for_tool_call("mockllm/model", "add", {"x": -1, "y": 1}),
            ModelOutput.from_content("mockllm/model", "hello"),
        ]
    return seq


@solver
def boom():
    async def solve(state, generate):
        if state.metadata.get("boom"):
            raise RuntimeError("sample failed on purpose")
        return state

    return solve


@task
def tiny():
    return Task(
        dataset=[
            Sample(id="s1", input="What is 1+1?", target="2"),
            Sample(id=2, input="Say hello", target="hello", metadata={"kind": "greet"}),
            Sample(id="s3", input="This one errors", target="x", metadata={"boom": True}),
        ],
        solver=[boom(), use_tools(add()), generate()],
        scorer=[match(), includes()],
    )


def counts(path: str) -> dict:
    log = read_eval_log(path)
    samples = []
    for s in log.samples or []:
        tools = [e for e in s.events if isinstance(e, ToolEvent)]
        samples.append(
            {
                "id": str(s.id),
                "epoch": s.epoch,
                "error": s.error is not None,
                "scores": {k: v.value for k, v in (s.scores or {}).items()},
                "messages": len(s.messages),
                "tool_calls": len(tools),
                "tool_errors": sum(1 for e in tools if e.error is not None),
            }
        )
    return {
        "path": path,
        "version": log.version,
        "status": log.status,
        "epochs": log.eval.config.epochs,
        "samples": samples,
    }


if __name__ == "__main__":
    log_dir = Path(sys.argv[1])
    for fmt in ("eval", "json"):
        model = get_model("mockllm/model", custom_outputs=outputs())
        (log,) = eval(
            tiny(),
            model=model,
            epochs=2,
            log_dir=str(log_dir / fmt),
            log_format=fmt,
            max_samples=1,
            display="none",
            fail_on_error=False,
        )
        print(json.dumps(counts(log.location)))
