"""Generate a big Codex CLI rollout (0.60-shaped JSONL), fast, for benchmarks.

One turn's lines (a prompt and its event copy, a turn_context, reasoning with an opaque
blob, an assistant message, shell_command calls with outputs of a few to a few hundred KB,
one failing, an apply_patch, token_count events) are built once as templates; the file is
written in large blocks by stamping a turn number into copies, so call ids stay unique and
the cumulative token total grows.

    python -m tests.bench.codex_gen /tmp/big-rollout.jsonl --size-mb 2048
"""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass

import orjson

THREAD = "019c0000-0000-7000-8000-00000000b1b1"
BLOCK = 64 * 1024 * 1024
SEED = 20261126
CALLS = 6
"""Shell calls per turn (the third fails)."""


@dataclass(frozen=True)
class Generated:
    """What was written."""

    size: int
    turns: int
    calls: int
    failed: int
    lines: int


def _line(t: str, type_: str, payload: dict[str, object]) -> bytes:
    return orjson.dumps({"timestamp": t, "type": type_, "payload": payload}) + b"\n"


def _turn_template(rng: random.Random) -> list[bytes]:
    """One turn, with ``@TURN@`` where the turn number goes and ``@IN@``/``@OUT@`` where
    the cumulative tokens go."""
    t = "2026-11-26T10:00:00.000Z"
    out = [
        _line(
            t,
            "response_item",
            {
                "type": "message",
                "role": "user",
                "content": [
                    {"type": "input_text", "text": "Turn @TURN@: fix the next failing test"}
                ],
            },
        ),
        _line(
            t,
            "event_msg",
            {
                "type": "user_message",
                "message": "Turn @TURN@: fix the next failing test",
                "images": [],
            },
        ),
        _line(
            t,
            "turn_context",
            {
                "cwd": "/home/dev/big",
                "approval_policy": "never",
                "model": "gpt-5-codex",
                "summary": "auto",
            },
        ),
        _line(
            t,
            "response_item",
            {
                "type": "reasoning",
                "summary": [{"type": "summary_text", "text": "**Planning** the fix"}],
                "content": None,
                "encrypted_content": "gAAAA" + "x" * rng.randint(2000, 8000),
            },
        ),
        _line(
            t,
            "response_item",
            {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "Running the tests."}],
            },
        ),
    ]
    for c in range(CALLS):
        size = int(2 ** rng.uniform(10, 18))
        code = 1 if c == 2 else 0
        out.append(
            _line(
                t,
                "response_item",
                {
                    "type": "function_call",
                    "name": "shell_command",
                    "arguments": orjson.dumps({"command": f"pytest -k t{c}"}).decode(),
                    "call_id": f"call_@TURN@_{c}",
                },
            )
        )
        out.append(
            _line(
                t,
                "response_item",
                {
                    "type": "function_call_output",
                    "call_id": f"call_@TURN@_{c}",
                    "output": f"Exit code: {code}\nWall time: 1 seconds\nOutput:\n" + "." * size,
                },
            )
        )
        total = {
            "input_tokens": "@IN@",
            "cached_input_tokens": 0,
            "output_tokens": "@OUT@",
            "reasoning_output_tokens": 0,
            "total_tokens": 0,
        }
        out.append(
            _line(
                t,
                "event_msg",
                {
                    "type": "token_count",
                    "info": {"total_token_usage": total, "last_token_usage": total},
                    "rate_limits": None,
                },
            )
        )
    out.append(
        _line(
            t,
            "response_item",
            {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "Done with turn @TURN@."}],
            },
        )
    )
    return [x.replace(b'"@IN@"', b"@IN@").replace(b'"@OUT@"', b"@OUT@") for x in out]


def write_rollout(path: str, size: int) -> Generated:
    """Write a rollout of about ``size`` bytes at ``path``."""
    rng = random.Random(SEED)
    templates = [b"".join(_turn_template(rng)) for _ in range(8)]
    per_turn_lines = 5 + 3 * CALLS + 1
    head = _line(
        "2026-11-26T10:00:00.000Z",
        "session_meta",
        {
            "id": THREAD,
            "timestamp": "2026-11-26T10:00:00.000Z",
            "cwd": "/home/dev/big",
            "originator": "codex_cli_rs",
            "cli_version": "0.60.1",
            "instructions": None,
            "source": "cli",
            "model_provider": "openai",
            "git": {},
        },
    )
    written, turns = 0, 0
    with open(path, "wb") as f:
        f.write(head)
        written += len(head)
        block: list[bytes] = []
        pending = 0
        while written + pending < size:
            turns += 1
            text = (
                templates[turns % len(templates)]
                .replace(b"@TURN@", str(turns).encode())
                .replace(b"@IN@", str(turns * 3000).encode())
                .replace(b"@OUT@", str(turns * 200).encode())
            )
            block.append(text)
            pending += len(text)
            if pending >= BLOCK:
                f.write(b"".join(block))
                written += pending
                block, pending = [], 0
        f.write(b"".join(block))
        written += pending
    return Generated(written, turns, turns * CALLS, turns, 1 + turns * per_turn_lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path")
    parser.add_argument("--size-mb", type=int, default=1024)
    args = parser.parse_args()
    gen = write_rollout(args.path, args.size_mb * 1024 * 1024)
    print(f"{args.path}: {gen.size:,} bytes, {gen.turns:,} turns, {gen.lines:,} lines")


if __name__ == "__main__":
    main()
