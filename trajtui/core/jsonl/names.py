"""The references of a JSONL file's records: each its key, repeats of a key ``KEY#2``,
``KEY#3``... in file order (:class:`~trajtui.core.jsonl.source.JsonlSource`)."""

from __future__ import annotations

import heapq
from bisect import bisect_left
from dataclasses import dataclass, field

from trajtui.core.jsonl.keytable import KeyTable

__all__ = ["Renamed", "name_records"]


@dataclass(slots=True)
class Renamed:
    """The records named other than by their key.

    Attributes:
        by_ref: Reference -> record index.
        by_record: Record index -> reference.
        next_n: Key -> the next number to try for its repeats.
    """

    by_ref: dict[str, int] = field(default_factory=dict)
    by_record: dict[int, str] = field(default_factory=dict)
    next_n: dict[str, int] = field(default_factory=dict)


def name_records(keys: KeyTable, lo: int, hi: int, renamed: Renamed) -> int:
    """Name records ``lo`` up to ``hi`` (the first not named yet, and the count indexed);
    return the records named now (``max(lo, hi)``).

    A record's reference is its key unless the key was given before (a repeated key, or a
    literal ``x#2`` already given to a repeat of ``x``). Only repeats and keys holding ``#``
    can be either, and the key table lists both: every other record is named by its key
    without being looked at.
    """
    if lo >= hi:
        return lo
    repeats = keys.repeats[bisect_left(keys.repeats, lo) :]
    hashed = keys.hashed[bisect_left(keys.hashed, lo) :]
    repeated = set(repeats)
    for i in heapq.merge(repeats, hashed):
        if i >= hi:
            break
        key = keys.get(i)
        if key is None or i in renamed.by_record:
            continue
        if i in repeated or key in renamed.by_ref:
            _rename(keys, i, key, renamed)
    return hi


def _rename(keys: KeyTable, i: int, key: str, renamed: Renamed) -> None:
    """Name record ``i`` ``KEY#n``: the first n from 2 not given yet."""
    n = renamed.next_n.get(key, 2)
    while True:
        name = f"{key}#{n}"
        if name not in renamed.by_ref:
            taken = keys.first(name)
            if taken is None or taken >= i:  # a literal "x#2" later in the file
                break
        n += 1
    renamed.next_n[key] = n + 1
    renamed.by_ref[name] = i
    renamed.by_record[i] = name
