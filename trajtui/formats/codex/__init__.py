"""Codex CLI rollouts: ``~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`` (and
``archived_sessions/``), one run per file, its lines the steps (see :mod:`.steps` for what
shows, :mod:`.fold` for every figure of the row).

Detection is by the first line, never the file name: a RolloutLine ``session_meta`` (0.3x
on: ``{"timestamp", ["ordinal",] "type": "session_meta", "payload": {"id", ...,
"cli_version" | "originator"}}``) names the format; the flat header of 0.1x-0.2x (``{"id",
"timestamp", "instructions", "git"}``, no ``type``) and the TypeScript-era document
(``{"session": {"id", ...}, "items": [...]}``) are known by their shape. An acp-harness
record holding Codex output is none of these (its first line is a capture record).

A directory holding rollouts (a ``sessions`` tree of ``YYYY/MM/DD`` folders, an
``archived_sessions`` folder) lists them newest first (by the start time their names
carry); each rollout's title starts with its start time and working directory.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from trajtui.core.format_api import Certainty, Claim, Format, Opened, Reach, Scope, claimed
from trajtui.core.io.detect import Sniffed, sniff
from trajtui.core.io.discover import Walked
from trajtui.core.jsonl.session import SessionSource
from trajtui.core.source import FormatInfo, Source
from trajtui.core.values import mapping, string
from trajtui.formats.codex.document import DocumentSource, looks_like_document
from trajtui.formats.codex.fold import thread_id_of_name
from trajtui.formats.codex.lines import is_flat_header
from trajtui.formats.codex.session import Parent, RolloutFormat

ROLLOUT = FormatInfo("codex", "Codex CLI rollout")

_NAME = re.compile(r"^rollout-.*\.jsonl?$")
_YEAR = re.compile(r"^\d{4}$")
_TWO = re.compile(r"^\d{2}$")
MAX_DEPTH = 3
"""Folders below a sessions root: ``YYYY/MM/DD``."""


def is_rollout_head(first: Any) -> Certainty | None:
    """How sure the first line of a JSONL file makes a rollout, or None."""
    if not isinstance(first, dict):
        return None
    if first.get("type") == "session_meta" and "payload" in first:
        payload = mapping(first.get("payload"))
        if isinstance(payload.get("id"), str) and (
            "cli_version" in payload or "originator" in payload
        ):
            return Certainty.MARKED
        return None
    if is_flat_header(first) and set(first) <= {"id", "timestamp", "instructions", "git"}:
        return Certainty.SHAPE
    return None


def _ref(path: str, first: Any) -> str:
    """A rollout's reference: its thread id (the first session_meta's, else its name's)."""
    head = mapping(first)
    thread = string(mapping(head.get("payload")).get("id")) or string(head.get("id"))
    if isinstance(head.get("session"), dict):
        thread = string(head["session"].get("id"))
    return thread or thread_id_of_name(path) or os.path.basename(path)


_STARTED = re.compile(r"^rollout-(\d{4})-(\d{2})-(\d{2})T(\d{2})-(\d{2})-(\d{2})")


def started_of_name(path: str) -> float | None:
    """When a rollout started, as its file name says (``rollout-2026-11-26T13-32-13-…``, the
    writer's clock), in seconds: a folder of rollouts lists them newest first by it."""
    m = _STARTED.match(os.path.basename(path))
    if m is None:
        return None
    try:
        y, mo, d, h, mi, sec = (int(g) for g in m.groups())
        when = datetime(y, mo, d, h, mi, sec, tzinfo=UTC)
    except ValueError:
        return None
    return when.timestamp()


def _rollout(path: str, fmt: RolloutFormat, ref: str, label: str | None) -> SessionSource:
    """A rollout's source: its thread id, a random UUID, names it alone (no file name before
    it when several are open), listed by when it started."""
    source = SessionSource(path, fmt, ref, label, alone=True)
    source.started = started_of_name(path)
    return source


def parent_of(first: Any) -> str | None:
    """The thread a rollout was forked or spawned from, as its first line names it
    (``forked_from_id``, or a sub-agent's ``parent_thread_id``), or None."""
    payload = mapping(mapping(first).get("payload"))
    forked = string(payload.get("forked_from_id"))
    if forked:
        return forked
    spawn = mapping(mapping(mapping(payload.get("source")).get("subagent")).get("thread_spawn"))
    return string(spawn.get("parent_thread_id"))


class CodexFormat(Format):
    """The Codex CLI rollout format (one run per file)."""

    infos = (ROLLOUT,)
    view = "trajtui.formats.codex.view:VIEW"

    def __init__(self) -> None:
        self.session = RolloutFormat(ROLLOUT)

    def source_of(self, path: str, sniffed: Sniffed, label: str | None) -> Source | None:
        """The source of a rollout file, or None when it is not one."""
        if sniffed.layout == "json" and looks_like_document(path):
            return DocumentSource(path, ROLLOUT, label)
        if sniffed.layout == "jsonl" and is_rollout_head(sniffed.first) is not None:
            return _rollout(path, self.session, _ref(path, sniffed.first), label)
        return None

    def claim_file(self, path: str, sniffed: Sniffed, label: str | None) -> Claim | None:
        if sniffed.layout == "json" and looks_like_document(path):
            return claimed(Certainty.SHAPE, DocumentSource(path, ROLLOUT, label))
        if sniffed.layout != "jsonl":
            return None
        certainty = is_rollout_head(sniffed.first)
        if certainty is None:
            return None
        ref = _ref(path, sniffed.first)
        return Claim(certainty, lambda: Opened((_rollout(path, self.session, ref, label),)))

    def claim_dir(self, place: Walked) -> Claim | None:
        if not _sessions_dir(place):
            return None
        return Claim(Certainty.NAME, lambda: self._open_dir(place))

    def _open_dir(self, place: Walked) -> Opened:
        sniffed: list[tuple[str, Sniffed]] = []
        for path in _rollout_files(place.path):
            try:
                sniffed.append((path, sniff(path)))
            except OSError:
                continue  # left to the walk, which reports it
        labels = {  # a rollout's thread id -> its label, to link a fork to its parent
            _ref(path, s.first): os.path.relpath(path, place.path)
            for path, s in sniffed
            if s.layout == "jsonl"
        }
        found: list[tuple[str, Source]] = []
        for path, s in sniffed:
            label = os.path.relpath(path, place.path)
            parent = parent_of(s.first) if s.layout == "jsonl" else None
            source: Source | None
            if parent is not None and parent in labels and is_rollout_head(s.first) is not None:
                fmt = RolloutFormat(ROLLOUT, Parent(parent, labels[parent]))
                source = _rollout(path, fmt, _ref(path, s.first), label)
            else:
                source = self.source_of(path, s, label)
            if source is not None:
                found.append((os.path.basename(path), source))
        found.sort(key=lambda pair: pair[0], reverse=True)  # newest first: names carry the time
        return Opened(tuple(s for _, s in found), scope=_SessionsScope(place.path, found))


def _sessions_dir(place: Walked) -> bool:
    """A folder of rollouts: ``rollout-*`` files, or ``YYYY`` folders (a ``sessions``
    root), or the ``MM``/``DD`` folders below one."""
    if any(_NAME.match(name) for name in place.files):
        return True
    base = os.path.basename(os.path.normpath(place.path))
    return base in ("sessions", "archived_sessions") and any(_YEAR.match(d) for d in place.dirs)


def _rollout_files(root: str) -> Iterator[str]:
    """The ``rollout-*`` files of ``root`` and of its ``YYYY/MM/DD`` folders."""

    def walk(path: str, depth: int) -> Iterator[str]:
        try:
            entries = sorted(os.scandir(path), key=lambda e: e.name)
        except OSError:
            return
        for entry in entries:
            if entry.is_file(follow_symlinks=False) and _NAME.match(entry.name):
                yield entry.path
            elif (
                depth < MAX_DEPTH
                and entry.is_dir(follow_symlinks=False)
                and (_YEAR.match(entry.name) if depth == 0 else _TWO.match(entry.name))
            ):
                yield from walk(entry.path, depth + 1)

    yield from walk(root, 0)


class _SessionsScope(Scope):
    """What a sessions folder's claim reads: the rollouts it opened; every other file and
    folder is walked and offered to every format."""

    def __init__(self, root: str, found: list[tuple[str, Source]]) -> None:
        super().__init__(root)
        self.mine = {os.path.normpath(s.path) for _, s in found}

    def reach_dir(self, place: Walked) -> Reach:
        return Reach.FILES

    def reach_file(self, place: Walked, name: str) -> Reach:
        path = os.path.normpath(os.path.join(place.path, name))
        return Reach.ALL if path in self.mine else Reach.NONE


CODEX = CodexFormat()
