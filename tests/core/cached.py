"""Files of our own for the index cache's tests, and what they read of them: what a scanned
source shows (:func:`seen`), with the cache and without it, and how much of a file is read
(:class:`Reads`)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.formats.acp.builders import capture, step_tool, trials
from tests.helpers.workspace import open_paths
from trajtui.core.jsonl import cachefile, indexcache
from trajtui.core.jsonl.index import LineIndex
from trajtui.core.jsonl.reader import JsonlReader
from trajtui.core.jsonl.source import JsonlSource


def rec(obj: Any) -> bytes:
    """``obj`` as a JSON line (without its newline)."""
    return json.dumps(obj).encode()


def varied_file(path: Path) -> Path:
    """Runs, repeated ids, a literal ``a#2``, broken lines of every kind, blank lines, a
    long id, unusual numbers and a truncated last line."""
    lines = [
        rec(capture("a", score={"pass": True, "score": 0.5})),
        rec(capture("b", [step_tool("Read", "failed", 5)], tool_errors=True)),
        b"",
        b"   ",
        rec(capture("a", score={"pass": False, "score": 0.25})),
        rec(capture("a#2")),
        b"{oops",
        b"[1, 2]",
        rec({"input": "no id", "trajectory": [], "timing": {}}),
        rec({"id": {"x": 1}, "trajectory": []}),
        rec(capture("L" * 400)),
        rec(trials("t-1", [True, False, True])),
        b'{"id":"inf","input":"q","trajectory":[],"timing":{"total":1e999},"score":{"score":1e999}}',
        b'{"id":"nan","input":"q","trajectory":[],"score":{"score":NaN}}',
        b'{"id":"big","input":"q","trajectory":[],"timing":{"total":1' + b"0" * 400 + b"}}",
        b"",
        b"",
        b"",
        rec(capture("\u00e9t\u00e9-\u4e2d\u6587", input="Caf\u00e9 \u2028 line")),
        rec(capture("a")),
        b'{"id":"z","input":"tru',
    ]
    path.write_bytes(b"\n".join(lines))
    return path


def seen(source: JsonlSource) -> dict[str, Any]:
    """Everything the run list, ``ls`` and references show of a scanned source."""
    n = len(source)
    refs = source.run_refs()
    return {
        "entries": [repr(source.entry(i)) for i in range(n)],
        "problems": [repr(p) for p in source.problems()],
        "refs": refs,
        "found": {r: source.find(r) for r in refs},
        "lines": [source.index.line_of(i) for i in range(n)],
        "blank": source.index.blank_lines(),
        "bytes": [source.index.read(i) for i in range(n)],
        "flags": (source.index.bom, source.index.cr_only, source.index.unterminated),
    }


def open_source(path: Path) -> JsonlSource:
    """Open ``path``, scan it and read every entry (as the TUI and ``ls`` do), then save."""
    ws = open_paths([str(path)])
    (source,) = ws.sources
    assert isinstance(source, JsonlSource)
    for _ in source.scan():
        pass
    for i in range(len(source)):
        source.entry(i)
    source.save_index()
    return source


def fresh(path: Path) -> dict[str, Any]:
    """What a scan without the cache sees."""
    indexcache.configure(enabled=False)
    try:
        return seen(open_source(path))
    finally:
        indexcache.configure()


class Reads:
    """Counts records decoded and chunks of the data file scanned."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.decoded = 0
        self.scanned_from: list[int] = []
        decode, lines_in = JsonlReader._decode, LineIndex._lines_in

        def counting_decode(reader: JsonlReader, i: int, line: int, data: bytes) -> Any:
            self.decoded += 1
            return decode(reader, i, line, data)

        def counting_lines_in(ix: LineIndex, buf: bytes, buf_at: int) -> int:
            self.scanned_from.append(buf_at)
            return lines_in(ix, buf, buf_at)

        monkeypatch.setattr(JsonlReader, "_decode", counting_decode)
        monkeypatch.setattr(LineIndex, "_lines_in", counting_lines_in)


def entry_file(path: Path) -> Path:
    """The index cache's entry for ``path``."""
    return indexcache.entry_path(os.path.realpath(path))


def read_entry(entry: Path) -> tuple[dict[str, Any], dict[str, bytes]]:
    """An index-cache entry's header (without the layout of its sections, which writing it
    again makes) and its sections, by name."""
    fd = os.open(entry, os.O_RDONLY)
    try:
        header, views = cachefile.read(fd, os.fstat(fd).st_size)
    finally:
        os.close(fd)
    header.pop("sections")
    header.pop("byteorder")
    return header, {name: bytes(view) for name, view in views.items()}


def rewrite_entry(entry: Path, change: Callable[[dict[str, Any], dict[str, bytes]], None]) -> None:
    """Decode an entry, let ``change`` edit it, and write it back with a valid checksum (a
    forged entry: only its content is wrong)."""
    header, sections = read_entry(entry)
    change(header, sections)
    entry.write_bytes(cachefile.encode(header, dict(sections)))
