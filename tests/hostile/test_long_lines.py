"""Sizes (issue 8, item 26): a record longer than one read is read whole, a first record too
long to sniff whole is still recognised, and CR-only line endings. Full-size cases (a 2.2 GB
line) are measured by ``make bench`` (``tests/bench/hostile_bench.py``)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.formats.acp.builders import capture, step_message, write_jsonl
from tests.helpers.workspace import open_paths
from tests.hostile.fresh import rec, refs_of, run

# -- 26. sizes: long lines, huge first records, CR line endings --------------------------------


def test_a_record_longer_than_one_read_is_read_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The kernel returns at most 2 GiB per pread: a 2.2 GB line was "shorter than when it
    # was indexed". Here the cap is simulated at 1,000 bytes per call.
    real = os.pread

    def capped(fd: int, n: int, offset: int) -> bytes:
        return real(fd, min(n, 1000), offset)

    big = "z" * 20_000
    p = write_jsonl(tmp_path / "long.jsonl", [capture("long", output=big), capture("after")])
    monkeypatch.setattr(os, "pread", capped)
    ws = open_paths([str(p)])
    (source,) = ws.sources
    for _ in source.scan():
        pass
    assert [source.entry(i).ref for i in range(2)] == ["long", "after"]
    assert source.run(0).raw["output"] == big
    assert not source.problems()


def test_a_first_record_too_long_to_sniff_whole_is_still_recognised(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A first record over 512 MB made the file "not a format trajtui reads"; here the
    # sniffing limit is lowered to 64 kB and the first record is 300 kB.
    from trajtui.core.io import detect

    monkeypatch.setattr(detect, "MAX_LINE", 64 * 1024)
    monkeypatch.setattr(detect, "HEAD_BYTES", 16 * 1024)
    big = "w" * 300_000
    p = write_jsonl(
        tmp_path / "first.jsonl",
        [capture("first", [step_message(big, 1)], input=big), capture("second")],
    )
    ws = open_paths([str(p)])
    assert not ws.problems, ws.problems
    (source,) = ws.sources
    assert source.format.id == "acp-capture"
    for _ in source.scan():
        pass
    assert [source.entry(i).ref for i in range(2)] == ["first", "second"]


def test_a_file_with_cr_only_line_endings(tmp_path: Path) -> None:
    p = tmp_path / "mac.jsonl"
    p.write_bytes(
        b"\r".join(json.dumps(capture(f"m{i}")).encode() for i in range(3)) + b"\r\r" + rec('"m3"')
    )
    out = run("ls", str(p), "--json")
    assert out.returncode == 0, out.stderr
    assert refs_of(out.stdout) == ["m0", "m1", "m2", "m3"]
    assert [json.loads(x)["line"] for x in out.stdout.splitlines()] == [1, 2, 3, 5]
    assert "line endings are CR only" in out.stderr
    shown = run("show", str(p), "m3", "--json")
    assert json.loads(shown.stdout)["id"] == "m3"
