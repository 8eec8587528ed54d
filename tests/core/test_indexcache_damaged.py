"""The index cache never trusts its files: a damaged, truncated, foreign or forged cache file,
an entry of another file, or one that is not a regular file is ignored and rebuilt."""

from __future__ import annotations

import os
import struct
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.core.cached import Reads, entry_file, open_source, rewrite_entry, seen, varied_file
from tests.formats.acp.builders import capture, write_jsonl
from trajtui.core.jsonl import cachefile

# -- bad cache files -------------------------------------------------------------------------


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
    rewrite_entry(entry_file(p), forge)
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
