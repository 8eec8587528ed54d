"""The tables' columns and their Arrow types (imports pyarrow: only the writer and ``sql``
import this module).

Types: counts and tokens ``int64``, cost and scores ``float64`` (USD, as the file says),
durations and offsets ``float64`` seconds, a start ``timestamp[us, UTC]``, text ``string``,
lists of names ``list<string>``, the format's own fields ``map<string, string>`` (a
metadata value as the file's text; a labelled field's value as its JSON). Every column is
nullable: null is "the file does not say", never 0. The README has a table per table.
"""

from __future__ import annotations

import pyarrow as pa

from trajtui.core.tables import SCHEMA_VERSION

_S = pa.string()
_I = pa.int64()
_F = pa.float64()
_B = pa.bool_()
_NAMES = pa.list_(pa.string())
_MAP = pa.map_(pa.string(), pa.string())
_FIGURES = pa.map_(pa.string(), pa.float64())

METADATA = {b"schema_version": str(SCHEMA_VERSION).encode(), b"writer": b"trajtui"}
"""Every file's Parquet key-value metadata."""

_WHERE = [("ref", _S), ("run_ref", _S), ("source", _S), ("format", _S)]

RUNS = pa.schema(
    [
        *_WHERE,
        ("file", _S),
        ("index", _I),
        ("line", _I),
        ("status", _S),
        ("outcome", _S),
        ("verdict", _S),
        ("passed", _B),
        ("grade", _B),
        ("steps", _I),
        ("tool_calls", _I),
        ("tool_errors", _I),
        ("tool_errors_flag", _B),
        ("duration_s", _F),
        ("duration_label", _S),
        ("score", _F),
        ("score_label", _S),
        ("attempts", _I),
        ("graded", _I),
        ("passes", _I),
        ("cost", _F),
        ("tokens_in", _I),
        ("tokens_out", _I),
        ("title", _S),
        ("tools", _NAMES),
        ("started", pa.timestamp("us", tz="UTC")),
        ("task", _S),
        ("task_group", _S),
        ("loaded", _B),
        ("metadata", _MAP),
        ("file_metrics", _FIGURES),
        ("fields", _MAP),
    ],
    metadata=METADATA,
)

STEPS = pa.schema(
    [
        *_WHERE,
        ("run_index", _I),
        ("trial", _I),
        ("position", _I),
        ("number", _I),
        ("kind", _S),
        ("title", _S),
        ("status", _S),
        ("outcome", _S),
        ("state", _S),
        ("offset_s", _F),
        ("duration_s", _F),
        ("text", _S),
        ("markdown", _B),
        ("input", _S),
        ("output", _S),
        ("error", _S),
        ("pair", _I),
        ("stored_id", _S),
        ("tools", _NAMES),
        ("calls", _I),
        ("tokens_in", _I),
        ("tokens_out", _I),
        ("cost", _F),
        ("fields", _MAP),
    ],
    metadata=METADATA,
)

TOOL_CALLS = pa.schema(
    [
        *_WHERE,
        ("run_index", _I),
        ("trial", _I),
        ("step", _I),
        ("call", _I),
        ("tool", _S),
        ("state", _S),
        ("failed", _B),
        ("duration_s", _F),
    ],
    metadata=METADATA,
)

TRIALS = pa.schema(
    [
        *_WHERE,
        ("run_index", _I),
        ("trial", _I),
        ("status", _S),
        ("outcome", _S),
        ("passed", _B),
        ("grade", _B),
        ("score", _F),
        ("duration_s", _F),
        ("steps", _I),
        ("fields", _MAP),
    ],
    metadata=METADATA,
)

SCHEMAS: dict[str, pa.Schema] = {
    "runs": RUNS,
    "steps": STEPS,
    "tool_calls": TOOL_CALLS,
    "trials": TRIALS,
}
