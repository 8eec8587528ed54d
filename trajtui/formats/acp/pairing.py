"""Pairing an acp-harness capture's tool calls: the halves of one call, and what each names.

Real acp-harness files write a tool call twice: ``{name: "WebSearch", status: "pending"}``
and later ``{name: "toolu_01...", status: "completed"}`` (the completion carries the call id
as its name; Codex uses ``item_3``, Gemini ``google_web_search-<ts>-<hex>``). Pairing is
linear in the steps and the length of their names (the hostile-input tests hold it to
that).
"""

from __future__ import annotations

import hashlib
import os
import re
from collections import Counter, deque
from collections.abc import Iterator, Sequence

_OPEN = {"pending", "in_progress"}
_ID_PREFIXES = ("toolu_", "call_", "fc_", "tooluse_", "functions.")
_HEX_ID = re.compile(r"^[0-9a-f-]{20,}$")


def looks_like_call_id(name: str) -> bool:
    """True for names that are tool-call ids rather than tool names: ``toolu_01...``,
    ``call_...``, ``fc_...``, ``tooluse_...``, ``functions.x``, ``item_3``, or 20 or more
    lowercase hex digits and dashes (a run-list row tests the name of every tool call)."""
    if name.startswith(_ID_PREFIXES):
        return True
    if name.startswith("item_"):
        return len(name) > 5 and name[5].isdecimal()
    return len(name) >= 20 and _HEX_ID.match(name) is not None


def tool_of_name(name: str | None) -> str | None:
    """The tool a tool-call step's ``name`` names: the name itself; None for a call id
    (``toolu_01...``, ``item_3``: :func:`looks_like_call_id`); and for a Gemini call id,
    the tool's name, a millisecond timestamp and hex digits
    (``google_web_search-1770691532470-cc1f5be1acd028``), the tool before them. Linear in
    the name (no pattern to backtrack on)."""
    if not name or looks_like_call_id(name):
        return None
    return _tool_of(name)


def _tool_of(name: str) -> str:
    """:func:`tool_of_name` of a name that is not a call id."""
    if "-" not in name:
        return name
    parts = name.rsplit("-", 2)
    if (
        len(parts) == 3
        and parts[0]
        and len(parts[1]) >= 10
        and parts[1].isascii()
        and parts[1].isdigit()
        and len(parts[2]) >= 6
        and all(c in _HEX_DIGITS for c in parts[2])
    ):
        return parts[0]
    return name


_HEX_DIGITS = frozenset("0123456789abcdef")


def count_tool_calls(names: Sequence[str], statuses: Sequence[str | None]) -> tuple[int, int]:
    """``(calls, failed)`` of the tool-call steps of one timeline: see :func:`tool_calls`."""
    calls, failed, _tools = tool_calls(names, statuses)
    return calls, failed


def tool_calls(names: Sequence[str], statuses: Sequence[str | None]) -> tuple[int, int, set[str]]:
    """``(calls, failed, tools)`` of the tool-call steps of one timeline (their names and
    statuses, in order): each step is a call, but a completion :func:`pair_tool_calls`
    pairs with an earlier opening half is that call's other half (the count every surface
    shows: the run list's row, the detail, ``ls --json``, ``stats``, compare); a call
    opened and never completed is a call (it was made); a call failed when a half of it
    says ``failed``; the tools are those the names name (:func:`tool_of_name`).

    A run-list row of a long trajectory is mostly this: the shapes real files come in
    are counted without pairing each call (see :func:`_paired`)."""
    ids = {name: looks_like_call_id(name) for name in set(names)}
    failed = sum(1 for s in statuses if s == "failed")
    return len(names) - _paired(names, statuses, ids), failed, _tools(ids)


def tool_names(names: Sequence[str]) -> set[str]:
    """The tools the names of tool-call steps name (:func:`tool_of_name`), each once."""
    return _tools({name: looks_like_call_id(name) for name in set(names)})


def _tools(ids: dict[str, bool]) -> set[str]:
    """The tools named by the names in ``ids`` (each name -> whether it is a call id)."""
    return {_tool_of(name) for name, is_id in ids.items() if name and not is_id}


def _paired(names: Sequence[str], statuses: Sequence[str | None], ids: dict[str, bool]) -> int:
    """How many completions :func:`pair_tool_calls` pairs. Two shapes are counted in one
    pass, with the same result: openings all named like tools and completions all call ids
    without ``-`` (Claude Code, Droid: each completion takes the earliest opening waiting,
    as no other rule can apply); openings all call ids and completions without ``-``
    (Codex: only a completion of the same name can pair). Anything else is paired."""
    waiting = paired = 0  # as if each completion took the earliest opening waiting
    open_ids = open_tools = 0
    plain = by_id = True  # completions without "-", all call ids
    for name, status in zip(names, statuses, strict=True):
        if status in _OPEN:
            waiting += 1
            if ids[name]:
                open_ids += 1
            else:
                open_tools += 1
            continue
        if "-" in name:
            plain = False
        if not ids[name]:
            by_id = False
        if waiting:
            waiting -= 1
            paired += 1
    if not open_ids and not open_tools:
        return 0
    if plain and by_id and not open_ids:
        return paired
    if plain and not open_tools:
        waiting_named: dict[str, int] = {}
        paired = 0
        for name, status in zip(names, statuses, strict=True):
            if status in _OPEN:
                waiting_named[name] = waiting_named.get(name, 0) + 1
            elif waiting_named.get(name):
                waiting_named[name] -= 1
                paired += 1
        return paired
    return sum(1 for _ in _pairs(names, statuses))


def pair_tool_calls(names: Sequence[str | None], statuses: Sequence[str | None]) -> dict[int, int]:
    """Pair each opening half of a tool call (pending/in_progress) with its completion.

    Args:
        names: The ``name`` of each step (None for steps that are not tool calls).
        statuses: The ``status`` of each step.

    Returns:
        A map from step position (0-based) to the position of its other half, both ways.

    A completion pairs with the earliest open call that has the same name, or whose name
    its own name extends (``google_web_search`` -> ``google_web_search-17706-cc1f``), or,
    when the completion's name is a call id, the earliest open call named like a tool.

    Time is linear in the number of steps and the length of their names: open calls are
    kept in queues by name (and by name length, for the "extends" rule), never walked.
    """
    if len(names) != len(statuses):
        raise ValueError("names and statuses differ in length")
    pairs = _paired_in_turn(names, statuses)
    if pairs is not None:
        return pairs
    pairs = {}
    for i, match in _pairs(names, statuses):
        pairs[i] = match
        pairs[match] = i
    return pairs


def _paired_in_turn(
    names: Sequence[str | None], statuses: Sequence[str | None]
) -> dict[int, int] | None:
    """:func:`pair_tool_calls` of the shape Claude Code and Droid write, in one pass:
    openings all named like tools, completions all call ids without ``-`` (no completion
    can share an opening's name or extend it: each takes the earliest opening waiting).
    None for any other shape (paired by :func:`_pairs`)."""
    ids: dict[str, bool] = {}
    waiting: deque[int] = deque()
    pairs: dict[int, int] = {}
    for i, name in enumerate(names):
        if name is None:
            continue
        is_id = ids.get(name)
        if is_id is None:
            is_id = ids[name] = looks_like_call_id(name)
        if statuses[i] in _OPEN:
            if is_id:
                return None
            waiting.append(i)
        elif not is_id or "-" in name:
            return None
        elif waiting:
            match = waiting.popleft()
            pairs[i] = match
            pairs[match] = i
    return pairs


def _pairs(
    names: Sequence[str | None], statuses: Sequence[str | None]
) -> Iterator[tuple[int, int]]:
    """``(completion, opening)`` positions of each pair, in the completions' order (the one
    pairing :func:`pair_tool_calls` and :func:`count_tool_calls` share)."""
    opened = _OpenCalls()
    for i, name in enumerate(names):
        if name is None:
            continue
        if statuses[i] in _OPEN:
            opened.add(i, name)
        elif opened.names:
            match = opened.take(name)
            if match is not None:
                yield i, match


_SHORT = 64
"""Prefixes up to this long are looked up by slicing; longer ones by an incremental hash."""
_KEY = os.urandom(16)


def _size(name: str) -> int:
    """The length of ``name`` in UTF-8 bytes."""
    return len(name) if name.isascii() else len(name.encode("utf-8", "surrogatepass"))


class _OpenCalls:
    """The open halves of tool calls, by position, with the queues each rule needs."""

    def __init__(self) -> None:
        self.names: dict[int, str] = {}  # open position -> name (paired ones removed)
        self.by_name: dict[str, deque[int]] = {}
        self.lengths: Counter[int] = Counter()  # name lengths (in bytes) of the open calls
        self.tool_named: deque[int] = deque()  # open calls whose name is not a call id
        self.is_id: dict[str, bool] = {}  # each open name: is it a call id
        self.by_digest: dict[tuple[int, bytes], deque[int]] | None = None

    def add(self, i: int, name: str) -> None:
        self.names[i] = name
        queue = self.by_name.get(name)
        if queue is None:  # a name not seen before: is it a call id (asked once a name)
            queue = self.by_name[name] = deque()
            self.is_id[name] = looks_like_call_id(name)
        queue.append(i)
        self.lengths[_size(name)] += 1
        if self.by_digest is not None:
            raw = name.encode("utf-8", "surrogatepass")
            self.by_digest.setdefault(self._key(raw), deque()).append(i)
        if not self.is_id[name]:
            self.tool_named.append(i)

    @staticmethod
    def _key(raw: bytes) -> tuple[int, bytes]:
        return len(raw), hashlib.blake2b(raw, digest_size=16, key=_KEY).digest()

    def _head(self, queue: deque[int] | None) -> int | None:
        """The earliest call of ``queue`` still open (paired ones are dropped lazily)."""
        while queue:
            if queue[0] in self.names:
                return queue[0]
            queue.popleft()
        return None

    def _take(self, i: int) -> int:
        name = self.names.pop(i)
        self.lengths[_size(name)] -= 1
        return i

    def take(self, name: str) -> int | None:
        """The open call a completion named ``name`` completes, taken: the earliest with
        this name, else the earliest whose name plus ``-`` starts it, else (``name`` a call
        id) the earliest named like a tool; None when there is none."""
        queue = self.by_name.get(name)
        if queue:
            i = self._head(queue)
            if i is not None:
                return self._take(i)
        if "-" in name:
            i = self._extended(name)
            if i is not None:
                return self._take(i)
        if self.tool_named and looks_like_call_id(name):
            i = self._head(self.tool_named)
            if i is not None:
                return self._take(i)
        return None

    def take_named(self, name: str) -> int | None:
        """The earliest open call with this name."""
        i = self._head(self.by_name.get(name))
        return None if i is None else self._take(i)

    def take_extended(self, name: str) -> int | None:
        """The earliest open call whose name plus ``-`` starts ``name``."""
        best = self._extended(name)
        return None if best is None else self._take(best)

    def _extended(self, name: str) -> int | None:
        raw = name.encode("utf-8", "surrogatepass")
        best: int | None = None
        if len(raw) <= _SHORT:
            at = raw.find(b"-")
            while at >= 0:
                if self.lengths[at] > 0:
                    i = self._head(self.by_name.get(raw[:at].decode("utf-8", "surrogatepass")))
                    if i is not None and (best is None or i < best):
                        best = i
                at = raw.find(b"-", at + 1)
        else:
            best = self._extended_long(raw)
        return best

    def _extended_long(self, raw: bytes) -> int | None:
        """:meth:`take_extended` for a long name: every prefix ending before a ``-`` is
        hashed incrementally, so the work is linear in the name's length."""
        if self.by_digest is None:
            self.by_digest = {}
            for pos, open_name in self.names.items():
                key = self._key(open_name.encode("utf-8", "surrogatepass"))
                self.by_digest.setdefault(key, deque()).append(pos)
        h = hashlib.blake2b(digest_size=16, key=_KEY)
        done = 0
        best: int | None = None
        at = raw.find(b"-")
        while at >= 0:
            if self.lengths[at] > 0:
                h.update(raw[done:at])
                done = at
                i = self._head(self.by_digest.get((at, h.digest())))
                if i is not None and (best is None or i < best):
                    name = self.names[i].encode("utf-8", "surrogatepass")
                    if raw.startswith(name + b"-"):
                        best = i
            at = raw.find(b"-", at + 1)
        return best

    def take_tool_named(self) -> int | None:
        """The earliest open call whose name is not a call id."""
        i = self._head(self.tool_named)
        return None if i is None else self._take(i)
