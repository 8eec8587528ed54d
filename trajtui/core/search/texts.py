"""Every text of a run, each with the reference that opens it and the field it is in.

The one place that knows where text lives in the neutral model: a run's fields (input,
output, expected, reasoning...), its trials' fields, each step's text, tool input and output,
error and labelled fields, and what a format keeps beyond them (``Run.detail`` may offer
``search_texts``: a forecast run's message pool). A value that is not a string (a tool's
input object) is searched leaf by leaf, keys and values, each as the file has it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from trajtui.core.model import Field, Kind, Run, Step

KINDS: dict[str, str] = {
    "input": "what the run, trial or step was given (the prompt, a model call's messages)",
    "output": "what it answered (the run's or a trial's output, a model call's answer)",
    "expected": "what it should have answered (hint, expected output, ground truth)",
    "tool": "a tool call's input, output and title",
    "thought": "an agent's thoughts",
    "message": "an agent's or user's messages",
    "reasoning": "a grader's reasoning",
    "error": "error messages",
    "metadata": "a run's metadata",
    "text": "any other step text (a task, a plan, a sample)",
    "field": "any other labelled value",
}
"""What ``--in`` can name: each kind of field, with what it holds."""

_LABEL_KINDS = {
    "input": "input",
    "prompt": "input",
    "question": "input",
    "output": "output",
    "answer": "output",
    "submission": "output",
    "hint": "expected",
    "expected": "expected",
    "expected_output": "expected",
    "ground_truth": "expected",
    "gt_verdict": "expected",
    "reference": "expected",
    "reasoning": "reasoning",
    "verdict_reasoning": "reasoning",
    "rationale": "reasoning",
    "error": "error",
    "errors": "error",
    "metadata": "metadata",
    "tool calls": "tool",
    "tool results": "tool",
}


@dataclass(frozen=True, slots=True)
class FieldText:
    """One text of a run.

    Attributes:
        ref: The reference of the object it belongs to (the run, a trial, a step, a forecast
            message), unqualified: what ``show`` and ``--goto`` accept.
        field: The field's name as shown (``input``, ``tool input``, ``message``, ``hint``).
        kind: Its kind (a key of :data:`KINDS`), for ``--in``.
        text: The text (for a value that is not a string, one of its leaves).
    """

    ref: str
    field: str
    kind: str
    text: str


_TOOL_PREFIXES = ("call ", "result of ", "tool ")
"""Labels of a step's tool calls and results (``call 1: read_file (call_1)``, ``result of call
2``: an ATIF agent step making several calls)."""


def kind_of_label(label: str) -> str:
    """The kind of a labelled field (``hint`` -> ``expected``, a tool call's -> ``tool``, else
    ``field``)."""
    name = label.lower().strip()
    kind = _LABEL_KINDS.get(name)
    if kind is not None:
        return kind
    return "tool" if name.startswith(_TOOL_PREFIXES) else "field"


def grader_reasoning(fields: tuple[Field, ...]) -> str | None:
    """A grader's reasoning among a run's or a trial's fields: a field named so
    (``reasoning``, ``verdict_reasoning``, ``rationale``), or the ``reasoning`` of its
    ``score`` object (an acp-harness capture's grader writes it there); None without one."""
    for f in fields:
        if kind_of_label(f.label) == "reasoning" and isinstance(f.value, str):
            return f.value
    for f in fields:
        if f.label == "score" and isinstance(f.value, dict):
            for key, value in f.value.items():
                if kind_of_label(str(key)) == "reasoning" and isinstance(value, str):
                    return value
    return None


def graders_reasoning(run: Run, attempt: int | None = None) -> list[tuple[str, str]]:
    """Every grader's reasoning of a run, each with the reference of what it judged: the
    run's own (``[(RUN, text)]``), else each trial's (``[(RUN/trial-1, text), ...]``: a
    trials record's grader judges each trial); of trial ``attempt`` only, when given."""
    if attempt is not None:
        trial = run.attempt(attempt)
        why = grader_reasoning(trial.fields) if trial is not None else None
        return [(trial.ref, why)] if trial is not None and why is not None else []
    own = grader_reasoning(run.fields)
    if own is not None:
        return [(run.summary.ref, own)]
    out = []
    for trial in run.attempts:
        why = grader_reasoning(trial.fields)
        if why is not None:
            out.append((trial.ref, why))
    return out


def leaves(value: Any, depth: int = 0) -> Iterator[str]:
    """The texts of a value as in the file: a string itself; an object's keys and values and
    an array's items, leaf by leaf; numbers and booleans as JSON writes them."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, bool):
        yield "true" if value else "false"
    elif isinstance(value, int | float):
        yield str(value)
    elif depth > 200:
        return
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from leaves(v, depth + 1)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from leaves(item, depth + 1)


def _field_texts(ref: str, fields: tuple[Field, ...]) -> Iterator[FieldText]:
    for f in fields:
        kind = kind_of_label(f.label)
        value = f.value
        if kind == "field" and isinstance(value, dict):
            # a grader's reasoning inside its score object (an acp-harness capture's) is
            # the grader's reasoning, found as such (--in reasoning, reasoning:)
            why = {
                k: v
                for k, v in value.items()
                if isinstance(v, str) and kind_of_label(str(k)) == "reasoning"
            }
            for k, v in why.items():
                yield FieldText(ref, str(k), "reasoning", v)
            if why:
                value = {k: v for k, v in value.items() if k not in why}
        for text in leaves(value):
            yield FieldText(ref, f.label, kind, text)


def step_texts(step: Step, skip: frozenset[str] = frozenset()) -> Iterator[FieldText]:
    """The texts of one step (``skip``: step attributes a format's own texts cover)."""
    ref = step.ref
    tool = step.kind is Kind.TOOL_CALL
    if step.text is not None:
        if step.kind is Kind.THOUGHT:
            yield FieldText(ref, "thought", "thought", step.text)
        elif step.kind is Kind.MESSAGE:
            yield FieldText(ref, "message", "message", step.text)
        elif step.kind is Kind.MODEL_CALL:
            yield FieldText(ref, "answer", "output", step.text)
        else:
            yield FieldText(ref, "text", "text", step.text)
    elif tool and step.input is None and step.output is None and step.title:
        yield FieldText(ref, "title", "tool", step.title)  # all a capture's tool call has
    if step.input is not None and "input" not in skip:
        name, kind = ("tool input", "tool") if tool else ("input", "input")
        for text in leaves(step.input):
            yield FieldText(ref, name, kind, text)
    if step.output is not None and "output" not in skip:
        name, kind = ("tool output", "tool") if tool else ("output", "output")
        for text in leaves(step.output):
            yield FieldText(ref, name, kind, text)
    if step.error is not None:
        yield FieldText(ref, "error", "error", step.error)
    yield from _field_texts(ref, step.fields)


def run_texts(run: Run) -> Iterator[FieldText]:
    """Every text of ``run``, in the order the screen shows them: the run's fields, each
    trial's fields and steps, the steps, then what the format keeps beyond them."""
    yield from _field_texts(run.ref, run.fields)
    own = getattr(run.detail, "search_texts", None)
    skip: frozenset[str] = getattr(run.detail, "search_skips", frozenset())
    for attempt in run.attempts:
        yield from _field_texts(attempt.ref, attempt.fields)
        for step in attempt.steps:
            yield from step_texts(step, skip)
    for step in run.steps:
        yield from step_texts(step, skip)
    if callable(own):
        for ref, name, kind, text in own(run):
            yield FieldText(ref, name, kind, text)
