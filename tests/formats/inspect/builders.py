"""Small Inspect AI logs in the shapes inspect_ai (0.3.41 to 0.3.285) and the R package vitals
write: ``.eval`` zips (deflate or Zstandard members, finished or still journalling, monolith
or chunked samples) and ``.json`` EvalLog documents. Written here, never copied."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import zstandard

TASK = "tiny"
MODEL = "mockllm/model"


def usage(tin: int, tout: int, cost: float | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"input_tokens": tin, "output_tokens": tout, "total_tokens": tin + tout}
    if cost is not None:
        out["total_cost"] = cost
    return out


def header(
    *,
    status: str = "success",
    task: str = TASK,
    model: str = MODEL,
    accuracy: float = 0.75,
    scorers: tuple[str, ...] = ("match", "includes"),
    epochs: int = 2,
    task_file: str = "tiny.py",
) -> dict[str, Any]:
    return {
        "version": 2,
        "status": status,
        "eval": {
            "eval_id": "fddMqJJzKJoysVXc6vBkaE",
            "run_id": "MhryGbzG2iMAaxhBiW7xKX",
            "created": "2026-11-26T13:20:03+00:00",
            "task": task,
            "task_id": "oQ7iEfx9CCKc3vK2Dm4QAZ",
            "task_file": task_file,
            "dataset": {"samples": 3, "sample_ids": ["s1", 2, "s3"], "shuffled": False},
            "model": model,
            "config": {"epochs": epochs},
            "packages": {"inspect_ai": "0.3.285"},
            "scorers": [{"name": s, "options": {}, "metrics": []} for s in scorers],
        },
        "plan": {"name": "plan", "steps": [{"solver": "generate", "params": {}}]},
        "results": {
            "total_samples": 6,
            "completed_samples": 4,
            "scores": [
                {
                    "name": s,
                    "scorer": s,
                    "scored_samples": 4,
                    "unscored_samples": 0,
                    "params": {},
                    "metrics": {
                        "accuracy": {"name": "accuracy", "value": accuracy, "params": {}},
                        "stderr": {"name": "stderr", "value": 0.25, "params": {}},
                    },
                }
                for s in scorers
            ],
            "headline": {"scorer": scorers[0], "score": scorers[0], "metric": "accuracy"},
        }
        if status != "error"
        else None,
        "stats": {
            "started_at": "2026-11-26T13:20:03+00:00",
            "completed_at": "2026-11-26T13:20:08+00:00",
            "model_usage": {model: usage(672, 128)},
        },
        "invalidated": False,
        "tags": [],
        "metadata": {},
    }


def _t(second: float) -> str:
    return f"2026-11-26T13:20:{second:09.6f}+00:00"


def _score(value: Any, answer: str | None = None) -> dict[str, Any]:
    return {"value": value, "answer": answer, "explanation": answer, "history": []}


def sample(
    sid: Any,
    epoch: int,
    *,
    question: str = "What is 1+1?",
    answer: str = "The answer is 2",
    value: str = "C",
    scorers: tuple[str, ...] = ("match", "includes"),
    tool_error: bool = False,
    error: str | None = None,
    tokens: tuple[int, int] = (169, 37),
) -> dict[str, Any]:
    """A finished sample as 0.3.285 writes it: a model call asking for a tool, the tool
    (failing when ``tool_error``), the model's answer, one score event per scorer; or, with
    ``error``, a sample that raised before any model call."""
    call_id = f"for_tool_call_{sid}_{epoch}"
    user = {"id": "u1", "content": question, "source": "input", "role": "user"}
    asked = {
        "id": "a1",
        "content": "tool call for tool add",
        "source": "generate",
        "role": "assistant",
        "tool_calls": [
            {"id": call_id, "function": "add", "arguments": {"x": 1, "y": 1}, "type": "function"}
        ],
        "model": MODEL,
    }
    tool_msg: dict[str, Any] = {
        "id": "t1",
        "content": "" if tool_error else "2",
        "role": "tool",
        "tool_call_id": call_id,
        "function": "add",
    }
    if tool_error:
        tool_msg["error"] = {"type": "unknown", "message": "negative numbers are not supported"}
    final = {
        "id": "a2",
        "content": answer,
        "source": "generate",
        "role": "assistant",
        "model": MODEL,
    }
    base: dict[str, Any] = {
        "id": sid,
        "epoch": epoch,
        "input": question,
        "target": "2",
        "metadata": {"kind": "math"},
        "store": {},
        "model_usage": {MODEL: usage(*tokens)},
        "role_usage": {},
        "started_at": _t(6.0),
        "completed_at": _t(6.824),
        "total_time": 0.824,
        "working_time": 0.824,
        "uuid": f"uuid-{sid}-{epoch}",
        "error_retries": [],
        "attachments": {},
        "turn_count": 2,
    }
    span = {
        "event": "span_begin",
        "timestamp": _t(6.0),
        "working_start": 2760.1,
        "id": "sp",
        "name": "init",
        "type": "init",
    }
    init = {
        "event": "sample_init",
        "timestamp": _t(6.001),
        "working_start": 2760.2,
        "sample": {"input": question, "target": "2", "id": sid},
        "state": {},
    }
    if error is not None:
        return {
            **base,
            "messages": [user],
            "output": {"model": MODEL, "choices": [], "completion": ""},
            "scores": {},
            "model_usage": {},
            "events": [
                span,
                init,
                {
                    "event": "logger",
                    "timestamp": _t(6.1),
                    "working_start": 0.1,
                    "message": {"level": "warning", "message": error},
                },
                {
                    "event": "error",
                    "timestamp": _t(6.2),
                    "working_start": 0.2,
                    "error": {"message": error, "traceback": "Traceback ...", "traceback_ansi": ""},
                },
            ],
            "error": {"message": error, "traceback": "Traceback ...", "traceback_ansi": ""},
            "turn_count": 0,
        }
    first = {
        "event": "model",
        "timestamp": _t(6.1),
        "working_start": 0.01,
        "model": MODEL,
        "input": [],
        "input_refs": [[0, 1]],
        "tools": [],
        "tool_choice": "auto",
        "config": {},
        "output": {
            "model": MODEL,
            "choices": [{"message": asked, "stop_reason": "tool_calls"}],
            "completion": asked["content"],
            "usage": usage(79, 22),
        },
        "completed": _t(6.11),
        "working_time": 0.0003,
    }
    tool: dict[str, Any] = {
        "event": "tool",
        "timestamp": _t(6.2),
        "working_start": 0.02,
        "type": "function",
        "id": call_id,
        "function": "add",
        "arguments": {"x": 1, "y": 1},
        "result": tool_msg["content"],
        "events": [],
        "completed": _t(6.3),
        "working_time": 0.01,
        "message_id": "t1",
    }
    if tool_error:
        tool["error"] = tool_msg["error"]
    second = {
        "event": "model",
        "timestamp": _t(6.4),
        "working_start": 0.04,
        "model": MODEL,
        "input": [],
        "input_refs": [[0, 3]],
        "tools": [],
        "tool_choice": "auto",
        "config": {},
        "output": {
            "model": MODEL,
            "choices": [{"message": final, "stop_reason": "stop"}],
            "completion": answer,
            "usage": usage(90, 15),
        },
        "completed": _t(6.5),
        "working_time": 0.0087,
    }
    scores_ev = [
        {
            "event": "score",
            "timestamp": _t(6.6 + i / 100),
            "working_start": 0.1,
            "score": _score(value, answer),
            "target": "2",
            "intermediate": False,
            "scorer": s,
        }
        for i, s in enumerate(scorers)
    ]
    # the tool event is written after the span it opens, its timestamp earlier: as Inspect does
    events = [
        span,
        init,
        first,
        {
            "event": "span_begin",
            "timestamp": _t(6.21),
            "working_start": 0.02,
            "id": "t",
            "name": "add",
            "type": "tool",
        },
        tool,
        second,
        *scores_ev,
    ]
    return {
        **base,
        "messages": [user, asked, tool_msg, final],
        "output": {
            "model": MODEL,
            "choices": [{"message": final, "stop_reason": "stop"}],
            "completion": answer,
        },
        "scores": {s: _score(value, answer) for s in scorers},
        "events": events,
        "events_data": {"messages": [user, asked, tool_msg], "calls": []},
    }


def summary_of(s: dict[str, Any]) -> dict[str, Any]:
    """The sample's ``EvalSampleSummary`` (``summaries.json``): its error as a string."""
    keys: tuple[str, ...] = (
        "id",
        "epoch",
        "input",
        "target",
        "metadata",
        "scores",
        "model_usage",
        "role_usage",
        "started_at",
        "completed_at",
        "total_time",
        "working_time",
        "uuid",
    )
    out: dict[str, Any] = {k: s[k] for k in keys if k in s}
    if s.get("error"):
        out["error"] = s["error"]["message"]
    out.update(
        retries=0,
        completed=True,
        message_count=len(s["messages"]),
        turn_count=s.get("turn_count", 0),
    )
    return out


def samples() -> list[dict[str, Any]]:
    """3 samples x 2 epochs: s1 right then wrong, 2 with a failing tool call, s3 raising."""
    return [
        sample("s1", 1),
        sample(2, 1, question="Say hello", answer="hello", tool_error=True, tokens=(167, 27)),
        sample(
            "s3", 1, question="This one errors", error="RuntimeError('sample failed on purpose')"
        ),
        sample("s1", 2, answer="The answer is 3", value="I"),
        sample(2, 2, question="Say hello", answer="hello", tool_error=True, tokens=(167, 27)),
        sample(
            "s3", 2, question="This one errors", error="RuntimeError('sample failed on purpose')"
        ),
    ]


def reductions_of(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each scorer's mean over a sample's epochs (C 1, I 0), as ``reductions.json`` holds
    them; samples that errored in every epoch are left out, as Inspect leaves them."""
    worth = {"C": 1.0, "I": 0.0, "P": 0.5, "N": 0.0}
    out: dict[str, dict[Any, list[float]]] = {}
    for s in items:
        for scorer, score in (s.get("scores") or {}).items():
            out.setdefault(scorer, {}).setdefault(s["id"], []).append(worth[score["value"]])
    return [
        {
            "scorer": scorer,
            "samples": [
                {"value": sum(v) / len(v), "history": [], "sample_id": sid}
                for sid, v in by_id.items()
            ],
        }
        for scorer, by_id in out.items()
    ]


def _dump(value: Any) -> bytes:
    return json.dumps(value).encode()


def write_eval(
    path: Path,
    items: list[dict[str, Any]] | None = None,
    *,
    head: dict[str, Any] | None = None,
    zstd: bool = True,
    finished: bool = True,
    extra: dict[str, bytes] | None = None,
    flush: int = 2,
) -> Path:
    """An ``.eval`` zip as inspect_ai writes it: the journal's start, each sample, the
    journal's summaries, then (``finished``) ``summaries.json``, ``reductions.json`` and
    ``header.json`` last. ``zstd``: members compressed with Zstandard (ZIP method 93, as
    0.3.206 and later write them), else deflated."""
    items = samples() if items is None else items
    head = header() if head is None else head
    members: list[tuple[str, bytes]] = [
        ("_journal/start.json", _dump({"version": 2, "eval": head["eval"], "plan": head["plan"]}))
    ]
    for s in items:
        members.append((f"samples/{s['id']}_epoch_{s['epoch']}.json", _dump(s)))
    for n, at in enumerate(range(0, len(items), flush), 1):  # a journal part per flush
        part = [summary_of(s) for s in items[at : at + flush]]
        members.append((f"_journal/summaries/{n}.json", _dump(part)))
    if finished:
        members.append(("summaries.json", _dump([summary_of(s) for s in items])))
        members.append(("reductions.json", _dump(reductions_of(items))))
        members.append(("header.json", _dump(head)))
    for name, data in (extra or {}).items():
        members.append((name, data))
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(
        path, "w", compression=zipfile.ZIP_STORED if zstd else zipfile.ZIP_DEFLATED
    ) as zf:
        for name, data in members:
            if not zstd:
                zf.writestr(name, data)
                continue
            info = zipfile.ZipInfo(name, date_time=(2026, 11, 26, 13, 20, 3))
            info.compress_type = zipfile.ZIP_STORED
            zf.writestr(info, data)
    if zstd:
        _recompress_zstd(path)
    return path


def _recompress_zstd(path: Path) -> None:
    """Rewrite a stored zip with every member Zstandard-compressed (method 93): zipfile
    cannot write it, so the archive is laid out here (local headers, data, central
    directory), as inspect_ai's writer lays it."""
    import struct
    import zlib

    with zipfile.ZipFile(path) as zf:
        items = [(i.filename, zf.read(i.filename)) for i in zf.infolist()]
    out = bytearray()
    central = bytearray()
    cctx = zstandard.ZstdCompressor()
    for name, data in items:
        packed = cctx.compress(data)
        crc = zlib.crc32(data)
        raw_name = name.encode()
        offset = len(out)
        out += struct.pack(
            "<4s5H3L2H",
            b"PK\x03\x04",
            63,
            0,
            93,
            0,
            0,
            crc,
            len(packed),
            len(data),
            len(raw_name),
            0,
        )
        out += raw_name + packed
        central += struct.pack(
            "<4s6H3L5H2L",
            b"PK\x01\x02",
            63,
            63,
            0,
            93,
            0,
            0,
            crc,
            len(packed),
            len(data),
            len(raw_name),
            0,
            0,
            0,
            0,
            0,
            offset,
        )
        central += raw_name
    start = len(out)
    out += central
    out += struct.pack(
        "<4s4H2LH", b"PK\x05\x06", 0, 0, len(items), len(items), len(central), start, 0
    )
    path.write_bytes(bytes(out))


def json_log(
    items: list[dict[str, Any]] | None = None, *, head: dict[str, Any] | None = None
) -> dict[str, Any]:
    head = header() if head is None else head
    items = samples() if items is None else items
    return {**head, "samples": items, "reductions": reductions_of(items)}


def write_json(path: Path, log: dict[str, Any] | None = None) -> Path:
    """A ``.json`` log, indented as inspect_ai writes it (key order: version, status, eval,
    plan, results, stats, ..., samples, reductions)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(json_log() if log is None else log, indent=2))
    return path


def vitals_log() -> dict[str, Any]:
    """A log as the R package vitals writes it: a model without a provider, a scorer named
    by an R expression, accuracy on a 0-100 scale, ``step`` events, a tool call with no
    result, no uuid or times, no reductions."""
    scorer = "model_graded_qa(partial_credit = TRUE)"
    model = "claude-3-7-sonnet-latest"
    head = header(
        model=model,
        task="An-R-Eval",
        scorers=(scorer,),
        accuracy=59.6154,
        epochs=1,
        task_file="evals.R",
    )
    head["results"]["scores"][0]["metrics"] = {
        "accuracy": {"name": "accuracy", "value": 59.6154, "params": {"1": "numeric_scores"}}
    }
    del head["results"]["headline"]
    for key in ("invalidated", "tags", "metadata"):
        del head[key]
    del head["eval"]["eval_id"]
    head["stats"]["model_usage"] = {
        model: {
            "input_tokens": 34685,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 0,
            "output_tokens": 5313,
            "total_tokens": 39998,
        }
    }
    asked = {
        "role": "assistant",
        "content": [{"type": "text", "text": "Let me look."}],
        "tool_calls": [
            {"id": "toolu_1", "function": "btw_tool_docs", "arguments": {"topic": "ggplot2"}}
        ],
    }
    items = []
    for sid, value in (("after-stat-bar-heights", "I"), ("conditional-grouped-summary", "P")):
        items.append(
            {
                "id": sid,
                "epoch": 1,
                "input": f"Question {sid}",
                "target": "Use after_stat()",
                "messages": [
                    {"role": "user", "content": [{"type": "text", "text": f"Question {sid}"}]},
                    asked,
                ],
                "output": {
                    "model": model,
                    "choices": [{"message": asked, "stop_reason": "tool_calls"}],
                    "completion": "Let me look.",
                },
                "scores": {
                    scorer: {"value": value, "answer": "Let me look.", "explanation": "grader says"}
                },
                "metadata": {},
                "store": {},
                "events": [
                    {
                        "timestamp": "2025-04-29T14:37:07.0-05:00",
                        "working_start": -20.5,
                        "event": "step",
                        "action": "begin",
                        "type": "solver",
                        "name": "generate",
                    },
                    {
                        "timestamp": "2025-04-29T14:37:07.1-05:00",
                        "working_start": -20.5,
                        "event": "sample_init",
                        "sample": {"input": f"Question {sid}", "target": "t"},
                        "state": {},
                    },
                    {
                        "timestamp": "2025-04-29T14:37:07.2-05:00",
                        "working_start": -20.4,
                        "event": "model",
                        "model": model,
                        "input": [{"role": "user", "content": f"Question {sid}"}],
                        "tools": [],
                        "tool_choice": "auto",
                        "config": {},
                        "output": {
                            "model": model,
                            "choices": [{"message": asked, "stop_reason": "tool_calls"}],
                            "usage": {
                                "input_tokens": 1000,
                                "output_tokens": 100,
                                "total_tokens": 1100,
                            },
                        },
                    },
                    {
                        "timestamp": "2025-04-29T14:37:07.3-05:00",
                        "working_start": -20.3,
                        "event": "score",
                        "score": {"value": "C", "answer": "x"},
                        "scorer": scorer,
                    },
                ],
                "model_usage": {
                    model: {
                        "input_tokens": 1000,
                        "cache_creation_input_tokens": 0,
                        "cache_read_input_tokens": 0,
                        "output_tokens": 100,
                        "total_tokens": 1100,
                    }
                },
                "attachments": {},
            }
        )
    return {**head, "samples": items}
