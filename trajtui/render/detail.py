"""The detail pane's renderables: a run, a trial, a step, a message or source, a problem.

Shared shapes for the TUI's detail and preview panes (``show`` has its own, in
:mod:`trajtui.render.show`, which these build on). ``raw`` shows the object as it is in
the file; ``lines`` is how many lines a long value keeps before it is folded.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from trajtui.core.io import remote
from trajtui.core.io.text import visible
from trajtui.core.model import Attempt, Problem, Run, Severity, Step
from trajtui.core.source import Source
from trajtui.render import fmt, show
from trajtui.render.view import View


def titled(ref: str, body: RenderableType, raw: bool, raw_value: Any, lines: int) -> RenderableType:
    head = Text(visible(ref, keep_newlines=False), style="bold reverse")
    if raw:
        return Group(
            head, Text("as in the file", style="dim"), show.json_block(raw_value, max_lines=lines)
        )
    return Group(head, Text(), body)


def run_detail(run: Run, view: View, ref: str, raw: bool, lines: int) -> RenderableType:
    """A run: its facts, what its format's ``view`` adds (header line, block), its fields
    and problems; ``raw``: as in the file."""
    head = Text(visible(ref, keep_newlines=False), style="bold reverse")
    if raw:
        return Group(
            head,
            Text("as in the file (trajectory folded into the timeline)", style="dim"),
            show.json_block(run.raw, max_lines=lines),
        )
    parts: list[RenderableType] = [head, show.facts_line(show.summary_facts(run.summary))]
    line = view.headline(run)
    if line:
        parts.append(Text(line))
    extra = view.run_block(run)
    if extra is not None:
        parts.extend([Text(), extra])
    parts.append(Text())
    parts.extend(show.render_fields(run.fields, max_lines=lines))
    for problem in run.problems:
        parts.append(Text(f"{fmt.PROBLEM_GLYPH} {visible(str(problem))}", style="yellow"))
    return Group(*parts)


def attempt_detail(attempt: Attempt, ref: str, raw: bool, lines: int) -> RenderableType:
    head = Text(visible(ref, keep_newlines=False), style="bold reverse")
    if raw:
        return Group(head, show.json_block(attempt.raw, max_lines=lines))
    facts = show.attempt_facts(attempt)
    return Group(
        head, show.facts_line(facts), Text(), *show.render_fields(attempt.fields, max_lines=lines)
    )


def step_head(step: Step, ref: str) -> Text:
    """A step's title line: its reference, kind glyph and title."""
    return Text.assemble(
        (visible(ref, keep_newlines=False), "bold reverse"),
        "  ",
        fmt.KIND_GLYPH[step.kind] + " ",
        visible(step.title, keep_newlines=False),
    )


def step_detail(
    run: Run,
    view: View,
    steps: Sequence[Step],
    first: int,
    last: int,
    ref_of: Callable[[str], str],
    raw: bool,
    lines: int | None,
    *,
    cli: bool = False,
) -> RenderableType:
    """Steps ``first`` to ``last`` of ``steps`` (several: merged streamed chunks): the
    heading, then what the run's ``view`` shows of the step (:meth:`View.step_body`) or the
    common sections; ``raw``: the step as in the file. ``cli``: for ``trajtui show``."""
    step = steps[first]
    if first != last:
        chunk = steps[first : last + 1]
        head = Text(
            f"{visible(ref_of(step.ref), keep_newlines=False)} … {steps[last].number}",
            style="bold reverse",
        )
        text = "".join(s.text or "" for s in chunk)
        info = Text(
            f"{len(chunk)} streamed {step.kind.value} chunks merged (m shows each)", style="dim"
        )
        if raw:
            return Group(
                head,
                Text(f"the {len(chunk)} chunks as in the file", style="dim"),
                show.json_block([s.raw for s in chunk], max_lines=lines),
            )
        return Group(head, info, Text(), show.prose(text, markdown=step.markdown, max_lines=lines))
    head = step_head(step, ref_of(step.ref))
    if raw:
        return Group(
            head, Text("as in the file", style="dim"), show.json_block(step.raw, max_lines=lines)
        )
    parts: list[RenderableType] = [head, show.facts_line(show.step_heading(step)), Text()]
    body = view.step_body(run, step, max_lines=lines, cli=cli)
    if body is not None:
        return Group(*parts, *body)
    parts.extend(show.step_sections(step, steps, max_lines=lines))
    return Group(*parts)


def _problem_note(problem: Problem) -> str:
    if problem.severity is Severity.WARNING:
        return "A warning: nothing was lost reading it; everything else shows."
    return "What it names could not be read; everything else still shows."


def problem_detail(problem: Problem) -> RenderableType:
    return Group(
        Text(f"{fmt.PROBLEM_GLYPH} {problem.severity.value}", style="bold red"),
        Text(visible(str(problem))),
        Text(),
        Text(_problem_note(problem), style="dim"),
    )


def source_info(source: Source, counts: str) -> RenderableType:
    return Group(
        Text(visible(remote.shown(source.path), keep_newlines=False), style="bold reverse"),
        Text(f"{source.format.name} · {counts}"),
    )


PASSED_OVER_SHOWN = 500
"""Lines of files passed over the detail of a directory's problem lists (the rest counted)."""


def open_problem(problem: Problem, passed_over: list[tuple[str, str]]) -> RenderableType:
    """A problem of an opened path (a directory holding nothing trajtui reads): its line,
    then each file looked at under it and not read, with why (what ``ls --verbose`` says)."""
    parts: list[RenderableType] = [Text(visible(str(problem)))]
    if passed_over:
        n = len(passed_over)
        parts += [Text(), Text(f"not read ({n:,}), and why:", style="bold")]
        for path, why in passed_over[:PASSED_OVER_SHOWN]:
            name = os.path.relpath(path, problem.path)  # below the directory of the problem
            parts.append(Text(visible(f"{name}: {why}", keep_newlines=False)))
        if n > PASSED_OVER_SHOWN:
            parts.append(Text(f"… {n - PASSED_OVER_SHOWN:,} more", style="dim"))
    return Group(*parts)
