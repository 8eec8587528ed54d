"""Spark reads the exported tables as trajtui and DuckDB do (issue 27).

Collected only when TRAJTUI_SPARK_PYTHON names a Python that has pyspark (``make
spark-check`` installs it into a throwaway venv and sets it; see tests/conftest.py):
``make test`` never collects this module, so no skip can hide a failure. The real samples
and every format's contract example are exported (``trajtui export --parquet``), then one
Spark session in local mode (``read_spark.py``, run by that Python) reads every table of
every export with ``spark.read.parquet(DIR)``, no options, and runs the README's Spark
questions. Checked: each column has the type the schema writes (no unsigned int read as a
decimal, no timestamp read as a number or a local time); every row Spark reads is the row
DuckDB reads; the runs, passes, steps, trials and tool calls (all and by tool) are the
ones ``ls --json`` and ``stats --json`` count; each README question gives on Spark the rows
``trajtui sql`` gives for its DuckDB form. The last test breaks two columns on purpose and
sees the checks catch them.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from tests.cli.tables_check import duck, export, ls_rows, stats_all
from tests.contract.test_contract import EXAMPLES
from tests.formats.acp.builders import capture, step_tool, write_jsonl
from tests.helpers.ui import capture_fixture, trials_fixture
from tests.samples.locate import SAMPLES, require
from trajtui.core.tables import TABLES
from trajtui.core.tables.schema import SCHEMAS

HERE = Path(__file__).parent
README = HERE.parents[1] / "README.md"
SPARK = os.environ.get("TRAJTUI_SPARK_PYTHON", "")

SPARK_TYPES = {
    "string": "string",
    "int64": "bigint",
    "double": "double",
    "bool": "boolean",
    "timestamp[us, tz=UTC]": "timestamp",
    "list<item: string>": "array<string>",
    "map<string, string>": "map<string,string>",
    "map<string, double>": "map<string,double>",
}
"""The Spark type of each Arrow type the schema writes: what Spark must read each as."""

COUNTS = {
    "runs": "SELECT ref FROM runs",
    "graded": "SELECT sum(CAST(grade AS INT)), count(grade) FROM runs",
    "steps": "SELECT ref, steps FROM runs",
    "listed_calls": "SELECT sum(tool_calls) FROM runs",
    "calls": "SELECT count(*) FROM tool_calls",
    "by_tool": "SELECT coalesce(tool, '(unnamed)'), count(*) FROM tool_calls GROUP BY tool",
    "trials": "SELECT count(*), sum(CAST(passed AS INT)) FROM trials",
}
"""Counts asked of Spark (in SQL both engines take), to compare with ``ls`` and ``stats``."""


def readme_questions(heading: str) -> dict[str, str]:
    """``{question: SQL}`` of the README's section ``heading``."""
    text = README.read_text(encoding="utf-8")
    section = text.split(f"#### {heading}\n", 1)[1].split("\n#", 1)[0]
    found = re.findall(r"\* \*\*(.+?)\*\*.*?```sql\n(.*?)```", section, re.S)
    return {q: s.strip() for q, s in found}


DUCK_QUESTIONS = readme_questions("Questions as SQL")
SPARK_QUESTIONS = readme_questions("The same questions on Spark")


def _questions_fixture(d: Path) -> Path:
    """Runs the README's questions have something to say about: models, tool failures and
    durations, days, a trials record's tasks (costs are the real samples')."""
    capture_fixture(d)
    trials_fixture(d, "trials.jsonl")
    calls = [
        capture(
            f"c-{i}",
            [step_tool("Bash", "failed" if i % 2 else "completed", 100, duration=500 * i)],
            metadata={"model": f"m{i % 2}", **({"date": f"2026-01-0{i}"} if i < 3 else {})},
        )
        for i in range(1, 6)
    ]
    # started at 23:30 UTC, no date of its own: its day is the UTC day on both engines
    at = {"model": "m1", "started": "2026-01-03T23:30:00Z"}
    late = capture("late", [step_tool("Bash", "completed", 100)], metadata=at)
    write_jsonl(d / "calls.jsonl", [*calls, late])
    return d


def _inputs(root: Path) -> dict[str, list[str]]:
    """The paths of each export: the real samples, every format's contract example, the
    questions' runs."""
    paths: dict[str, list[str]] = {}
    if SAMPLES.is_dir():
        paths["samples"] = sorted(str(p) for p in SAMPLES.iterdir() if p.is_dir())
    for fid, build in sorted(EXAMPLES.items()):
        (root / fid).mkdir(parents=True)
        paths[fid] = [str(build(root / fid))]
    (root / "questions").mkdir()
    paths["questions"] = [str(_questions_fixture(root / "questions"))]
    return paths


BROKEN: dict[str, tuple[str, Callable[[pa.ChunkedArray], pa.Array]]] = {
    "unsigned": ("steps", lambda col: col.cast(pa.uint64())),
    "nanoseconds": (
        "started",
        lambda col: pa.array(
            [dt.datetime(2026, 1, 2, 3, 4, 5, 678901, tzinfo=dt.UTC)] * len(col),
            pa.timestamp("ns", tz="UTC"),
        ),
    ),
}
"""Columns written as types plain Parquet readers differ on: ``steps`` as an unsigned int,
``started`` as nanoseconds (each its own copy of an export)."""


def _broken(good: Path, bad: Path, how: str) -> None:
    """A copy of the export ``good`` whose ``runs`` has one column written as ``BROKEN[how]``."""
    column, make = BROKEN[how]
    for table in TABLES:
        (bad / table).mkdir(parents=True)
        for f in (good / table).glob("*.parquet"):
            data = pq.read_table(f)
            if table == "runs":
                i = data.schema.get_field_index(column)
                data = data.set_column(i, column, make(data[column]))
            pq.write_table(data, bad / table / f.name)
    (bad / "manifest.json").write_bytes((good / "manifest.json").read_bytes())


@pytest.fixture(scope="module")
def read(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Every export, what Spark read of it, and the paths it is of."""
    assert SPARK, "TRAJTUI_SPARK_PYTHON is not set (run make spark-check)"
    require("acp-harness")
    root = tmp_path_factory.mktemp("spark")
    inputs = _inputs(root / "in")
    outs = {name: root / "out" / name for name in inputs}
    for name, paths in inputs.items():
        export(outs[name], *paths)
    broken = {how: root / "broken" / how for how in BROKEN}
    for how, bad in broken.items():
        _broken(outs["questions"], bad, how)
    request = {
        "exports": {n: str(o) for n, o in {**outs, **broken}.items()},
        "queries": {**{f"count:{k}": v for k, v in COUNTS.items()}, **SPARK_QUESTIONS},
    }
    (root / "request.json").write_text(json.dumps(request), encoding="utf-8")
    home = root / "home"
    home.mkdir()
    done = subprocess.run(
        [SPARK, str(HERE / "read_spark.py"), str(root / "request.json")],
        capture_output=True,
        text=True,
        timeout=900,
        cwd=home,
        env={**os.environ, "HOME": str(home), "SPARK_LOCAL_DIRS": str(home)},
    )
    assert done.returncode == 0, done.stderr[-4000:]
    got = json.loads(done.stdout)
    print(f"Spark {got['version']} read {len(outs) + len(broken)} exports")
    return {"spark": got["exports"], "outs": {**outs, **broken}, "inputs": inputs}


def _names() -> list[str]:
    names = [*sorted(EXAMPLES), "questions"]
    return ["samples", *names] if SAMPLES.is_dir() else names


# -- what the checks compare -------------------------------------------------------------


def type_differences(spark_schemas: dict[str, Any]) -> list[str]:
    """Each column Spark reads as another type than the schema writes (or cannot read)."""
    out = []
    for table in TABLES:
        have = spark_schemas.get(table)
        if have is None:
            out.append(f"{table}: Spark could not read it")
            continue
        for f in SCHEMAS[table]:
            want = SPARK_TYPES[str(f.type)]
            if have.get(f.name) != want:
                out.append(f"{table}.{f.name}: Spark reads {have.get(f.name)}, written as {want}")
    return out


def _plain(value: Any) -> Any:
    """A value DuckDB gave, as read_spark.py gives Spark's (a timestamp in epoch us)."""
    if isinstance(value, dt.datetime):
        return round(value.timestamp() * 1_000_000)
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _key(row: Any) -> str:
    return json.dumps(row, sort_keys=True, default=str)


def row_differences(out: Path, spark_tables: dict[str, Any]) -> list[str]:
    """Each table whose rows Spark reads otherwise than DuckDB (as multisets), with the
    first differing row of each side."""
    diffs = []
    for table in TABLES:
        theirs = spark_tables.get(table)
        if not isinstance(theirs, list):
            diffs.append(f"{table}: Spark: {theirs}")
            continue
        names = [f.name for f in SCHEMAS[table]]
        mine = [
            dict(zip(names, map(_plain, r), strict=True))
            for r in duck(out, f"SELECT {', '.join(names)} FROM {table}")
        ]
        a = sorted(map(_key, mine))
        b = sorted(map(_key, theirs))
        if a != b:
            only = [x for x in a if x not in set(b)][:1] + [y for y in b if y not in set(a)][:1]
            diffs.append(f"{table}: DuckDB {len(a)} rows, Spark {len(b)}; first apart: {only}")
    return diffs


def same(a: Any, b: Any) -> bool:
    """Equal, a float within 1e-9 of the other (engines sum in their own order)."""
    if isinstance(a, float) or isinstance(b, float):
        if a is None or b is None or isinstance(a, str) or isinstance(b, str):
            return False
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


# -- the checks ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", _names())
def test_spark_reads_each_column_as_the_schema_writes_it(read: dict[str, Any], name: str) -> None:
    assert type_differences(read["spark"][name]["schemas"]) == []


@pytest.mark.parametrize("name", _names())
def test_spark_reads_every_row_duckdb_reads(read: dict[str, Any], name: str) -> None:
    assert row_differences(read["outs"][name], read["spark"][name]["tables"]) == []


def _counted(read: dict[str, Any], name: str, what: str) -> list[list[Any]]:
    got = read["spark"][name]["queries"][f"count:{what}"]
    assert "error" not in got, got
    rows: list[list[Any]] = got["rows"]
    return rows


@pytest.mark.parametrize("name", _names())
def test_spark_counts_what_ls_and_stats_count(read: dict[str, Any], name: str) -> None:
    paths = read["inputs"][name]
    listed = ls_rows(*paths)
    stats = stats_all(*paths)
    assert sorted(r for (r,) in _counted(read, name, "runs")) == sorted(r["ref"] for r in listed)
    assert len(listed) > 0
    ((passes, graded),) = _counted(read, name, "graded")
    shown = stats.get("outcomes", {}).get("graded")
    assert (passes, graded) == ((shown["num"], shown["den"]) if shown else (None, 0))
    # ls lists a run's steps where its row says them (a run read whole may know more:
    # an Inspect sample's, whose row is its summary): the same number wherever it does
    steps = dict(map(tuple, _counted(read, name, "steps")))
    said = {r["ref"]: r["steps"] for r in listed if r["steps"] is not None}
    assert {ref: steps[ref] for ref in said} == said
    tools = stats.get("tools", {})
    ((calls,),) = _counted(read, name, "calls")
    ((listed_calls,),) = _counted(read, name, "listed_calls")
    if "all" in tools:
        assert listed_calls == calls == tools["all"]["calls"]
        by_tool = {t: v["calls"] for t, v in tools["by_tool"].items()}
        assert dict(map(tuple, _counted(read, name, "by_tool"))) == by_tool
    else:
        assert calls == 0 and listed_calls is None
    trials = stats.get("trials")
    ((count, passed),) = _counted(read, name, "trials")
    if trials:
        assert (count, passed) == (trials["trials"], trials["passed"])
    else:
        assert count == 0


def test_the_readme_asks_each_question_on_spark_too() -> None:
    assert list(SPARK_QUESTIONS) == list(DUCK_QUESTIONS)
    asked = " ".join(SPARK_QUESTIONS).lower()
    for words in ("tool failure rate by model", "pass@k by task", "slowest tools", "cost per day"):
        assert words in asked


@pytest.mark.parametrize("question", list(SPARK_QUESTIONS))
@pytest.mark.parametrize("name", _names())
def test_a_readme_question_on_spark_gives_trajtui_sqls_rows(
    read: dict[str, Any], name: str, question: str
) -> None:
    theirs = read["spark"][name]["queries"][question]
    assert "error" not in theirs, theirs
    out = str(read["outs"][name])
    done = subprocess.run(  # in a time zone not UTC's: the day is still the UTC day
        [sys.executable, "-m", "trajtui", "sql", "--json", DUCK_QUESTIONS[question], "--from", out],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "TZ": "Asia/Tokyo"},
    )
    assert done.returncode in (0, 1), done.stderr
    mine = [json.loads(line) for line in done.stdout.splitlines()]
    assert all(list(row) == theirs["columns"] for row in mine)
    assert same([list(row.values()) for row in mine], theirs["rows"]), (mine, theirs["rows"])


def test_the_questions_export_gives_each_question_rows(read: dict[str, Any]) -> None:
    """The questions' runs make every question say something (a check of an empty
    answer would pass whatever Spark read)."""
    for question, got in read["spark"]["questions"]["queries"].items():
        assert got.get("rows"), question


@pytest.mark.parametrize("how", list(BROKEN))
def test_the_checks_catch_a_column_spark_reads_otherwise(read: dict[str, Any], how: str) -> None:
    """A column written as a type Spark reads otherwise, in a copy of an export, is caught:
    by its type, and by its rows beside DuckDB's."""
    column = BROKEN[how][0]
    spark = read["spark"][how]
    said = type_differences(spark["schemas"])
    assert [d for d in said if d.startswith(("runs:", f"runs.{column}:"))] == said != [], said
    apart = row_differences(read["outs"][how], spark["tables"])
    assert [d.split(":")[0] for d in apart] == ["runs"], apart
    print(how, said, apart)
