"""Runs, steps, tool calls and trials as tables (issue 27): plain Parquet files any engine
reads (DuckDB, Spark, pandas, Athena), and SQL over them with DuckDB.

Built from the neutral model alone (:mod:`trajtui.core.model`), through the same sources
``ls``, ``stats`` and ``export`` read; no format is named here. Modules:

* :mod:`~.records`: one run's rows of each table, as plain values (no pyarrow);
* :mod:`~.schema`: the tables' columns and types, versioned (:data:`SCHEMA_VERSION`);
* :mod:`~.writer`: :func:`~.writer.write_tables`, streaming and incremental, one file per
  source per table, with a manifest of each source's identity;
* :mod:`~.sql`: DuckDB over a written directory, its errors as one line.

pyarrow and duckdb are imported only by :mod:`~.schema`, :mod:`~.writer` and :mod:`~.sql`,
which only ``export --parquet`` and ``sql`` import: ``trajtui --help``, ``ls`` and the TUI's
first screen never load them.
"""

from __future__ import annotations

SCHEMA_VERSION = 1
"""The tables' schema version, in every file's Parquet metadata (``schema_version``) and in
the manifest: bumped when a column changes meaning, type or name (a directory written by
another version is written again whole)."""

TABLES = ("runs", "steps", "tool_calls", "trials")
"""The tables, each a directory of Parquet files in an export."""
