"""The index cache on a file unchanged or changed: a second open of an unchanged file restores
everything a full scan knew (runs, problems, names of repeated ids, blank lines) without reading
the file; a grown file continues from where the cache ends; a changed one (even rewritten in
place with its mtime put back) is indexed from scratch."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.core.cached import Reads, entry_file, fresh, open_source, rec, seen, varied_file
from tests.formats.acp.builders import capture, write_jsonl
from trajtui.core.jsonl import indexcache, indexstate

# -- unchanged -------------------------------------------------------------------------------


def test_second_open_restores_everything_without_reading_the_file(tmp_path: Path) -> None:
    p = varied_file(tmp_path / "runs.jsonl")
    first = seen(open_source(p))
    assert entry_file(p).is_file()
    assert "a#2#2" in first["refs"] and "a#3" in first["refs"]  # repeats were renamed
    again = open_source(p)
    assert seen(again) == first == fresh(p)
    assert again.complete and len(again) == 16
    assert again.resolve("a#2#2").index == first["found"]["a#2#2"]


def test_second_open_reads_nothing_at_all(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    p = varied_file(tmp_path / "runs.jsonl")
    open_source(p)
    reads = Reads(monkeypatch)
    source = open_source(p)
    seen(source)
    assert (reads.decoded, reads.scanned_from) == (0, [])


@pytest.mark.parametrize("newline", [b"\r", b"\r\n"])
def test_cr_line_ends_and_a_bom_round_trip(tmp_path: Path, newline: bytes) -> None:
    p = tmp_path / "mac.jsonl"
    body = newline.join([rec(capture("a")), b"", rec(capture("b")), b"{bad", rec(capture("a"))])
    p.write_bytes(b"\xef\xbb\xbf" + body + newline)
    first = seen(open_source(p))
    assert first["flags"][0] and first["flags"][1] == (newline == b"\r")
    assert seen(open_source(p)) == first == fresh(p)


# -- changed ---------------------------------------------------------------------------------


def test_an_appended_file_is_read_from_where_the_cache_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    p = varied_file(tmp_path / "runs.jsonl")  # ends with an unfinished line
    before = open_source(p)
    end = before.index.starts[-1]  # where the unfinished line starts
    with p.open("ab") as f:
        f.write(b'e","trajectory":[]}\n' + rec(capture("a")) + b"\n" + rec(capture("new")) + b"\n")
    reads = Reads(monkeypatch)
    after = open_source(p)
    assert reads.scanned_from and min(reads.scanned_from) >= end
    assert reads.decoded == 3  # the finished line and the two new ones
    got = seen(after)
    assert got == fresh(p)
    assert got["refs"][-3:] == ["z", "a#4", "new"]


@pytest.mark.parametrize("how", ["replaced", "truncated", "rewritten", "rewritten-same-mtime"])
def test_a_changed_file_is_indexed_from_scratch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    p = tmp_path / "runs.jsonl"
    write_jsonl(p, [capture(f"r{i}") for i in range(30)])
    open_source(p)
    st = p.stat()
    data = p.read_bytes()
    if how == "replaced":  # another file, same size, under the same name
        other = tmp_path / "other.jsonl"
        other.write_bytes(data.replace(b'"r1"', b'"x1"'))
        os.replace(other, p)
    elif how == "truncated":
        with p.open("r+b") as f:
            f.truncate(len(data) // 2)
    else:  # the same inode written over in place, same size
        with p.open("r+b") as f:
            f.write(data.replace(b'"r0"', b'"q0"'))
        if how == "rewritten-same-mtime":
            os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))
    reads = Reads(monkeypatch)
    got = seen(open_source(p))
    assert reads.decoded > 0
    assert got == fresh(p)
    assert ("r1" in got["refs"]) == (how != "replaced")
    assert ("r0" in got["refs"]) == (how not in ("rewritten", "rewritten-same-mtime"))


def _big_file(path: Path) -> bytes:
    """Runs enough that most bytes lie between the sampled blocks of the identity check."""
    write_jsonl(path, [capture(f"r{i:04d}", input="x" * 300) for i in range(1500)])
    data = path.read_bytes()
    assert len(data) > 4 * (2 * indexcache.SAMPLE + indexcache.BLOCKS * indexcache.BLOCK)
    return data


def _unsampled_id(data: bytes, among: range = range(1500)) -> bytes:
    """An id (of the records ``among``) whose record lies wholly outside the head, tail and
    sampled blocks."""
    size, sample = len(data), indexcache.SAMPLE
    step = (size - 2 * sample) // (indexcache.BLOCKS + 1)
    blocks = [(sample + k * step, sample + k * step + indexcache.BLOCK) for k in range(1, 17)]
    for i in among:
        rid = f'"r{i:04d}"'.encode()
        at = data.index(rid)
        lo, hi = data.rfind(b"\n", 0, at) + 1, data.index(b"\n", at)
        if lo > sample and hi < size - sample and all(hi < a or lo > b for a, b in blocks):
            return rid
    raise AssertionError("no record between the sampled blocks")


def test_a_big_file_rewritten_in_place_with_its_mtime_put_back_is_read_afresh(
    tmp_path: Path,
) -> None:
    """Seen: the cache served the old id of a record rewritten between the sampled blocks
    (same size, mtime restored), and ``show --json`` printed a ref that is not in the file."""
    p = tmp_path / "runs.jsonl"
    data = _big_file(p)
    open_source(p)
    old = _unsampled_id(data)
    new = b'"Z' + old[2:]
    st = p.stat()
    with p.open("r+b") as f:
        f.write(data.replace(old, new))
    os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert p.stat().st_mtime_ns == st.st_mtime_ns and p.stat().st_size == st.st_size
    got = seen(open_source(p))
    assert new.decode().strip('"') in got["refs"] and old.decode().strip('"') not in got["refs"]
    assert got == fresh(p)


def test_an_append_to_a_file_rewritten_in_place_is_not_taken_on_trust(tmp_path: Path) -> None:
    """Appending changes every time stamp, so the records the entry says are checked
    against the file: one of them rewritten (another key in its place) means reading afresh."""
    p = tmp_path / "runs.jsonl"
    data = _big_file(p)
    open_source(p)
    # A record between the sampled blocks, among those the restore checks against the file.
    old = _unsampled_id(data, range(0, 1500, 1500 // indexstate.SAMPLED_RECORDS))
    new = b'"q' + old[2:]
    with p.open("r+b") as f:
        f.write(data.replace(old, new))
    with p.open("ab") as f:
        f.write(rec(capture("appended")) + b"\n")
    got = seen(open_source(p))
    assert new.decode().strip('"') in got["refs"] and old.decode().strip('"') not in got["refs"]
    assert "appended" in got["refs"] and got == fresh(p)


def test_a_file_that_grew_in_the_middle_is_not_taken_for_an_append(tmp_path: Path) -> None:
    p = tmp_path / "runs.jsonl"
    write_jsonl(p, [capture(f"r{i}") for i in range(30)])
    open_source(p)
    data = p.read_bytes()
    with p.open("r+b") as f:  # same inode, bigger: not an append (the end moved)
        f.write(data.replace(b'"r29"', b'"r29-longer"'))
    got = seen(open_source(p))
    assert got == fresh(p) and got["refs"][-1] == "r29-longer"
