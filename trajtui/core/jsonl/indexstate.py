"""What a JSONL source knows after a full scan, as cache sections, and back.

:func:`dump` turns a scanned :class:`~trajtui.core.jsonl.source.JsonlSource` (its
:class:`~trajtui.core.jsonl.index.LineIndex`: offsets, keys, blank lines, bad lines, BOM and CR
flags; its :class:`~trajtui.core.jsonl.table.SummaryTable` of run summaries; its problems and the
names given to repeated ids) into scalars and sections of raw bytes
(:mod:`trajtui.core.jsonl.cachefile`). :func:`restore` puts them back, so that a cached open needs
no parse of the data. The summary table's own sections are
:mod:`trajtui.core.jsonl.tablestate`'s.

A cache file is untrusted data: :func:`restore` checks every array and value against the
others (lengths, ranges, order, types, UTF-8 boundaries) before it changes anything, and
raises :class:`~trajtui.core.jsonl.cachefile.CacheCorrupt` for anything a scan could not have
produced. The source is left untouched then, and simply scanned.

This module reads and sets the private attributes of the classes it saves (the index's
arrays, the table's columns): it is their serialisation, kept out of the hot code.
"""

from __future__ import annotations

import operator
from array import array
from itertools import islice
from typing import TYPE_CHECKING, Any

from trajtui.core.jsonl.blanklines import MAX_BLANK_RANGES, BlankRuns
from trajtui.core.jsonl.cachefile import (
    CacheCorrupt,
    Part,
    Section,
    Unstorable,
    ascending,
    pack_values,
    to_array,
    unpack_values,
)
from trajtui.core.jsonl.keytable import _SECRET, KEY, LONG, NONE, KeyTable
from trajtui.core.jsonl.names import Renamed
from trajtui.core.jsonl.stepfacts import StepFactsStore
from trajtui.core.jsonl.tablestate import (
    _check,
    _flat,
    _index,
    _pairs,
    dump_table,
    restore_table,
)

if TYPE_CHECKING:
    from trajtui.core.jsonl.source import JsonlSource

_LEN_MAX = 0xFFFFFFFF
_NL = {None: 0, b"\n": 1, b"\r": 2}
_NL_BACK = {v: k for k, v in _NL.items()}
_CONT = bytes(1 if 0x80 <= b <= 0xBF else 0 for b in range(256))


# -- dump ------------------------------------------------------------------------------------


def dump(source: JsonlSource) -> tuple[dict[str, Any], dict[str, Section]]:
    """The scalars and sections that describe ``source`` after a full scan.

    Raises:
        Unstorable: The scan did not finish, the source changed while it was dumped, or
            it holds a value the format cannot store.
    """
    ix = source.index
    count = ix.count
    if not ix.complete or source._named != count:
        raise Unstorable("the scan did not finish")
    out: dict[str, Section] = {}
    runs = ix._blank_runs
    state: dict[str, Any] = {
        "count": count,
        "size": ix.size,
        "pos": ix._pos,
        "line": ix._line,
        "bom": ix.bom,
        "cr_only": ix.cr_only,
        "nl": _NL[ix._nl],
        "unterminated": ix.unterminated,
        "blank_total": runs.total,
        "blank_first": runs.first,
        "blank_last": runs.last,
        "blank_unlisted": runs._unlisted,
        "blank_unlisted_from": runs._unlisted_from,
    }
    out["index.starts"] = Part(ix.starts, count)
    out["index.lens"] = Part(ix._lens, count)
    out["index.huge"] = pack_values(_flat(ix._huge))
    out["index.bad"] = pack_values(_flat(ix.bad))
    out["blank.gap_at"] = runs.gap_at.tobytes()
    out["blank.gap_blanks"] = runs.gap_blanks.tobytes()
    out["blank.ranges"] = array("Q", [x for pair in runs._ranges for x in pair]).tobytes()
    _dump_keys(ix.keys, out)
    dump_table(source._table, out)
    problems: list[Any] = []
    for i, p in list(source._entry_problems.items()):
        problems += [i, p.line, p.message, p.severity.value, p.ref]
    out["source.problems"] = pack_values(problems)
    out["source.dups"] = pack_values(_flat(source._names.by_record))
    out["source.next"] = pack_values(_flat(source._names.next_n))
    if source.facts.complete(count):
        out.update(source.facts.dump())
    if ix.count != count or len(source._table) > count:
        raise Unstorable("the source changed while it was saved")
    return state, out


def _dump_keys(keys: KeyTable, out: dict[str, Section]) -> None:
    blob, offs, kinds, repeats, hashed = keys.parts()
    longs: list[str] = []
    if kinds.count(LONG):
        # Long keys are kept as digests salted per process: store the key itself instead.
        new_blob, new_offs = bytearray(), array("Q", [0])
        for i, kind in enumerate(kinds):
            if kind == LONG:
                key = keys.get(i)
                if key is None:
                    raise Unstorable("a long key could not be read again")
                longs.append(key)
            elif kind == KEY:
                new_blob += blob[offs[i] : offs[i + 1]]
            new_offs.append(len(new_blob))
        blob, offs = new_blob, new_offs
    out["keys.blob"] = Part(blob, offs[-1])
    out["keys.offs"] = Part(offs)
    out["keys.kinds"] = Part(kinds)
    out["keys.repeats"] = Part(repeats)
    out["keys.hashed"] = Part(hashed)
    out["keys.long"] = pack_values(longs)


# -- restore ---------------------------------------------------------------------------------


def restore(source: JsonlSource, state: dict[str, Any], sections: dict[str, Any]) -> None:
    """Put what :func:`dump` saved back into ``source`` (a fresh, unscanned source).

    Raises:
        CacheCorrupt: The saved state is not one a scan could have produced (nothing in
            ``source`` has changed then).
    """
    try:
        _restore(source, state, sections)
    except CacheCorrupt:
        raise
    except (KeyError, IndexError, TypeError, ValueError, OverflowError) as err:
        raise CacheCorrupt(f"inconsistent cache: {type(err).__name__}: {err}") from None


def _int(state: dict[str, Any], name: str, lo: int = 0) -> int:
    v = state[name]
    if type(v) is not int or v < lo:
        raise CacheCorrupt(f"bad {name}")
    return v


def _bool(state: dict[str, Any], name: str) -> bool:
    v = state[name]
    if type(v) is not bool:
        raise CacheCorrupt(f"bad {name}")
    return v


def _restore(source: JsonlSource, state: dict[str, Any], sections: dict[str, Any]) -> None:
    ix = source.index
    count = _int(state, "count")
    size = _int(state, "size")
    pos, line = _int(state, "pos"), _int(state, "line")
    flags = {name: _bool(state, name) for name in ("bom", "cr_only", "unterminated")}
    nl = state["nl"]
    _check(nl in _NL_BACK and (nl != 0 or count == 0), "bad line break")
    starts = to_array("Q", sections["index.starts"])
    lens = to_array("I", sections["index.lens"])
    _check(len(starts) == len(lens) == count, "offsets and lengths do not match the count")
    huge: dict[int, int] = {}
    for i, n in _pairs(unpack_values(sections["index.huge"]), "huge lengths"):
        _check(type(n) is int and n >= _LEN_MAX, "bad huge length")
        huge[_index(i, count, "huge length")] = int(n)  # type: ignore[arg-type]
    _check(lens.count(_LEN_MAX) == len(huge), "huge lengths do not match")
    ends = array("Q", map(operator.add, starts, lens))
    for i, n in huge.items():
        _check(lens[i] == _LEN_MAX, "huge lengths do not match")
        ends[i] = starts[i] + n
    _check(ascending(starts, strict=True), "record offsets go backwards")
    _check(all(map(operator.le, ends, islice(starts, 1, None))), "records overlap")
    _check(not count or ends[-1] <= size, "a record ends after the end of the file")
    _check(pos <= size and line >= count, "bad scan position")
    if count:
        last_start = starts[-1] - (3 if count == 1 and flags["bom"] else 0)
        _check(
            pos <= last_start if flags["unterminated"] else pos >= ends[-1],
            "bad scan position",
        )
    else:
        _check(not flags["unterminated"], "bad scan position")
    bad: dict[int, str] = {}
    for i, message in _pairs(unpack_values(sections["index.bad"]), "bad lines"):
        _check(isinstance(message, str), "bad message")
        bad[_index(i, count, "bad line")] = str(message)
    runs = _restore_blank_runs(state, sections, count, line)
    keys = _restore_keys(ix, sections, count)
    table, problems = restore_table(source, sections, count)
    dup_refs: dict[int, str] = {}
    for i, name in _pairs(unpack_values(sections["source.dups"]), "repeated ids"):
        _check(isinstance(name, str), "bad name")
        dup_refs[_index(i, count, "repeated id")] = str(name)
    dup_map = {name: i for i, name in dup_refs.items()}
    _check(len(dup_map) == len(dup_refs), "a name given twice")
    next_n: dict[str, int] = {}
    for key, n in _pairs(unpack_values(sections["source.next"]), "next numbers"):
        _check(isinstance(key, str) and type(n) is int and n >= 2, "bad next number")
        next_n[str(key)] = int(n)  # type: ignore[arg-type]
    facts = StepFactsStore()
    facts.restore(sections, count)
    _check_against_file(ix, starts, ends, keys, bad, flags["bom"])
    # Everything checked: now change the source.
    ix.starts, ix._lens, ix._huge, ix._keys, ix._blank_runs = starts, lens, huge, keys, runs
    ix.bad = bad
    ix.bom, ix.cr_only, ix.unterminated = flags["bom"], flags["cr_only"], flags["unterminated"]
    ix._nl = _NL_BACK[nl]
    ix.count, ix.size, ix._pos, ix._line = count, size, pos, line
    ix.complete = True
    source._table = table
    source._entry_problems = problems
    source._names = Renamed(dup_map, dup_refs, next_n)
    source._named = count
    source.facts.restored(facts)


SAMPLED_RECORDS = 32
"""Records of a restored index whose place and key are checked against the file itself."""


def _check_against_file(
    ix: Any, starts: array[int], ends: array[int], keys: KeyTable, bad: dict[int, str], bom: bool
) -> None:
    """Check :data:`SAMPLED_RECORDS` records spread over the index against the file: each
    starts a line, and its key (as the index reads keys) is the one the entry says.

    The entry's identity check (size, times, inode, sampled bytes) cannot see every byte of
    a big file: a record rewritten in place between the sampled blocks, or an index
    that does not fit the file, is caught here (the rest is read afresh)."""
    count = len(starts)
    if not count:
        return
    step = max(1, count // SAMPLED_RECORDS)
    picks = {*range(0, count, step), count - 1}
    for i in sorted(picks):
        start = starts[i]
        if start > (3 if bom else 0):
            _check(ix.pread(1, start - 1) in (b"\n", b"\r"), "a record does not start a line")
        if i in bad or keys._kind[i] == LONG:
            continue  # no key to compare, or one kept as the file's bytes (read again anyway)
        data = ix.pread(min(ends[i] - start, 1 << 20), start)
        key, _ = ix._key_of(data, 0, len(data), start, ends[i])
        _check(key == keys.get(i), "a record's key is not the one in the file")


def _restore_blank_runs(
    state: dict[str, Any], sections: dict[str, Any], count: int, line: int
) -> BlankRuns:
    runs = BlankRuns()
    runs.total = _int(state, "blank_total")
    runs.first, runs.last = _int(state, "blank_first"), _int(state, "blank_last", -1)
    runs._unlisted = _int(state, "blank_unlisted")
    runs._unlisted_from = _int(state, "blank_unlisted_from")
    _check(runs.total <= line and runs._unlisted <= runs.total, "bad blank lines")
    runs.gap_at = to_array("Q", sections["blank.gap_at"])
    runs.gap_blanks = to_array("Q", sections["blank.gap_blanks"])
    _check(len(runs.gap_at) == len(runs.gap_blanks), "blank line marks do not match")
    _check(ascending(runs.gap_at, strict=True), "blank line marks go backwards")
    _check(ascending(runs.gap_blanks, strict=True), "blank line counts go backwards")
    _check(not runs.gap_at or runs.gap_at[-1] < count, "blank line mark out of range")
    _check(not runs.gap_blanks or runs.gap_blanks[-1] <= runs.total, "blank count too big")
    flat = to_array("Q", sections["blank.ranges"])
    _check(len(flat) % 2 == 0 and len(flat) <= 2 * MAX_BLANK_RANGES, "bad blank ranges")
    _check(ascending(flat, strict=False), "blank ranges go backwards")
    runs._ranges = list(zip(flat[::2], flat[1::2], strict=True))
    return runs


def _on_char_starts(blob: bytes, offs: array[int]) -> bool:
    """Every offset is at the start of a character of the UTF-8 ``blob`` (or its end)."""
    marks = blob.translate(_CONT) + b"\x00"
    if len(offs) == 1:
        return marks[offs[0]] == 0
    return 1 not in operator.itemgetter(*offs)(marks)


def _restore_keys(ix: Any, sections: dict[str, Any], count: int) -> KeyTable:
    blob = bytearray(sections["keys.blob"])
    offs = to_array("Q", sections["keys.offs"])
    kinds = bytearray(sections["keys.kinds"])
    repeats = to_array("Q", sections["keys.repeats"])
    hashed = to_array("Q", sections["keys.hashed"])
    _check(len(kinds) == count and len(offs) == count + 1, "keys do not match the count")
    _check(not kinds.translate(None, bytes((KEY, NONE, LONG))), "bad key kind")
    _check(offs[0] == 0 and offs[-1] == len(blob), "key offsets do not match their text")
    _check(ascending(offs, strict=False), "key offsets go backwards")
    try:
        bytes(blob).decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        raise CacheCorrupt("keys that are not UTF-8") from None
    _check(_on_char_starts(bytes(blob), offs), "a key offset inside a character")
    for marks in (repeats, hashed):
        _check(ascending(marks, strict=True), "key marks go backwards")
        _check(not marks or marks[-1] < count, "key mark out of range")
    longs = unpack_values(sections["keys.long"])
    _check(len(longs) == kinds.count(LONG), "long keys do not match")
    if longs:
        import hashlib

        new_blob, new_offs = bytearray(), array("Q", [0])
        it = iter(longs)
        for i, kind in enumerate(kinds):
            if kind == LONG:
                key = next(it)
                _check(isinstance(key, str), "bad long key")
                raw = str(key).encode("utf-8", "surrogatepass")
                new_blob += hashlib.blake2b(raw, digest_size=16, key=_SECRET).digest()
            elif kind == KEY:
                new_blob += blob[offs[i] : offs[i + 1]]
            new_offs.append(len(new_blob))
        blob, offs = new_blob, new_offs
    return KeyTable.restore(ix.checked_key, blob, offs, kinds, repeats, hashed)
