"""Small forecast-agent fixtures of our own, in the shapes the real program writes.

Never copies of the samples: invented questions, sources and notes, built from a few
helpers. :func:`fed_run` and :func:`nba_run` are the two scenarios most tests use.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from trajtui.core.model import Run, Step
from trajtui.formats.forecast.board import SourceBoard
from trajtui.formats.forecast.detail import ModelCall, forecast_run, model_call
from trajtui.formats.forecast.pool import MessagePool

T0 = 1_800_000_000.0
"""Epoch seconds of the first timestamp of a fixture run."""

QUESTION = "Will the central bank cut rates in March?"


def system(content: str = "You are a forecasting agent.", **extra: Any) -> dict[str, Any]:
    msg: dict[str, Any] = {"role": "system", "content": content}
    if extra:
        msg["extra"] = extra
    return msg


def board_state(count: int = 0) -> dict[str, Any]:
    body = "(empty)" if not count else '<source board_id="1" title="x">\nNote: n\n</source>'
    return system(f"<source_board>\n{body}\n</source_board>", is_board_state=True)


def user(content: str, **extra: Any) -> dict[str, Any]:
    msg: dict[str, Any] = {"role": "user", "content": content}
    if extra:
        msg["extra"] = extra
    return msg


def problem(title: str = QUESTION) -> dict[str, Any]:
    return user(
        f"<forecast_problem>\nTitle: {title}\nPossible Outcomes: Yes, No\n</forecast_problem>\n\n"
        "Research this problem, then submit."
    )


def truncation(n: int = 2) -> dict[str, Any]:
    return user(
        f"[Context truncated: {n} earlier messages have been omitted.]",
        is_truncation_notice=True,
    )


def format_error() -> dict[str, Any]:
    return user(
        "Error: No tool call found in the response. Please make a valid tool call.",
        interrupt_type="FormatError",
    )


def assistant(
    content: str | None,
    calls: list[tuple[str, str, dict[str, Any]]],
    ts: float,
    *,
    cost: float = 0.0004,
    prompt_tokens: int = 2000,
    completion_tokens: int = 150,
) -> dict[str, Any]:
    """An assistant message: ``calls`` are ``(call_id, name, arguments)``."""
    tool_calls = [
        {
            "function": {"arguments": json.dumps(args), "name": name},
            "id": cid,
            "type": "function",
        }
        for cid, name, args in calls
    ]
    body = {"content": content, "role": "assistant", "tool_calls": tool_calls}
    return {
        **body,
        "function_call": None,
        "extra": {
            "actions": [
                {"name": name, "arguments": json.dumps(args), "tool_call_id": cid}
                for cid, name, args in calls
            ],
            "response": {
                "id": "resp-1",
                "model": "test-model-1",
                "choices": [{"finish_reason": "tool_calls", "index": 0, "message": body}],
                "usage": {
                    "completion_tokens": completion_tokens,
                    "prompt_tokens": prompt_tokens,
                    "total_tokens": prompt_tokens + completion_tokens,
                },
            },
            "cost": cost,
            "timestamp": ts,
        },
    }


def tool(call_id: str, output: str, ts: float, *, error: bool = False) -> dict[str, Any]:
    tag = "error" if error else "output"
    return {
        "content": f"<{tag}>\n{output}\n</{tag}>",
        "extra": {
            "error": error,
            "search_cost": 0.005 if "search" in output else 0.0,
            "timestamp": ts,
        },
        "role": "tool",
        "tool_call_id": call_id,
    }


def search_results(*ids: int) -> str:
    rows = [
        f'<result id="S{i}" title="Story {i}" url="https://news.example/{i}">\n'
        f"Date: 2026-02-0{i}\nSnippet: snippet {i}\n</result>"
        for i in ids
    ]
    return f'<search_results count="{len(ids)}">\n' + "\n".join(rows) + "\n</search_results>"


@dataclass
class Trajectory:
    """A run's messages with their keys, and its steps (input keys, output key)."""

    messages: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    steps: list[tuple[list[str], str]] = field(default_factory=list)
    fmt: str = "mini-prophet-v0.1.6"

    def to_json(self) -> dict[str, Any]:
        return {
            "messages": [{"key": k, "message": m} for k, m in self.messages],
            "steps": [{"input": i, "output": o} for i, o in self.steps],
            "trajectory_format": self.fmt,
        }

    def plain(self) -> list[dict[str, Any]]:
        """The messages without keys (for the single-file shape)."""
        return [m for _, m in self.messages]


def fed_run(first: int = 0) -> Trajectory:
    """Three model calls: a search, add_source, then submit after a context truncation.

    Keys count from ``first`` (0 as the real recorder does, 1 for the variant).
    """

    def k(prefix: str, n: int) -> str:
        return f"{prefix}{n + first}"

    s0, u0, s1, a0, s2, t0, a1, s3, u1, t1, a2 = (
        k("S", 0), k("U", 0), k("S", 1), k("A", 0), k("S", 2), k("T", 0),
        k("A", 1), k("S", 3), k("U", 1), k("T", 1), k("A", 2),
    )  # fmt: skip
    return Trajectory(
        messages=[
            (s0, system()),
            (u0, problem()),
            (s1, board_state()),
            (a0, assistant("Searching first.", [("call_1", "search", {"query": "rate cut march"})], T0)),
            (s2, board_state()),
            (t0, tool("call_1", search_results(1, 2), T0 + 0.5)),
            (a1, assistant(None, [("call_2", "add_source", {"source_id": "S1", "note": "hold"})], T0 + 2.0)),
            (s3, board_state(1)),
            (u1, truncation()),
            (t1, tool("call_2", "Source S1 added to board as #1.", T0 + 2.25)),
            (a2, assistant("Hold is likely.", [("call_3", "submit", {"probabilities": {"Yes": 0.2, "No": 0.8}})], T0 + 3.5)),
        ],
        steps=[
            ([s0, u0, s1], a0),
            ([s0, u0, s2, a0, t0], a1),
            ([s0, u0, s3, u1, a1, t1], a2),
        ],
    )  # fmt: skip


def nba_run() -> Trajectory:
    """Two model calls: a bad add_source (tool error), a FormatError reply, then submit."""
    return Trajectory(
        messages=[
            ("S0", system()),
            ("U0", problem("Which team wins the finals?")),
            ("S1", board_state()),
            ("A0", assistant(None, [("c1", "add_source", {"source_id": "S99"})], T0)),
            ("S2", board_state()),
            ("T0", tool("c1", "Error: unknown source_id 'S99'.", T0 + 0.5, error=True)),
            ("U1", format_error()),
            ("A1", assistant("Done.", [("c2", "submit", {"probabilities": {"A": 1.0}})], T0 + 3.0)),
        ],
        steps=[(["S0", "U0", "S1"], "A0"), (["S0", "U0", "S2", "A0", "T0", "U1"], "A1")],
    )


def info(
    exit_status: str = "submitted",
    *,
    total_cost: float = 0.0123,
    submission: Any = None,
    evaluation: Any = None,
    board: list[Any] | None = None,
    version: str = "0.1.6",
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "cost_stats": {
            "model_cost": total_cost - 0.01,
            "search_cost": 0.01,
            "total_cost": total_cost,
            "n_api_calls": 3,
            "n_searches": 1,
        },
        "config": {"agent": {"step_limit": 12}, "model": {"model_name": "test-model"}},
        "version": version,
        "exit_status": exit_status,
        "submission": submission if submission is not None else ({"Yes": 0.2, "No": 0.8} if exit_status == "submitted" else ""),
        "evaluation": evaluation if evaluation is not None else {},
    }  # fmt: skip
    if board is not None:
        out["board"] = board
    return out


def source_row(i: int, **extra: Any) -> dict[str, Any]:
    return {
        "url": f"https://news.example/{i}",
        "title": f"Story {i}",
        "snippet": f"snippet {i}",
        "date": f"2026-02-0{i}",
        **extra,
    }


def sources(*ids: int, board: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {
        "sources": {f"S{i}": source_row(i) for i in ids},
        "source_board": board
        if board is not None
        else [
            {"source_id": "S1", "note": "hold", "reaction": {"Yes": "negative", "No": "positive"}}
        ],
    }


def write_json(path: Path, value: Any, *, cut: int | None = None) -> Path:
    """Write pretty JSON as the agent does; ``cut`` keeps only the first bytes (half-written)."""
    data = json.dumps(value, indent=2).encode()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data[:cut] if cut is not None else data)
    return path


def run_dir(
    path: Path,
    trajectory: Trajectory | None = None,
    *,
    run_info: dict[str, Any] | None = None,
    run_sources: dict[str, Any] | None = None,
    with_sources: bool = True,
) -> Path:
    """Write a run directory: info.json, trajectory.json and (0.1.6) sources.json."""
    write_json(path / "info.json", run_info if run_info is not None else info())
    write_json(path / "trajectory.json", (trajectory or fed_run()).to_json())
    if with_sources:
        write_json(path / "sources.json", run_sources if run_sources is not None else sources(1, 2))
    return path


def entry(
    rid: str,
    status: str = "submitted",
    *,
    id_key: str = "run_id",
    brier: float | None = None,
    error: str | None = None,
    total: float = 0.0123,
    output_dir: str | None = None,
    title: str = QUESTION,
) -> dict[str, Any]:
    """One ``runs`` entry of summary.json."""
    return {
        id_key: rid,
        "title": title,
        "status": status,
        "cost": {"model": total - 0.01, "search": 0.01, "total": total},
        "submission": {"Yes": 0.2, "No": 0.8} if status == "submitted" else None,
        "evaluation": {"brier_score": brier} if brier is not None else None,
        "error": error,
        "output_dir": output_dir if output_dir is not None else f"runs/{rid}",
    }


def summary(runs: list[dict[str, Any]], *, config_key: str = "eval_config") -> dict[str, Any]:
    out: dict[str, Any] = {config_key: {"model": {"model_name": "test-model"}}}
    if config_key == "eval_config":
        out["eval"] = {"dataset_name": "tasks", "agent_name": "default"}
    out["total_cost"] = sum(r["cost"]["total"] for r in runs)
    out["runs"] = runs
    return out


def single_file(path: Path, trajectory: Trajectory | None = None, **info_args: Any) -> Path:
    """Write a single-file (mini-llm-prophet-1.0) trajectory: info, plain messages, format."""
    traj = trajectory or fed_run()
    run_info = info(version="0.1.2", **info_args)
    run_info["board"] = [
        {
            "id": 1,
            "source_id": "S1",
            "source": source_row(1),
            "note": "hold",
            "reaction": {"Yes": "negative"},
        }
    ]
    messages = [*traj.plain(), {"role": "exit", "content": "", "extra": {"exit_status": run_info["exit_status"], "submission": run_info["submission"]}}]  # fmt: skip
    doc = {"info": run_info, "messages": messages, "trajectory_format": "mini-llm-prophet-1.0"}
    return write_json(path, doc)


# -- reading a forecast run's own objects (Run.detail, Step.detail) in tests -------------------


def pool_of(run: Run) -> MessagePool:
    """The message pool of a forecast run (the test fails when it has none)."""
    pool = forecast_run(run).pool
    assert pool is not None, f"{run.ref} has no message pool"
    return pool


def board_of(run: Run) -> SourceBoard:
    """The source board of a forecast run (the test fails when it has none)."""
    board = forecast_run(run).board
    assert board is not None, f"{run.ref} has no source board"
    return board


def call_of(step: Step) -> ModelCall:
    """The model call a forecast step is (the test fails for any other step)."""
    call = model_call(step)
    assert call is not None, f"{step.ref} is not a forecast model call"
    return call


def fed_eval(directory: Path) -> Path:
    """An eval directory of one run, ``fed`` (its summary and its run directory)."""
    write_json(directory / "summary.json", summary([entry("fed", brier=0.05)]))
    run_dir(directory / "runs" / "fed", fed_run())
    return directory
