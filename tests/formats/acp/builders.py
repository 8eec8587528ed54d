"""Small fixtures of our own, in the shapes of the real files (never copies of the samples)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from trajtui.core.model import RunSummary
from trajtui.core.source import Source

START = 1_769_000_000_000


def step_message(content: str, ts: int, **extra: Any) -> dict[str, Any]:
    return {"type": "message", "content": content, "timestamp": ts, **extra}


def step_thought(content: str, ts: int, **extra: Any) -> dict[str, Any]:
    return {"type": "thought", "content": content, "timestamp": ts, **extra}


def step_tool(name: str, status: str, ts: int, **extra: Any) -> dict[str, Any]:
    return {"type": "tool_call", "name": name, "status": status, "timestamp": ts, **extra}


def capture(
    rid: str,
    trajectory: list[Any] | None = None,
    *,
    input: Any = "Find the CEO of Anthropic",
    output: str = "Dario Amodei",
    tool_errors: bool | None = False,
    score: dict[str, Any] | None = None,
    errors: list[str] | None = None,
    metadata: dict[str, Any] | None = None,
    duration: int = 1234,
    **extra: Any,
) -> dict[str, Any]:
    rec: dict[str, Any] = {
        "id": rid,
        "input": input,
        "output": output,
        "trajectory": trajectory
        if trajectory is not None
        else [
            step_thought("I'll search for it", 100),
            step_tool(
                "WebSearch",
                "completed",
                150,
                input={"query": "anthropic ceo"},
                output="Dario",
                duration=234,
            ),
            step_message("Dario Amodei", 500),
        ],
        "metadata": metadata if metadata is not None else {"category": "ui"},
        "timing": {"start": START, "end": START + duration},
    }
    if tool_errors is not None:
        rec["toolErrors"] = tool_errors
    if score is not None:
        rec["score"] = score
    if errors is not None:
        rec["errors"] = errors
    rec.update(extra)
    return rec


def trials(
    rid: str, results: list[bool | None], *, with_rates: bool = True, **extra: Any
) -> dict[str, Any]:
    entries = []
    for n, passed in enumerate(results, 1):
        t: dict[str, Any] = {
            "trialNum": n,
            "output": f"answer {n}",
            "trajectory": [
                step_tool("WebSearch", "pending", 10 * n, input={"query": f"q{n}"}),
                step_tool(f"toolu_0{n}abc", "completed", 10 * n + 5),
                step_message(f"answer {n}", 10 * n + 9),
            ],
            "duration": 1000 * n,
        }
        if passed is not None:
            t["pass"] = passed
            t["score"] = 1.0 if passed else 0.0
        entries.append(t)
    rec: dict[str, Any] = {"id": rid, "input": "Find the CEO", "k": len(results), "trials": entries}
    graded = [r for r in results if r is not None]
    if with_rates and graded:
        rate = sum(graded) / len(results)
        rec.update(
            passRate=rate, passAtK=1 - (1 - rate) ** len(results), passExpK=rate ** len(results)
        )
    rec.update(extra)
    return rec


def summary(rid: str, tools: list[str], duration: int = 1234) -> dict[str, Any]:
    return {
        "id": rid,
        "input": "Create a button",
        "output": "done",
        "toolCalls": tools,
        "duration": duration,
    }


def ranking(rid: str, ranked: list[tuple[str, float]], **extra: Any) -> dict[str, Any]:
    """An acp-harness ``compare`` record: runs ranked 1.. in the order given."""
    rankings = [
        {"run": run, "rank": n, "score": score, "metadata": {"llm": round(score * 50)}}
        for n, (run, score) in enumerate(ranked, 1)
    ]
    best = ranked[0][0] if ranked else "nobody"
    return {
        "id": rid,
        "input": f"<web-search>Question {rid}</web-search>",
        "rankings": rankings,
        "reasoning": f"{best} ranked #1",
        **extra,
    }


def write_jsonl(
    path: Path, records: list[Any], *, raw_lines: dict[int, bytes] | None = None
) -> Path:
    """Write records one per line; ``raw_lines`` inserts raw bytes before record index i."""
    out = bytearray()
    raw_lines = raw_lines or {}
    for i, rec in enumerate(records):
        if i in raw_lines:
            out += raw_lines[i] + b"\n"
        out += json.dumps(rec).encode() + b"\n"
    if len(records) in raw_lines:
        out += raw_lines[len(records)]
    path.write_bytes(bytes(out))
    return path


def summaries(source: Source) -> list[RunSummary]:
    """Every entry of a scanned source, each checked to be a run (not a problem row)."""
    out = []
    for i in range(len(source)):
        entry = source.entry(i)
        assert isinstance(entry, RunSummary), entry
        out.append(entry)
    return out
