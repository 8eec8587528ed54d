"""Fuzzing the SWE-agent reader: whatever a trajectory holds where (a step, a history
message, info, replay_config, the whole document replaced, the file cut anywhere),
listing, building, rendering and resolving every run, attempt and step never raise."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tests.contract.test_fuzz_readers import FUZZ, render_everything, shaped
from tests.formats.swe_agent import builders as b
from tests.helpers.workspace import open_paths

ITEM_KEYS = ["action", "observation", "thought", "response", "execution_time", "state"]
HISTORY_KEYS = ["role", "content", "action", "thought", "is_demo", "message_type"]
TOP_KEYS = ["trajectory", "history", "info", "replay_config", "environment", "attempts"]


@st.composite
def documents(draw: Any) -> bytes:
    doc: Any = draw(
        st.sampled_from([b.v11_run, b.v0_run, b.limited_run, b.history_only, b.retry_run])
    )()
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        where = draw(st.integers(min_value=0, max_value=3))
        items = [i for i in _list(doc.get("trajectory")) if isinstance(i, dict)]
        history = [m for m in _list(doc.get("history")) if isinstance(m, dict)]
        if where == 0 and items:
            items[draw(st.integers(min_value=0, max_value=len(items) - 1))][
                draw(st.sampled_from(ITEM_KEYS))
            ] = draw(shaped)
        elif where == 1 and history:
            history[draw(st.integers(min_value=0, max_value=len(history) - 1))][
                draw(st.sampled_from(HISTORY_KEYS))
            ] = draw(shaped)
        elif where == 2 and isinstance(doc.get("info"), dict):
            doc["info"][
                draw(
                    st.sampled_from(
                        ["model_stats", "exit_status", "submission", "best_attempt_idx"]
                    )
                )
            ] = draw(shaped)
        elif where == 3:
            doc[draw(st.sampled_from(TOP_KEYS))] = draw(shaped)
    data = json.dumps(doc, indent=2).encode()
    if draw(st.booleans()):
        data = data[: draw(st.integers(min_value=0, max_value=len(data)))]
    return data


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


@FUZZ
@given(documents(), st.booleans())
def test_swe_agent_reader(data: bytes, in_output_dir: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "i-1" / "i-1.traj" if in_output_dir else Path(tmp) / "x.traj"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        ws = open_paths([tmp if in_output_dir else str(path)])
        render_everything(ws)
        ws.close()
