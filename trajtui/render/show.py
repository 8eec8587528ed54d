"""Rich renderables for one run, trial or step: used by ``trajtui show`` and the TUI.

Every string from a file goes through :func:`~trajtui.core.io.text.visible` and into a
``Text`` (or Markdown with hyperlinks off and nothing of it hidden, or ``Syntax`` of JSON we
encoded ourselves): never into markup, so ``[bold]`` and ``[@click=app.quit]`` stay text and escape sequences
are drawn as symbols.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.padding import Padding
from rich.segment import Segment
from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text

from trajtui.core.io.jsonutil import clip_value, dumps_line, dumps_pretty
from trajtui.core.io.text import one_line, visible
from trajtui.core.model import Attempt, Field, Kind, Outcome, Run, RunSummary, Step
from trajtui.core.steps import never_completed, pair_latency
from trajtui.render import fmt
from trajtui.render.facts import Facts, fact
from trajtui.render.fmt import (  # the run list's cells, here too for the renderers' use
    score_text,
    tool_calls_text,
)
from trajtui.render.safe import LiteralMarkdown
from trajtui.render.view import View

OUTCOME_STYLE: dict[Outcome, str] = {
    Outcome.PASS: "green",
    Outcome.FAIL: "red",
    Outcome.PARTIAL: "yellow",
    Outcome.ERROR: "bold red",
    Outcome.TIMEOUT: "magenta",
    Outcome.RUNNING: "cyan",
    Outcome.SKIPPED: "dim",
    Outcome.DONE: "",
    Outcome.NONE: "dim",
}

LABEL_STYLE = "bold"
NO_COMPLETION = "no completion"
"""Said of a tool call opened (pending, in_progress) that no later step completes."""
DIM = "dim"


def _safe(text: str) -> str:
    """A string from a file (a reference, a status word) made safe for one line."""
    return visible(text, keep_newlines=False)


def status_text(word: str | None, outcome: Outcome) -> Text:
    """``✓ pass`` in the outcome's colour (the glyph and word carry it without colour)."""
    return Text(
        fmt.status(visible(word, keep_newlines=False) if word else None, outcome),
        style=OUTCOME_STYLE[outcome],
    )


def duration_fact(summary: RunSummary) -> tuple[str, str]:
    """``("duration", "3m 02s")``, the label saying what the duration is when it is not
    the run's own (``duration (sum of 5 trials)``)."""
    label = f"duration ({summary.duration_label})" if summary.duration_label else "duration"
    return label, fmt.duration(summary.duration_ms)


def value_text(value: Any) -> str:
    """A one-line rendering of a scalar or small value."""
    if isinstance(value, str):
        return visible(value, keep_newlines=False)
    if isinstance(value, bool) or value is None:
        return "null" if value is None else str(value).lower()
    if isinstance(value, (int, float)):
        return repr(value)  # as the file has it (no separators, no rounding)
    clipped, _ = clip_value(value, max_items=8, max_chars=160)
    return one_line(dumps_line(clipped), limit=160)


def _is_short(value: Any) -> bool:
    if isinstance(value, str):
        return "\n" not in value and len(value) <= 100
    if isinstance(value, (list, dict)):
        return not value
    return True


FOLD_NOTE = "… folded: o shows it all, e opens it in $PAGER"
FOLD_MARK = "folded: o shows"
"""In every fold note (the detail pane looks for it to know a value is folded)."""
LONG_LINE = 1000
"""Lines longer than this are broken before layout (wrapping one huge line costs a
layout engine time that grows faster than its length)."""


BIG_TEXT = 200_000
"""Text longer than this is laid out as plain lines (no Markdown, no highlighting):
Rich's layout of megabytes of text takes minutes."""

MAX_SHOWN = 1_000_000
"""Characters of one value shown when nothing asks to fold it (``show``, ``o``): more is
folded with a note naming the value, so a 500 MB string costs what 1 MB does. ``show
--json`` still prints it all."""


def _too_big(name: str | None, size: int | None) -> str:
    what = name or "value"
    if size is None:
        return (
            f"… {what}: folded after {MAX_SHOWN:,} characters (trajtui show --json prints it all)"
        )
    return (
        f"… {what}: {size:,} characters, the first {MAX_SHOWN:,} shown, the rest folded"
        " (trajtui show --json prints it all)"
    )


class PlainLines:
    """Text laid out line by line at the console's width, in time linear in its size."""

    def __init__(self, text: str, style: str = "") -> None:
        self.text = text
        self.style = style

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = max(1, options.max_width)
        style = console.get_style(self.style) if self.style else None
        for line in self.text.split("\n"):
            if not line:
                yield Segment.line()
                continue
            for k in range(0, len(line), width):
                yield Segment(line[k : k + width], style)
                yield Segment.line()


def hard_wrap(text: str, width: int = LONG_LINE) -> str:
    """``text`` with every line longer than ``width`` cut into pieces of ``width``."""
    if len(text) <= width or all(len(line) <= width for line in text.split("\n")):
        return text
    out: list[str] = []
    for line in text.split("\n"):
        if len(line) <= width:
            out.append(line)
        else:
            out.extend(line[k : k + width] for k in range(0, len(line), width))
    return "\n".join(out)


def json_block(
    value: Any, *, max_lines: int | None = None, name: str | None = None
) -> RenderableType:
    """Pretty, highlighted JSON of ``value`` (cut to ``max_lines`` with a note; without
    ``max_lines``, folded after :data:`MAX_SHOWN` characters with a note naming it)."""
    note = None
    if max_lines is not None:
        value, clipped = clip_value(value, max_items=max_lines * 2, max_chars=max_lines * 400)
        if clipped:
            note = FOLD_NOTE
    else:
        value, clipped = clip_value(
            value, max_items=MAX_SHOWN, max_chars=MAX_SHOWN, budget=MAX_SHOWN
        )
        if clipped:
            note = _too_big(name, None)
    text = hard_wrap(visible(dumps_pretty(value)))
    if max_lines is not None:
        lines = text.split("\n")
        if len(lines) > max_lines:
            note = f"… {len(lines) - max_lines:,} more lines folded: o shows them, e opens $PAGER"
            text = "\n".join(lines[:max_lines])
    syntax: RenderableType
    if len(text) > BIG_TEXT:
        syntax = PlainLines(text)
    else:
        syntax = Syntax(text, "json", theme="ansi_dark", word_wrap=True, background_color="default")
    if note:
        return Group(syntax, Text(note, style=DIM))
    return syntax


def prose(
    text: str, *, markdown: bool, max_lines: int | None = None, name: str | None = None
) -> RenderableType:
    """Text from a file: Markdown (hyperlinks off) or plain, control characters shown
    (without ``max_lines``, folded after :data:`MAX_SHOWN` characters with a note naming
    it as ``name``)."""
    note = None
    cut = max_lines is not None and len(text) > max_lines * 400
    if cut:
        text = text[: max_lines * 400]  # type: ignore[operator]
        note = FOLD_NOTE
    elif max_lines is None and len(text) > MAX_SHOWN:
        note = _too_big(name, len(text))
        text = text[:MAX_SHOWN]
    safe = hard_wrap(visible(text))
    if max_lines is not None:
        lines = safe.split("\n")
        if len(lines) > max_lines:
            more = (
                FOLD_NOTE
                if cut
                else f"… {len(lines) - max_lines:,} more lines folded: o shows them, e opens $PAGER"
            )
            note = more
            safe = "\n".join(lines[:max_lines])
    body: RenderableType
    if len(safe) > BIG_TEXT:
        body = PlainLines(safe)
    elif markdown:
        body = LiteralMarkdown(safe, hyperlinks=False, code_theme="ansi_dark")
    else:
        body = Text(safe)
    if note:
        return Group(body, Text(note, style=DIM))
    return body


def field_block(field: Field, *, max_lines: int | None = None) -> RenderableType:
    """A labelled value: one line when short, a labelled block otherwise."""
    label = Text(visible(field.label, keep_newlines=False), style=LABEL_STYLE)
    value = field.value
    if _is_short(value):
        return Text.assemble(label, "  ", value_text(value) if value != "" else Text('""', DIM))
    if isinstance(value, str):
        body = prose(value, markdown=field.markdown, max_lines=max_lines, name=field.label)
    elif (
        isinstance(value, list)
        and all(isinstance(v, str) for v in value)
        and sum(len(v) for v in value) <= MAX_SHOWN
    ):
        body = Group(*(Text.assemble((f"[{i}] ", DIM), visible(v)) for i, v in enumerate(value, 1)))
    else:
        body = json_block(value, max_lines=max_lines, name=field.label)
    return Group(label, Padding(body, (0, 0, 0, 2)))


def facts_line(pairs: Iterable[tuple[str, str]], *extra: Text) -> Facts:
    """``label value · label value``, broken between facts, never inside one (``extra``:
    facts already made, such as a format's headline)."""
    return Facts([*(fact(_safe(label), _safe(value)) for label, value in pairs), *extra])


def summary_facts(summary: RunSummary) -> list[tuple[str, str]]:
    """The facts of a run summary that the file has."""
    facts: list[tuple[str, str]] = [("status", fmt.status(summary.status, summary.outcome))]
    if summary.steps is not None:
        facts.append(("steps", fmt.count(summary.steps)))
    if summary.attempts is not None:
        facts.append(("trials", fmt.count(summary.attempts)))
    if summary.score is not None or summary.score_label:
        facts.append((summary.score_label or "score", score_text(summary)))
    passes = fmt.passes_text(summary)
    if passes is not None:
        facts.append(("passes", passes))
    if summary.tool_calls is not None:
        facts.append(("tool calls", tool_calls_text(summary)))
    if summary.failed_tool_calls is not None:
        facts.append(("tool errors", fmt.count(summary.failed_tool_calls)))
    if summary.tool_errors is True:  # the file's own flag, under its name
        facts.append(("toolErrors", "true"))
    if summary.duration_ms is not None:
        facts.append(duration_fact(summary))
    if summary.cost is not None:
        facts.append(("cost", fmt.cost(summary.cost)))
    if summary.line is not None:
        facts.append(("line", fmt.count(summary.line)))
    return facts


def step_preview(step: Step) -> str:
    """What follows a step's title in a timeline line (tool input, for tool calls)."""
    if step.kind is Kind.TOOL_CALL and step.input is not None:
        value = step.input
        return value_text(value) if not isinstance(value, str) else one_line(value)
    return ""


def pair_text(step: Step, steps: Sequence[Step]) -> str:
    """``completed by 3 after 2.1s`` / ``completes 2 after 2.1s``: a tool call's other half
    and the time between the two (from their offsets, when the file has them)."""
    verb = "completed by" if step.outcome is Outcome.RUNNING else "completes"
    latency = pair_latency(step, steps)
    after = f" after {fmt.duration(latency)}" if latency is not None else ""
    return f"{verb} {step.pair}{after}"


def timeline_line(step: Step, steps: Sequence[Step] = ()) -> Text:
    """One line of a timeline, for ``show`` of a run."""
    line = Text()
    line.append(f"{step.number:>4} ", style=DIM)
    line.append(fmt.KIND_GLYPH[step.kind] + " ")
    line.append(f"{fmt.KIND_LABEL[step.kind]:<8}", style=DIM)
    line.append(visible(step.title, keep_newlines=False))
    preview = step_preview(step)
    if preview:
        line.append("  " + preview, style=DIM)
    if step.pair is not None:
        line.append(f"  ({pair_text(step, steps)})", style=DIM)
    if step.status:
        line.append(
            "  " + _safe(fmt.status(step.status, step.outcome)), style=OUTCOME_STYLE[step.outcome]
        )
    if never_completed(step):
        line.append(f"  {NO_COMPLETION}", style="yellow")
    if step.offset_ms is not None:
        line.append("  " + fmt.offset(step.offset_ms), style=DIM)
    if step.duration_ms is not None:
        line.append("  " + fmt.duration(step.duration_ms))
    return line


def steps_heading(steps: Sequence[Step]) -> Text:
    """``steps (11)  websearch-17-step-1 … websearch-17-step-11``: the count and the refs."""
    text = Text(f"steps ({len(steps)})", style=LABEL_STYLE)
    if steps:
        last = f" … {_safe(steps[-1].ref)}" if len(steps) > 1 else ""
        text.append(f"  {_safe(steps[0].ref)}{last}", style=DIM)
    return text


def render_fields(fields: Sequence[Field], *, max_lines: int | None = None) -> list[RenderableType]:
    """Every field, in order."""
    return [field_block(f, max_lines=max_lines) for f in fields]


def render_run(run: Run, ref: str, view: View) -> RenderableType:
    """A whole run: facts, what its format's ``view`` adds, fields, then its timeline (or
    its trials)."""
    parts: list[RenderableType] = [
        Text(_safe(ref), style="bold reverse"),
        facts_line(summary_facts(run.summary)),
    ]
    line = view.headline(run)
    if line:
        parts.append(Text(line))
    block = view.run_block(run)
    if block is not None:
        parts.extend([Text(), block])
    parts.extend([Text(), *render_fields(run.fields)])
    if run.attempts:
        parts.append(Text())
        parts.append(Text(f"trials ({len(run.attempts)})", style=LABEL_STYLE))
        table = Table.grid(padding=(0, 2))
        for a in run.attempts:
            table.add_row(
                Text(_safe(a.ref)),
                status_text(a.status, a.outcome),
                Text(fmt.number(a.score) if a.score is not None else fmt.ABSENT),
                Text(f"{len(a.steps)} steps"),
                Text(fmt.duration(a.duration_ms)),
            )
        parts.append(Padding(table, (0, 0, 0, 2)))
    if run.steps:
        parts.append(Text())
        parts.append(steps_heading(run.steps))
        parts.extend(timeline_line(s, run.steps) for s in run.steps)
    return Group(*parts)


def attempt_facts(attempt: Attempt) -> list[tuple[str, str]]:
    """The facts of a trial that the file has."""
    facts = [("status", fmt.status(attempt.status, attempt.outcome))]
    if attempt.score is not None:
        facts.append(("score", fmt.number(attempt.score)))
    facts.append(("steps", fmt.count(len(attempt.steps))))
    if attempt.duration_ms is not None:
        facts.append(("duration", fmt.duration(attempt.duration_ms)))
    return facts


def render_attempt(run: Run, attempt: Attempt, ref: str) -> RenderableType:
    """One trial: its facts, fields and timeline."""
    facts = attempt_facts(attempt)
    parts: list[RenderableType] = [
        Text(_safe(ref), style="bold reverse"),
        facts_line(facts),
        Text(),
        *render_fields(attempt.fields),
    ]
    if attempt.steps:
        parts.append(Text())
        parts.append(steps_heading(attempt.steps))
        parts.extend(timeline_line(s, attempt.steps) for s in attempt.steps)
    return Group(*parts)


def step_heading(step: Step) -> list[tuple[str, str]]:
    """Facts of a step for its header line."""
    facts = [("kind", fmt.KIND_LABEL[step.kind])]
    if step.status:
        facts.append(("status", fmt.status(step.status, step.outcome)))
    if step.offset_ms is not None:
        facts.append(("at", fmt.offset(step.offset_ms)))
    if step.duration_ms is not None:
        facts.append(("duration", fmt.duration(step.duration_ms)))
    if step.stored_id:
        facts.append(("stepId", visible(step.stored_id, keep_newlines=False)))
    return facts


def step_sections(
    step: Step, steps: Sequence[Step], *, max_lines: int | None = None
) -> list[RenderableType]:
    """The body of a step: its text, input, output, error, pairing and other fields."""
    parts: list[RenderableType] = []
    if step.pair is not None and 1 <= step.pair <= len(steps):
        other = steps[step.pair - 1]
        verb = "completes" if step.outcome is not Outcome.RUNNING else "completed by"
        latency = pair_latency(step, steps)
        parts.append(
            Text.assemble(
                (f"{verb} ", DIM),
                _safe(other.ref),
                (f"  ({_safe(other.title)}", DIM),
                (f", {_safe(other.status)})" if other.status else ")", DIM),
                (f"  {fmt.duration(latency)} between the two" if latency is not None else "", DIM),
            )
        )
    elif never_completed(step):
        parts.append(Text(f"{NO_COMPLETION}: no later step of the run completes it", "yellow"))
    if step.text is not None:
        parts.append(Text("text", style=LABEL_STYLE))
        if step.text:
            parts.append(
                Padding(
                    prose(step.text, markdown=step.markdown, max_lines=max_lines, name="text"),
                    (0, 0, 0, 2),
                )
            )
        else:
            parts.append(Padding(Text('"" (empty)', style=DIM), (0, 0, 0, 2)))
    for label, value in (("input", step.input), ("output", step.output)):
        if value is None:
            continue
        parts.append(Text(label, style=LABEL_STYLE))
        if isinstance(value, str):
            body = prose(value, markdown=False, max_lines=max_lines, name=label)
        else:
            body = json_block(value, max_lines=max_lines, name=label)
        parts.append(Padding(body, (0, 0, 0, 2)))
    if step.error:
        parts.append(Text("error", style="bold red"))
        parts.append(
            Padding(
                prose(step.error, markdown=False, max_lines=max_lines, name="error"), (0, 0, 0, 2)
            )
        )
    parts.extend(render_fields(step.fields, max_lines=max_lines))
    return parts


def render_step(step: Step, steps: Sequence[Step]) -> RenderableType:
    """One step whole, for ``show``."""
    title = Text.assemble(
        (_safe(step.ref), "bold reverse"),
        "  ",
        fmt.KIND_GLYPH[step.kind] + " ",
        _safe(step.title),
    )
    return Group(title, facts_line(step_heading(step)), Text(), *step_sections(step, steps))
