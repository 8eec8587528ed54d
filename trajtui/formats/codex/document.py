"""A TypeScript-era Codex rollout (0.1.x, April-May 2025): one pretty JSON document
``{"session": {"timestamp", "id", "instructions"}, "items": [...]}`` (``rollout-<date>-
<id>.json``), whose items are the Responses API items later versions write one per line.
These files are small (the CLI rewrote the whole document after each item): it is read
whole, and each item goes through the same steps and fold as a JSONL rollout's line.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

from trajtui.core.io import safeio
from trajtui.core.io.jsonutil import head_object, loads
from trajtui.core.jsonl.index import ScanProgress
from trajtui.core.model import Problem, Run
from trajtui.core.source import FormatInfo, LoadError
from trajtui.core.static_source import StaticSource
from trajtui.core.values import mapping, sequence
from trajtui.formats.codex.detail import detail_from, fields_from, summary_of
from trajtui.formats.codex.fold import Fold, thread_id_of_name
from trajtui.formats.codex.lines import SESSION_META, Line, epoch_ms, normalise
from trajtui.formats.codex.timeline import answers_of, steps_of

HEAD = 64 * 1024
"""Bytes read to tell a document by its top-level keys."""


def is_document(first: Any) -> bool:
    """An object (parsed, or its head's top-level keys) is a TS-era rollout: ``session``
    (an object) then ``items`` (an array), its first two keys."""
    if not isinstance(first, dict):
        return False
    keys = list(first)
    session, items = first.get("session"), first.get("items")
    return (
        keys[:2] == ["session", "items"] and isinstance(session, dict) and isinstance(items, list)
    )


def looks_like_document(path: str) -> bool:
    """The file starts a TS-era rollout document (its head read, nothing else)."""
    try:
        return is_document(head_object(safeio.read_head(path, HEAD)))
    except OSError:
        return False


def _lines(doc: dict[str, Any]) -> list[tuple[Line, Any]]:
    session = mapping(doc.get("session"))
    head = Line(SESSION_META, session, None, epoch_ms(session.get("timestamp")))
    return [(head, session), *((normalise(item), item) for item in sequence(doc.get("items")))]


class DocumentSource(StaticSource):
    """One TS-era rollout document: one run."""

    def __init__(self, path: str, fmt: FormatInfo, label: str | None = None) -> None:
        super().__init__(path, fmt, label)

    def _read(self) -> tuple[list[tuple[Line, Any]], Problem | None]:
        value, error = loads(safeio.read_bytes(self.path))
        if error is not None or not is_document(value) or "id" not in value["session"]:
            return [], Problem(self.label, 1, error or "not a Codex rollout document")
        return _lines(value), None

    def _load(self) -> Iterator[ScanProgress]:
        self.watch(self.path)
        try:
            lines, problem = self._read()
        except OSError as err:
            lines, problem = [], Problem(self.label, None, f"cannot read: {err.strerror or err}")
        if problem is not None:
            self.add_problem(problem)
        else:
            fold = Fold(thread_id_of_name(self.path))
            for line, _ in lines:
                fold.feed(line)
            facts = fold.facts()
            ref = facts.thread_id or os.path.basename(self.path)
            self.add_run(summary_of(facts, ref, 0, self.format.id), self._build)
        yield ScanProgress(1, 1, len(self), finished=True)

    def _build(self, ref: str) -> Run:
        try:
            lines, problem = self._read()
        except OSError as err:
            raise LoadError(
                Problem(self.label, None, f"cannot read: {err.strerror or err}")
            ) from err
        if problem is not None:
            raise LoadError(problem)
        fold = Fold(thread_id_of_name(self.path))
        for line, _ in lines:
            fold.feed(line)
        facts = fold.facts()
        steps = steps_of(
            lines, ref, start=facts.first_time, answers=answers_of(line for line, _ in lines)
        )
        summary = summary_of(facts, ref, 0, self.format.id)
        return Run(
            summary=summary,
            steps=tuple(steps),
            fields=fields_from(summary),
            detail=detail_from(summary),
            path=self.path,
            metadata=summary.metadata,
            run_tokens_in=summary.tokens_in,
            run_tokens_out=summary.tokens_out,
        )
