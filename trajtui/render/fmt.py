"""Formatting of numbers, durations, statuses and kinds for display (no Rich needed).

Every function takes any number the JSON parser gives (a 400-digit integer, ``1e999`` read
as :class:`~trajtui.core.io.jsonutil.Overflowed`, ``-0.0``, NaN) and returns a short string:
nothing here raises, and nothing prints hundreds of digits. Magnitudes of 1e15 and more are
written in scientific notation, exactly (``1e+400``) or marked ``≈`` when digits are left
out.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from trajtui.core.io.sanitize import visible
from trajtui.core.model import Kind, Outcome, RunSummary
from trajtui.core.units import ABSENT, HUGE, cost, duration, huge, many, number, offset

__all__ = ["ABSENT", "HUGE", "cost", "duration", "many", "number", "offset"]

OUTCOME_GLYPH: dict[Outcome, str] = {
    Outcome.PASS: "✓",
    Outcome.FAIL: "✗",
    Outcome.PARTIAL: "◐",
    Outcome.ERROR: "!",
    Outcome.TIMEOUT: "◷",
    Outcome.RUNNING: "○",
    Outcome.SKIPPED: "↷",
    Outcome.DONE: "•",
    Outcome.NONE: "·",
}

KIND_GLYPH: dict[Kind, str] = {
    Kind.THOUGHT: "◦",
    Kind.MESSAGE: "▸",
    Kind.TOOL_CALL: "⚙",
    Kind.PLAN: "☰",
    Kind.MODEL_CALL: "◆",
    Kind.TASK: "▣",
    Kind.SAMPLE: "◇",
    Kind.RESULT: "#",
    Kind.OTHER: "·",
}

KIND_LABEL: dict[Kind, str] = {
    Kind.THOUGHT: "thought",
    Kind.MESSAGE: "message",
    Kind.TOOL_CALL: "tool",
    Kind.PLAN: "plan",
    Kind.MODEL_CALL: "model",
    Kind.TASK: "task",
    Kind.SAMPLE: "sample",
    Kind.RESULT: "result",
    Kind.OTHER: "other",
}

PROBLEM_GLYPH = "⚠"


def count(n: int) -> str:
    """``1,204``."""
    return number(n)


def percent(fraction: float) -> str:
    """``87%`` (one decimal below 10%)."""
    if isinstance(fraction, float) and math.isnan(fraction):
        return "nan%"
    p = fraction * 100  # never raises: ints stay exact, floats go to inf
    if huge(p):
        return number(p) + "%"
    if p == 0:
        return "0%"
    return f"{p:.1f}%" if 0 < p < 10 else f"{p:.0f}%"


def status(word: str | None, outcome: Outcome) -> str:
    """Glyph and word, readable without colour: ``✓ pass`` (the word is the file's: made
    visible, on one line)."""
    return f"{OUTCOME_GLYPH[outcome]} {visible(word, keep_newlines=False) if word else ABSENT}"


# -- the run list's cells (plain text: ``ls`` prints them without importing Rich) ----------

NOT_APPLICABLE = "n/a"
"""A score the run has no value for (an accuracy over 0 graded samples)."""


def score_text(summary: RunSummary) -> str:
    """The score column: the run's score, whatever kind it is (a trials record's is its
    pass rate; its passing trials are a count of their own: :func:`passes_text`); ``n/a``
    when the run has a kind of score but nothing it applies to, ``—`` when the file has
    none."""
    if summary.score is None:
        return NOT_APPLICABLE if summary.score_label else ABSENT
    return number(summary.score)


def signed(value: float | None, spell: Callable[[float], str] = number) -> str:
    """A difference spelled as the quantity is (``spell``: :func:`number`, :func:`cost`,
    :func:`duration`...) with its sign: ``+0.24``, ``-$0.0481``, ``+21.7s``; "" for none
    (a side without the figure) or no difference."""
    if value is None or value == 0:
        return ""
    if value != value:  # NaN has no sign
        return spell(value)
    return ("+" if value > 0 else "-") + spell(abs(value))


def passes_text(summary: RunSummary) -> str | None:
    """``3 of 5 graded``: a trials record's passing trials of its graded ones (None for a
    run that is not one)."""
    if summary.attempts is None or summary.passes is None or summary.graded is None:
        return None
    return f"{number(summary.passes)} of {number(summary.graded)} graded"


FLAGGED = "flagged"
"""The tool-errors cell of a run whose file flags ``toolErrors`` while none of its tool
calls is a failed one (acp-harness sets the flag for a failed call or a timeout)."""


def tool_errors_text(summary: RunSummary) -> str:
    """The tool-errors column: how many tool calls failed; ``flagged`` when none did (or
    the format cannot tell) but the file flags the run's ``toolErrors``; ``—`` when the
    format cannot tell and the file does not flag it."""
    failed = summary.failed_tool_calls
    if not failed and summary.tool_errors is True:
        return FLAGGED
    return number(failed) if failed is not None else ABSENT


def tool_calls_text(summary: RunSummary) -> str:
    """The tool-calls column: how many tool calls the run made (``—`` when the format does
    not record them)."""
    calls = summary.tool_calls
    return number(calls) if calls is not None else ABSENT


# -- references cut to a width, keeping what tells them apart -----------------------------------

REF_SEPARATORS = "-_./:#@ "
"""Where a shared start of references may end (after one of these)."""
MIN_SHARED = 6
"""A shared start shorter than this is not worth an ellipsis."""
TAIL = 10
"""Characters of a reference's end kept when its middle gives way (a third of the width at
most: the start, where references first differ, keeps the rest)."""


def shared_start(common: str) -> str:
    """The part of ``common`` (the start every reference of a list has) worth eliding: up to
    and including its last separator (``terminal-bench-html-js-f`` gives
    ``terminal-bench-html-js-``), so a reference never loses half a word; "" when that is
    shorter than :data:`MIN_SHARED`."""
    cut = max(common.rfind(c) for c in REF_SEPARATORS) + 1
    return common[:cut] if cut >= MIN_SHARED else ""


def elide_ref(ref: str, width: int, shared: str = "") -> str:
    """``ref`` in ``width`` characters, keeping what tells it apart from the others listed
    with it: whole when it fits; else its ``shared`` start (every other reference's too)
    given way to ``…``; still too long, the middle of what is left, so that both where the
    references first differ and their end (ids, counters, random suffixes: up to
    :data:`TAIL` characters) stay."""
    if len(ref) <= width or width <= 0:
        return ref[:width] if width > 0 else ""
    if shared and ref.startswith(shared) and len(shared) < len(ref):
        ref = "…" + ref[len(shared) :]
        if len(ref) <= width:
            return ref
    if width < 4:
        return ref[: width - 1] + "…"
    tail = min(TAIL, (width - 1) // 3)
    head = width - 1 - tail
    return ref[:head] + "…" + ref[len(ref) - tail :]


def _shared_end(a: str, b: str) -> str:
    """The end ``a`` and ``b`` share, from a separator on (``_scored.jsonl::web-7``), so
    that what differs keeps whole words; "" when they share no such end."""
    n = 0
    while n < min(len(a), len(b)) and a[len(a) - 1 - n] == b[len(b) - 1 - n]:
        n += 1
    end = a[len(a) - n :] if n else ""
    cut = min((end.find(c) for c in REF_SEPARATORS if c in end), default=-1)
    return end[cut:] if cut >= 0 else ""


NAME_SEPARATORS = ":/#@ "
"""What parts a name (``file.jsonl::web-26``, ``dir/run``) into the names it is made of."""


def _from_a_word(end: str) -> str:
    """``end`` from the first name it holds whole on (``l::web-26`` gives ``web-26``);
    ``end`` itself when it holds none."""
    cut = min((end.find(c) for c in NAME_SEPARATORS if c in end), default=-1)
    rest = end[cut:].lstrip(NAME_SEPARATORS) if cut >= 0 else end
    return rest or end


def _last_name(text: str) -> str:
    """The last name ``text`` is made of (``web-26`` of ``x.jsonl::web-26``)."""
    cut = max(text.rfind(c) for c in NAME_SEPARATORS)
    return text[cut + 1 :]


def elide_pair(a: str, b: str, width: int) -> tuple[str, str]:
    """Two names (of the two sides of a comparison) in ``width`` characters each, what
    tells them apart kept: whole when both fit; else the start they share gives way
    (``…``), then the middle of the end they share (its last characters, a run's id, stay
    as long as they can), then the middle of what differs (its start and end stay)."""
    if len(a) <= width and len(b) <= width:
        return a, b
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    common = a[:n]
    start = shared_start(common) if a != b else ""
    head = "…" if start else ""
    end = _shared_end(a[len(start) :], b[len(start) :]) if a != b else ""
    parts = [x[len(start) : len(x) - len(end)] for x in (a, b)]
    widest = max(len(p) for p in parts)
    if len(head) + widest + len(end) <= width:
        return head + parts[0] + end, head + parts[1] + end
    room = width - len(head) - widest
    if end and room >= min(len(end), TAIL + 1):
        tail = "…" + _from_a_word(end[len(end) - room + 1 :])
        return head + parts[0] + tail, head + parts[1] + tail
    if end:  # what differs, with the shared end's last characters as room allows
        avail = max(0, width - len(head))
        last = len(_last_name(end)) + 1
        keep = min(len(end), max(avail // 3, last if last <= avail // 2 else 0))
        tail = "…" + _from_a_word(end[len(end) - keep :]) if keep < len(end) else end
        tail = tail if keep else ""
    else:
        tail = ""
    room = width - len(head) - len(tail)
    x, y = (head + (p if len(p) <= room else elide_ref(p, room)) + tail for p in parts)
    if x == y and a != b and n and width > 1:  # they differ within a word: from there on
        x, y = ("…" + elide_ref(v[n:], width - 1) for v in (a, b))
    if len(x) > width or len(y) > width:
        x, y = elide_ref(a, width), elide_ref(b, width)
    return x, y
