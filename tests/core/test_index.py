"""The byte-offset index: records, line numbers, keys, broken lines, appends, cancellation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from trajtui.core.jsonl import index as index_mod
from trajtui.core.jsonl.index import FileChanged, LineIndex


def scan_all(ix: LineIndex) -> list:
    return list(ix.scan())


def keys(ix: LineIndex) -> list[str | None]:
    return [ix.key(i) for i in range(ix.count)]


def test_offsets_lines_and_keys(tmp_path: Path) -> None:
    p = tmp_path / "a.jsonl"
    p.write_bytes(b'{"id":"a","x":1}\n\n   \n{"x":2,"id":"b"}\n{"id": "q\\"x"}\n{"id":7}\n')
    ix = LineIndex(p)
    progress = scan_all(ix)
    assert progress[-1].finished and progress[-1].records == 4
    assert ix.count == 4
    assert keys(ix) == ["a", "b", 'q"x', "7"]
    assert [ix.line_of(i) for i in range(4)] == [1, 4, 5, 6]
    assert ix.blank_lines().ranges == ((2, 3),)
    assert ix.read(1) == b'{"x":2,"id":"b"}'
    assert not ix.unterminated


def test_bom_crlf_and_unterminated_last_line(tmp_path: Path) -> None:
    p = tmp_path / "a.jsonl"
    p.write_bytes(b'\xef\xbb\xbf{"id":"a"}\r\n{"id":"b"}\r\n{"id":"c", "x": [1,')
    ix = LineIndex(p)
    scan_all(ix)
    assert ix.bom
    assert ix.read(0) == b'{"id":"a"}'
    assert ix.read(1) == b'{"id":"b"}'
    assert ix.count == 3 and ix.unterminated
    assert ix.key(2) == "c"


def test_key_not_first_is_found_by_parsing(tmp_path: Path) -> None:
    p = tmp_path / "a.jsonl"
    p.write_bytes(b'{"input":"x","id":"late"}\n{not json}\n')
    ix = LineIndex(p)
    scan_all(ix)
    assert keys(ix) == ["late", None]
    assert "invalid JSON" in ix.bad[1]


def test_lines_spanning_chunks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(index_mod, "CHUNK", 64)
    records = [{"id": f"r{i}", "pad": "x" * (i * 37)} for i in range(40)]
    p = tmp_path / "a.jsonl"
    p.write_text("".join(json.dumps(r) + "\n" for r in records))
    ix = LineIndex(p)
    scan_all(ix)
    assert ix.count == 40
    assert [json.loads(ix.read(i))["id"] for i in range(40)] == [r["id"] for r in records]


def test_refresh_picks_up_appends_and_completes_a_partial_line(tmp_path: Path) -> None:
    p = tmp_path / "a.jsonl"
    p.write_bytes(b'{"id":"a"}\n{"id":"b","x"')
    ix = LineIndex(p)
    scan_all(ix)
    assert ix.count == 2 and ix.unterminated
    with p.open("ab") as f:
        f.write(b':1}\n{"id":"c"}\n')
    assert ix.stat_changed() == "appended"
    list(ix.scan())
    assert (ix.count, ix.unterminated) == (3, False)
    assert ix.read(1) == b'{"id":"b","x":1}'
    assert keys(ix) == ["a", "b", "c"]
    assert [ix.line_of(i) for i in range(3)] == [1, 2, 3]


def test_truncation_is_detected(tmp_path: Path) -> None:
    p = tmp_path / "a.jsonl"
    p.write_bytes(b'{"id":"a"}\n{"id":"b"}\n')
    ix = LineIndex(p)
    scan_all(ix)
    p.write_bytes(b'{"id":"a"}\n')
    assert ix.stat_changed() == "truncated"
    with pytest.raises(FileChanged):
        ix.read(1)
    with pytest.raises(FileChanged):
        scan_all(ix)


def test_cancel_stops_the_scan(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(index_mod, "CHUNK", 1024)
    p = tmp_path / "a.jsonl"
    p.write_text("".join(json.dumps({"id": f"r{i}", "pad": "y" * 100}) + "\n" for i in range(2000)))
    ix = LineIndex(p)
    gen = ix.scan(progress_every=0)
    first = next(gen)
    assert 0 < first.records < 2000
    ix.cancel()
    rest = list(gen)
    assert not any(pr.finished for pr in rest)
    assert ix.count < 2000 and not ix.complete
    # A new scan continues where the cancelled one stopped.
    list(ix.scan())
    assert (ix.count, ix.complete) == (2000, True)
    assert ix.key(ix.count - 1) == "r1999"


def test_first_record_is_usable_before_the_scan_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(index_mod, "CHUNK", 4096)
    p = tmp_path / "a.jsonl"
    p.write_text("".join(json.dumps({"id": f"r{i}", "pad": "z" * 200}) + "\n" for i in range(1000)))
    ix = LineIndex(p)
    gen = ix.scan(progress_every=0)
    next(gen)
    assert not ix.complete
    assert json.loads(ix.read(0))["id"] == "r0"


def test_long_lines_blank_runs_and_late_keys_across_chunks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(index_mod, "CHUNK", 64)
    lines = [
        json.dumps({"input": "x" * 500, "id": "late-key"}),
        " " * 200,
        json.dumps({"id": "short"}),
        json.dumps({"id": "long", "pad": "y" * 300}) + "\r",
    ]
    p = tmp_path / "a.jsonl"
    p.write_text("\n".join(lines) + "\n" + json.dumps({"id": "tail", "pad": "z" * 200}))
    ix = LineIndex(p)
    scan_all(ix)
    assert keys(ix) == ["late-key", "short", "long", "tail"]
    assert ix.blank_lines().ranges == ((2, 2),)
    assert ix.read(2).endswith(b'y"}')
    assert ix.unterminated and ix.line_of(3) == 5
