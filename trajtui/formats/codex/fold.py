"""A rollout's run-list row, folded over its lines once, in file order, in constant memory
(what it keeps grows with the distinct tools and models, and the calls not answered yet).

Every figure is one the file says or one counted from it:

* **turns**: the user's prompts (user messages that are not context Codex injected);
* **tool calls**: call items (``function_call``, ``custom_tool_call``, ``local_shell_call``,
  ``tool_search_call``, ``web_search_call``, ``image_generation_call``), each once; **tool
  errors**: those whose output reports an exit code other than 0, that an event says
  failed (:func:`.items.failed_call`), or whose own status is ``failed`` (web search,
  image generation);
* **tokens**: from the ``token_count`` events' cumulative totals (:mod:`.tokens`: the
  last total, less what a fork inherited, plus the earlier counts of a resumed session
  whose count restarted); None when no event has one (0.20 and older rollouts write
  none). No cost: a rollout holds no price;
* **inherited history**: a forked rollout whose parent's history is copied into it (a
  second ``session_meta``, the parent's, then the parent's lines, as 0.171 writes a fork
  of a legacy session) counts none of it as its own: those lines are folded apart
  (:attr:`Fold.inherited`) up to the first line that names this thread (``thread_id``);
* **duration**: the sum of the turns' ``duration_ms`` (0.171 ``task_complete`` /
  ``turn_aborted``) when every ended turn says one, else the span of the line timestamps;
* **title**: the start time (UTC) and working directory, then the first prompt;
* **status**, the file's own words: the last turn ``completed`` (``task_complete``, or
  before 0.171 an assistant message after the last prompt), aborted (``turn_aborted``'s
  ``reason``, e.g. ``interrupted``), or ``error`` (an ``error`` event); none when the file
  ends inside a turn.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from trajtui.core.io.text import one_line
from trajtui.core.model import Outcome
from trajtui.core.values import count, mapping, num, string
from trajtui.formats.codex import items
from trajtui.formats.codex.lines import (
    EVENT_MSG,
    RESPONSE_ITEM,
    SESSION_META,
    TURN_CONTEXT,
    Line,
    epoch_ms,
)
from trajtui.formats.codex.steps import is_prompt, makes_step
from trajtui.formats.codex.tokens import Tokens, TokenTally


@dataclass(frozen=True, slots=True)
class Facts:
    """What the fold found (see the module for what each figure is)."""

    thread_id: str | None
    title: str
    steps: int
    turns: int
    tool_calls: int
    tool_errors: int
    never_completed: int
    tools: tuple[str, ...]
    tokens: Tokens | None
    first_time: float | None
    last_time: float | None
    duration_ms: float | None
    duration_label: str | None
    status: str | None
    outcome: Outcome
    cwd: str | None
    models: tuple[str, ...]
    meta: tuple[tuple[str, str], ...]
    inherited: Facts | None = None
    inherited_tokens: Tokens | None = None
    token_restarts: int = 0


_META_KEYS = ("cli_version", "originator", "model_provider")


class Fold:
    """Feed it every line in file order (:meth:`feed`); :meth:`facts` says what it found
    so far (a partial fold while the file is still being read)."""

    def __init__(self, fallback_id: str | None = None) -> None:
        self.fallback_id = fallback_id
        self.thread_id: str | None = None
        self.started: float | None = None  # the session_meta's own time
        self.title = ""
        self.lines = 0
        self.steps = 0
        self.turns = 0
        self.tool_calls = 0
        self.tool_errors = 0
        self.tools: dict[str, None] = {}
        self.open_calls: set[str] = set()
        self.failed_ids: set[str] = set()
        self.tokens = TokenTally()
        self.inherited: Fold | None = None  # the copied history of a fork's parent
        self.inheriting = False
        self.first_time: float | None = None
        self.last_time: float | None = None
        self.turn_ms = 0.0
        self.turn_ends = 0
        self.turn_ends_timed = 0
        self.state: str | None = None  # "turn", "completed", "error", or an abort reason
        self.task_events = False
        self.replied = False
        self.cwd: str | None = None
        self.models: dict[str, None] = {}
        self.meta: dict[str, str] = {}

    def feed(self, line: Line) -> None:
        """Count one line."""
        self.lines += 1
        if line.time is not None:
            if self.first_time is None:
                self.first_time = line.time
            self.last_time = line.time
        p = line.payload
        if self.inheriting:
            if self.thread_id is None or p.get("thread_id") != self.thread_id:
                assert self.inherited is not None
                self.inherited.feed(line)
                return
            self.inheriting = False  # the first line of this thread's own
        elif line.tag == SESSION_META and self._starts_inherited(p):
            self.inheriting, self.inherited = True, Fold()
            self.inherited.feed(line)
            self.steps += 1  # the inherited history is one step
            return
        if makes_step(line):
            self.steps += 1
        if line.tag == SESSION_META:
            self._meta(p)
        elif line.tag == TURN_CONTEXT:
            model = string(p.get("model"))
            if model:
                self.models[model] = None
            if self.cwd is None:
                self.cwd = string(p.get("cwd"))
        elif line.tag == RESPONSE_ITEM:
            self._item(line)
        elif line.tag == EVENT_MSG:
            self._event(line.kind, p)

    def _starts_inherited(self, p: dict[str, Any]) -> bool:
        """A second ``session_meta``, another thread's: its history copied here follows."""
        other = string(p.get("id"))
        return self.thread_id is not None and other is not None and other != self.thread_id

    @property
    def inherited_lines(self) -> int:
        """Lines of the copied history read so far (0 when none)."""
        return 0 if self.inherited is None else self.inherited.lines

    def _meta(self, p: dict[str, Any]) -> None:
        if self.thread_id is not None:  # a resumed or forked file: the first owns the identity
            return
        self.thread_id = string(p.get("id"))
        self.started = epoch_ms(p.get("timestamp"))
        self.cwd = string(p.get("cwd")) or self.cwd
        for key in _META_KEYS:
            value = string(p.get(key))
            if value:
                self.meta[key] = value
        source = p.get("source")
        if isinstance(source, str):
            self.meta["source"] = source
        elif isinstance(source, dict) and source:
            self.meta["source"] = next(iter(source))
            spawn = mapping(mapping(source.get("subagent")).get("thread_spawn"))
            parent = string(spawn.get("parent_thread_id"))
            if parent:
                self.meta["parent_thread_id"] = parent
        forked = string(p.get("forked_from_id"))
        if forked:
            self.meta["forked_from"] = forked
            base = mapping(p.get("history_base"))
            at = count(p.get("forked_from_ordinal_exclusive"))
            if at is None and string(base.get("thread_id")) == forked:
                at = count(base.get("end_ordinal_exclusive"))
            if at is not None:
                self.meta["forked_at_ordinal"] = str(at)
        git = mapping(p.get("git"))
        for key in ("branch", "commit_hash", "repository_url"):
            value = string(git.get(key))
            if value:
                self.meta[f"git.{key}"] = value

    def _item(self, line: Line) -> None:
        p, kind = line.payload, line.kind
        if kind == "message":
            if is_prompt(line):
                self.turns += 1
                self.state = "turn"
                self.replied = False
                if not self.title:
                    self.title = one_line(items.content_text(p.get("content")))
            elif p.get("role") == "assistant":
                self.replied = True
        elif kind in items.CALL_TYPES or kind in items.STATUS_CALL_TYPES:
            self.tool_calls += 1
            self.tools[items.call_tool(p)] = None
            call_id = string(p.get("call_id"))
            if kind in items.STATUS_CALL_TYPES:
                if p.get("status") == "failed":
                    self.tool_errors += 1
            elif call_id is not None:
                self.open_calls.add(call_id)
        elif kind in items.OUTPUT_TYPES:
            call_id = string(p.get("call_id"))
            if call_id is None or call_id not in self.open_calls:
                return
            self.open_calls.discard(call_id)
            code = items.exit_code(items.output_value(p))
            if call_id in self.failed_ids or (code is not None and code != 0):
                self.tool_errors += 1
            self.failed_ids.discard(call_id)

    def _event(self, kind: str | None, p: dict[str, Any]) -> None:
        failed = items.failed_call(kind, p)
        if failed is not None and failed in self.open_calls:
            self.failed_ids.add(failed)
        if kind == "token_count":
            self.tokens.add(p.get("info"))
        elif kind in ("task_started", "turn_started"):
            self.task_events = True
            self.state = "turn"
        elif kind in ("task_complete", "turn_complete"):
            self.task_events = True
            self._turn_end(p)
            self.state = "completed"
        elif kind == "turn_aborted":
            self._turn_end(p)
            self.state = string(p.get("reason")) or "aborted"
        elif kind == "error":
            self.state = "error"

    def _turn_end(self, p: dict[str, Any]) -> None:
        self.turn_ends += 1
        ms = num(p.get("duration_ms"))
        if ms is not None:
            self.turn_ends_timed += 1
            self.turn_ms += ms

    def facts(self) -> Facts:
        """What the lines fed so far say."""
        status, outcome = self._status()
        if self.turn_ends and self.turn_ends_timed == self.turn_ends:
            n = self.turn_ends
            duration: float | None = self.turn_ms
            label: str | None = f"sum of {n} turn{'s' if n != 1 else ''} duration_ms"
        elif self.first_time is not None and self.last_time is not None:
            duration, label = self.last_time - self.first_time, "span of line timestamps"
        else:
            duration, label = None, None
        meta = dict(self.meta)
        if self.cwd:
            meta["cwd"] = self.cwd
        start = self._start()
        if start is not None:  # (session_meta's time, else the first line's: UTC)
            meta["started"] = start.isoformat(timespec="milliseconds")
            meta["date"] = start.strftime("%Y-%m-%d")
        if self.models:
            meta["model"] = ", ".join(self.models)
        return Facts(
            thread_id=self.thread_id or self.fallback_id,
            title=self._title(),
            steps=self.steps,
            turns=self.turns,
            tool_calls=self.tool_calls,
            tool_errors=self.tool_errors,
            never_completed=len(self.open_calls),
            tools=tuple(sorted(self.tools)),
            tokens=self.tokens.own(),
            first_time=self.first_time,
            last_time=self.last_time,
            duration_ms=duration,
            duration_label=label,
            status=status,
            outcome=outcome,
            cwd=self.cwd,
            models=tuple(self.models),
            meta=tuple(sorted(meta.items())),
            inherited=None if self.inherited is None else self.inherited.facts(),
            inherited_tokens=self.tokens.inherited,
            token_restarts=self.tokens.restarts,
        )

    def _start(self) -> datetime | None:
        """When the session started (UTC): its session_meta's time, else its first line's."""
        ms = self.started if self.started is not None else self.first_time
        if ms is None:
            return None
        try:
            return datetime.fromtimestamp(ms / 1000.0, tz=UTC)
        except (OverflowError, OSError, ValueError):
            return None

    def _title(self) -> str:
        """When and where the session started, then the user's first prompt (the run list
        has no column for either: the title carries them)."""
        parts = []
        start = self._start()
        if start is not None:
            parts.append(start.strftime("%Y-%m-%d %H:%MZ"))
        if self.cwd:
            parts.append(self.cwd)
        parts.append(self.title)
        return " · ".join(p for p in parts if p)

    def _status(self) -> tuple[str | None, Outcome]:
        state = self.state
        if state is None:
            return None, Outcome.NONE
        if state == "completed":
            return "completed", Outcome.DONE
        if state == "turn":
            if self.replied and not self.task_events:
                return "completed", Outcome.DONE
            return None, Outcome.NONE
        return state, Outcome.ERROR


def thread_id_of_name(path: str) -> str | None:
    """The thread id a rollout's file name ends with (``rollout-<time>-<uuid>.jsonl``)."""
    stem = os.path.basename(path).rsplit(".", 1)[0]
    if len(stem) >= 36 and stem[-36:].count("-") == 4:
        return stem[-36:]
    return None
