"""What a user checks of the Parquet tables (issue 27): DuckDB reading an export gives the
runs ``ls --json`` lists, the pass share and tool calls ``stats --json`` counts, and the
references it holds lead back with ``show``. Used by the contract examples' test and the
real samples' test."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import duckdb

from tests.helpers import forked


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return forked.run(
        [sys.executable, "-m", "trajtui", *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
    )


def export(out: Path, *paths: str) -> subprocess.CompletedProcess[str]:
    done = run("export", "--parquet", str(out), *paths)
    assert done.returncode in (0, 1), done.stderr
    return done


def duck(out: Path, sql: str) -> list[tuple[Any, ...]]:
    """``sql`` over the export at ``out``, by DuckDB alone (read_parquet of each table's
    directory, no options): what any engine reads."""
    con = duckdb.connect(":memory:")
    for table in ("runs", "steps", "tool_calls", "trials"):
        con.execute(f"CREATE VIEW {table} AS SELECT * FROM read_parquet('{out}/{table}/*.parquet')")
    return con.execute(sql).fetchall()


def ls_rows(*paths: str) -> list[dict[str, Any]]:
    done = run("ls", "--json", *paths)
    assert done.returncode in (0, 1), done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def ls_refs(*paths: str) -> list[str]:
    return [row["ref"] for row in ls_rows(*paths)]


def stats_all(*paths: str) -> dict[str, Any]:
    done = run("stats", "--json", *paths)
    assert done.returncode in (0, 1), done.stderr
    if not done.stdout.strip():
        return {}
    first: dict[str, Any] = json.loads(done.stdout.splitlines()[0])
    return first


def check_agree(out: Path, *paths: str) -> dict[str, int]:
    """Export ``paths`` into ``out`` and compare what DuckDB reads with ``ls``/``stats``;
    the counts, for the caller to check further."""
    export(out, *paths)
    refs = ls_refs(*paths)
    got = [r for (r,) in duck(out, "SELECT ref FROM runs ORDER BY source, index")]
    assert sorted(got) == sorted(refs)
    stats = stats_all(*paths)
    passed, graded = duck(out, "SELECT sum(grade::int), count(grade) FROM runs")[0]
    shown = stats.get("outcomes", {}).get("graded")
    if shown is None:
        assert graded == 0
    else:
        assert (passed, graded) == (shown["num"], shown["den"])
    calls = duck(out, "SELECT count(*) FROM tool_calls")[0][0]
    listed = duck(out, "SELECT sum(tool_calls) FROM runs")[0][0]
    tools = stats.get("tools", {})
    if "all" in tools:
        assert listed == tools["all"]["calls"]
        by_tool = {t: v["calls"] for t, v in tools.get("by_tool", {}).items()}
        mine = dict(
            duck(out, "SELECT coalesce(tool, '(unnamed)'), count(*) FROM tool_calls GROUP BY ALL")
        )
        assert mine == by_tool
        assert calls == sum(by_tool.values())
    else:
        assert calls == 0 and listed is None
    return {"runs": len(got), "graded": graded, "calls": calls}


def check_refs_lead_back(out: Path, *paths: str, limit: int = 3) -> None:
    """A run's, a step's and a tool call's reference in the tables open with ``show`` of
    the path given that holds its source."""
    for table in ("runs", "steps", "tool_calls", "trials"):
        sql = f"SELECT DISTINCT ref, source FROM {table} ORDER BY ref LIMIT {limit}"
        for ref, source in duck(out, sql):
            path = next(p for p in paths if source == p or source.startswith(p.rstrip("/") + "/"))
            shown = run("show", path, ref)
            assert shown.returncode == 0, (table, ref, shown.stderr)
            assert ref.split("::")[-1] in shown.stdout
