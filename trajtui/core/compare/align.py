"""Two timelines side by side: which step of one run is which step of the other.

The question a compare answers is "what did this run do differently?", so steps are
matched the way a person reads two transcripts:

* a tool call matches a call of the same tool with the same input; a message or a thought
  matches one of the same kind with the same text (whitespace aside);
* the longest runs of such matches anchor the alignment (:class:`difflib.SequenceMatcher`
  over the steps' keys, in about linear time on real transcripts);
* between two anchors, the steps left on each side are paired by similarity (the same
  tool with another input, a message reworded), best total first (a small dynamic
  programme, bounded in size; past the bound, in order), and what stays unpaired is a gap:
  a step only one run has;
* a step one run has only at another place (a reordered pair) is marked as moved, with
  the position it has in the other run.

Each aligned pair is ``=`` (the same step: same key, output and status), ``~`` (paired,
something differs, said in ``why``), ``-`` (only in A) or ``+`` (only in B). The first pair
that is not ``=`` is the first divergence.

Nothing here imports a UI library; ``trajtui diff`` prints it, the TUI draws it.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NamedTuple

import orjson

from trajtui.core.model import Kind, Step

TEXT_SIMILAR = 0.25
"""Two texts (messages, thoughts) sharing less than this share of their words are not
paired: each is a gap. Two calls of the same tool are always pairable."""
DP_CELLS = 40_000
"""Between two anchors, pairs are chosen by a dynamic programme over at most this many
(A step, B step) cells; a bigger stretch is paired in order."""
TEXT_CHARS = 2_000
"""Characters of a text or an input compared for similarity (the head says enough)."""
_WORDS = re.compile(r"\w+")


class Op(StrEnum):
    """What an aligned pair is."""

    SAME = "="
    CHANGED = "~"
    ONLY_A = "-"
    ONLY_B = "+"


@dataclass(frozen=True, slots=True)
class Pair:
    """One row of an alignment.

    Attributes:
        op: ``=``, ``~``, ``-`` or ``+``.
        a: Index of the step in A's timeline (0-based), or None for ``+``.
        b: Index of the step in B's timeline, or None for ``-``.
        similarity: How alike the two steps are, 0 to 1 (1 for ``=``; 0 for a gap).
        why: What differs (``output differs``, ``input differs: url``) or, for a gap whose
            step the other run has elsewhere, ``moved: B step-7``; empty otherwise.
    """

    op: Op
    a: int | None
    b: int | None
    similarity: float = 0.0
    why: str = ""


@dataclass(frozen=True, slots=True)
class Alignment:
    """Two timelines aligned.

    Attributes:
        pairs: The rows, in order.
        first_divergence: Index in ``pairs`` of the first row that is not ``=``, or None
            when the timelines are the same.
    """

    pairs: tuple[Pair, ...]
    first_divergence: int | None

    def count(self, op: Op) -> int:
        """How many rows are ``op``."""
        return sum(p.op is op for p in self.pairs)


def _canon(value: Any) -> str:
    """A value as one comparable string (JSON with sorted keys; text as it is)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS).decode()
    except (TypeError, orjson.JSONEncodeError):
        return repr(value)


def _norm(text: str | None) -> str:
    return " ".join((text or "").split())


def step_key(step: Step) -> tuple[str, str, str]:
    """What makes two steps the same step: kind, tool, and input or text. A tool call whose
    file names no tool (only an item id as its title) is keyed by its input alone."""
    if step.kind is Kind.TOOL_CALL:
        return (step.kind.value, step.tool or "", _canon(step.input))
    body = _norm(step.text) if step.text is not None else _canon(step.input)
    return (step.kind.value, "" if step.text is not None else step.title, body)


@dataclass(frozen=True, slots=True)
class _Look:
    """What the alignment compares of one step, worked out once."""

    kind: Kind
    key: tuple[str, str, str]
    words: frozenset[str]


def _look(step: Step) -> _Look:
    key = step_key(step)
    return _Look(step.kind, key, frozenset(_WORDS.findall(key[2][:TEXT_CHARS].casefold())))


def _alike(x: _Look, y: _Look) -> float:
    """How alike two steps are, 0 (never paired) to 1: 0 for steps of different kinds or
    tools; for the same tool, half for the tool and half for how alike the inputs are; for
    texts, how alike the texts are, 0 under :data:`TEXT_SIMILAR`. Alike means the share of
    words they have in common (Jaccard, over the first :data:`TEXT_CHARS` characters):
    linear in the text, unlike an edit distance."""
    if x.kind is not y.kind:
        return 0.0
    if x.key == y.key:
        return 1.0
    union = len(x.words | y.words)
    common = len(x.words & y.words) / union if union else 0.0
    if x.kind is Kind.TOOL_CALL:
        return 0.0 if x.key[1] != y.key[1] else 0.5 + 0.5 * common
    return common if common >= TEXT_SIMILAR else 0.0


class _Both(NamedTuple):
    """The two timelines and what is compared of each step."""

    a: Sequence[Step]
    b: Sequence[Step]
    la: list[_Look]
    lb: list[_Look]


def similarity(a: Step, b: Step) -> float:
    """How alike two steps are, 0 to 1 (see :func:`_alike`)."""
    return _alike(_look(a), _look(b))


def _input_fields(a: Any, b: Any) -> list[str]:
    """Top-level keys whose values differ between two inputs (both objects)."""
    if not isinstance(a, dict) or not isinstance(b, dict):
        return []
    keys = list(dict.fromkeys([*a, *b]))
    return [str(k) for k in keys if _canon(a.get(k)) != _canon(b.get(k))]


def differences(a: Step, b: Step) -> str:
    """What differs between two paired steps, in words (empty when nothing does)."""
    said: list[str] = []
    if step_key(a) != step_key(b):
        if a.kind is Kind.TOOL_CALL:
            fields = _input_fields(a.input, b.input)
            said.append("input differs" + (": " + ", ".join(fields[:4]) if fields else ""))
        else:
            said.append("text differs")
    if _canon(a.output) != _canon(b.output):
        said.append("output differs")
    if a.kind is Kind.TOOL_CALL and not a.tool and not b.tool and a.title != b.title:
        said.append(f"title {a.title} → {b.title}")
    if (a.status or "") != (b.status or ""):
        said.append(f"status {a.status or '—'} → {b.status or '—'}")
    if (a.error or "") != (b.error or ""):
        said.append("error differs")
    return "; ".join(said)


def _pair(a: Sequence[Step], b: Sequence[Step], i: int, j: int, sim: float) -> Pair:
    why = differences(a[i], b[j])
    return Pair(Op.CHANGED if why else Op.SAME, i, j, 1.0 if not why else sim, why)


def _fill(ab: _Both, i1: int, i2: int, j1: int, j2: int) -> list[Pair]:
    """Pairs for A's steps ``i1:i2`` and B's ``j1:j2`` (no anchor between them)."""
    a, b, la, lb = ab
    n, m = i2 - i1, j2 - j1
    if n == 0:
        return [Pair(Op.ONLY_B, None, j) for j in range(j1, j2)]
    if m == 0:
        return [Pair(Op.ONLY_A, i, None) for i in range(i1, i2)]
    if n * m > DP_CELLS:
        return _in_order(ab, i1, i2, j1, j2)
    sims = [[_alike(la[i1 + x], lb[j1 + y]) for y in range(m)] for x in range(n)]
    # best[x][y]: the best total similarity of pairs among A[x:], B[y:]
    best = [[0.0] * (m + 1) for _ in range(n + 1)]
    for x in range(n - 1, -1, -1):
        row, below = best[x], best[x + 1]
        for y in range(m - 1, -1, -1):
            take = below[y + 1] + sims[x][y] if sims[x][y] > 0 else -1.0
            row[y] = max(take, below[y], row[y + 1])
    out: list[Pair] = []
    x = y = 0
    while x < n and y < m:
        s = sims[x][y]
        if s > 0 and best[x][y] == best[x + 1][y + 1] + s:
            out.append(_pair(a, b, i1 + x, j1 + y, s))
            x += 1
            y += 1
        elif best[x][y] == best[x + 1][y]:
            out.append(Pair(Op.ONLY_A, i1 + x, None))
            x += 1
        else:
            out.append(Pair(Op.ONLY_B, None, j1 + y))
            y += 1
    out.extend(Pair(Op.ONLY_A, i1 + k, None) for k in range(x, n))
    out.extend(Pair(Op.ONLY_B, None, j1 + k) for k in range(y, m))
    return out


def _in_order(ab: _Both, i1: int, i2: int, j1: int, j2: int) -> list[Pair]:
    """Pairs for a stretch too long for the dynamic programme: each A step with the next B
    step like it, within a short look-ahead."""
    a, b, la, lb = ab
    out: list[Pair] = []
    y = j1
    for i in range(i1, i2):
        for look in range(y, min(j2, y + 8)):
            s = _alike(la[i], lb[look])
            if s > 0:
                out.extend(Pair(Op.ONLY_B, None, j) for j in range(y, look))
                out.append(_pair(a, b, i, look, s))
                y = look + 1
                break
        else:
            out.append(Pair(Op.ONLY_A, i, None))
    out.extend(Pair(Op.ONLY_B, None, j) for j in range(y, j2))
    return out


def _step_n(steps: Sequence[Step]) -> Callable[[int], str]:
    return lambda k: f"step-{steps[k].number}"


def _mark_moves(
    pairs: list[Pair],
    a: Sequence[Step],
    b: Sequence[Step],
    names: tuple[Callable[[int], str], Callable[[int], str]],
) -> list[Pair]:
    """A gap whose step the other run has, unpaired, at another place: say where (by the
    step's name in its side, ``names``)."""
    only_a: dict[tuple[str, str, str], list[int]] = {}
    only_b: dict[tuple[str, str, str], list[int]] = {}
    for p in pairs:
        if p.op is Op.ONLY_A and p.a is not None:
            only_a.setdefault(step_key(a[p.a]), []).append(p.a)
        elif p.op is Op.ONLY_B and p.b is not None:
            only_b.setdefault(step_key(b[p.b]), []).append(p.b)
    out = []
    for p in pairs:
        if p.op is Op.ONLY_A and p.a is not None:
            there = only_b.get(step_key(a[p.a]))
            if there:
                p = Pair(p.op, p.a, None, 0.0, f"moved: B {names[1](there[0])}")
        elif p.op is Op.ONLY_B and p.b is not None:
            there = only_a.get(step_key(b[p.b]))
            if there:
                p = Pair(p.op, None, p.b, 0.0, f"moved: A {names[0](there[0])}")
        out.append(p)
    return out


def align(
    a: Sequence[Step],
    b: Sequence[Step],
    names: tuple[Callable[[int], str], Callable[[int], str]] | None = None,
) -> Alignment:
    """Align timeline ``a`` with timeline ``b`` (see the module's docstring); ``names``
    name a step of each by its index (``step-N`` when not given)."""
    ab = _Both(a, b, [_look(s) for s in a], [_look(s) for s in b])
    keys_a = [x.key for x in ab.la]
    keys_b = [x.key for x in ab.lb]
    matcher = difflib.SequenceMatcher(None, keys_a, keys_b, autojunk=False)
    pairs: list[Pair] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            pairs.extend(_pair(a, b, i1 + k, j1 + k, 1.0) for k in range(i2 - i1))
        else:
            pairs.extend(_fill(ab, i1, i2, j1, j2))
    pairs = _mark_moves(pairs, a, b, names or (_step_n(a), _step_n(b)))
    first = next((k for k, p in enumerate(pairs) if p.op is not Op.SAME), None)
    return Alignment(tuple(pairs), first)
