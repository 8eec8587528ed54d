"""What a detail pane shows (its subject), and that subject as plain text.

A subject names one object of the run on screen: the run itself, a trial, a step (or a group
of merged streamed chunks), or what a reference segment of its format names
(``RUN/WORD:KEY``: a forecast run's message or web source), read through the run's view.
Subjects are small frozen values: two equal subjects show the same thing, so a pane that is
asked to show the subject it already shows keeps its scroll position.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from trajtui.core.io.jsonutil import dumps_pretty
from trajtui.core.model import Run
from trajtui.formats.registry import run_view


@dataclass(frozen=True, slots=True)
class NoSubject:
    """Nothing is shown yet (no run read)."""


@dataclass(frozen=True, slots=True)
class RunSubject:
    """The run as a whole."""


@dataclass(frozen=True, slots=True)
class TrialSubject:
    """One trial (attempt) of a run.

    Attributes:
        number: The trial's number (``trial-N``).
    """

    number: int


@dataclass(frozen=True, slots=True)
class StepSubject:
    """A step, or a group of merged streamed chunks.

    Attributes:
        trial: The trial the step belongs to (None for a run without trials).
        first: Index of the first step in its timeline.
        last: Index of the last step (``first`` unless chunks are merged).
    """

    trial: int | None
    first: int
    last: int


@dataclass(frozen=True, slots=True)
class SegmentSubject:
    """What a reference segment of the run's format names (``RUN/WORD:KEY``), as its view
    shows it (a forecast run's ``msg:A3`` message, ``src:S3`` web source).

    Attributes:
        word: The segment's word (``msg``).
        key: Its key (``A3``).
    """

    word: str
    key: str


Subject = NoSubject | RunSubject | TrialSubject | StepSubject | SegmentSubject
"""What a detail pane shows."""


def label(subject: Subject, run: Run | None = None) -> str:
    """The subject in a breadcrumb: ``step 5``, ``trial 2``, ``WORD:KEY``. A
    step is named by its number (``step-N`` in its reference), which some formats take from
    the file (ATIF's ``step_id``) rather than from its position."""
    match subject:
        case StepSubject(trial=trial, first=first):
            steps = run.timeline(trial) if run is not None else ()
            return f"step {steps[first].number if first < len(steps) else first + 1}"
        case TrialSubject(number=number):
            return f"trial {number}"
        case SegmentSubject(word=word, key=key):
            return f"{word}:{key}"
    return "detail"


def whole_text(run: Run, steps: Sequence[Any], subject: Subject) -> str:
    """Everything the file holds for ``subject`` (what a detail search looks through when
    nothing shown matches): the object as JSON, or a merged chunk group's text."""
    match subject:
        case StepSubject(first=first, last=last):
            if first != last:
                return "".join(s.text or "" for s in steps[first : last + 1])
            return dumps_pretty(steps[first].raw)
        case TrialSubject(number=number):
            attempt = run.attempt(number)
            return dumps_pretty(attempt.raw if attempt is not None else None)
        case SegmentSubject(word=word, key=key):
            return dumps_pretty(run_view(run).segment_object(run, word, key))
    return dumps_pretty(run.raw)


def subject_object(run: Run, steps: Sequence[Any], subject: Subject, raw: bool) -> tuple[str, str]:
    """``(reference, text)`` of ``subject`` (what ``y`` copies and ``e`` pages): its text,
    or the object as in the file (``raw``, or when it has no text). ``steps`` is the
    timeline a step subject belongs to."""
    match subject:
        case StepSubject(first=first, last=last):
            if first != last:
                chunk = steps[first : last + 1]
                if raw:
                    return steps[first].ref, dumps_pretty([s.raw for s in chunk])
                return steps[first].ref, "".join(s.text or "" for s in chunk)
            step = steps[first]
            return step.ref, _object_text(step.text, step.raw, raw)
        case TrialSubject(number=number):
            attempt = run.attempt(number)
            if attempt is not None:
                return attempt.ref, dumps_pretty(attempt.raw)
        case SegmentSubject(word=word, key=key):
            view = run_view(run)
            text = view.segment_text(run, word, key)
            return f"{run.ref}/{word}:{key}", _object_text(
                text, view.segment_object(run, word, key), raw
            )
    return run.ref, dumps_pretty(run.raw)


def _object_text(text: str | None, raw: Any, raw_mode: bool) -> str:
    if text and not raw_mode:
        return text
    return dumps_pretty(raw)
