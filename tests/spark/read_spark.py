"""Run by the Spark venv's python (``make spark-check``), not by trajtui's: reads exported
tables with PySpark in local mode, as anyone would (``spark.read.parquet(DIR)``, no
options), and prints what it read as one JSON object.

Usage: ``python read_spark.py REQUEST.json``, the request ``{"exports": {NAME: OUT},
"queries": {NAME: SQL}}``. For each export, each table's Spark schema, every row (each a
JSON object, a timestamp as microseconds since the epoch) and each query's rows; an error
(a table Spark cannot read, a query it rejects) is its message, for the test to show.
No trajtui import: this venv has only pyspark.
"""

from __future__ import annotations

import calendar
import datetime as dt
import decimal
import json
import sys
from typing import Any

from pyspark.sql import SparkSession  # type: ignore[import-not-found]  # the Spark venv's

TABLES = ("runs", "steps", "tool_calls", "trials")


def plain(value: Any) -> Any:
    """A value Spark gave, as JSON: a timestamp as epoch microseconds (the session's time
    zone is UTC, so a naive value is UTC), a decimal as its text (never a number: an int64
    column read as a decimal is a difference to catch), a row as an object."""
    if isinstance(value, dt.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(dt.UTC).replace(tzinfo=None)
        return calendar.timegm(value.timetuple()) * 1_000_000 + value.microsecond
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, decimal.Decimal):
        return f"decimal:{value}"
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if hasattr(value, "asDict"):
        return plain(value.asDict(recursive=False))
    return value


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as f:
        request = json.load(f)
    spark = (
        SparkSession.builder.master("local[1]")
        .appName("trajtui-spark-check")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "1")
        .config("spark.sql.session.timeZone", "UTC")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    out: dict[str, Any] = {"version": spark.version, "exports": {}}
    for name, path in request["exports"].items():
        got: dict[str, Any] = {"schemas": {}, "tables": {}, "queries": {}}
        for table in TABLES:
            try:
                df = spark.read.parquet(f"{path}/{table}")
                got["schemas"][table] = {f.name: f.dataType.simpleString() for f in df.schema}
                got["tables"][table] = [plain(r.asDict()) for r in df.collect()]
                df.createOrReplaceTempView(table)
            except Exception as err:
                got["tables"][table] = {"error": str(err).splitlines()[0]}
        for qname, sql in request["queries"].items():
            try:
                df = spark.sql(sql)
                got["queries"][qname] = {
                    "columns": df.columns,
                    "rows": [plain(list(r)) for r in df.collect()],
                }
            except Exception as err:
                got["queries"][qname] = {"error": str(err).splitlines()[0]}
        out["exports"][name] = got
    spark.stop()
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
