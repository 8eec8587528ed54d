"""The index cache: a second open of an unchanged file restores everything a full scan knew
(runs, problems, names of repeated ids, blank lines) without reading the file; a grown
file continues from where the cache ends; a changed one is indexed from scratch; a bad
cache file (damaged, truncated, foreign, forged) is ignored and rebuilt; the least recently
used entries go beyond the cap; entries live under ``$XDG_CACHE_HOME/trajtui``, private,
and never inside an opened path."""

from __future__ import annotations

import json
import os
import stat
import struct
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.formats.acp.builders import capture, step_tool, summary, trials, write_jsonl
from tests.helpers.workspace import open_paths
from trajtui.core.jsonl import cachefile, indexcache, indexstate
from trajtui.core.jsonl.index import LineIndex
from trajtui.core.jsonl.reader import JsonlReader
from trajtui.core.jsonl.source import JsonlSource


def rec(obj: Any) -> bytes:
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
    return indexcache.entry_path(os.path.realpath(path))


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


# -- bad cache files -------------------------------------------------------------------------


def _rewrite(path: Path, change: Callable[[dict[str, Any], dict[str, bytes]], None]) -> None:
    """Decode an entry, let ``change`` edit it, and write it back with a valid checksum (a
    forged entry: only its content is wrong)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        header, views = cachefile.read(fd, os.fstat(fd).st_size)
    finally:
        os.close(fd)
    sections: dict[str, Any] = {name: bytes(view) for name, view in views.items()}
    header.pop("sections")
    header.pop("byteorder")
    change(header, sections)
    path.write_bytes(cachefile.encode(header, sections))


def _swap_starts(h: dict[str, Any], s: dict[str, bytes]) -> None:
    starts = s["index.starts"]
    s["index.starts"] = starts[8:16] + starts[:8] + starts[16:]


def _past_the_end(h: dict[str, Any], s: dict[str, bytes]) -> None:
    s["index.starts"] = s["index.starts"][:-8] + (10**12).to_bytes(8, "little")


def _code_out_of_range(h: dict[str, Any], s: dict[str, bytes]) -> None:
    s["table.codes"] = (10**6).to_bytes(4, "little") + s["table.codes"][4:]


def _key_inside_a_character(h: dict[str, Any], s: dict[str, bytes]) -> None:
    blob = s["keys.blob"]
    at = blob.index("\u00e9".encode()) + 1
    offs = bytearray(s["keys.offs"])
    for k in range(8, len(offs), 8):  # the first offset after the accented key's start
        if int.from_bytes(offs[k : k + 8], "little") > at:
            offs[k : k + 8] = at.to_bytes(8, "little")
            break
    s["keys.offs"] = bytes(offs)


def _problem_row_without_problem(h: dict[str, Any], s: dict[str, bytes]) -> None:
    s["source.problems"] = b""


def _more_records_than_offsets(h: dict[str, Any], s: dict[str, bytes]) -> None:
    h["state"]["count"] += 1


def _lying_string_length(h: dict[str, Any], s: dict[str, bytes]) -> None:
    s["index.bad"] = b"i" + bytes(8) + b"s\xff\xff\xff\xff" + b"x"


def _missing_section(h: dict[str, Any], s: dict[str, bytes]) -> None:
    del s["table.kinds"]


def _mark_out_of_range(h: dict[str, Any], s: dict[str, bytes]) -> None:
    s["keys.repeats"] += (10**9).to_bytes(8, "little")


def _not_a_number_aside(h: dict[str, Any], s: dict[str, bytes]) -> None:
    s["num.score.aside"] = b"o\x03\x00\x00\x00abc" + s["num.score.aside"]


def _a_string_in_a_number_column(h: dict[str, Any], s: dict[str, bytes]) -> None:
    # Seen: a string kept aside in a number column (its row marked so) ended ``ls`` with
    # "internal error: TypeError" when the rows were sorted.
    kinds = bytearray(s["num.steps.kinds"])
    kinds[0] = 3
    s["num.steps.kinds"] = bytes(kinds)
    s["num.steps.aside"] = cachefile.pack_values(
        [0, "12", *cachefile.unpack_values(s["num.steps.aside"])]
    )


def _a_negative_count(h: dict[str, Any], s: dict[str, bytes]) -> None:
    values = bytearray(s["num.steps.values"])
    values[:8] = struct.pack("<d", -3.0)
    s["num.steps.values"] = bytes(values)


def _a_string_metric(h: dict[str, Any], s: dict[str, bytes]) -> None:
    s["table.metrics"] = cachefile.pack_values([0, 1, "reward", "high"])


FORGED = [
    _swap_starts,
    _past_the_end,
    _code_out_of_range,
    _key_inside_a_character,
    _problem_row_without_problem,
    _more_records_than_offsets,
    _lying_string_length,
    _missing_section,
    _mark_out_of_range,
    _not_a_number_aside,
    _a_string_in_a_number_column,
    _a_negative_count,
    _a_string_metric,
]


def _truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def _flip_middle(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))


def _flip_checksum(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[-1] ^= 0x01
    path.write_bytes(bytes(data))


def _header_length_past_the_start(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[-36:-32] = (len(data) + 10).to_bytes(4, "little")
    path.write_bytes(bytes(data))


def _future_version(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[8:12] = (99).to_bytes(4, "little")
    path.write_bytes(bytes(data))


DAMAGED: list[Callable[[Path], object]] = [
    _truncate,
    _flip_middle,
    _flip_checksum,
    _future_version,
    _header_length_past_the_start,
    lambda p: p.write_bytes(b""),
    lambda p: p.write_bytes(os.urandom(5000)),
    lambda p: p.write_bytes(b'{"not": "a cache", "records": 3}\n'),
    lambda p: p.write_bytes(b"TRJTIDX\x00" + bytes(8)),
]


@pytest.mark.parametrize("damage", DAMAGED)
def test_a_damaged_or_foreign_cache_file_is_ignored_and_rebuilt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: Callable[[Path], object]
) -> None:
    p = varied_file(tmp_path / "runs.jsonl")
    first = seen(open_source(p))
    damage(entry_file(p))
    assert seen(open_source(p)) == first  # read from the file, not from the bad entry
    reads = Reads(monkeypatch)
    assert seen(open_source(p)) == first and reads.decoded == 0  # rebuilt, used again


@pytest.mark.parametrize("forge", FORGED, ids=[f.__name__.strip("_") for f in FORGED])
def test_a_forged_cache_file_is_checked_not_trusted(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    forge: Callable[[dict[str, Any], dict[str, bytes]], None],
) -> None:
    p = varied_file(tmp_path / "runs.jsonl")
    first = seen(open_source(p))
    _rewrite(entry_file(p), forge)
    reads = Reads(monkeypatch)
    again = open_source(p)
    assert reads.decoded > 0  # the entry was refused: the file was read
    assert seen(again) == first


def test_an_entry_of_another_file_is_not_used(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    write_jsonl(a, [capture("from-a")])
    write_jsonl(b, [capture("from-b")])
    open_source(a)
    entry_file(b).write_bytes(entry_file(a).read_bytes())  # a's entry under b's name
    assert seen(open_source(b))["refs"] == ["from-b"]


@pytest.mark.parametrize("kind", ["symlink", "fifo", "directory"])
def test_an_entry_that_is_not_a_regular_file_is_ignored_without_blocking(
    tmp_path: Path, kind: str
) -> None:
    p = tmp_path / "runs.jsonl"
    write_jsonl(p, [capture("a"), capture("b")])
    open_source(p)
    entry = entry_file(p)
    entry.unlink()
    if kind == "symlink":
        entry.symlink_to("/dev/zero")
    elif kind == "fifo":
        os.mkfifo(entry)
    else:
        entry.mkdir()
    assert seen(open_source(p))["refs"] == ["a", "b"]


# -- where, how big, and when not ------------------------------------------------------------


def test_entries_are_private_files_under_xdg_cache_home(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    p = write_jsonl(data / "runs.jsonl", [capture("a")])
    open_source(p)
    where = Path(os.environ["XDG_CACHE_HOME"]) / "trajtui" / "index"
    (entry,) = where.iterdir()
    assert stat.S_IMODE(where.stat().st_mode) == 0o700
    assert stat.S_IMODE(entry.stat().st_mode) == 0o600
    assert [e.source for e in indexcache.entries()] == [str(p.resolve())]
    assert sorted(os.listdir(data)) == ["runs.jsonl"]  # nothing beside the data


def test_nothing_is_written_inside_an_opened_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"  # `trajtui ~`: the cache directory is inside what is opened
    home.mkdir()
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    write_jsonl(home / "runs.jsonl", [capture("a"), capture("b")])
    ws = open_paths([str(home)])
    (source,) = ws.sources
    for _ in source.scan():
        pass
    for i in range(len(source)):
        source.entry(i)
    assert not source.save_index()
    assert not (home / ".cache").exists()


@pytest.mark.parametrize("off", ["--no-cache", "cap 0"])
def test_a_cache_turned_off_is_neither_read_nor_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, off: str
) -> None:
    p = write_jsonl(tmp_path / "runs.jsonl", [capture("a"), capture("b")])
    open_source(p)
    if off == "cap 0":
        monkeypatch.setenv(indexcache.ENV_MAX_MB, "0")
    else:
        indexcache.configure(enabled=False)
    reads = Reads(monkeypatch)
    entry_file(p).unlink()
    assert seen(open_source(p))["refs"] == ["a", "b"] and reads.decoded == 2
    assert not entry_file(p).exists()


def test_least_recently_used_entries_go_beyond_the_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(indexcache.ENV_MAX_MB, "1")
    files = []
    for name in "abc":  # entries of about 400 kB each: two fit in 1 MB, not three
        files.append(
            write_jsonl(
                tmp_path / f"{name}.jsonl",
                [summary(f"{name}-{i:05}", ["Read"]) for i in range(4000)],
            )
        )
    a, b, c = files
    open_source(a)
    time.sleep(0.02)
    open_source(b)
    size = entry_file(b).stat().st_size
    assert 300_000 < size < 500_000
    time.sleep(0.02)
    reads = Reads(monkeypatch)
    open_source(a)  # used again: now the most recent
    assert reads.decoded == 0
    time.sleep(0.02)
    open_source(c)  # over the cap: b, the least recently used, goes
    assert [Path(e.source or "").name for e in indexcache.entries()] == ["c.jsonl", "a.jsonl"]
    assert sum(e.size for e in indexcache.entries()) <= 1 << 20


def test_an_entry_bigger_than_the_cap_is_not_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(indexcache.ENV_MAX_MB, "1")
    p = write_jsonl(tmp_path / "big.jsonl", [summary(f"r-{i:06}", ["Read"]) for i in range(12000)])
    open_source(p)
    assert indexcache.entries() == []


def test_an_unusable_cap_is_named_and_the_default_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(indexcache.ENV_MAX_MB, "lots")
    cap, where = indexcache.limit()
    assert cap == indexcache.DEFAULT_MAX_MB << 20
    assert "TRAJTUI_CACHE_MAX_MB='lots'" in where and "ignored" in where


def test_clear_removes_every_entry(tmp_path: Path) -> None:
    for name in "ab":
        open_source(write_jsonl(tmp_path / f"{name}.jsonl", [capture(name)]))
    assert len(indexcache.entries()) == 2
    removed, freed = indexcache.clear()
    assert removed == 2 and freed > 0 and indexcache.entries() == []


def test_a_growing_file_is_saved_again_only_after_a_while(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    p = write_jsonl(tmp_path / "live.jsonl", [capture("a")])
    source = open_source(p)
    with p.open("ab") as f:
        f.write(rec(capture("b")) + b"\n")
    for _ in source.scan():  # followed: the append is read
        pass
    source.entry(1)
    assert not source.save_index()  # saved a moment ago: not rewritten for every append
    monkeypatch.setattr(indexcache, "RESAVE_AFTER", 0.0)
    assert source.save_index()
    assert [e.records for e in indexcache.entries()] == [2]


def test_the_code_fingerprint_covers_the_formats_readers() -> None:
    """Rows cached by an older reader are not trusted: the fingerprint covered only
    core/jsonl after the core was grouped, so a changed format reader (a Claude Code title,
    say) kept serving the old rows from the cache."""
    from trajtui.core.jsonl import indexcache as ic

    covered = {p.relative_to(ic.PACKAGE).as_posix() for p, _ in ic.fingerprinted()}
    assert "formats/claude_code/fold.py" in covered
    assert "formats/acp/__init__.py" in covered
    assert "core/model.py" in covered
