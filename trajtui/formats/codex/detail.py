"""A Codex run's row, fields and view detail, all from the fold's facts.

The row is everything the run keeps (the session engine restores a rollout from its index
cache as its row alone): what the view shows beyond the common columns is in the row's
metadata under the file's names (``cli_version``, ``model``, ``cwd``...) and trajtui's
(``turns``, ``tokens.cached_input``, ``tokens.reasoning_output``).
"""

from __future__ import annotations

from dataclasses import dataclass

from trajtui.core.model import Field, Outcome, RunSummary
from trajtui.formats.codex.fold import Facts

TURNS = "turns"
CACHED = "tokens.cached_input"
REASONING = "tokens.reasoning_output"
INHERITED_TURNS = "inherited.turns"
INHERITED_CALLS = "inherited.tool_calls"
INHERITED_TOKENS = "inherited.tokens"
RESTARTS = "tokens.count_restarts"
TOKENS_LABEL = "tokens (token_count totals: the last, less what a fork inherited, plus earlier counts a resume restarted)"
PARTIAL_NOTE = "reading"
"""A partial row's status (the file is still being read: its last turn's end is not
known yet, whatever the lines read so far say), as every session format words it."""


@dataclass(frozen=True, slots=True)
class CodexRun:
    """The typed detail of a Codex run (:attr:`Run.detail`).

    Attributes:
        cli_version: ``session_meta.cli_version``.
        models: The models its ``turn_context`` lines name, as listed.
        cwd: The working directory the file names.
        turns: The user's prompts.
        tokens_in: Its own input tokens from the ``token_count`` totals (cached ones
            included; see :mod:`.tokens`), or None.
        cached_in: Of which cached.
        tokens_out: Its output tokens (reasoning included), or None.
        reasoning_out: Of which reasoning.
        forked_from: The thread it was forked (or spawned) from, as its session_meta says.
        parent_label: That thread's rollout, when it is in the folder opened.
        inherited_turns: The turns of the parent's history copied into it, if any.
    """

    cli_version: str | None
    models: str | None
    cwd: str | None
    turns: int | None
    tokens_in: int | None
    cached_in: int | None
    tokens_out: int | None
    reasoning_out: int | None
    forked_from: str | None = None
    parent_label: str | None = None
    inherited_turns: int | None = None


def summary_of(
    facts: Facts, ref: str, index: int, format_id: str, *, partial: bool = False
) -> RunSummary:
    """The run-list row of a rollout (``partial``: the file is still being read)."""
    t = facts.tokens
    meta = dict(facts.meta)
    meta[TURNS] = str(facts.turns)
    inherited = facts.inherited
    if inherited is not None:
        meta[INHERITED_TURNS] = str(inherited.turns)
        meta[INHERITED_CALLS] = str(inherited.tool_calls)
    base = facts.inherited_tokens
    if base is not None and base.input is not None and base.output is not None:
        meta[INHERITED_TOKENS] = f"{base.input} in, {base.output} out"
    if facts.token_restarts:
        meta[RESTARTS] = str(facts.token_restarts)
    if t is not None and t.cached_input is not None:
        meta[CACHED] = str(t.cached_input)
    if t is not None and t.reasoning_output is not None:
        meta[REASONING] = str(t.reasoning_output)
    status, outcome = facts.status, facts.outcome
    if partial:
        status, outcome = PARTIAL_NOTE, Outcome.RUNNING
    return RunSummary(
        ref=ref,
        index=index,
        format=format_id,
        status=status,
        outcome=outcome,
        steps=facts.steps,
        failed_tool_calls=facts.tool_errors,
        tool_calls=facts.tool_calls,
        duration_ms=facts.duration_ms,
        duration_label=facts.duration_label,
        title=facts.title,
        line=1,
        metadata=tuple(sorted(meta.items())),
        tools=facts.tools,
        tokens_in=None if t is None else t.input,
        tokens_out=None if t is None else t.output,
    )


def _int(text: str | None) -> int | None:
    return int(text) if text is not None and text.isdigit() else None


def detail_from(summary: RunSummary, parent_label: str | None = None) -> CodexRun:
    """The view's detail of a rollout, from its row (``parent_label``: the rollout it was
    forked from, in the folder opened)."""
    meta = dict(summary.metadata)
    return CodexRun(
        meta.get("cli_version"),
        meta.get("model"),
        meta.get("cwd"),
        _int(meta.get(TURNS)),
        summary.tokens_in,
        _int(meta.get(CACHED)),
        summary.tokens_out,
        _int(meta.get(REASONING)),
        meta.get("forked_from") or meta.get("parent_thread_id"),
        parent_label,
        _int(meta.get(INHERITED_TURNS)),
    )


def fields_from(summary: RunSummary) -> tuple[Field, ...]:
    """The run's labelled values: its metadata, and its tokens named for what they are."""
    out = [Field(k, v) for k, v in summary.metadata if k not in (CACHED, REASONING)]
    d = detail_from(summary)
    if d.tokens_in is not None or d.tokens_out is not None:
        out.append(
            Field(
                TOKENS_LABEL,
                {
                    "input_tokens": d.tokens_in,
                    "cached_input_tokens": d.cached_in,
                    "output_tokens": d.tokens_out,
                    "reasoning_output_tokens": d.reasoning_out,
                },
            )
        )
    return tuple(out)
