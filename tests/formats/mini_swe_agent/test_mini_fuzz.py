"""Fuzzing the mini-swe-agent reader: whatever a trajectory holds where (a message, its
extra, info, the whole document replaced, the file cut anywhere), listing, building,
rendering and resolving every run and step never raise."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tests.contract.test_fuzz_readers import FUZZ, render_everything, shaped
from tests.formats.mini_swe_agent import builders as b
from tests.helpers.workspace import open_paths

MESSAGE_KEYS = ["role", "content", "tool_calls", "extra", "tool_call_id", "timestamp"]
EXTRA_KEYS = [
    "actions",
    "response",
    "cost",
    "timestamp",
    "returncode",
    "raw_output",
    "exception_info",
    "interrupt_type",
    "exit_status",
    "submission",
]


@st.composite
def documents(draw: Any) -> bytes:
    doc: Any = draw(st.sampled_from([b.toolcall_run, b.v1_run, b.bare_list]))()
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        found = doc if isinstance(doc, list) else doc.get("messages")
        messages = [m for m in found if isinstance(m, dict)] if isinstance(found, list) else []
        where = draw(st.integers(min_value=0, max_value=3))
        if where == 0 and messages:
            m = messages[draw(st.integers(min_value=0, max_value=len(messages) - 1))]
            m[draw(st.sampled_from(MESSAGE_KEYS))] = draw(shaped)
        elif where == 1 and messages:
            m = messages[draw(st.integers(min_value=0, max_value=len(messages) - 1))]
            if isinstance(m.get("extra"), dict):
                m["extra"][draw(st.sampled_from(EXTRA_KEYS))] = draw(shaped)
        elif where == 2 and isinstance(doc, dict) and isinstance(doc.get("info"), dict):
            doc["info"][
                draw(st.sampled_from(["model_stats", "exit_status", "submission", "config"]))
            ] = draw(shaped)
        elif where == 3 and isinstance(doc, dict):
            doc[draw(st.sampled_from(["info", "messages", "instance_id"]))] = draw(shaped)
    data = json.dumps(doc, indent=2).encode()
    if draw(st.booleans()):
        data = data[: draw(st.integers(min_value=0, max_value=len(data)))]
    return data


@FUZZ
@given(documents(), st.booleans())
def test_mini_swe_agent_reader(data: bytes, in_batch: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "i-1" / "i-1.traj.json" if in_batch else Path(tmp) / "x.traj.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        ws = open_paths([tmp if in_batch else str(path)])
        render_everything(ws)
        ws.close()
