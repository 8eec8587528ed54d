"""The engine for big JSON documents (trajtui.core.io.jsondoc): one pass, each streamed
item's span and line, the item read again by its span, what precedes a break kept."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from trajtui.core.io import jsondoc, safeio
from trajtui.core.io.jsondoc import TOP, BytesFile, Scanned, Span, read_item, scan_document
from trajtui.core.io.jsonutil import Overflowed


def scan(data: bytes, arrays: str = "steps") -> tuple[Scanned, list[tuple[str, Span, Any]]]:
    seen: list[tuple[str, Span, Any]] = []
    out = scan_document(
        BytesFile(data),
        arrays=frozenset(arrays.split()),
        visit=lambda key, span, item: seen.append((key, span, item)),
    )
    return out, seen


@pytest.fixture(params=[7, 1 << 20], ids=["tiny-windows", "1MB-windows"])
def chunk(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> int:
    """Every test twice: with windows of 7 bytes (each value refilled across many) too."""
    monkeypatch.setattr(jsondoc, "CHUNK", request.param)
    return int(request.param)


def test_items_are_visited_with_their_spans_and_lines(chunk: int, tmp_path: Path) -> None:
    steps = [{"id": 1, "text": "été ☃"}, {"id": 2, "nested": [1, {"a": "b"}]}, "not an object"]
    doc = {"schema": "v1", "steps": steps, "final": {"n": 3}}
    data = json.dumps(doc, indent=2, ensure_ascii=False).encode()
    out, seen = scan(data)
    assert out.error is None and out.warnings == []
    assert out.value == {"schema": "v1", "steps": [], "final": {"n": 3}}
    assert [item for _, _, item in seen] == steps
    lines = data.decode().splitlines()
    for (key, span, item), spans in zip(seen, out.spans["steps"], strict=True):
        assert key == "steps" and span == spans
        assert json.loads(data[span.start : span.end]) == item
        assert lines[span.line - 1].strip().startswith(("{", '"'))
    path = tmp_path / "doc.json"
    path.write_bytes(data)
    with safeio.open_regular(str(path)) as f:
        assert [read_item(f, s) for s in out.spans["steps"]] == steps


def test_a_file_cut_short_keeps_the_items_before_the_cut(chunk: int) -> None:
    data = b'{"schema": "v1",\n "steps": [\n  {"id": 1},\n  {"id": 2},\n  {"id": 3, "text": "hal'
    out, seen = scan(data)
    assert [item for _, _, item in seen] == [{"id": 1}, {"id": 2}]
    assert out.value == {"schema": "v1", "steps": []}
    assert out.error == (5, "invalid JSON: ends early (truncated?)")


def test_an_error_says_its_line_and_column(chunk: int) -> None:
    data = '{"steps": [\n  {"id": 1},\n  {"text": "é", "id": 2,}\n]}'.encode()
    out, seen = scan(data)
    assert [item for _, _, item in seen] == [{"id": 1}]
    assert out.error is not None
    line, message = out.error
    assert line == 3
    assert message.startswith("invalid JSON at column 25:")  # characters (26 bytes)


def test_numbers_and_bytes_as_jsonutil_reads_them(chunk: int) -> None:
    big = "1" * 30
    data = (
        b'{"a": NaN, "steps": [1e999, '
        + big.encode()
        + b', {"t": "caf\xe9"}, {"t": "ok \xe2\x9c\x93"}]}'
    )
    out, seen = scan(data)
    items = [item for _, _, item in seen]
    assert isinstance(items[0], Overflowed) and items[0].text == "1e999"
    assert items[1] == int(big)
    assert items[2] == {"t": "caf\ufffd"} and items[3] == {"t": "ok ✓"}
    assert out.warnings == [
        f"invalid UTF-8 at byte {data.index(b'caf') + 3} (shown as \ufffd)",
        "non-standard JSON number (NaN or Infinity)",
    ]
    assert out.error is None


def test_a_document_that_is_not_an_object_is_read_whole(chunk: int) -> None:
    out, seen = scan(b'\xef\xbb\xbf[1, 2, "three"]')
    assert out.value == [1, 2, "three"] and seen == [] and out.error is None


def test_nesting_too_deep_is_an_error_not_a_crash(chunk: int) -> None:
    deep = b"[" * 100_000 + b"]" * 100_000
    out, seen = scan(b'{"steps": [{"a": 1}, ' + deep + b"]}")
    assert [item for _, _, item in seen] == [{"a": 1}]
    assert out.error is not None and "nested too deeply" in out.error[1]


def test_started_gets_the_members_before_the_array_before_any_item(chunk: int) -> None:
    """A log's header is known before its samples pass."""
    data = json.dumps({"version": 2, "eval": {"task": "t"}, "samples": [1, 2], "end": 3})
    seen: list[tuple[str, Any]] = []
    out = scan_document(
        BytesFile(data.encode()),
        arrays=frozenset({"samples"}),
        visit=lambda key, span, item: seen.append(("item", item)),
        started=lambda key, members: seen.append((key, dict(members))),
        spans=False,
    )
    assert seen == [("samples", {"version": 2, "eval": {"task": "t"}}), ("item", 1), ("item", 2)]
    assert out.value["end"] == 3 and out.counts == {"samples": 2}
    assert "samples" in out.spans and not len(out.spans["samples"])  # spans not kept


def test_a_scan_watched_as_it_goes_has_the_members_and_items_read_so_far(chunk: int) -> None:
    data = json.dumps({"head": 1, "steps": [{"a": 1}, {"a": 2}, {"a": 3}], "tail": 2}).encode()
    doc = jsondoc.DocumentScan(BytesFile(data), arrays=frozenset({"steps"}))
    seen = []
    for at in doc:
        seen.append((at, doc.scanned.counts.get("steps"), "tail" in doc.scanned.value))
    spans = list(doc.scanned.spans["steps"])
    # after each item: the bytes read up to its end, the items so far, the later member not yet
    assert seen[:3] == [(spans[k].end, k + 1, False) for k in range(3)]
    assert seen[-1] == (len(data), 3, True) and doc.scanned.error is None


def test_a_document_that_is_an_array_streams_its_items_when_asked() -> None:
    seen: list[tuple[str, Any, int]] = []
    data = b'[\n {"a": 1},\n {"b": [2, 3]}\n]\n'
    out = scan_document(
        BytesFile(data), arrays=frozenset({TOP}), visit=lambda k, s, v: seen.append((k, v, s.line))
    )
    assert out.error is None and out.value == [] and out.counts[TOP] == 2
    assert seen == [(TOP, {"a": 1}, 2), (TOP, {"b": [2, 3]}, 3)]
    assert [data[s.start : s.end] for s in out.spans[TOP]] == [b'{"a": 1}', b'{"b": [2, 3]}']
    assert scan_document(BytesFile(data)).value == [{"a": 1}, {"b": [2, 3]}]  # not asked: whole
