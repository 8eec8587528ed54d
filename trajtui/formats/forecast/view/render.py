"""Rich renderables for forecast runs: a message, a web source, the board, a step's context.

Used by ``trajtui show RUN/msg:KEY`` and ``RUN/src:SID`` (:func:`render_target`) and by the
TUI's detail and the previews of its Messages and Sources panes. The ``render_*`` functions
take a run and a key (and say so when the run lacks it); the ``*_view`` functions render one
object. As in :mod:`trajtui.render.show`, every string from a file goes through
:func:`~trajtui.core.io.text.visible` into ``Text`` objects (or ``Markdown``/``Syntax`` via
the shared helpers), never into markup.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.text import Text

from trajtui.core.io.text import visible
from trajtui.core.model import Field, Run, Step
from trajtui.core.source import Target
from trajtui.core.values import mapping, num, string
from trajtui.formats.forecast.board import BoardEntry, BoardSource, SourceBoard
from trajtui.formats.forecast.detail import MESSAGE, SOURCE, forecast_run, model_call
from trajtui.formats.forecast.pool import Message
from trajtui.formats.forecast.steps import (
    StepContext,
    arguments,
    caller,
    message_line,
    step_context,
    tool_results,
)
from trajtui.render import fmt
from trajtui.render.show import (
    DIM,
    LABEL_STYLE,
    facts_line,
    field_block,
    json_block,
    prose,
    render_fields,
)

ROLE_STYLE: dict[str, str] = {
    "system": "magenta",
    "user": "cyan",
    "assistant": "green",
    "tool": "yellow",
}
REACTION_STYLE: dict[str, str] = {
    "very_positive": "bold green",
    "positive": "green",
    "neutral": "",
    "negative": "red",
    "very_negative": "bold red",
}
ADDED_STYLE = "green"
DROPPED_STYLE = "red"
INDENT = (0, 0, 0, 2)
BOARD_SOURCE_KEYS = ("title", "url", "date", "snippet")


def _safe(text: str) -> str:
    return visible(text, keep_newlines=False)


def heading(ref: str) -> Text:
    """A reference as the title of what is shown."""
    return Text(_safe(ref), style="bold reverse")


def key_text(message: Message) -> Text:
    """``A3 assistant``: the role-prefixed key in the role's colour, then the role."""
    style = ROLE_STYLE.get(message.role, "")
    return Text.assemble(
        (_safe(message.key), f"bold {style}".strip()), " ", (_safe(message.role), DIM)
    )


def flags(message: Message) -> list[str]:
    """What the message is besides its role: board state, truncation notice, errors."""
    found = []
    if message.is_board_state:
        found.append("board state")
    if message.is_truncation_notice:
        found.append("context truncated")
    if message.is_format_error:
        found.append("FormatError")
    if message.role == "tool" and message.is_error:
        found.append("error")
    return found


def _extra_facts(message: Message) -> list[tuple[str, str]]:
    extra = message.extra
    facts: list[tuple[str, str]] = []
    cost = num(extra.get("cost"))
    if cost is not None:
        facts.append(("cost", fmt.cost(cost)))
    search = num(extra.get("search_cost"))
    if search is not None:
        facts.append(("search cost", fmt.cost(search)))
    usage = mapping(mapping(extra.get("response")).get("usage"))
    for label, name in (("in", "prompt_tokens"), ("out", "completion_tokens")):
        count = num(usage.get(name))
        if count is not None:
            facts.append((f"tokens {label}", fmt.number(count)))
    stamp = num(extra.get("timestamp"))
    if stamp is not None:
        facts.append(("at", epoch_text(stamp)))
    return facts


def epoch_text(seconds: float) -> str:
    """``2027-01-15 08:00:00.250 UTC`` for epoch ``seconds`` (the number itself when it is
    no date a calendar has)."""
    try:
        when = datetime.fromtimestamp(seconds, UTC)
    except (OverflowError, OSError, ValueError):
        return f"{seconds!r} (epoch seconds)"
    return when.strftime("%Y-%m-%d %H:%M:%S.%f")[:-3] + " UTC"


def _call_block(name: str, call_id: str | None, args: Any) -> RenderableType:
    title = Text.assemble(("→ ", DIM), (_safe(name), "bold"))
    if call_id:
        title.append(f"  {_safe(call_id)}", style=DIM)
    if args is None or args == "":
        return title
    body = prose(args, markdown=False) if isinstance(args, str) else json_block(args)
    return Group(title, Padding(body, INDENT))


def message_view(
    message: Message,
    *,
    ref: str | None = None,
    results: Sequence[Message] = (),
    answers: Message | None = None,
    max_lines: int | None = None,
) -> RenderableType:
    """A message whole: key and role, flags, text, tool calls (arguments pretty-printed),
    the tool results answering them, and its cost, tokens and timestamp.

    Args:
        message: The message.
        ref: Its reference, shown as the title (``RUN/msg:A3``).
        results: Tool messages answering its tool calls.
        answers: For a tool result, the assistant message whose call it answers.
        max_lines: Cut long text and JSON to this many lines.
    """
    head = Text.assemble(heading(ref), "  ") if ref else Text()
    head.append_text(key_text(message))
    for flag in flags(message):
        head.append(f"  [{flag}]", style="bold red" if "rror" in flag else "bold")
    parts: list[RenderableType] = [head]
    facts = _extra_facts(message)
    if message.tool_call_id:
        facts.insert(0, ("answers", _safe(message.tool_call_id)))
    if answers is not None:
        facts.insert(1, ("call by", _safe(answers.key)))
    if facts:
        parts.append(facts_line(facts))
    parts.append(Text())
    if message.text:
        markdown = message.role == "assistant"
        parts.append(prose(message.text, markdown=markdown, max_lines=max_lines))
    elif not message.tool_calls:
        parts.append(Text('"" (empty)', style=DIM))
    if message.tool_calls:
        parts.append(Text(f"tool calls ({len(message.tool_calls)})", style=LABEL_STYLE))
        for call in message.tool_calls:
            parts.append(Padding(_call_block(call.name, call.id, arguments(call)), INDENT))
    if results:
        parts.append(Text("tool results", style=LABEL_STYLE))
        for result in results:
            line = Text.assemble(key_text(result), "  ", _safe(message_line(result)))
            if result.is_error:
                line.append("  [error]", style="bold red")
            parts.append(Padding(line, INDENT))
    return Group(*parts)


def _board_source_facts(cited: BoardSource) -> list[RenderableType]:
    parts: list[RenderableType] = []
    title = string(cited.get("title"))
    parts.append(Text(_safe(title) if title else "(no title)", style="bold"))
    for label in ("url", "date"):
        if label in cited:
            parts.append(field_block(Field(label, cited[label])))
    snippet = cited.get("snippet")
    if isinstance(snippet, str) and snippet:
        parts.append(Text("snippet", style=LABEL_STYLE))
        parts.append(Padding(prose(snippet, markdown=False), INDENT))
    for key, value in cited.items():
        if key not in BOARD_SOURCE_KEYS:
            parts.append(field_block(Field(key, value)))
    return parts


def reactions_text(reaction: dict[str, Any]) -> Text:
    """``Yes very_negative · No positive``, each word in its colour."""
    out = Text()
    for i, (outcome, word) in enumerate(reaction.items()):
        if i:
            out.append("  ·  ", style=DIM)
        out.append(_safe(str(outcome)) + " ")
        shown = word if isinstance(word, str) else str(word)
        out.append(_safe(shown), style=REACTION_STYLE.get(shown, ""))
    return out


def render_entry(entry: BoardEntry, board: SourceBoard) -> RenderableType:
    """One board entry: its number, the web source it points at, the note and the reaction."""
    cited = board.board_source_of(entry)
    title = string(cited.get("title")) or "(no title)"
    line = Text.assemble((f"#{entry.number} ", "bold"))
    if entry.source_id is not None:
        line.append(_safe(entry.source_id) + " ", style="bold")
    elif entry.fallback is not None:
        line.append("(no source_id) ", style=DIM)
    line.append(_safe(title))
    parts: list[RenderableType] = [line]
    if entry.note:
        parts.append(Padding(prose(entry.note, markdown=False), INDENT))
    if entry.reaction:
        parts.append(Padding(reactions_text(entry.reaction), INDENT))
    return Group(*parts)


def board_source_view(board: SourceBoard, sid: str, *, ref: str | None = None) -> RenderableType:
    """A web source: title, url, date, snippet, and the board entries pointing at it."""
    parts: list[RenderableType] = [heading(ref)] if ref else []
    cited = board.board_source(sid)
    if cited is None:
        parts.append(Text(f"no source {_safe(sid)}", style=DIM))
        return Group(*parts)
    parts.extend(_board_source_facts(cited))
    entries = board.entries_for(sid)
    parts.append(Text())
    if entries:
        parts.append(Text(f"on the board ({len(entries)})", style=LABEL_STYLE))
        parts.extend(Padding(render_entry(e, board), INDENT) for e in entries)
    else:
        parts.append(Text("not on the board", style=DIM))
    return Group(*parts)


def board_view(board: SourceBoard) -> RenderableType:
    """The whole source board, in order."""
    entries = board.entries
    if not entries:
        return Text("(the board is empty)", style=DIM)
    title = Text(f"source board ({len(entries)})", style=LABEL_STYLE)
    return Group(title, *(Padding(render_entry(e, board), INDENT) for e in entries))


def _context_line(marker: str, key: str, message: Message | None, style: str) -> Text:
    line = Text(no_wrap=True, overflow="ellipsis")
    line.append(f"{marker} ", style=style)
    if message is None:
        line.append(_safe(key), style="bold")
        line.append("  (not in the pool)", style=DIM)
        return line
    line.append_text(key_text(message))
    line.append("  " + _safe(message_line(message)), style=DIM if marker == "-" else "")
    for flag in flags(message):
        line.append(f"  [{flag}]", style=DIM)
    return line


def context_view(context: StepContext, *, ref: str | None = None) -> RenderableType:
    """What the model saw at a step, in order (``+`` new since the step before), then what
    was dropped since then (``-``), then what it produced."""
    title = Text.assemble(
        (f"context of step {context.number}", LABEL_STYLE),
        (
            f"  {len(context.keys)} messages · +{len(context.added)} · -{len(context.dropped)}",
            DIM,
        ),
    )
    parts: list[RenderableType] = [heading(ref), title] if ref else [title]
    for key, message in zip(context.keys, context.messages, strict=True):
        added = context.is_added(key)
        parts.append(
            _context_line("+" if added else " ", key, message, ADDED_STYLE if added else "")
        )
    if context.dropped:
        parts.append(Text("dropped since the previous step", style=DIM))
        for key, message in zip(context.dropped, context.dropped_messages, strict=True):
            parts.append(_context_line("-", key, message, DROPPED_STYLE))
    if context.output_key is not None:
        parts.append(_context_line("→", context.output_key, context.output, "bold"))
    return Group(*parts)


def _absent(what: str) -> Text:
    return Text(what, style=DIM)


def render_message(
    run: Run, key: str, *, ref: str | None = None, max_lines: int | None = None
) -> RenderableType:
    """Message ``key`` of a forecast run (:func:`message_view`), with the tool results
    answering its calls and, for a tool result, the message that made the call."""
    pool = forecast_run(run).pool
    message = pool.get(key) if pool is not None else None
    if pool is None or message is None:
        return _absent(f"{_safe(run.ref)} has no message {_safe(key)}")
    return message_view(
        message,
        ref=ref,
        results=tool_results(pool, message),
        answers=caller(pool, message),
        max_lines=max_lines,
    )


def render_board_source(run: Run, sid: str, *, ref: str | None = None) -> RenderableType:
    """Web source ``sid`` of a forecast run's board (:func:`board_source_view`)."""
    board = forecast_run(run).board
    if board is None:
        return _absent(f"{_safe(run.ref)} has no source board")
    return board_source_view(board, sid, ref=ref)


def render_board(run: Run) -> RenderableType:
    """A forecast run's whole source board (:func:`board_view`)."""
    board = forecast_run(run).board
    if board is None:
        return _absent(f"{_safe(run.ref)} has no source board")
    return board_view(board)


def render_step_context(run: Run, number: int, *, ref: str | None = None) -> RenderableType:
    """What the model saw at step ``number`` of a forecast run (:func:`context_view`)."""
    context = step_context(run, number)
    if context is None:
        return _absent(f"{_safe(run.ref)} has no step {number} with a message pool")
    return context_view(context, ref=ref)


def render_target(run: Run, target: Target) -> RenderableType:
    """A message (``RUN/msg:KEY``) or a web source (``RUN/src:SID``) of a forecast run."""
    word, key = target.segment or ("", "")
    return render_segment(run, word, key, ref=target.ref)


def render_segment(
    run: Run, word: str, key: str, *, ref: str | None = None, max_lines: int | None = None
) -> RenderableType:
    """A message (``msg``) or a web source (``src``) of a forecast run."""
    if word == MESSAGE:
        return render_message(run, key, ref=ref, max_lines=max_lines)
    if word == SOURCE:
        return render_board_source(run, key, ref=ref)
    return _absent(f"{_safe(run.ref)}: {_safe(word)}:{_safe(key)} is not a message or a source")


def segment_object(run: Run, word: str, key: str) -> Any:
    """A message or web source of a forecast run as in the file (None when it has none)."""
    objects = forecast_run(run)
    if word == MESSAGE and objects.pool is not None:
        return objects.pool.raw(key)
    if word == SOURCE and objects.board is not None:
        return objects.board.raw_board_source(key)
    return None


def segment_text(run: Run, word: str, key: str) -> str | None:
    """The text of a message of a forecast run (None for a web source, or no message)."""
    pool = forecast_run(run).pool
    message = pool.get(key) if word == MESSAGE and pool is not None else None
    return message.text if message is not None else None


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


def step_body(
    run: Run, step: Step, *, max_lines: int | None, cli: bool
) -> list[RenderableType] | None:
    """The detail of a model call of a forecast run below its heading: the keys of what it
    saw (and what changed since the step before), the message it produced, its fields;
    where each message is shown whole (``cli``: ``trajtui show``, else the Messages tab).
    None for a step that is not a model call of a run with a message pool."""
    call = model_call(step)
    if call is None or forecast_run(run).pool is None:
        return None
    if not (call.input_keys or call.output_key):
        return None
    shown = visible(run.ref, keep_newlines=False)
    hint = (
        f"each message whole: trajtui show PATH {shown}/{MESSAGE}:KEY"
        if cli
        else "each message whole: the Messages tab"
    )
    parts: list[RenderableType] = []
    seen = context_keys(run, step.number, hint)
    if seen is not None:
        parts.extend([seen, Text()])
    if call.output_key:
        parts.extend([render_message(run, call.output_key, max_lines=max_lines), Text()])
    parts.extend(render_fields(step.fields, max_lines=max_lines))
    return parts
