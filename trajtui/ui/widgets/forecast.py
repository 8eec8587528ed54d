"""Panes of forecast runs: the message pool and the source board.

The message list shows every message of the pool with its role-prefixed key, or, for the
selected step, exactly what the model saw, in order, with ``+`` on messages added and
``-`` on messages dropped since the previous step. The source list shows each source with
its title, site, date and whether (and how) it is on the board.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from rich.text import Text

from trajtui.core.io.text import one_line, visible
from trajtui.core.model import Run
from trajtui.formats.forecast.board import SourceBoard
from trajtui.formats.forecast.pool import Message
from trajtui.formats.forecast.steps import step_context
from trajtui.render.forecast import flags
from trajtui.render.views import FORECAST_VIEW
from trajtui.ui.widgets.vlist import VirtualList


@dataclass(frozen=True, slots=True)
class PoolRow:
    """One line of the message list.

    Attributes:
        key: The message key.
        mark: ``+`` added since the previous step, ``-`` dropped, ``→`` the step's output,
            or a space.
    """

    key: str
    mark: str = " "


def context_rows(run: Run, number: int | None) -> list[PoolRow]:
    """Rows for step ``number`` (1-based) of a forecast run, or the whole pool."""
    pool = FORECAST_VIEW.objects(run).pool
    if pool is None:
        return []
    context = step_context(run, number) if number is not None else None
    if context is None:
        return [PoolRow(k) for k in pool.keys()]
    added = set(context.added) if number and number > 1 else set()
    rows = [PoolRow(k, "+" if k in added else " ") for k in context.keys]
    rows.extend(PoolRow(k, "-") for k in context.dropped)
    if context.output_key:
        rows.append(PoolRow(context.output_key, "→"))
    return rows


class MessageList(VirtualList):
    """The message pool, or what the model saw at a step."""

    COMPONENT_CLASSES = VirtualList.COMPONENT_CLASSES | {
        "pool--added",
        "pool--dropped",
        "pool--output",
        "pool--key",
        "pool--dim",
    }

    DEFAULT_CSS = """
    MessageList {
        & > .pool--added { color: $success; text-style: bold; }
        & > .pool--dropped { color: $error; text-style: strike; }
        & > .pool--output { color: $accent; text-style: bold; }
        & > .pool--key { color: $accent; }
        & > .pool--dim { color: $text-muted; }
    }
    """

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.run: Run | None = None
        self.rows: list[PoolRow] = []
        self.empty_text = "no messages"

    def clear(self) -> None:
        """Show nothing (the run has no message pool)."""
        self.run = None
        self.rows = []
        self.reset(cursor=0)

    def show_pool(self, run: Run, number: int | None) -> None:
        """Show step ``number``'s context (None: the whole pool)."""
        key = self.current_key()
        self.run = run
        self.rows = context_rows(run, number)
        target = 0
        if key is not None:
            for k, row in enumerate(self.rows):
                if row.key == key:
                    target = k
                    break
        self.reset(cursor=target)

    @property
    def row_count(self) -> int:
        return len(self.rows)

    def current_key(self) -> str | None:
        """Key of the message under the cursor."""
        if not self.rows:
            return None
        return self.rows[min(self.cursor, len(self.rows) - 1)].key

    def row_of(self, key: str) -> int | None:
        """Row of message ``key``."""
        for k, row in enumerate(self.rows):
            if row.key == key:
                return k
        return None

    def _message(self, key: str) -> Message | None:
        pool = FORECAST_VIEW.objects(self.run).pool if self.run is not None else None
        return pool.get(key) if pool is not None else None

    def render_row(self, index: int, width: int) -> Text:
        row = self.rows[index]
        style = {"+": "pool--added", "-": "pool--dropped", "→": "pool--output"}.get(
            row.mark, "pool--dim"
        )
        text = Text(f" {row.mark} ", self.cstyle(style))
        text.append(f"{visible(row.key, keep_newlines=False):<5} ", self.cstyle("pool--key"))
        msg = self._message(row.key)
        if msg is None:
            text.append("(not in the pool)", self.cstyle("pool--dim"))
            return text
        text.append(f"{visible(msg.role, keep_newlines=False):<10}", self.cstyle("pool--dim"))
        found = flags(msg)
        if found:
            text.append(f"[{', '.join(found)}] ", self.cstyle("pool--output"))
        text.append(msg.title)
        return text

    def row_text(self, index: int) -> str:
        row = self.rows[index]
        msg = self._message(row.key)
        return f"{row.key} {msg.role if msg else ''} {msg.text[:2000] if msg else ''}"


class SourceList(VirtualList):
    """The sources a forecast run found; board entries marked with their reaction."""

    COMPONENT_CLASSES = VirtualList.COMPONENT_CLASSES | {"board--on", "board--dim", "board--sid"}

    DEFAULT_CSS = """
    SourceList {
        & > .board--on { color: $success; text-style: bold; }
        & > .board--dim { color: $text-muted; }
        & > .board--sid { color: $accent; }
    }
    """

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.run: Run | None = None
        self.sids: list[str] = []
        self.empty_text = "no sources"

    def clear(self) -> None:
        """Show nothing (the run has no source board)."""
        self.run = None
        self.sids = []
        self.reset(cursor=0)

    def show_board(self, run: Run) -> None:
        """Show ``run``'s sources (board entries first, in board order)."""
        if run is self.run:
            return
        self.run = run
        board = FORECAST_VIEW.objects(run).board
        self.sids = []
        if board is not None:
            on_board = [e.source_id for e in board.entries if e.source_id]
            rest = [sid for sid in board.board_source_ids() if sid not in on_board]
            self.sids = [*dict.fromkeys(on_board), *rest]
            for entry in board.entries:
                if entry.source_id is None:
                    self.sids.append(f"#{entry.number}")
        self.reset(cursor=0)

    @property
    def row_count(self) -> int:
        return len(self.sids)

    def current_sid(self) -> str | None:
        """Source id under the cursor."""
        if not self.sids:
            return None
        return self.sids[min(self.cursor, len(self.sids) - 1)]

    def row_of(self, sid: str) -> int | None:
        """Row of source ``sid``."""
        try:
            return self.sids.index(sid)
        except ValueError:
            return None

    def _board(self) -> SourceBoard | None:
        return FORECAST_VIEW.objects(self.run).board if self.run is not None else None

    def render_row(self, index: int, width: int) -> Text:
        sid = self.sids[index]
        board = self._board()
        text = Text(" ")
        if board is None:
            return text
        if sid.startswith("#"):
            entry = board.entries[int(sid[1:]) - 1]
            source = board.board_source_of(entry)
            text.append(f"{sid:<5} ", self.cstyle("board--sid"))
            text.append("● ", self.cstyle("board--on"))
            text.append(one_line(str(source.get("title", "(no title)"))))
            return text
        source = board.board_source(sid) or {}
        entries = board.entries_for(sid)
        text.append(f"{visible(sid, keep_newlines=False):<5} ", self.cstyle("board--sid"))
        text.append("● " if entries else "  ", self.cstyle("board--on"))
        text.append(one_line(str(source.get("title") or "(no title)"), limit=80))
        site = urlsplit(str(source.get("url") or "")).netloc
        if site:
            text.append(f" · {visible(site, keep_newlines=False)}", self.cstyle("board--dim"))
        if source.get("date"):
            text.append(
                f" · {visible(str(source['date']), keep_newlines=False)}", self.cstyle("board--dim")
            )
        for entry in entries:
            reactions = ", ".join(
                f"{visible(str(k), keep_newlines=False)} {visible(str(v), keep_newlines=False)}"
                for k, v in entry.reaction.items()
            )
            if reactions:
                text.append(f" · {reactions}", self.cstyle("board--on"))
        return text

    def row_text(self, index: int) -> str:
        sid = self.sids[index]
        board = self._board()
        source = board.board_source(sid) if board is not None and not sid.startswith("#") else None
        return f"{sid} {source or ''}"
