"""What a sample's scores say: its status word, outcome and score, as Inspect reads them.

A sample's ``scores`` map each scorer's name to ``{value, answer, explanation}``. Inspect's
own letters are ``C`` (correct), ``I`` (incorrect), ``P`` (partial) and ``N`` (no answer),
worth 1, 0, 0.5 and 0 as its ``value_to_float`` counts them; a value may also be a number or
a boolean. The run list shows one scorer's value, the log's headline scorer (its
``results.headline``, else its first scorer), and the detail every scorer's.

The same reading serves a sample (``samples/*.json``) and its summary
(``summaries.json``): both have ``scores``, ``error`` (a string in a summary, an object in a
sample), ``limit`` and ``completed``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from trajtui.core.model import Outcome

LETTERS = {
    "C": ("correct", 1.0),
    "I": ("incorrect", 0.0),
    "P": ("partial", 0.5),
    "N": ("noanswer", 0.0),
}
"""Inspect's score letters: the word shown and the value Inspect counts them as."""
_TIMEOUTS = {"time", "working"}


@dataclass(frozen=True, slots=True)
class Verdict:
    """A sample's status as its file says it.

    Attributes:
        status: The word shown (``correct``, ``error``, ``limit: message``...), or None.
        outcome: Its category.
        score: The headline scorer's value as a number (C 1, P 0.5, I and N 0), or None.
        scorer: The headline scorer's name, or None when nothing scored the sample.
        passed: The headline value is a pass (C, true, a number of 1 or more), a fail (I,
            N, P, false, a smaller number), or None when not scored.
    """

    status: str | None
    outcome: Outcome
    score: float | None = None
    scorer: str | None = None
    passed: bool | None = None


def as_number(value: Any) -> float | None:
    """A score value as Inspect counts it (``C`` 1, ``P`` 0.5, ``I``/``N`` 0, booleans,
    numbers); None for a value that is not one (a string of another kind, a list, a dict)."""
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str) and value in LETTERS:
        return LETTERS[value][1]
    return None


def headline(scores: Any, preferred: str | None) -> tuple[str, Any] | None:
    """The scorer the run list shows and its score object: ``preferred`` (the log's
    headline) when the sample has it, else its first scorer; None without scores."""
    if not isinstance(scores, dict) or not scores:
        return None
    if preferred is not None and preferred in scores:
        return preferred, scores[preferred]
    name = next(iter(scores))
    return str(name), scores[name]


def error_text(error: Any) -> str | None:
    """The message of a sample's ``error`` (an object in a sample, a string in a summary)."""
    if error is None:
        return None
    if isinstance(error, dict):
        message = error.get("message")
        return str(message) if message is not None else "error"
    return str(error)


def verdict(obj: dict[str, Any], preferred: str | None) -> Verdict:
    """The status of a sample or summary ``obj``, scored by ``preferred`` where it can be."""
    scored = headline(obj.get("scores"), preferred)
    score: float | None = None
    passed: bool | None = None
    word: str | None = None
    scorer: str | None = None
    if scored is not None:
        scorer, value = scored
        raw = value.get("value") if isinstance(value, dict) else value
        score = as_number(raw)
        if isinstance(raw, str) and raw in LETTERS:
            word = LETTERS[raw][0]
            passed = raw == "C"
        elif score is not None:
            word = "scored"
            passed = score >= 1
    if obj.get("error") is not None:
        return Verdict("error", Outcome.ERROR, score, scorer, passed)
    limit = obj.get("limit")
    if isinstance(limit, dict) and limit.get("type") is not None:
        kind = str(limit.get("type"))
        outcome = Outcome.TIMEOUT if kind in _TIMEOUTS else Outcome.ERROR
        return Verdict(f"{kind} limit", outcome, score, scorer, passed)
    if word is not None:
        if word == "partial" or (word == "scored" and score is not None and 0 < score < 1):
            outcome = Outcome.PARTIAL
        else:
            outcome = Outcome.PASS if passed else Outcome.FAIL
        return Verdict(word, outcome, score, scorer, passed)
    if obj.get("completed") is False:
        return Verdict("running", Outcome.RUNNING)
    return Verdict(None, Outcome.NONE, score, scorer, passed)


def usage_totals(usage: Any) -> tuple[int | None, int | None, float | None]:
    """Input and output tokens and cost over every model of a ``model_usage`` map, as the
    file counts them (each None when no model says it; cost only when every model has a
    ``total_cost``)."""
    if not isinstance(usage, dict) or not usage:
        return None, None, None
    tin: int | None = None
    tout: int | None = None
    costs: list[float] = []
    for one in usage.values():
        if not isinstance(one, dict):
            continue
        i, o, c = one.get("input_tokens"), one.get("output_tokens"), one.get("total_cost")
        if isinstance(i, int) and not isinstance(i, bool):
            tin = i if tin is None else tin + i
        if isinstance(o, int) and not isinstance(o, bool):
            tout = o if tout is None else tout + o
        if isinstance(c, int | float) and not isinstance(c, bool):
            costs.append(float(c))
    cost = sum(costs) if costs and len(costs) == len(usage) else None
    return tin, tout, cost
