"""``trajtui export --parquet OUT/ PATH...`` (issue 27): written again, only the sources that
changed are rewritten (their files' mtimes and the manifest say so) and a source no longer
given is removed; steps go out in row groups; OUT is never a directory of someone else's
nor inside what is read; the schema version is in every file."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from tests.formats.acp.builders import capture, step_message, write_jsonl
from tests.helpers.ui import capture_fixture, trials_fixture
from trajtui.cli import cli
from trajtui.core.tables import writer

TABLES = ("runs", "steps", "tool_calls", "trials")


def export(out: Path, *paths: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["export", "--parquet", str(out), *paths])
    return result.exit_code, result.stderr


def files(out: Path) -> dict[str, int]:
    """Every Parquet file in OUT and its mtime (ns)."""
    return {
        str(p.relative_to(out)): p.stat().st_mtime_ns for t in TABLES for p in (out / t).glob("*")
    }


def manifest(out: Path) -> dict[str, dict[str, object]]:
    data = json.loads((out / "manifest.json").read_text())
    assert data["schema_version"] == 1
    return {e["path"]: e for e in data["sources"]}


def test_only_the_changed_source_is_rewritten(tmp_path: Path) -> None:
    a = capture_fixture(tmp_path, "a.jsonl")
    b = trials_fixture(tmp_path, "b.jsonl")
    out = tmp_path / "out"
    code, err = export(out, str(a), str(b))
    assert code == 0, err
    before = files(out)
    assert len(before) == 8  # a file per source per table
    keys = {p: e["key"] for p, e in manifest(out).items()}
    runs_of_a = manifest(out)[str(a)]["rows"]["runs"]  # type: ignore[index]
    with open(a, "a") as f:  # a grows by one run
        f.write(json.dumps(capture("websearch-99")) + "\n")
    os.utime(a, ns=(1, 1))  # mtime put back makes no difference: ctime and size changed
    code, err = export(out, str(a), str(b))
    assert code == 0, err
    assert "1 sources written" in err and "1 unchanged, kept" in err
    after = files(out)
    for name, mtime in after.items():
        changed = name.split("/")[1].startswith(str(keys[str(a)]))
        assert (mtime != before[name]) == changed, name
    assert manifest(out)[str(a)]["rows"]["runs"] == runs_of_a + 1  # type: ignore[index]
    runs = pq.read_table(out / "runs").column("ref").to_pylist()
    assert "a.jsonl::websearch-99" in runs
    code, err = export(out, str(b))  # a no longer given: its files go
    assert code == 0 and "1 no longer given, removed" in err
    assert {p.split("/")[1] for p in files(out)} == {f"{keys[str(b)]}.parquet"}


def test_nothing_changed_writes_nothing(tmp_path: Path) -> None:
    a = capture_fixture(tmp_path)
    out = tmp_path / "out"
    export(out, str(a))
    before = files(out)
    code, err = export(out, str(a))
    assert code == 0 and "0 sources written; 1 unchanged, kept" in err
    assert files(out) == before


def test_steps_go_out_in_row_groups(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(writer, "GROUP_ROWS", 10)
    recs = [capture(f"r-{i}", [step_message(f"m{k}", k) for k in range(7)]) for i in range(5)]
    path = write_jsonl(tmp_path / "many.jsonl", recs)
    out = tmp_path / "out"
    code, err = export(out, str(path))
    assert code == 0, err
    (steps,) = (out / "steps").glob("*.parquet")
    meta = pq.ParquetFile(steps).metadata
    assert meta.num_rows == 35 and meta.num_row_groups == 4
    assert pq.read_schema(steps).metadata[b"schema_version"] == b"1"


def test_out_is_never_someone_elses_or_inside_an_input(tmp_path: Path) -> None:
    a = capture_fixture(tmp_path)
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me")
    code, err = export(mine, str(a))
    assert code == 2 and "not written by trajtui" in err
    assert sorted(p.name for p in mine.iterdir()) == ["notes.txt"]
    code, err = export(tmp_path / "tables", str(tmp_path))
    assert code == 2 and "which is read" in err
    assert not (tmp_path / "tables").exists()


def test_unknown_is_null_never_zero(tmp_path: Path) -> None:
    rec = capture("no-score", tool_errors=None)
    path = write_jsonl(tmp_path / "x.jsonl", [rec])
    out = tmp_path / "out"
    assert export(out, str(path))[0] == 0
    row = pq.read_table(out / "runs").to_pylist()[0]
    assert row["ref"] == "no-score"
    assert row["score"] is None and row["cost"] is None and row["tool_errors_flag"] is None
    assert row["grade"] is None


def test_a_file_read_as_two_sources_is_two_sets_of_files(tmp_path: Path) -> None:
    """A Claude Code 1.0 session file is two sources (the session, and its subagents'
    lines, ``SESSION/sidechain``): both are in the tables, as ``ls`` lists them."""
    from tests.cli.tables_check import check_agree
    from tests.formats.claude_code import builders as bcc

    path = bcc.write_lines(
        tmp_path / "-home-u-app" / f"{bcc.SIDE}.jsonl", bcc.session_10_sidechain()
    )
    counts = check_agree(tmp_path / "out", str(path.parent))
    assert counts["runs"] == 2
    assert len(list((tmp_path / "out" / "runs").glob("*.parquet"))) == 2


def test_started_is_the_time_the_file_gives(tmp_path: Path) -> None:
    """A session's start is its first line's time, a subagent's its own first line's (never
    the order its folder lists it in); a run whose file gives none has null."""
    from datetime import datetime

    from tests.formats.claude_code import builders as bcc

    root = bcc.projects(tmp_path / "in")
    capture_path = capture_fixture(tmp_path)
    out = tmp_path / "out"
    assert export(out, str(root), str(capture_path))[0] == 0
    started = {r["run_ref"]: r["started"] for r in pq.read_table(out / "runs").to_pylist()}
    first = next(o["timestamp"] for o in bcc.subagent_21() if "timestamp" in o)
    sub = next(v for k, v in started.items() if k.endswith("/agent-a5f00d1"))
    assert sub == datetime.fromisoformat(first.replace("Z", "+00:00"))
    assert started["websearch-1"] is None
