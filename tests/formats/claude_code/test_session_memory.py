"""What a Claude Code session read whole holds (issue 25: any size in bounded memory): a
few bytes a step, whatever the session's turns say."""

from __future__ import annotations

import gc
import json
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

from tests.formats.claude_code import builders as b
from trajtui.core.jsonl import indexcache
from trajtui.core.jsonl.session import SessionSource
from trajtui.formats.claude_code import SESSIONS


@pytest.fixture(autouse=True)
def _no_cache() -> Any:
    indexcache.configure(enabled=False)
    yield
    indexcache.reset()


def test_a_session_holds_a_few_bytes_a_step(tmp_path: Path) -> None:
    path = tmp_path / f"{b.SID}.jsonl"
    with path.open("w") as f:
        for n in range(800):  # the fixture's turns again and again, with fresh ids
            for obj in b.session_21():
                text = json.dumps(obj)
                f.write(text.replace("toolu_", f"toolu_{n}_").replace('"msg_0', f'"msg_{n}_0'))
                f.write("\n")
    gc.collect()
    tracemalloc.start()
    try:
        src = SessionSource(str(path), SESSIONS, b.SID)
        for _ in src.scan():
            pass
        gc.collect()
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    run = src.run(0)
    steps = len(run.steps)
    assert steps > 10_000 and run.summary.tool_calls
    # a step's line, part and link, its kept lines' offsets, sizes and numbers (4 bytes
    # each), and the fold's own few kB
    assert held / steps < 40, f"{held / steps:.1f} bytes a step"
