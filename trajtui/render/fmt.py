"""Formatting of numbers, durations, statuses and kinds for display (no Rich needed)."""

from __future__ import annotations

import math

from trajtui.core.model import Kind, Outcome

ABSENT = "—"
"""Shown where the file has no value."""

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
    Kind.OTHER: "other",
}

PROBLEM_GLYPH = "⚠"


def duration(ms: float | None) -> str:
    """``850ms``, ``14.2s``, ``3m 02s``, ``2h 05m`` (``—`` when unknown)."""
    if ms is None or not math.isfinite(ms):
        return ABSENT
    if ms < 0:
        return "-" + duration(-ms)
    if ms < 1000:
        return f"{ms:.0f}ms"
    s = ms / 1000
    if s < 60:
        return f"{s:.1f}s"
    m, s = divmod(round(s), 60)
    if m < 60:
        return f"{m}m {s:02d}s"
    h, m = divmod(m, 60)
    return f"{h}h {m:02d}m"


def offset(ms: float | None) -> str:
    """A time offset from the start: ``+2.5s``."""
    if ms is None:
        return ""
    return "+" + duration(ms) if ms >= 0 else duration(ms)


def number(value: float | int | None, digits: int = 4) -> str:
    """A number for reading: integers with separators, other numbers with up to ``digits``
    decimals, never rounded to look whole (0.999 stays 0.999, 0.99996 is not shown as 1)."""
    if value is None:
        return ABSENT
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int):
        return f"{value:,}"
    if not math.isfinite(value):
        return str(value)
    if value == int(value) and abs(value) < 1e15:
        return f"{int(value):,}"
    if abs(value) >= 1e6:
        return f"{value:,.0f}"
    if abs(value) < 10**-digits:
        return f"{value:.2g}"
    text = f"{value:.{digits}f}".rstrip("0").rstrip(".")
    if "." not in text:  # rounding made it look whole: show the digits that say it is not
        text = f"{value:.{digits + 4}g}"
    return text


def cost(value: float | None) -> str:
    """A cost in USD: four decimals under a dollar (``$0.0129``), cents above (``$12.40``)."""
    if value is None:
        return ABSENT
    if value == 0:
        return "$0"
    if abs(value) < 1:
        return f"${value:.4f}"
    return f"${value:,.2f}"


def count(n: int) -> str:
    """``1,204``."""
    return f"{n:,}"


def percent(fraction: float) -> str:
    """``87%`` (one decimal below 10%)."""
    p = fraction * 100
    return f"{p:.1f}%" if 0 < p < 10 else f"{p:.0f}%"


def status(word: str | None, outcome: Outcome) -> str:
    """Glyph and word, readable without colour: ``✓ pass``."""
    return f"{OUTCOME_GLYPH[outcome]} {word if word else ABSENT}"
