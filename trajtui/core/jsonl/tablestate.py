"""The run summaries a JSONL source keeps (its :class:`~trajtui.core.jsonl.table.SummaryTable`:
row kinds, the palette of statuses, numeric columns, titles, references, metrics and
extras), as cache sections and back, every value read back checked against the others
(a cache file is untrusted data). Used by :mod:`trajtui.core.jsonl.indexstate`.

This module reads and sets the table's private columns: it is their serialisation, kept
out of the hot code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from trajtui.core.jsonl.cachefile import (
    CacheCorrupt,
    Part,
    Section,
    Unstorable,
    Value,
    pack_strings,
    pack_values,
    to_array,
    unpack_strings,
    unpack_values,
)
from trajtui.core.jsonl.table import NUMBERS, PROBLEM, RUN, WORDS, SummaryTable, _Numbers
from trajtui.core.model import Outcome, Problem, Severity

if TYPE_CHECKING:
    from trajtui.core.jsonl.source import JsonlSource

_OUTCOMES = {o.value: o for o in Outcome}
_SEVERITIES = {s.value: s for s in Severity}
_COUNTS = frozenset(
    ("steps", "tool_calls", "failed_tool_calls", "attempts", "graded", "passes", "line")
)
"""Columns trajtui counts itself (a cached value outside their range was never written)."""


def _flat(d: dict[Any, Any]) -> list[Any]:
    return [x for item in list(d.items()) for x in item]


def _pairs(values: list[Value], what: str) -> list[tuple[Value, Value]]:
    if len(values) % 2:
        raise CacheCorrupt(f"odd {what}")
    return list(zip(values[::2], values[1::2], strict=True))


def _check(ok: bool, what: str) -> None:
    if not ok:
        raise CacheCorrupt(what)


def _index(i: Value, count: int, what: str) -> int:
    if type(i) is not int or not 0 <= i < count:
        raise CacheCorrupt(f"{what}: record {i!r} out of range")
    return i


# -- dump ------------------------------------------------------------------------------------


def dump_table(table: SummaryTable, out: dict[str, Section]) -> None:
    """Put the summary table's columns into ``out`` as cache sections."""
    n = len(table._kinds)
    out["table.kinds"] = Part(table._kinds, n)
    out["table.codes"] = Part(table._codes, n)
    palette: list[Any] = []
    for words in table._palette:
        palette += [w.value if isinstance(w, Outcome) else w for w in words]
    out["table.palette"] = pack_values(palette)
    for name, column in table._numbers.items():
        if column.kinds is None or column.values is None:
            continue
        out[f"num.{name}.kinds"] = Part(column.kinds, n)
        out[f"num.{name}.values"] = Part(column.values, n)
        out[f"num.{name}.aside"] = pack_values(_flat(column.aside))
    text, offsets = pack_strings(table._titles[:n])
    out["table.titles"] = text
    out["table.title_offs"] = offsets
    out["table.refs"] = pack_values(_flat(table._refs))
    metrics: list[Any] = []
    for i, pairs in list(table._metrics.items()):
        metrics += [i, len(pairs)]
        for name, value in pairs:
            metrics += [name, value]
    out["table.metrics"] = pack_values(metrics)
    out["table.extras"] = Part(table._extras, n)
    extras: list[Any] = []
    for meta, tools in table._extra_palette:
        extras += [len(meta), *(x for pair in meta for x in pair), len(tools), *tools]
    out["table.extra_palette"] = pack_values(extras)
    for i in list(table._problems):
        if table._kinds[i] != PROBLEM:
            raise Unstorable("a problem row that is not a problem")


# -- restore ---------------------------------------------------------------------------------


def restore_table(
    source: JsonlSource, sections: dict[str, Any], count: int
) -> tuple[SummaryTable, dict[int, Problem]]:
    """The summary table and problem rows of ``count`` records from cache sections, every
    value checked (:class:`~trajtui.core.jsonl.cachefile.CacheCorrupt` otherwise)."""
    table = SummaryTable(source.ref_of)
    kinds = bytearray(sections["table.kinds"])
    n = len(kinds)
    _check(n <= count, "more summaries than records")
    _check(not kinds.translate(None, bytes((0, RUN, PROBLEM))), "bad row kind")
    codes = to_array("I", sections["table.codes"])
    _check(len(codes) == n, "codes do not match the rows")
    palette = _palette(unpack_values(sections["table.palette"]))
    _check(max(codes, default=0) < max(len(palette), 1), "code out of range")
    _check(bool(palette) or RUN not in kinds, "runs without a palette")
    table._kinds, table._codes, table._palette = kinds, codes, palette
    table._palette_codes = {words: code for code, words in enumerate(palette)}
    for name in NUMBERS:
        if f"num.{name}.kinds" in sections:
            table._numbers[name] = _numbers(sections, name, n)
    table._titles = unpack_strings(sections["table.titles"], sections["table.title_offs"], n)
    for i, ref in _pairs(unpack_values(sections["table.refs"]), "references"):
        _check(isinstance(ref, str), "bad reference")
        table._refs[_index(i, n, "reference")] = str(ref)
    table._metrics = _metrics(unpack_values(sections["table.metrics"]), n)
    extras = to_array("I", sections["table.extras"])
    _check(len(extras) == n, "extras do not match the rows")
    table._extras = extras
    table._extra_palette = _extra_palette(unpack_values(sections["table.extra_palette"]))
    _check(max(extras, default=0) < len(table._extra_palette), "extra code out of range")
    table._extra_codes = {e: code for code, e in enumerate(table._extra_palette)}
    problems: dict[int, Problem] = {}
    flat = unpack_values(sections["source.problems"])
    _check(len(flat) % 5 == 0, "bad problems")
    for k in range(0, len(flat), 5):
        i, line, message, severity, ref = flat[k : k + 5]
        _check(line is None or (type(line) is int and line >= 0), "bad problem line")
        _check(isinstance(message, str) and severity in _SEVERITIES, "bad problem")
        _check(ref is None or isinstance(ref, str), "bad problem reference")
        problems[_index(i, count, "problem")] = Problem(
            source.path,
            line,  # type: ignore[arg-type]
            str(message),
            _SEVERITIES[severity],  # type: ignore[index]
            ref,  # type: ignore[arg-type]
        )
    rows = [i for i in problems if i < n and kinds[i] == PROBLEM]
    _check(len(rows) == kinds.count(PROBLEM), "a problem row without its problem")
    table._problems = {i: problems[i] for i in rows}
    return table, problems


def _palette(flat: list[Value]) -> list[tuple[Any, ...]]:
    width = len(WORDS)
    _check(len(flat) % width == 0, "bad palette")
    out = []
    for k in range(0, len(flat), width):
        fmt, status, outcome, tool_errors, duration_label, score_label, passed = flat[k : k + width]
        _check(isinstance(fmt, str) and outcome in _OUTCOMES, "bad palette entry")
        for text in (status, duration_label, score_label):
            _check(text is None or isinstance(text, str), "bad palette entry")
        for flag in (tool_errors, passed):
            _check(flag is None or type(flag) is bool, "bad palette entry")
        out.append(
            (fmt, status, _OUTCOMES[outcome], tool_errors, duration_label, score_label, passed)  # type: ignore[index]
        )
    return out


def _numbers(sections: dict[str, Any], name: str, n: int) -> _Numbers:
    column = _Numbers()
    kinds = bytearray(sections[f"num.{name}.kinds"])
    values = to_array("d", sections[f"num.{name}.values"])
    _check(len(kinds) == len(values) == n, f"column {name} does not match the rows")
    _check(not kinds.translate(None, b"\x00\x01\x02\x03"), f"bad kind in column {name}")
    aside: dict[int, Any] = {}
    for i, v in _pairs(unpack_values(sections[f"num.{name}.aside"]), name):
        # What a column keeps aside: NaN, a number too big for a float (kept as the file
        # spells it), an integer too big for a float to hold exactly. Never another type.
        _check(
            isinstance(v, (int, float)) and not isinstance(v, bool),
            f"column {name}: a value kept aside is not a number",
        )
        aside[_index(i, n, name)] = v
    _check(
        kinds.count(3) == len(aside) and all(kinds[i] == 3 for i in aside),
        f"column {name}: values kept aside do not match",
    )
    if name in _COUNTS:  # counted by trajtui: whole numbers (or none), never negative
        _check(
            not kinds.translate(None, b"\x00\x02") and (not values or min(values) >= 0),
            f"column {name}: a count that is not a whole number of at least 0",
        )
    column.kinds, column.values, column.aside = kinds, values, aside
    return column


def _extra_palette(flat: list[Value]) -> list[tuple[Any, ...]]:
    """The palette of metadata pairs and tool names (see ``SummaryTable.extra_codes``)."""
    out: list[tuple[Any, ...]] = []
    k = 0

    def strings(count: Any) -> list[str]:
        nonlocal k
        _check(type(count) is int and 0 <= count <= len(flat) - k, "bad extras")
        got = flat[k : k + count]
        _check(all(isinstance(x, str) for x in got), "bad extras")
        k += count
        return [str(x) for x in got]

    while k < len(flat):
        m = flat[k]
        k += 1
        _check(type(m) is int, "bad extras")
        words = strings(2 * m)  # type: ignore[operator]
        meta = tuple(zip(words[::2], words[1::2], strict=True))
        _check(k < len(flat), "bad extras")
        t = flat[k]
        k += 1
        out.append((meta, tuple(strings(t))))
    _check(bool(out) and out[0] == ((), ()), "bad extras")
    return out


def _metrics(flat: list[Value], n: int) -> dict[int, tuple[tuple[str, float], ...]]:
    out: dict[int, tuple[tuple[str, float], ...]] = {}
    k = 0
    while k < len(flat):
        _check(k + 2 <= len(flat), "bad metrics")
        i, m = _index(flat[k], n, "metrics"), flat[k + 1]
        if type(m) is not int or m <= 0 or k + 2 + 2 * m > len(flat):
            raise CacheCorrupt("bad metrics")
        pairs = []
        for j in range(k + 2, k + 2 + 2 * m, 2):
            name, value = flat[j], flat[j + 1]
            _check(
                isinstance(name, str)
                and isinstance(value, (int, float))
                and type(value) is not bool,
                "bad metric",
            )
            pairs.append((str(name), value))
        out[i] = tuple(pairs)  # type: ignore[arg-type]
        k += 2 + 2 * m
    return out
