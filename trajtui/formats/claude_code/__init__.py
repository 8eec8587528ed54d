"""Claude Code session logs (``~/.claude/projects/<project>/<session>.jsonl`` and the
subagents beside them), versions 1.0.x to 2.1.x.

A session file is one run (:class:`~trajtui.core.jsonl.session.SessionSource`: read at any
size, steps on demand); its reference is the file's name (the session id). A subagent's
file (``<session>/subagents/agent-<id>.jsonl`` in 2.1, ``agent-<id>.jsonl`` beside the
sessions in 2.0) is a run of its own, ``<session>/agent-<id>``, which the agent call's step
names; a compaction worker's (``agent-acompact-*``) is titled as the compaction it is, a
warmup request's (2.0.x: the prompt ``Warmup``, sent by the CLI itself) as a warmup.

Known by content, never by name: among the first lines, one with a ``sessionId`` and a
``parentUuid`` or ``isSidechain`` whose ``type`` is a message (``user``, ``assistant``,
``system``...), or a file of ``summary`` lines only (what ``--resume`` leaves in 1.0.x).
The stream-json stdout of ``claude -p`` (``session_id``, ``parent_tool_use_id``) is not
this format.
"""

from __future__ import annotations

import mmap
import os
import re
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

import orjson

from trajtui.core.format_api import Certainty, Claim, Format, Opened
from trajtui.core.io import sparse
from trajtui.core.io.detect import Sniffed, iter_lines
from trajtui.core.jsonl.session import SessionSource, StepRow
from trajtui.core.model import Field, Run, RunSummary, Step
from trajtui.core.source import FormatInfo
from trajtui.formats.claude_code import steps as _steps
from trajtui.formats.claude_code.fold import COMPACTION_PREFIX, FORMAT_ID, ClaudeFold

INFO = FormatInfo(FORMAT_ID, "Claude Code session")
SNIFF_LINES = 20
_ENVELOPE = frozenset(("user", "assistant", "system", "attachment", "progress"))
_FIRST = frozenset(
    (
        "summary",
        "queue-operation",
        "file-history-snapshot",
        "mode",
        "permission-mode",
        "user",
        "assistant",
        "system",
        "attachment",
        "progress",
        "custom-title",
        "last-prompt",
    )
)


def _session_line(obj: Any) -> bool:
    return (
        isinstance(obj, dict)
        and isinstance(obj.get("sessionId"), str)
        and ("parentUuid" in obj or "isSidechain" in obj)
        and _type(obj) in _ENVELOPE
    )


def _type(obj: dict[str, Any]) -> str | None:
    """A line's ``type`` when it is a word (a list or object there is no type: hashing it
    in a set lookup would raise)."""
    kind = obj.get("type")
    return kind if isinstance(kind, str) else None


def _summary_line(obj: Any) -> bool:
    return (
        isinstance(obj, dict)
        and obj.get("type") == "summary"
        and set(obj) <= {"type", "summary", "leafUuid"}
    )


def sniff(path: str, first: Any) -> str | None:
    """The session id a Claude Code file names (``""`` when it names none), or None when
    the file is not one. Reads at most the first :data:`SNIFF_LINES` lines."""
    found = _sniff(path, first)
    return None if found is None else found[0]


def _sniff(path: str, first: Any) -> tuple[str, str] | None:
    """``(session id, Claude Code version)`` of its first message line (each ``""`` when
    the file says none), or None when the file is not a Claude Code one."""
    if not isinstance(first, dict) or (_type(first) not in _FIRST and "parentUuid" not in first):
        return None
    if "session_id" in first or "trajectory" in first:
        return None
    if _session_line(first):
        return first["sessionId"], _version(first)
    summaries = 0
    seen = 0
    for data in iter_lines(path, SNIFF_LINES):
        seen += 1
        try:
            obj = orjson.loads(data)
        except orjson.JSONDecodeError:
            continue
        if _session_line(obj):
            return str(obj["sessionId"]), _version(obj)
        summaries += _summary_line(obj)
    return ("", "") if seen and summaries == seen else None


def _version(obj: dict[str, Any]) -> str:
    version = obj.get("version")
    return version if isinstance(version, str) else ""


START_BYTES = 1 << 16
"""Bytes of a session's head looked through for its start time."""
_STAMP = re.compile(rb'"timestamp"\s*:\s*"([0-9][0-9T:.+\-Z ]{9,39})"')


def started(path: str, session: str = "") -> float | None:
    """When a session started (epoch seconds): the first timestamp in its first
    :data:`START_BYTES` bytes; a subagent's is just before its session's, so that it is
    listed right after it (newest first). None when there is none."""
    own = path
    parent = os.path.dirname(os.path.abspath(path))
    if os.path.basename(path).startswith("agent-"):
        if os.path.basename(parent) == "subagents":  # 2.1: <session>/subagents/agent-*
            own = os.path.dirname(parent) + ".jsonl"
        elif session:  # 2.0: agent-* beside the session, which its lines name
            own = os.path.join(parent, f"{os.path.basename(session)}.jsonl")
    at = _first_stamp(own) if own != path and os.path.isfile(own) else None
    if at is not None:
        return at - 1e-6
    return _first_stamp(path)


def _first_stamp(path: str) -> float | None:
    try:
        with open(path, "rb") as f:
            sparse.ensure_fd(f.fileno(), 0, START_BYTES)  # (a remote mirror: fetched first)
            head = f.read(START_BYTES)
    except OSError:
        return None
    for found in _STAMP.finditer(head):
        try:
            return datetime.fromisoformat(found.group(1).decode("ascii")).timestamp()
        except ValueError:
            continue
    return None


_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\Z")
SHORT = 8
"""Characters of a session id its reference keeps (as a short commit hash does)."""


def _short(session: str) -> str:
    return session[:SHORT] if _UUID.match(session) else session


def refs_for(path: str, session: str) -> tuple[str, tuple[str, ...]]:
    """A session's reference, the first :data:`SHORT` characters of its id (its file's
    stem), or a subagent's ``<session>/agent-<id>``; and the longer names it answers to
    too (the whole id, which earlier versions used)."""
    stem = os.path.basename(path).removesuffix(".jsonl")
    if not stem.startswith("agent-"):
        return _short(stem), (stem,)
    parent = os.path.dirname(os.path.abspath(path))
    if os.path.basename(parent) == "subagents":
        session = os.path.basename(os.path.dirname(parent))
    if not session:
        return stem, ()
    return f"{_short(session)}/{stem}", (f"{session}/{stem}",)


def compaction_workers(path: str, ref: str) -> list[str]:
    """The refs of a session's compaction workers (``<session>/subagents/agent-acompact-*``),
    in the order they ran (by their first timestamp): the n-th is the n-th compaction's."""
    if "/" in ref:
        return []
    folder = os.path.join(os.path.dirname(os.path.abspath(path)), _stem(path), "subagents")
    try:
        names = [n for n in os.listdir(folder) if n.startswith(COMPACTION_PREFIX)]
    except OSError:
        return []
    found = []
    for name in names:
        if name.endswith(".jsonl"):
            at = _first_stamp(os.path.join(folder, name))
            found.append((at if at is not None else float("inf"), name))
    return [f"{ref}/{name.removesuffix('.jsonl')}" for _, name in sorted(found)]


def _stem(path: str) -> str:
    return os.path.basename(path).removesuffix(".jsonl")


class ClaudeSessions:
    """The session reader (:class:`~trajtui.core.jsonl.session.SessionFormat`)."""

    info = INFO

    def fold(self, path: str) -> ClaudeFold:
        return ClaudeFold(path)

    def steps(self, ref: str, rows: Sequence[StepRow], read: Callable[[int], Any]) -> list[Step]:
        source = getattr(read, "__self__", None)
        line_of = getattr(source, "kept_line", lambda k: None)
        path = getattr(source, "path", None)
        workers = (lambda: compaction_workers(path, ref)) if isinstance(path, str) else list
        return _steps.build(ref, rows, read, line_of, workers)

    def build(self, summary: RunSummary, steps: Sequence[Step], path: str) -> Run:
        meta = dict(summary.metadata)
        shown = (
            "project",
            "cwd",
            "model",
            "version",
            "gitBranch",
            "sessionId",
            "agentId",
            "role",
            "entrypoint",
            "slug",
            "turns",
            "compactions",
            "subagent_lines",
            "subagent_tool_calls",
            "subagent_tool_errors",
            "lines",
            "other_lines",
            "started",
        )
        fields = tuple(Field(k, meta[k]) for k in shown if k in meta)
        if summary.cost is None:
            fields += (
                Field(
                    "cost",
                    "not in this file (Claude Code writes it from 2.1.3xx on; "
                    "no price table is guessed at)",
                ),
            )
        return Run(
            summary=summary, steps=steps, fields=fields, path=path, metadata=summary.metadata
        )


SESSIONS = ClaudeSessions()


class ClaudeSidechains(ClaudeSessions):
    """The subagents' lines of a 1.0.x session (``isSidechain``, in the session's own
    file) read as a run of their own."""

    def fold(self, path: str) -> ClaudeFold:
        return ClaudeFold(path, side=True)


SIDECHAINS = ClaudeSidechains()


class ClaudeCodeFormat(Format):
    """Claude Code session files, known by their lines' envelope."""

    infos = (INFO,)
    view = "trajtui.formats.claude_code.view:VIEW"

    def claim_file(self, path: str, sniffed: Sniffed, label: str | None) -> Claim | None:
        if sniffed.layout != "jsonl":
            return None
        found = _sniff(path, sniffed.first)
        if found is None:
            return None
        session, version = found
        ref, aliases = refs_for(path, session)
        # 1.0.x wrote its subagents' lines into the session's own file (isSidechain)
        sidechains = version.startswith("1.") and "/" not in ref and _has_sidechain(path)
        return Claim(Certainty.SHAPE, lambda: _open(path, session, ref, aliases, label, sidechains))


SIDECHAIN_SEEN = 4 << 20
"""A 1.0.x session file up to this size is looked through at open for a subagent's line
(a bigger one is given its subagents' run unseen: the run is listed if it has lines)."""
_SIDE = (b'"isSidechain":true', b'"isSidechain": true')  # (as the CLI writes it, or spaced)


def _has_sidechain(path: str) -> bool:
    try:
        with open(path, "rb") as f:
            if os.fstat(f.fileno()).st_size > SIDECHAIN_SEEN:
                return True
            sparse.ensure_fd(f.fileno(), 0, SIDECHAIN_SEEN)  # (a remote mirror: fetched first)
            with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
                return any(data.find(form) >= 0 for form in _SIDE)
    except (OSError, ValueError):  # (an empty file cannot be mapped)
        return False


SIDECHAIN = "sidechain"
"""The name of a 1.0.x session's subagents' run, after the session's (``5d1c0a4e/sidechain``):
their lines, written into the session's own file, read apart from the session's."""


def _open(
    path: str,
    session: str,
    ref: str,
    aliases: tuple[str, ...],
    label: str | None,
    sidechains: bool,
) -> Opened:
    # a session's id is unique on its own (a random UUID): no file name before it
    source = SessionSource(path, SESSIONS, ref, label=label, aliases=aliases, alone=True)
    source.started = started(path, session)  # (a folder lists its sessions newest first)
    if not sidechains:
        return Opened((source,))
    side = SessionSource(
        path,
        SIDECHAINS,
        f"{ref}/{SIDECHAIN}",
        label=label,
        aliases=tuple(f"{a}/{SIDECHAIN}" for a in aliases),
        alone=True,
        cache=False,  # (the index cache keeps one entry a file: the session's)
    )
    side.started = None if source.started is None else source.started - 1e-6
    return Opened((source, side))


CLAUDE_CODE = ClaudeCodeFormat()
"""The registered Claude Code format."""
