"""The detail pane's renderables: a run, a trial, a step, a message or source, a problem.

Shared shapes for the TUI's detail and preview panes (``show`` has its own, in
:mod:`trajtui.render.show`, which these build on). ``raw`` shows the object as it is in
the file; ``lines`` is how many lines a long value keeps before it is folded.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from trajtui.core.model import Attempt, Problem, Run, Severity, Step
from trajtui.core.source import Source
from trajtui.core.text import visible
from trajtui.render import fmt, show, views


def titled(ref: str, body: RenderableType, raw: bool, raw_value: Any, lines: int) -> RenderableType:
    head = Text(visible(ref, keep_newlines=False), style="bold reverse")
    if raw:
        return Group(
            head, Text("as in the file", style="dim"), show.json_block(raw_value, max_lines=lines)
        )
    return Group(head, Text(), body)


def run_detail(run: Run, ref: str, raw: bool, lines: int) -> RenderableType:
    head = Text(visible(ref, keep_newlines=False), style="bold reverse")
    if raw:
        return Group(
            head,
            Text("as in the file (trajectory folded into the timeline)", style="dim"),
            show.json_block(run.raw, max_lines=lines),
        )
    parts: list[RenderableType] = [head, show.facts_line(show.summary_facts(run.summary))]
    line = views.headline(run)
    if line:
        parts.append(Text(line))
    extra = views.detail(run)
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


def step_detail(
    run: Run,
    steps: tuple[Step, ...],
    first: int,
    last: int,
    ref_of: Callable[[str], str],
    raw: bool,
    lines: int | None,
    messages_hint: str = "each message whole: the Messages tab",
) -> RenderableType:
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
    head = Text.assemble(
        (visible(ref_of(step.ref), keep_newlines=False), "bold reverse"),
        "  ",
        fmt.KIND_GLYPH[step.kind] + " ",
        visible(step.title, keep_newlines=False),
    )
    if raw:
        return Group(
            head, Text("as in the file", style="dim"), show.json_block(step.raw, max_lines=lines)
        )
    parts: list[RenderableType] = [head, show.facts_line(show.step_heading(step)), Text()]
    if run.pool is not None and (step.input_keys or step.output_key):
        # A model call of a forecast run: the keys of what it saw (and what changed since
        # the step before), then the message it produced; each message whole is in the
        # Messages tab.
        from trajtui.render import forecast

        seen = context_keys(run, step.number, messages_hint)
        if seen is not None:
            parts.extend([seen, Text()])
        if step.output_key:
            parts.extend([forecast.render_message(run, step.output_key, max_lines=lines), Text()])
        parts.extend(show.render_fields(step.fields, max_lines=lines))
        return Group(*parts)
    parts.extend(show.step_sections(step, steps, max_lines=lines))
    return Group(*parts)


def _keys_line(label: str, keys: tuple[str, ...], style: str = "") -> Text:
    line = Text.assemble((f"{label}  ", "dim"))
    if not keys:
        line.append("none", style="dim")
    for n, key in enumerate(keys):
        line.append((" " if n else "") + visible(key, keep_newlines=False), style=style)
    return line


def context_keys(run: Run, number: int, hint: str = "") -> RenderableType | None:
    """The keys of the messages the model saw at step ``number`` of a forecast run, in
    order, then those added and dropped since the step before, then ``hint`` (where each
    message is shown whole); None without a pool."""
    from trajtui.core.formats.forecast.steps import step_context

    context = step_context(run, number)
    if context is None:
        return None
    n = len(context.keys)
    lines = [_keys_line(f"saw {n} message{'s' if n != 1 else ''}", context.keys, "bold")]
    if number == 1:
        lines.append(Text("(its first call: every message is new)", style="dim"))
    else:
        lines.append(_keys_line(f"  added since step {number - 1}", context.added, "green"))
        lines.append(_keys_line(f"  dropped since step {number - 1}", context.dropped, "red"))
    if hint:
        lines.append(Text(hint, style="dim"))
    return Group(*lines)


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
        Text(visible(source.path, keep_newlines=False), style="bold reverse"),
        Text(f"{source.format.name} · {counts}"),
    )
