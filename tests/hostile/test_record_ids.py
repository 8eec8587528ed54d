"""Hostile record ids (issue 8, item 8): the id a run is listed, shown and found under is the id
the JSON parser sees (numbers, duplicate id keys, a repeated id in a line longer than a chunk)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.helpers.ui import listed, running, settle
from tests.helpers.workspace import open_paths
from tests.hostile.fresh import rec, refs_of, run
from trajtui.core.jsonl import index as index_mod

# -- 8. record ids: the id a run is listed under is the id the JSON parser sees -------------


def test_numeric_ids_are_listed_shown_and_found_as_the_parser_reads_them(tmp_path: Path) -> None:
    # Held to: ls, show, show --json and --goto use one spelling: the number as the JSON
    # output prints it (1.5e3 -> 1500.0); big integers keep every digit.
    p = tmp_path / "ids.jsonl"
    p.write_bytes(
        b"\n".join(
            [
                rec("1.5"),
                rec("1.5e3"),
                rec("1E2"),
                rec("-0.0"),
                rec("12345678901234567890"),
                rec("7"),
                rec('"1"'),
            ]
        )
        + b"\n"
    )
    out = run("ls", str(p), "--json")
    assert out.returncode == 0, out.stderr
    refs = refs_of(out.stdout)
    assert refs == ["1.5", "1500.0", "100.0", "-0.0", "12345678901234567890", "7", "1"]
    for ref in refs[:-1]:
        shown = run("show", "--json", "--", str(p), ref)  # "--": "-0.0" is not an option
        assert shown.returncode == 0, shown.stderr
        obj = json.loads(shown.stdout)
        assert obj["ref"] == ref
        assert json.dumps(obj["id"]) == ref  # the id printed is the one listed
    text = run("show", str(p), "1500.0")
    assert text.returncode == 0 and text.stdout.startswith("1500.0")
    table = run("ls", str(p)).stdout
    assert re.search(r"^1\.5 ", table, re.M) and "1#2" not in table


def test_duplicate_id_keys_list_the_run_under_the_last_as_json_does(tmp_path: Path) -> None:
    # Held to: orjson keeps the last of repeated keys; so does the index, whether the
    # repeat is spelled plainly, with escapes, after whitespace, or after a long value.
    big = "x" * 5000
    p = tmp_path / "dups.jsonl"
    p.write_bytes(
        b"\n".join(
            [
                rec('"first"', '"input":"q","trajectory":[],"timing":{},"id":"last"'),
                rec('"a"', '"input":"q","trajectory":[],"timing":{},"\\u0069d":"escaped"'),
                b'{ "id" : "spaced", "input":"q","trajectory":[],"timing":{}, "id": "spaced-last"}',
                rec('"outer"', '"input":"q","trajectory":[],"timing":{},"metadata":{"id":"inner"}'),
                rec('"long"', f'"input":"{big}","trajectory":[],"timing":{{}},"id":"long-last"'),
                rec("1", '"input":"q","trajectory":[],"timing":{},"id":2.5'),
            ]
        )
        + b"\n"
    )
    out = run("ls", str(p), "--json")
    assert out.returncode == 0, out.stderr
    assert refs_of(out.stdout) == ["last", "escaped", "spaced-last", "outer", "long-last", "2.5"]
    shown = run("show", str(p), "last", "--json")
    assert json.loads(shown.stdout)["id"] == "last"
    assert run("show", str(p), "first").returncode == 1


def test_a_repeated_id_in_a_line_longer_than_a_chunk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(index_mod, "CHUNK", 256)
    pad = "y" * 3000
    p = tmp_path / "long.jsonl"
    p.write_bytes(
        rec('"head"', f'"input":"{pad}","trajectory":[],"timing":{{}},"id":"tail"')
        + b"\n"
        + rec('"next"')
        + b"\n"
        + rec('"unterminated"', f'"input":"{pad}","trajectory":[],"timing":{{}},"id":"end"')
    )
    ws = open_paths([str(p)])
    (source,) = ws.sources
    for _ in source.scan():
        pass
    assert [source.entry(i).ref for i in range(len(source))] == ["tail", "next", "end"]


async def test_goto_a_numeric_id(tmp_path: Path) -> None:
    p = tmp_path / "ids.jsonl"
    p.write_bytes(rec("1.5") + b"\n" + rec("1.5e3") + b"\n" + rec("12345678901234567890") + b"\n")
    async with running([str(p)], goto="1500.0") as (pilot, app, screen):
        await settle(pilot)
        assert screen.run is not None and screen.run.ref == "1500.0"
        assert listed(screen) == ["1.5", "1500.0", "12345678901234567890"]
