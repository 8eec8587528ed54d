"""A JSONL rollout read through the core's session engine
(:mod:`trajtui.core.jsonl.session`): the fold reads every line once in the background and
notes one row per step (the line it is, the turn a prompt starts or whether a command was
said failed, and the line of a call's output); steps are built from those rows on demand.

What is kept per step is three numbers; per line nothing else but the counters of
:class:`~trajtui.formats.codex.fold.Fold` and the calls not answered yet.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from trajtui.core.io.jsonutil import JsonError, loads
from trajtui.core.jsonl.session import Line as RawLine
from trajtui.core.jsonl.session import SessionState, StepRow
from trajtui.core.model import Field, Run, RunSummary, Severity, Step
from trajtui.core.source import FormatInfo
from trajtui.core.values import string
from trajtui.formats.codex import items
from trajtui.formats.codex.detail import detail_from, fields_from, summary_of
from trajtui.formats.codex.fold import Fold, thread_id_of_name
from trajtui.formats.codex.lines import EVENT_MSG, RESPONSE_ITEM, SESSION_META, normalise
from trajtui.formats.codex.steps import Answer, build_step, inherited_step, is_prompt, makes_step

PARENT_FIELD = "forked from (in this folder)"
FAILED = 1
"""A call's row part: an event said it failed (:func:`.items.failed_call`)."""


class RolloutFold:
    """The session engine's fold of one rollout (see the module)."""

    def __init__(self, path: str, format_id: str) -> None:
        self.fold = Fold(thread_id_of_name(path))
        self.format_id = format_id
        self.open: dict[str, int] = {}  # call id -> its step's position, until answered
        self.first_kept = False
        self.block = -1  # the step of a fork's copied history

    def add(self, raw_line: RawLine, state: SessionState) -> None:
        try:
            obj, warning = loads(raw_line.data)
        except JsonError as err:
            state.problem(raw_line.number, str(err))
            return
        if warning is not None:
            state.problem(raw_line.number, warning, Severity.WARNING)
        if not isinstance(obj, dict):
            state.problem(raw_line.number, f"a {type(obj).__name__}, not a JSON object: skipped")
            return
        line = normalise(obj)
        fold = self.fold
        turns = fold.turns
        was_inheriting = fold.inheriting
        fold.feed(line)
        kept: int | None = None
        if not self.first_kept:  # the first line: its time is the run's start
            self.first_kept = True
            kept = state.keep(raw_line)
        if fold.inheriting:  # a fork's copied history: one step, its lines counted in it
            if not was_inheriting:
                self.block = state.step(state.keep(raw_line), -1)
            else:
                state.set_part(self.block, -fold.inherited_lines)
            return
        if makes_step(line):
            if kept is None:
                kept = state.keep(raw_line)
            part = fold.turns if is_prompt(line) and fold.turns != turns else 0
            position = state.step(kept, part)
            call_id = string(line.payload.get("call_id"))
            if line.tag == RESPONSE_ITEM and line.kind in items.CALL_TYPES and call_id:
                self.open[call_id] = position
        elif line.tag == RESPONSE_ITEM and line.kind in items.OUTPUT_TYPES:
            position_of = self.open.pop(string(line.payload.get("call_id")) or "", None)
            if position_of is not None:
                state.link(position_of, state.keep(raw_line))
        elif line.tag == EVENT_MSG:
            at = self.open.get(items.failed_call(line.kind, line.payload) or "")
            if at is not None:
                state.set_part(at, FAILED)

    def summary(self, ref: str, partial: bool) -> RunSummary:
        return summary_of(self.fold.facts(), ref, 0, self.format_id, partial=partial)


@dataclass(frozen=True, slots=True)
class Parent:
    """The rollout a fork (or a sub-agent's thread) came from, opened in the same folder.

    Attributes:
        thread: Its thread id (its run's reference).
        label: Its path, as the folder's listing names it.
    """

    thread: str
    label: str


class RolloutFormat:
    """How the session engine reads a JSONL rollout (``parent``: the rollout it was forked
    from, when it is in the folder opened)."""

    def __init__(self, info: FormatInfo, parent: Parent | None = None) -> None:
        self.info = info
        self.parent = parent

    def fold(self, path: str) -> RolloutFold:
        return RolloutFold(path, self.info.id)

    def steps(self, ref: str, rows: Sequence[StepRow], read: Callable[[int], Any]) -> list[Step]:
        start = normalise(read(0)).time
        out: list[Step] = []
        for row in rows:
            raw = read(row.line)
            line = normalise(raw)
            answer = None
            if row.link >= 0:
                answered = normalise(read(row.link))
                output = items.output_value(answered.payload)
                answer = Answer(output, answered.time, failed=row.part == FAILED)
            if line.tag == SESSION_META and row.part < 0:
                out.append(inherited_step(line, raw, ref, row.position + 1, -row.part))
                continue
            prompt = is_prompt(line)
            step = build_step(
                line,
                raw,
                ref=f"{ref}/step-{row.position + 1}",
                number=row.position + 1,
                start=start,
                answer=answer,
                turn=row.part if prompt else None,
            )
            out.append(step)
        return out

    def build(self, summary: RunSummary, steps: Sequence[Step], path: str) -> Run:
        parent = self.parent
        fields = fields_from(summary)
        if parent is not None:
            fields = (Field(PARENT_FIELD, f"{parent.thread} ({parent.label})"), *fields)
        return Run(
            summary=summary,
            steps=steps,
            fields=fields,
            detail=detail_from(summary, None if parent is None else parent.label),
            path=path,
            metadata=summary.metadata,
            run_tokens_in=summary.tokens_in,
            run_tokens_out=summary.tokens_out,
        )
