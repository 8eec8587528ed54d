"""Which files are Codex rollouts: by their first line, cheaply; never another format's
file, even one that quotes Codex output."""

from __future__ import annotations

import json
from pathlib import Path

from tests.formats.acp.builders import write_jsonl
from tests.formats.codex import builders as b
from tests.helpers.ui import capture_fixture
from trajtui.core.format_api import Certainty
from trajtui.core.io.detect import sniff
from trajtui.core.opening import claims_for_file
from trajtui.formats.registry import FORMATS


def claimers(path: Path) -> list[tuple[str, Certainty]]:
    claims = claims_for_file(FORMATS, str(path), sniff(str(path)), None)
    return [(fmt.infos[0].id, claim.certainty) for fmt, claim in claims]


def test_each_shape_is_claimed_by_codex_alone(tmp_path: Path) -> None:
    new = b.session_v0171().write(tmp_path / "a.jsonl")  # no rollout- name needed
    mid = b.session_v060().write(tmp_path / "b.jsonl")
    flat = b.write_lines(tmp_path / "c.jsonl", b.session_v020())
    doc = tmp_path / "rollout-2025-05-01-x.json"
    doc.write_text(
        json.dumps(
            {
                "session": {"timestamp": "2025-05-01T10:00:00Z", "id": "d-1", "instructions": ""},
                "items": [],
            },
            indent=2,
        )
    )
    assert claimers(new) == [("codex", Certainty.MARKED)]
    assert claimers(mid) == [("codex", Certainty.MARKED)]
    assert claimers(flat) == [("codex", Certainty.SHAPE)]
    assert claimers(doc) == [("codex", Certainty.SHAPE)]


def test_an_acp_capture_holding_codex_output_is_not_a_rollout(tmp_path: Path) -> None:
    meta = b.session_v060().lines[0]
    path = capture_fixture(tmp_path)
    records = []
    for line in path.read_text().splitlines():
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            continue  # the fixture's own broken line
    records[0]["output"] = json.dumps(meta)  # codex's own line, quoted in a capture
    records[0]["trajectory"][0]["content"] = json.dumps(meta)
    write_jsonl(path, records)
    assert [c for c, _ in claimers(path)] == ["acp-capture"]


def test_a_lone_rollout_like_line_without_codex_marks_is_not_claimed(tmp_path: Path) -> None:
    path = b.write_lines(
        tmp_path / "x.jsonl",
        [
            {"timestamp": "2026-01-01T00:00:00Z", "type": "session_meta", "payload": {"id": "1"}},
            {"id": "2", "timestamp": "2026-01-01T00:00:00Z", "name": "other"},
        ],
    )
    assert claimers(path) == []
