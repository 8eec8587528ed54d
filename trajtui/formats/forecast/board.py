"""A forecast run's source board: the web sources it found and the board of the ones it kept.

Web sources (here "board sources", never trajtui's :class:`~trajtui.core.source.Source`, an
opened file) are ``S1``, ``S2``... in ``sources.json`` (or ``info.board`` in versions up to
0.1.5, whose entries embed their source). Their ids share the letter ``S`` with the system
messages of the pool (:mod:`~.pool`) and are a different namespace.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from trajtui.core.values import mapping, sequence, string

BoardSource = dict[str, Any]
"""A web source as in the file: ``{url, title, snippet, date}`` and whatever else it holds."""


@dataclass(frozen=True, slots=True)
class BoardEntry:
    """One entry of the source board.

    Attributes:
        number: 1-based position on the board.
        source_id: The ``source_id`` it points to, or None.
        note: The agent's note.
        reaction: Outcome -> reaction word (``very_positive`` ... ``very_negative``).
        fallback: The entry's own ``source`` object (a board source), used when the
            entry's ``source_id`` names none.
        raw: The entry as in the file.
    """

    number: int
    source_id: str | None
    note: str
    reaction: dict[str, Any]
    fallback: BoardSource | None
    raw: Any


class SourceBoard:
    """The web sources a forecast run found and the board of the ones it kept."""

    def __init__(self, board_sources: Any, board: Any) -> None:
        """Args:
        board_sources: ``sources`` from sources.json: id -> {url, title, snippet, date}.
        board: ``source_board`` (or ``info.board``): a list of entries.
        """
        self._board_sources = mapping(board_sources)
        self._board_raw = sequence(board)
        self._entries: list[BoardEntry] | None = None

    def board_source_ids(self) -> list[str]:
        """Every web source's id, in file order: those of ``sources``, then ids only the
        board knows (``info.board`` of versions up to 0.1.5, whose entries embed their
        source)."""
        ids = list(self._board_sources)
        known = set(ids)
        for entry in self.entries:
            if entry.source_id is not None and entry.source_id not in known:
                ids.append(entry.source_id)
                known.add(entry.source_id)
        return ids

    def board_source(self, sid: str) -> BoardSource | None:
        """The web source with this id (an object), or None.

        Looked up in ``sources``; failing that, the embedded ``source`` of the first board
        entry whose ``source_id`` is ``sid`` (older runs have no ``sources`` at all).
        """
        value = self._board_sources.get(sid)
        if isinstance(value, dict):
            return value
        for entry in self.entries:
            if entry.source_id == sid and entry.fallback is not None:
                return entry.fallback
        return None

    def raw_board_source(self, sid: str) -> Any:
        """The web source as in the file (the board entry's embedded one for older runs)."""
        if sid in self._board_sources:
            return self._board_sources[sid]
        return self.board_source(sid)

    @property
    def entries(self) -> list[BoardEntry]:
        """The board, in order."""
        if self._entries is None:
            out = []
            for n, raw in enumerate(self._board_raw, 1):
                m = mapping(raw)
                sid = m.get("source_id")
                fallback = m.get("source")
                out.append(
                    BoardEntry(
                        number=n,
                        source_id=str(sid) if isinstance(sid, (str, int)) else None,
                        note=string(m.get("note")) or "",
                        reaction=mapping(m.get("reaction")),
                        fallback=fallback if isinstance(fallback, dict) else None,
                        raw=raw,
                    )
                )
            self._entries = out
        return self._entries

    def board_source_of(self, entry: BoardEntry) -> BoardSource:
        """The web source an entry points to: by ``source_id``, else its fallback ``source``."""
        if entry.source_id is not None:
            found = self.board_source(entry.source_id)
            if found is not None:
                return found
        return entry.fallback or {}

    def entries_for(self, sid: str) -> list[BoardEntry]:
        """Board entries pointing at web source ``sid``."""
        return [e for e in self.entries if e.source_id == sid]
