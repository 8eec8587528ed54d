"""One pass over a Claude Code session file: the run's row and one step row per step.

Each line is decoded with msgspec into just the fields read here (the big ones, a tool
result's ``toolUseResult``, an attachment's prompt snapshot, are skipped, not built).

Steps (:class:`~trajtui.core.jsonl.session.StepRow` ``part``):

* a ``user``, ``assistant`` or ``system`` line: one step per content block (``part`` =
  the block's index, plus :data:`LAST_OF_TURN` on the last line of an API response);
  a user line of tool results is no step: each result is linked to its call's step
  (``link``), by ``tool_use_id``; a result whose call is not in the file is a step; a
  background call's later answer (``<task-notification>``, 2.1.3xx) is a step, and it and
  its call name each other (:data:`PAIRED`);
* any other line (``progress``, ``file-history-snapshot``, ``queue-operation``,
  ``summary``, ``attachment``, a type no version we know writes): folded with the lines of
  any kind next to it into one step (``part`` = minus the number of lines; the first and
  the last line kept).

Counts: tool calls are ``tool_use`` blocks; tool errors the results with ``is_error:
true`` and the later answers that say ``failed``; tokens are counted once per API response (``message.id``: its lines repeat the
usage, the last line's is final), input = input + cache creation + cache read; model turns
are the API responses; cost is the last ``cost-state`` line's ``totalCostUSD`` (2.1.3xx),
else unknown (no price table is guessed at).
"""

from __future__ import annotations

import os
from collections import OrderedDict
from datetime import UTC, datetime
from typing import Any

import msgspec

from trajtui.core.io.text import flat
from trajtui.core.jsonl.session import Line, SessionState
from trajtui.core.model import Outcome, RunSummary
from trajtui.formats.claude_code.texts import (
    COMPACTION_ROLE,
    NOTIFICATION,
    WARMUP,
    WARMUP_ROLE,
    command_line,
    is_prompt,
    launched,
    notification,
    project_of,
)

FORMAT_ID = "claude-code"
MESSAGES = frozenset(("user", "assistant", "system"))
LAST_OF_TURN = 1 << 30
"""Added to a step row's part on the last line of an API response (its usage is final);
below 2**31, so the part stays a 4-byte number in the session engine's columns."""
PAIRED = 31
"""A step row's part from this bit up: 1 + the position of the step's other half, for a call
answered later (a background agent's notification) and for that answer (a session that has
one keeps its part column in 8-byte numbers)."""
AGENT_TOOLS = frozenset(("Task", "Agent"))
COMPACTION_PREFIX = "agent-acompact-"
"""The file name's start of a compaction's worker (``<session>/subagents/``)."""
_RECENT_TURNS = 256
_RECENT_CALLS = 4096


class Block(msgspec.Struct):
    type: Any = None
    id: Any = None
    name: Any = None
    tool_use_id: Any = None
    is_error: Any = None
    text: Any = None


class Message(msgspec.Struct):
    id: Any = None
    model: Any = None
    content: msgspec.Raw = msgspec.Raw(b"null")
    usage: Any = None
    stop_reason: Any = None


class LineLite(msgspec.Struct):
    type: Any = None
    subtype: Any = None
    timestamp: Any = None
    message: Message | None = None
    isSidechain: Any = None
    isMeta: Any = None
    isCompactSummary: Any = None
    isApiErrorMessage: Any = None
    cwd: Any = None
    version: Any = None
    gitBranch: Any = None
    sessionId: Any = None
    agentId: Any = None
    entrypoint: Any = None
    slug: Any = None
    summary: Any = None
    lastPrompt: Any = None
    totalCostUSD: Any = None
    toolUseResult: msgspec.Raw = msgspec.Raw(b"null")


_LINE = msgspec.json.Decoder(LineLite)
_BLOCKS = msgspec.json.Decoder(list[Block])
_TEXT = msgspec.json.Decoder(str)


def blocks_of(raw: msgspec.Raw) -> tuple[str | None, list[Block]]:
    """A message's content: its text (a string) or its blocks."""
    data = bytes(raw).lstrip()
    try:
        if data.startswith(b'"'):
            return _TEXT.decode(data), []
        if data.startswith(b"["):
            return None, _BLOCKS.decode(data)
    except msgspec.DecodeError:
        pass
    return None, []


def _int(value: Any) -> int:
    return value if type(value) is int and value >= 0 else 0


def tokens_of(usage: Any) -> tuple[int, int] | None:
    """``(input, output)`` tokens of a usage object (input with cache creation and
    reads), or None when it says none."""
    if not isinstance(usage, dict):
        return None
    keys = ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
    if not any(type(usage.get(k)) is int for k in (*keys, "output_tokens")):
        return None
    return sum(_int(usage.get(k)) for k in keys), _int(usage.get("output_tokens"))


def _ms(stamp: Any) -> float | None:
    if not isinstance(stamp, str):
        return None
    try:
        return datetime.fromisoformat(stamp).timestamp() * 1000
    except ValueError:
        return None


class ClaudeFold:
    """What one pass over a session file learns (see the module's docstring)."""

    def __init__(self, path: str, side: bool = False) -> None:
        self.side = side
        """Read the sidechain lines alone (a 1.0.x session's subagents, written into its
        own file), the others skipped; else those lines are counted apart, not as the
        session's, and folded into one step a stretch."""
        self.own_file = not os.path.basename(path).startswith("agent-")
        self.compaction = os.path.basename(path).startswith(COMPACTION_PREFIX)
        self.warmup = False
        """A warmup request's file (its first prompt is :data:`WARMUP`, no Task call's)."""
        """A compaction's worker (Claude Code re-reads the conversation to summarise it),
        not a subagent a Task call started."""
        self.side_lines = 0
        self.side_calls = 0
        self.side_failed = 0
        self.stretch_side = False
        self.project = os.path.basename(os.path.dirname(os.path.abspath(path)))
        if self.project == "subagents":
            self.project = os.path.basename(
                os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(path))))
            )
        self.lines = 0
        self.other_lines = 0
        self.calls = 0
        self.failed = 0
        self.tools: set[str] = set()
        self.pending: dict[str, int] = {}  # tool_use id -> its step
        # tool_use id -> its step and kept line, for an answer that comes later (a notification)
        self.called: OrderedDict[str, tuple[int, int]] = OrderedDict()
        self.turns = 0
        self.recent: OrderedDict[str, tuple[int, int]] = OrderedDict()  # message id -> tokens
        self.tokens_in: int | None = None
        self.tokens_out: int | None = None
        self.turn_id: str | None = None
        self.turn_step = -1  # the step of the last line of the current API response
        self.models: dict[str, None] = {}
        self.first_stamp: str | None = None
        self.last_stamp: str | None = None
        self.title = ""
        self.fallback_title = ""
        self.command_title = ""
        self.cost: float | None = None
        self.meta: dict[str, str] = {}
        self.versions: dict[str, None] = {}
        self.last_stop: Any = None
        self.last_api_error = False
        self.stretch = -1  # the step of the stretch of other lines being read
        self.stretch_lines = 0
        self.compactions = 0
        self.state: SessionState | None = None

    # -- reading lines -------------------------------------------------------------------

    def add(self, line: Line, state: SessionState) -> None:
        self.state = state
        if not self.side:
            self.lines += 1  # (every line of the file; a sidechain's run: its own lines)
        try:
            lite = _LINE.decode(line.data)
        except msgspec.DecodeError:
            try:
                msgspec.json.decode(line.data)
            except msgspec.DecodeError as err:
                if not self.side:
                    state.problem(line.number, f"not JSON: {err}")
                return
            lite = LineLite()  # JSON of another shape: kept as it is, among the others
        kind = lite.type if isinstance(lite.type, str) else None
        sidechain = lite.isSidechain is True and self.own_file
        if self.side != sidechain:
            if sidechain:  # a subagent's line in its session's file: its own run's
                self._sidechain(line, state, lite)
            return
        if self.side:
            self.lines += 1
        if isinstance(lite.timestamp, str):
            self.first_stamp = self.first_stamp or lite.timestamp
            self.last_stamp = lite.timestamp
        if kind not in MESSAGES or (lite.message is None and kind != "system"):
            self._other(line, state, kind, lite)
            return
        self._end_stretch()
        self._envelope(lite)
        if kind == "system":
            number = 0
            if lite.subtype == "compact_boundary":
                self.compactions += 1
                number = self.compactions  # (the n-th: its worker is the n-th acompact file)
            self._end_turn(state)
            state.step(state.keep(line), number)
            return
        assert lite.message is not None
        text, blocks = blocks_of(lite.message.content)
        if kind == "assistant":
            self._assistant(line, state, lite, blocks)
            return
        self._end_turn(state)
        self._user(line, state, lite, text, blocks)

    def _envelope(self, lite: LineLite) -> None:
        for name in ("cwd", "gitBranch", "sessionId", "entrypoint", "slug", "agentId"):
            value = getattr(lite, name)
            if isinstance(value, str) and value and name not in self.meta:
                self.meta[name] = value
        if isinstance(lite.version, str) and lite.version:
            self.versions.setdefault(lite.version)

    def _sidechain(self, line: Line, state: SessionState, lite: LineLite) -> None:
        """A subagent's line in its session's file (1.0.x): counted apart, folded with
        the subagent's lines next to it into one step."""
        self.side_lines += 1
        if isinstance(lite.timestamp, str):
            self.first_stamp = self.first_stamp or lite.timestamp
            self.last_stamp = lite.timestamp
        message = lite.message
        if message is not None:
            _, blocks = blocks_of(message.content)
            for block in blocks:
                if block.type == "tool_use":
                    self.side_calls += 1
                elif block.type == "tool_result" and block.is_error is True:
                    self.side_failed += 1
        self._fold_line(line, state, side=True)

    def _other(self, line: Line, state: SessionState, kind: str | None, lite: LineLite) -> None:
        self.other_lines += 1
        if kind == "summary" and isinstance(lite.summary, str):
            self.fallback_title = self.fallback_title or lite.summary
        elif kind == "last-prompt" and isinstance(lite.lastPrompt, str) and not self.fallback_title:
            self.fallback_title = lite.lastPrompt
        elif kind == "cost-state":
            cost = lite.totalCostUSD
            if type(cost) in (int, float):
                self.cost = float(cost)
        self._fold_line(line, state, side=False)

    def _fold_line(self, line: Line, state: SessionState, side: bool) -> None:
        """Fold ``line`` into the stretch being read, or begin one (a stretch is of lines
        that are not messages, or of a subagent's lines: never both)."""
        if self.stretch == state.steps - 1 and self.stretch >= 0 and side == self.stretch_side:
            self.stretch_lines += 1
            state.set_part(self.stretch, -self.stretch_lines)
            if self.stretch_lines == 2:
                state.link(self.stretch, state.keep(line))
            else:
                state.move_last(line)
            return
        self.stretch = state.step(state.keep(line), -1)
        self.stretch_lines = 1
        self.stretch_side = side

    def _end_stretch(self) -> None:
        self.stretch = -1

    def _end_turn(self, state: SessionState) -> None:
        """The API response being read ended: its last line's step says so."""
        if self.turn_step >= 0:
            state.set_part(self.turn_step, state.step_part[self.turn_step] | LAST_OF_TURN)
        self.turn_step = -1
        self.turn_id = None

    def _assistant(
        self, line: Line, state: SessionState, lite: LineLite, blocks: list[Block]
    ) -> None:
        message = lite.message
        assert message is not None
        mid = message.id if isinstance(message.id, str) else None
        if mid is None or mid != self.turn_id:
            self._end_turn(state)
            self.turn_id = mid
            if mid is None or mid not in self.recent:
                self.turns += 1
        self.last_stop = message.stop_reason
        self.last_api_error = lite.isApiErrorMessage is True
        model = message.model
        if isinstance(model, str) and model and model != "<synthetic>":
            self.models.setdefault(model)
        self._usage(mid, message.usage)
        k = state.keep(line)
        first = state.steps
        for b, block in enumerate(blocks or [Block()]):
            at = state.step(k, b)
            if block.type == "tool_use":
                self.calls += 1
                if isinstance(block.name, str) and block.name:
                    self.tools.add(block.name)
                if isinstance(block.id, str):
                    self.pending[block.id] = at
        self.turn_step = max(first, state.steps - 1)

    def _usage(self, mid: str | None, usage: Any) -> None:
        tokens = tokens_of(usage)
        if tokens is None:
            return
        old = self.recent.pop(mid, (0, 0)) if mid is not None else (0, 0)
        if mid is not None:
            self.recent[mid] = tokens
            if len(self.recent) > _RECENT_TURNS:
                self.recent.popitem(last=False)
        self.tokens_in = (self.tokens_in or 0) + tokens[0] - old[0]
        self.tokens_out = (self.tokens_out or 0) + tokens[1] - old[1]

    def _user(
        self,
        line: Line,
        state: SessionState,
        lite: LineLite,
        text: str | None,
        blocks: list[Block],
    ) -> None:
        results = [b for b in blocks if b.type == "tool_result"]
        k = -1
        for b, block in enumerate(blocks):
            if block.type != "tool_result":
                continue
            if block.is_error is True:
                self.failed += 1
            if k < 0:
                k = state.keep(line)
            call = (
                self.pending.pop(block.tool_use_id, None)
                if isinstance(block.tool_use_id, str)
                else None
            )
            if call is not None:
                state.link(call, k)
                if launched(lite.toolUseResult):  # its answer comes later: kept for it
                    self.called[block.tool_use_id] = (call, state.step_line[call])
                    if len(self.called) > _RECENT_CALLS:
                        self.called.popitem(last=False)
            else:
                state.step(k, b)
        if results and len(results) == len(blocks):
            return
        if k < 0:
            k = state.keep(line)
        at = state.step(k, 0)
        if text is None:
            text = "\n".join(b.text for b in blocks if b.type == "text" and isinstance(b.text, str))
        if text.lstrip().startswith(NOTIFICATION):
            self._answer(state, at, k, text)
            return
        if self.title or lite.isMeta is True or lite.isCompactSummary is True:
            return
        if lite.isSidechain is True and "agentId" not in self.meta and not self.side:
            return
        if not self.own_file and not self.turns and text.strip() == WARMUP:
            self.warmup = True
        if is_prompt(text):
            self.title = flat(text)
        elif not self.command_title:  # a session run by a slash command alone is titled by it
            self.command_title = flat(command_line(text))

    def _answer(self, state: SessionState, at: int, k: int, text: str) -> None:
        """A background call's later answer (``<task-notification>``, step ``at`` on kept
        line ``k``): the call and its answer name each other (the answer's row links the
        call's line); a failed one is a tool error of the call."""
        note = notification(text)
        if note is None or note.call not in self.called:
            return
        call, line = self.called.pop(note.call)
        state.set_part(at, (call + 1) << PAIRED)
        state.link(at, line)
        state.set_part(call, state.step_part[call] | (at + 1) << PAIRED)
        if note.failed:
            self.failed += 1

    # -- the row -------------------------------------------------------------------------

    def summary(self, ref: str, partial: bool) -> RunSummary | None:
        state = self.state
        if self.side and not self.lines:
            return None  # no subagent wrote into this file: no run to list
        if not partial and state is not None:
            self._end_turn(state)
        if partial:
            status, outcome = "reading", Outcome.RUNNING
        elif self.warmup:  # the CLI's own request: neither done nor open work
            status, outcome = "warmup", Outcome.SKIPPED
        elif self.last_api_error:
            status, outcome = "api error", Outcome.ERROR
        elif self.last_stop == "end_turn":
            status, outcome = "done", Outcome.DONE
        elif self.turns:
            status, outcome = "open", Outcome.NONE
        else:
            status, outcome = "no turns", Outcome.NONE
        first, last = _ms(self.first_stamp), _ms(self.last_stamp)
        span = last - first if first is not None and last is not None else None
        meta = {"project": project_of(self.project, self.meta.get("cwd")), **self.meta}
        if self.models:
            meta["model"] = ", ".join(self.models)
        if self.versions:
            versions = list(self.versions)
            meta["version"] = (
                versions[0] if len(versions) == 1 else f"{versions[0]}..{versions[-1]}"
            )
        if self.compaction:
            meta["role"] = COMPACTION_ROLE
        elif self.warmup:
            meta["role"] = WARMUP_ROLE
        meta["turns"] = str(self.turns)
        meta["lines"] = str(self.lines)
        meta["other_lines"] = str(self.other_lines)
        if self.compactions:
            meta["compactions"] = str(self.compactions)
        if self.side_lines:  # its subagents' lines, counted apart (their run's own figures)
            meta["subagent_lines"] = str(self.side_lines)
            meta["subagent_tool_calls"] = str(self.side_calls)
            meta["subagent_tool_errors"] = str(self.side_failed)
        if self.first_stamp:
            meta["started"] = self.first_stamp
            began = _ms(self.first_stamp)
            if began is not None:  # the day it started, UTC (stats --by date), as Codex's
                meta["date"] = datetime.fromtimestamp(began / 1000, UTC).strftime("%Y-%m-%d")
        return RunSummary(
            ref=ref,
            index=0,
            format=FORMAT_ID,
            status=status,
            outcome=outcome,
            steps=state.steps if state is not None else 0,
            failed_tool_calls=self.failed,
            tool_calls=self.calls,
            duration_ms=span,
            duration_label="span of line timestamps" if span is not None else None,
            cost=self.cost,
            title=self._title(ref),
            metadata=tuple(meta.items()),
            tools=tuple(sorted(self.tools)),
            tokens_in=self.tokens_in,
            tokens_out=self.tokens_out,
        )

    def _title(self, ref: str) -> str:
        if self.compaction:
            return f"compaction of {ref.split('/', 1)[0]}: the conversation re-read to summarise it"
        if self.warmup:
            return "warmup request Claude Code sent on its own as it started (no Task call's)"
        return self.title or flat(self.fallback_title) or self.command_title
