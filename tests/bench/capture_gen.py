"""Generate a big acp-harness capture JSONL file, fast, for benchmarks.

A handful of realistic records (thought and message chunks, tool calls written twice as a
pending and a completed half with input/output objects, metadata, timing, toolErrors,
score) are built once, with sizes spread log-uniformly from a few KB to a few hundred KB,
and serialised with orjson. The file is then written in large blocks by stamping a fresh id
(``bench-000001``, ``bench-000002``...) into a randomly chosen template for each record.

Also usable on its own, to get a big file to open in the TUI::

    python -m tests.bench.capture_gen /tmp/big.jsonl --size-mb 1024
"""

from __future__ import annotations

import argparse
import os
import random
from dataclasses import dataclass
from typing import Any

import orjson

ID_PREFIX = "bench-"
ID_DIGITS = 6
TEMPLATES = 16
MIN_RECORD = 3 * 1024
MAX_RECORD = 400 * 1024
BLOCK = 64 * 1024 * 1024
START_MS = 1_769_000_000_000
SEED = 20260101

_VOCABULARY = (
    "the agent search result page source release docs config default flag value table "
    "layout grid image gallery pricing responsive mobile breakpoint component button state "
    "render request response timeout cache index record step tool call output input error "
    "migration guide api version user query answer cite primary section detail example"
)
_WORDS = _VOCABULARY.split()
_TOOLS = ("WebSearch", "WebFetch", "Read", "Grep", "Bash", "Edit", "Glob")


@dataclass(frozen=True, slots=True)
class Generated:
    """What :func:`write_capture` wrote.

    Attributes:
        path: The file.
        size: Its size in bytes.
        records: Number of records.
        last_id: The ``id`` of the last record.
    """

    path: str
    size: int
    records: int
    last_id: str


def record_id(n: int) -> str:
    """The id of record ``n`` (1-based): ``bench-000001``."""
    return f"{ID_PREFIX}{n:0{ID_DIGITS}d}"


def _words(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(n))


def _chunks(rng: random.Random, kind: str, ts: int, count: int) -> list[dict[str, Any]]:
    """Streamed chunks: each is its own tiny step, as real captures write them."""
    return [
        {"type": kind, "content": _words(rng, rng.randint(1, 8)) + " ", "timestamp": ts + i * 7}
        for i in range(count)
    ]


def _tool_input(rng: random.Random, tool: str) -> dict[str, Any]:
    if tool == "WebSearch":
        return {"query": _words(rng, 6)}
    if tool == "WebFetch":
        return {"url": f"https://docs.example.org/{rng.randrange(10**6)}", "prompt": _words(rng, 5)}
    if tool == "Bash":
        return {"command": f"grep -rn {rng.choice(_WORDS)} src | head -50", "timeout": 120000}
    if tool == "Edit":
        return {
            "file_path": "src/app.py",
            "old_string": _words(rng, 9),
            "new_string": _words(rng, 9),
        }
    return {"file_path": f"src/{rng.choice(_WORDS)}/{rng.choice(_WORDS)}.py", "limit": 2000}


def _tool_output(rng: random.Random, tool: str, size: int) -> Any:
    """A tool output of about ``size`` bytes (search hits, a page, a file, a command log)."""
    if tool == "WebSearch":
        hits = max(1, size // 220)
        return [
            {
                "title": _words(rng, 6).title(),
                "url": f"https://example.com/{rng.randrange(10**6)}",
                "snippet": _words(rng, 22),
            }
            for _ in range(hits)
        ]
    lines: list[str] = []
    total = 0
    while total < size:
        line = f"{len(lines) + 1:>5}\t{_words(rng, rng.randint(3, 14))}"
        lines.append(line)
        total += len(line) + 1
    text = "\n".join(lines)
    return {"content": text, "truncated": False} if tool == "Read" else text


def _tool_pair(rng: random.Random, ts: int, out_size: int) -> list[dict[str, Any]]:
    tool = rng.choice(_TOOLS)
    call_id = f"toolu_01{rng.getrandbits(64):016x}"
    args = _tool_input(rng, tool)
    failed = rng.random() < 0.06
    out_rng = random.Random(rng.getrandbits(32))  # the output's size must not shift the rest
    done: dict[str, Any] = {
        "type": "tool_call",
        "name": call_id,
        "status": "failed" if failed else "completed",
        "input": args,
        "output": f"Error: {_words(rng, 6)}" if failed else _tool_output(out_rng, tool, out_size),
        "duration": rng.randint(40, 9000),
        "timestamp": ts + rng.randint(40, 9000),
    }
    pending = {"type": "tool_call", "name": tool, "status": "pending", "input": args}
    return [{**pending, "timestamp": ts}, done]


def _trajectory(rng: random.Random, n_steps: int, out_size: int) -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = []
    ts = rng.randint(80, 900)
    while len(steps) < n_steps - 8:
        roll = rng.random()
        if roll < 0.25:
            steps += _chunks(rng, "thought", ts, rng.randint(1, 6))
        elif roll < 0.45:
            steps += _chunks(rng, "message", ts, rng.randint(2, 12))
        else:
            steps += _tool_pair(rng, ts, out_size)
        ts += rng.randint(50, 4000)
    steps += _chunks(rng, "message", ts, n_steps - len(steps))
    return steps


def _record(rng: random.Random, n_steps: int, out_size: int) -> dict[str, Any]:
    """One capture record (its id is a placeholder the writer replaces)."""
    trajectory = _trajectory(rng, n_steps, out_size)
    failed = any(s.get("status") == "failed" for s in trajectory)
    duration = rng.randint(5_000, 180_000)
    passed = rng.random() < 0.7
    return {
        "id": record_id(0),
        "input": f"Use web search and answer\n{_words(rng, 14).capitalize()}?",
        "output": "".join(s["content"] for s in trajectory if s["type"] == "message"),
        "hint": f"A correct answer must mention {_words(rng, 12)}.",
        "trajectory": trajectory,
        "metadata": {
            "category": "Learning",
            "subcategory": _words(rng, 2).title().replace(" ", "_"),
            "lang": "None",
            "tool": "WebSearch",
            "is_dev": False,
            "agent": "claude-code-headless",
            "trajectoryRichness": "full",
            "turnCount": rng.randint(1, 4),
            "exitCode": 0,
        },
        "timing": {
            "start": START_MS,
            "end": START_MS + duration,
            "firstResponse": rng.randint(300, 4000),
            "sessionCreation": rng.randint(200, 900),
            "total": duration,
        },
        "toolErrors": failed,
        "score": {"pass": passed, "score": 1.0 if passed else 0.0, "reasoning": _words(rng, 20)},
    }


def _template(rng: random.Random, target: int) -> bytes:
    """A serialised record of about ``target`` bytes (tool outputs grown to fit)."""
    n_steps = rng.randint(20, 120)
    state = rng.getstate()
    probe = _record(rng, n_steps, 0)
    base = len(orjson.dumps(probe))
    outputs = sum(1 for s in probe["trajectory"] if s.get("status") == "completed")
    rng.setstate(state)
    out_size = max(0, target - base) // max(1, outputs)
    return orjson.dumps(_record(rng, n_steps, out_size))


def templates(count: int = TEMPLATES, seed: int = SEED) -> list[tuple[bytes, bytes]]:
    """``count`` records as ``(head, tail)`` byte pairs: a record is head + digits + tail.

    Target sizes are spread log-uniformly from ``MIN_RECORD`` to ``MAX_RECORD``.
    """
    rng = random.Random(seed)
    placeholder = b'{"id":' + orjson.dumps(record_id(0))[:-1]  # b'{"id":"bench-000000'
    head = placeholder[:-ID_DIGITS]
    out = []
    for k in range(count):
        target = int(MIN_RECORD * (MAX_RECORD / MIN_RECORD) ** (k / max(1, count - 1)))
        data = _template(rng, target)
        assert data.startswith(placeholder)
        out.append((head, data[len(placeholder) :] + b"\n"))
    return out


def write_capture(path: str, size: int, seed: int = SEED) -> Generated:
    """Write records to ``path`` until it holds at least ``size`` bytes."""
    parts = templates(seed=seed)
    rng = random.Random(seed + 1)
    written = 0
    n = 0
    block = bytearray()
    with open(path, "wb") as f:
        while written + len(block) < size:
            n += 1
            head, tail = rng.choice(parts)
            block += head
            block += b"%0*d" % (ID_DIGITS, n)
            block += tail
            if len(block) >= BLOCK:
                f.write(block)
                written += len(block)
                block.clear()
        f.write(block)
        written += len(block)
        f.flush()
        os.fsync(f.fileno())
    return Generated(path, written, n, record_id(n))


def main() -> None:
    """Write a capture file of the size asked for."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path")
    parser.add_argument("--size-mb", type=int, default=1024)
    args = parser.parse_args()
    made = write_capture(args.path, args.size_mb * 1024 * 1024)
    print(f"{made.path}: {made.size:,} bytes, {made.records:,} records, last id {made.last_id}")


if __name__ == "__main__":
    main()
