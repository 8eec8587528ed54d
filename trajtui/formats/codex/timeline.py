"""Steps of consecutive rollout lines, each call with its answer found by ``call_id``.

:func:`answers_of` reads what answered the calls of some lines (their output items, and a
0.171 ``item_completed`` saying a command failed); :func:`steps_of` turns lines into steps
with them. A source reading a window of a big file passes the answers found in the window
and a little beyond it; a small document (a TypeScript-era ``.json`` rollout) passes all.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from trajtui.core.model import Step
from trajtui.core.values import string
from trajtui.formats.codex import items
from trajtui.formats.codex.lines import EVENT_MSG, RESPONSE_ITEM, Line
from trajtui.formats.codex.steps import Answer, build_step, is_prompt, makes_step


def answers_of(lines: Iterable[Line]) -> dict[str, Answer]:
    """What answered each call of ``lines``, by call id."""
    out: dict[str, Answer] = {}
    failed: set[str] = set()
    for line in lines:
        if line.tag == EVENT_MSG:
            call_id = items.failed_call(line.kind, line.payload)
            if call_id is not None:
                failed.add(call_id)
        elif line.tag == RESPONSE_ITEM and line.kind in items.OUTPUT_TYPES:
            call_id = string(line.payload.get("call_id"))
            if call_id is not None and call_id not in out:
                out[call_id] = Answer(items.output_value(line.payload), line.time)
    for call_id in failed & out.keys():
        a = out[call_id]
        out[call_id] = Answer(a.output, a.time, failed=True)
    return out


def steps_of(
    lines: Iterable[tuple[Line, Any]],
    run_ref: str,
    *,
    start: float | None,
    answers: Mapping[str, Answer],
    number: int = 1,
    turn: int = 0,
) -> list[Step]:
    """The steps of ``lines`` (each normalised, with its raw value), numbered from
    ``number``; ``turn``: the turns started before the first line."""
    out: list[Step] = []
    for line, raw in lines:
        if not makes_step(line):
            continue
        if is_prompt(line):
            turn += 1
        call_id = string(line.payload.get("call_id")) if line.tag == RESPONSE_ITEM else None
        out.append(
            build_step(
                line,
                raw,
                ref=f"{run_ref}/step-{number}",
                number=number,
                start=start,
                answer=answers.get(call_id) if call_id is not None else None,
                turn=turn if is_prompt(line) else None,
            )
        )
        number += 1
    return out
