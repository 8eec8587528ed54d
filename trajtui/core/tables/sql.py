"""SQL over written tables with DuckDB (embedded: no server): :func:`connect` makes the
views ``runs``, ``steps``, ``tool_calls`` and ``trials`` over an export directory's files,
:func:`query` runs one statement, and an error is one line (:class:`SqlError`) naming the
column or table that does not exist.

The connection reads nothing but the export's directory and writes nowhere: DuckDB's
access to other files is switched off (``allowed_directories`` the export,
``enable_external_access`` false) and the configuration locked, so no query can read or
``COPY`` outside it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any
from uuid import UUID

import duckdb

from trajtui.core.io.jsonutil import dumps_line
from trajtui.core.io.sanitize import visible
from trajtui.core.tables import TABLES
from trajtui.core.tables.schema import SCHEMAS
from trajtui.core.tables.writer import files_of

BATCH = 4096
"""Result rows fetched at a time."""


class SqlError(Exception):
    """A query that cannot run: its message is one line for the user."""


@dataclass
class Result:
    """A query's result: its columns, their DuckDB types, and its rows as they are fetched."""

    columns: list[str]
    types: list[str]
    rows: Iterator[tuple[Any, ...]]


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def connect(out: Path) -> duckdb.DuckDBPyConnection:
    """A DuckDB connection with a view per table over the files of the export at ``out``
    (an empty table, with its columns, where there are no files)."""
    con = duckdb.connect(":memory:")
    root = str(Path(out).resolve())
    for table in TABLES:
        files = [str(p.resolve()) for p in files_of(Path(out), table) if p.is_file()]
        if files:
            listed = ", ".join(_literal(f) for f in files)
            con.execute(f"CREATE VIEW {table} AS SELECT * FROM read_parquet([{listed}])")
        else:
            con.execute(f"CREATE VIEW {table} AS SELECT * FROM ({_empty(table)})")
    # times are UTC, as stored (a day is the UTC day, as Spark's with its session in UTC),
    # whatever the machine's local time zone
    con.execute("SET TimeZone = 'UTC'")
    con.execute(f"SET allowed_directories = [{_literal(root + '/')}]")
    con.execute("SET enable_external_access = false")
    con.execute("SET lock_configuration = true")
    return con


_DUCK_TYPES = {
    "string": "VARCHAR",
    "int64": "BIGINT",
    "double": "DOUBLE",
    "bool": "BOOLEAN",
    "list<item: string>": "VARCHAR[]",
    "map<string, string>": "MAP(VARCHAR, VARCHAR)",
    "map<string, double>": "MAP(VARCHAR, DOUBLE)",
    "timestamp[us, tz=UTC]": "TIMESTAMPTZ",
}


def _empty(table: str) -> str:
    cols = ", ".join(
        f"CAST(NULL AS {_DUCK_TYPES[str(f.type)]}) AS {f.name}" for f in SCHEMAS[table]
    )
    return f"SELECT {cols} WHERE false"


def query(con: duckdb.DuckDBPyConnection, text: str) -> Result:
    """Run ``text`` (one statement); its result, fetched as it is read.

    Raises:
        SqlError: The statement cannot run (one line: a column or table that does not
            exist is named, as are the tables there are).
    """
    if not text.strip().strip(";").strip():
        raise SqlError("no statement to run (give a query: SELECT ... FROM runs)")
    try:
        cur = con.execute(text)
    except duckdb.Error as err:
        raise SqlError(_one_line(err)) from err
    if cur is None:  # pragma: no cover - what a statement of comments alone gives
        raise SqlError("no statement to run (give a query: SELECT ... FROM runs)")
    desc = cur.description or []
    columns = [d[0] for d in desc]
    types = [str(d[1]) for d in desc]

    def rows() -> Iterator[tuple[Any, ...]]:
        while True:
            try:
                batch = cur.fetchmany(BATCH)
            except duckdb.Error as err:
                raise SqlError(_one_line(err)) from err
            if not batch:
                return
            yield from batch

    return Result(columns, types, rows())


_COLUMN = re.compile(r'Referenced column "((?:[^"]|"")*)" not found')
_TABLE = re.compile(r"Table with name (.+?) does not exist")
_CANDIDATES = re.compile(r"Candidate bindings: (.*)")
_FUNCTION = re.compile(
    r"Scalar Function with name (.+?) does not exist|Function with name (.+?) does not exist"
)
_PREFIX = re.compile(r"^[A-Za-z ]*Error: ")


def _one_line(err: Exception) -> str:
    """DuckDB's error as trajtui says it: one line, what does not exist named first."""
    text = str(err)
    first = text.split("\n", 1)[0]
    if m := _COLUMN.search(text):
        line = f'no column "{m.group(1)}"'
        if c := _CANDIDATES.search(text):
            line += f" (did you mean {c.group(1).strip()}?)"
        return line
    if m := _TABLE.search(text):
        return f'no table "{m.group(1)}" (the tables: {", ".join(TABLES)})'
    if m := _FUNCTION.search(text):
        return f'no function "{m.group(1) or m.group(2)}"'
    return _PREFIX.sub("", first).strip() or type(err).__name__


def plain(value: Any) -> Any:
    """A result value as JSON has it: a time as ISO 8601 text, a decimal as a float,
    a map as an object, anything else DuckDB returns that JSON has not as text."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    if isinstance(value, timedelta):
        return value.total_seconds()
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, dict):
        if set(value) == {"key", "value"} and isinstance(value["key"], list):
            return {str(k): plain(v) for k, v in zip(value["key"], value["value"], strict=False)}
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, UUID | bytes | bytearray):
        return str(value) if isinstance(value, UUID) else bytes(value).hex()
    return str(value)


def columns_help() -> Sequence[str]:
    """A line per table naming its columns (for ``sql --help``)."""
    return [f"{t}: {', '.join(SCHEMAS[t].names)}" for t in TABLES]


def cell_value(value: Any) -> Any:
    """A result value for a CSV or table cell: as :func:`plain`, lists and maps as their
    JSON."""
    value = plain(value)
    if isinstance(value, list | dict):
        return dumps_line(value)
    return value


def cell_text(value: Any) -> str:
    """A result value as a table cell shows it (``sql``'s table and the TUI's query
    screen): NULL ``—``, a float in 6 significant digits, text on one line with every
    control made visible."""
    if value is None:
        return "—"
    v = cell_value(value)
    if isinstance(v, float):
        return f"{v:.6g}"
    return visible(str(v), keep_newlines=False)


_NUMERIC = ("INT", "BIGINT", "DOUBLE", "FLOAT", "DECIMAL", "HUGEINT", "SMALLINT", "TINYINT")


def numeric_type(kind: str) -> bool:
    """A DuckDB column type whose values are numbers (their cells right-aligned)."""
    return kind.upper().startswith(_NUMERIC) or kind.upper() == "NUMBER"
