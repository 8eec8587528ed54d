"""The fields a query can name: their kinds, how their values are read, and the help ``?``
shows."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from difflib import get_close_matches

from trajtui.core.query.lexer import QueryError

TEXT, STATUS, NUMBER, COUNT, DURATION, FLAG, TOOL, IS, METADATA = (
    "text",
    "status",
    "number",
    "count",
    "duration",
    "flag",
    "tool",
    "is",
    "metadata",
)
"""Kinds of field."""

FILE_METRIC = "file_metrics."
"""The source of a field that is one of the numbers the file computed for a run, under its
own name (``RunSummary.file_metrics``: ``passRate``...)."""


@dataclass(frozen=True, slots=True)
class FieldHelp:
    """One field of the query language, as ``?`` lists it.

    Attributes:
        name: What to type before ``:`` (or a comparison).
        kind: ``text``, ``status``, ``number``, ``count``, ``duration``, ``flag``, ``tool``,
            ``is`` or ``metadata``.
        example: A term using it.
        meaning: What it matches, in a few words.
        source: The run-list row's field it reads (``duration_ms``...), "" for none.
    """

    name: str
    kind: str
    example: str
    meaning: str
    source: str = ""


FIELDS: tuple[FieldHelp, ...] = (
    FieldHelp("word", TEXT, 'timeout  "rate limit"', "reference, title or input contains it"),
    FieldHelp("ref", TEXT, "ref:websearch-1*", "the run's reference", "ref"),
    FieldHelp(
        "title", TEXT, "title:ceo", "the run's title (its input's first 200 characters)", "title"
    ),
    FieldHelp("input", TEXT, "input:vercel", "the run's whole input contains it", ""),
    FieldHelp("output", TEXT, 'output:"rate limit"', "its output (or a trial's) contains it"),
    FieldHelp("reasoning", TEXT, "reasoning:source", "its grader's reasoning contains it"),
    FieldHelp("status", STATUS, "status:timeout", "status word or pass/fail/error/timeout/unknown"),
    FieldHelp("is", IS, "is:problem  is:fail", "problem rows, or a status as status:"),
    FieldHelp("format", TEXT, "format:acp-trials", "the file's format", "format"),
    FieldHelp("pass", FLAG, "pass:true", "the file's pass/fail verdict", "passed"),
    FieldHelp("score", NUMBER, "score<0.5", "score, pass rate, accuracy or Brier score", "score"),
    FieldHelp("steps", COUNT, "steps>30", "steps in the timeline (all trials)", "steps"),
    FieldHelp("duration", DURATION, "duration>60s", "run duration (ms, s, m, h)", "duration_ms"),
    FieldHelp("cost", NUMBER, "cost>=0.1", "cost in USD", "cost"),
    FieldHelp("tokens", COUNT, "tokens>100k", "input + output tokens (k, M)", ""),
    FieldHelp("tokens_in", COUNT, "tokens_in>50k", "input tokens", "tokens_in"),
    FieldHelp("tokens_out", COUNT, "tokens_out>2k", "output tokens", "tokens_out"),
    FieldHelp("tool", TOOL, "tool:Bash  tool:mcp__*", "ran that tool (name, any case)"),
    FieldHelp("tool_calls", COUNT, "tool_calls>=10", "tool calls made", "tool_calls"),
    FieldHelp("tool_errors", COUNT, "tool_errors>0", "tool calls that failed", "failed_tool_calls"),
    FieldHelp("trials", COUNT, "trials:5", "trials of a trials record", "attempts"),
    FieldHelp("passes", COUNT, "passes<3", "passing trials", "passes"),
    FieldHelp("line", COUNT, "line>1000", "line of the run in its file", "line"),
    # The file's own fields, by their own names (as ``ls --json`` prints them)
    FieldHelp(
        "toolErrors", FLAG, "toolErrors:true", "the file's own toolErrors flag", "tool_errors"
    ),
    FieldHelp(
        "passRate", NUMBER, "passRate<0.5", "the file's own passRate", "file_metrics.passRate"
    ),
    FieldHelp("passAtK", NUMBER, "passAtK>=0.9", "the file's own passAtK", "file_metrics.passAtK"),
    FieldHelp(
        "passExpK", NUMBER, "passExpK<0.5", "the file's own passExpK", "file_metrics.passExpK"
    ),
    FieldHelp(
        "metadata.KEY", METADATA, "metadata.category:ui  agent:codex", "the file's metadata value"
    ),
)
"""Every field, in the order ``?`` lists them."""

STEP_FIELDS: tuple[FieldHelp, ...] = (
    FieldHelp("word", TEXT, 'timeout  "rate limit"', "anywhere in the step: text, input, output"),
    FieldHelp("ref", TEXT, "ref:*-step-3", "the step's reference", "ref"),
    FieldHelp("title", TEXT, "title:search", "the step's line in the timeline", "title"),
    FieldHelp("kind", TEXT, "kind:tool  kind:thought", "tool_call message thought plan...", "kind"),
    FieldHelp("tool", TOOL, "tool:Bash  tool:mcp__*", "a call of that tool (name, any case)"),
    FieldHelp("status", STATUS, "status:failed", "status word or ok/failed/pending"),
    FieldHelp("is", IS, "is:error  is:pending", "a state, as status:"),
    FieldHelp("input", TEXT, "input:.env", "the tool's input (or the step's input)", ""),
    FieldHelp("output", TEXT, "output:denied", "the tool's output", "output"),
    FieldHelp("error", TEXT, "error:timeout", "the step's error message", "error"),
    FieldHelp("step", COUNT, "step>10", "the step's number", "number"),
    FieldHelp(
        "duration", DURATION, "duration>5s", "the step's duration (ms, s, m, h)", "duration_ms"
    ),
    FieldHelp("offset", DURATION, "offset>2m", "time since the run started", "offset_ms"),
    FieldHelp("tokens", COUNT, "tokens>10k", "input + output tokens of the step", ""),
    FieldHelp("tokens_in", COUNT, "tokens_in>5k", "input tokens", "tokens_in"),
    FieldHelp("tokens_out", COUNT, "tokens_out>1k", "output tokens", "tokens_out"),
    FieldHelp("cost", NUMBER, "cost>0.01", "the step's cost in USD", "cost"),
)
"""Every field of the timeline's filter (a query over one run's steps)."""

RUN_TEXTS = ("output", "reasoning")
"""Run fields of text only the whole run holds (a run-list row does not): searched for, as
the whole input is, and found anywhere in the text, quoted (a phrase) or not."""

RUNS, STEPS = "runs", "steps"
"""What a query chooses: runs (:data:`FIELDS`) or the steps of a run (:data:`STEP_FIELDS`)."""

_UNNAMED = ("word", "metadata.KEY")
_BY_SCOPE = {
    RUNS: {f.name.casefold(): f for f in FIELDS if f.name not in _UNNAMED},
    STEPS: {f.name.casefold(): f for f in STEP_FIELDS if f.name not in _UNNAMED},
}
_BY_NAME = _BY_SCOPE[RUNS]
_ALIASES = {
    RUNS: {"s": "status", "errors": "tool_errors", "attempts": "trials", "calls": "tool_calls"},
    STEPS: {"s": "status", "number": "step", "n": "step", "type": "kind"},
}
NAMES = tuple(sorted(f.name for f in _BY_NAME.values()))
"""Field names a query knows whatever the data (metadata keys come on top)."""


def fields_of(scope: str) -> tuple[FieldHelp, ...]:
    """The fields a query of ``scope`` (:data:`RUNS` or :data:`STEPS`) knows, as ``?``
    lists them."""
    return STEP_FIELDS if scope == STEPS else FIELDS


def names_of(scope: str) -> tuple[str, ...]:
    """The field names of ``scope``, sorted."""
    return tuple(sorted(f.name for f in _BY_SCOPE[scope].values()))


def field_named(name: str, scope: str = RUNS) -> FieldHelp | None:
    """The built-in field called ``name`` in ``scope`` (any case, or an alias: ``s`` is
    ``status``), or None."""
    low = name.casefold()
    return _BY_SCOPE[scope].get(_ALIASES[scope].get(low, low))


def closest(name: str, known: Iterable[str], cutoff: float = 0.6) -> list[str]:
    """Up to three of ``known`` spelled most like ``name`` (``cutoff``: how alike, 0 to 1)."""
    spelled = {k.casefold(): k for k in known}
    near = get_close_matches(name.casefold(), list(spelled), n=3, cutoff=cutoff)
    return [spelled[k] for k in near]


TYPO = 0.75
"""How alike a name must be to a field's to be taken as a typo of it when the metadata
keys are not known yet (``scroe``, ``stpes``: 0.8; ``phase``/``pass``: 0.67 is a key)."""


def unknown_field(
    name: str, start: int, end: int, keys: Iterable[str], scope: str = RUNS
) -> QueryError:
    """The error for a field that is neither built in nor a metadata key."""
    keys = list(keys)
    names = names_of(scope)
    near = closest(name, [*names, *keys])
    hint = f": did you mean {' or '.join(near)}?" if near else ""
    if scope == STEPS:
        known = f" (step fields: {', '.join(names)})"
    else:
        known = f" (fields: {', '.join(names)}; metadata keys: {', '.join(keys[:8]) or 'none'})"
    return QueryError(f"unknown field '{name}'{hint or known}", start, end)


_COUNT = re.compile(r"^(\d+(?:\.\d*)?|\.\d+)([kKmM]?)$")
_DURATION = re.compile(r"^(\d+(?:\.\d*)?|\.\d+)(ms|s|m|h)$")
_DURATION_UNITS = {"ms": 1.0, "s": 1000.0, "m": 60_000.0, "h": 3_600_000.0}
_COUNT_UNITS = {"": 1, "k": 1000, "m": 1_000_000}


def number_value(kind: str, name: str, text: str, start: int, end: int) -> float:
    """The number a value stands for: a plain number; a count with ``k``/``M``
    (``100k``); a duration with its unit, in ms (``60s`` -> 60000).

    Raises:
        QueryError: The value is not one of these.
    """
    if kind == DURATION:
        m = _DURATION.match(text)
        if m is None:
            raise QueryError(
                f"{name} takes a duration with its unit: 500ms, 60s, 5m, 1h (not '{text}')",
                start,
                end,
            )
        return float(m.group(1)) * _DURATION_UNITS[m.group(2)]
    if kind == COUNT:
        m = _COUNT.match(text)
        if m is None:
            raise QueryError(f"{name} takes a count: 30, 100k, 2M (not '{text}')", start, end)
        return float(m.group(1)) * _COUNT_UNITS[m.group(2).lower()]
    try:
        value = float(text)
    except ValueError:
        raise QueryError(f"{name} takes a number: 0.5, 10 (not '{text}')", start, end) from None
    if value != value:
        raise QueryError(f"{name} takes a number (not '{text}')", start, end)
    return value
