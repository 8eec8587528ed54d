"""core/io/jsonstream: a streamed array's reader is told the members before it first (a log's
header before its samples), so it can use them on every item as the item passes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from trajtui.core.io import safeio
from trajtui.core.io.jsonstream import load_object


def test_started_gets_the_members_before_the_array_before_any_item(tmp_path: Path) -> None:
    path = tmp_path / "log.json"
    path.write_text(json.dumps({"version": 2, "eval": {"task": "t"}, "samples": [1, 2], "end": 3}))
    seen: list[tuple[str, Any]] = []
    with safeio.open_regular(str(path)) as f:
        streamed = load_object(
            f,
            arrays=frozenset({"samples"}),
            passed=lambda key, item: seen.append(("item", item)),
            started=lambda key, members: seen.append((key, dict(members))),
        )
    assert seen == [("samples", {"version": 2, "eval": {"task": "t"}}), ("item", 1), ("item", 2)]
    assert streamed.value["end"] == 3 and streamed.counts == {"samples": 2}
