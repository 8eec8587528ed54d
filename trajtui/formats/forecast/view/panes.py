"""The extra panes of forecast runs, as data (:class:`~trajtui.render.view.PaneSpec`): the
message pool and the source board.

Messages lists, for the selected step, exactly what the model saw, in order, with ``+`` on
messages added and ``-`` on messages dropped since the previous step and ``→`` on the
message it produced; or every message of the pool. Sources lists each web source with its
title, site, date and whether (and how) it is on the board, board entries first. A row's
preview is the message or source itself (``RUN/msg:KEY``, ``RUN/src:SID``).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from rich.text import Text

from trajtui.core.io.text import one_line, visible
from trajtui.core.model import Run
from trajtui.formats.forecast.board import SourceBoard
from trajtui.formats.forecast.detail import MESSAGE, SOURCE, forecast_run
from trajtui.formats.forecast.pool import Message
from trajtui.formats.forecast.steps import step_context
from trajtui.formats.forecast.view.render import flags
from trajtui.render.view import PaneRow, PaneSpec, RowStyle, Styles

_MARK_STYLE = {"+": RowStyle.NEW, "-": RowStyle.GONE, "→": RowStyle.STRONG}


def _has_pool(run: Run) -> bool:
    return forecast_run(run).pool is not None


def _has_board(run: Run) -> bool:
    return forecast_run(run).board is not None


def context_rows(run: Run, number: int | None) -> list[PaneRow]:
    """Rows for step ``number`` (1-based) of a forecast run, or the whole pool."""
    pool = forecast_run(run).pool
    if pool is None:
        return []
    context = step_context(run, number) if number is not None else None
    if context is None:
        return [PaneRow(k) for k in pool.keys()]
    added = set(context.added) if number and number > 1 else set()
    rows = [PaneRow(k, "+" if k in added else " ") for k in context.keys]
    rows.extend(PaneRow(k, "-") for k in context.dropped)
    if context.output_key:
        rows.append(PaneRow(context.output_key, "→"))
    return rows


def _message(run: Run, key: str) -> Message | None:
    pool = forecast_run(run).pool
    return pool.get(key) if pool is not None else None


def message_line(run: Run, row: PaneRow, style: Styles) -> Text:
    """`` + A3    assistant [flags] title``: a row of the Messages pane."""
    text = Text(f" {row.mark} ", style(_MARK_STYLE.get(row.mark, RowStyle.DIM)))
    text.append(f"{visible(row.key, keep_newlines=False):<5} ", style(RowStyle.KEY))
    msg = _message(run, row.key)
    if msg is None:
        text.append("(not in the pool)", style(RowStyle.DIM))
        return text
    text.append(f"{visible(msg.role, keep_newlines=False):<10}", style(RowStyle.DIM))
    found = flags(msg)
    if found:
        text.append(f"[{', '.join(found)}] ", style(RowStyle.STRONG))
    text.append(msg.title)
    return text


def message_text(run: Run, row: PaneRow) -> str:
    msg = _message(run, row.key)
    return f"{row.key} {msg.role if msg else ''} {msg.text[:2000] if msg else ''}"


def messages_caption(number: int | None, rows: int) -> str:
    """What the Messages pane lists, over it."""
    if number is None:
        return f" every message of the pool ({rows:,}) · p: a step's context"
    if number > 1:
        return (
            f" what the model saw at step {number}: + added, - dropped since step "
            f"{number - 1} · p: whole pool"
        )
    return " what the model saw at step 1 (its first call) · p: whole pool"


def board_rows(run: Run, number: int | None) -> list[PaneRow]:
    """The run's sources: board entries first (in board order), then the other sources,
    then board entries that name no source (``#N``)."""
    board = forecast_run(run).board
    if board is None:
        return []
    on_board = [e.source_id for e in board.entries if e.source_id]
    rest = [sid for sid in board.board_source_ids() if sid not in on_board]
    sids = [*dict.fromkeys(on_board), *rest]
    sids.extend(f"#{entry.number}" for entry in board.entries if entry.source_id is None)
    return [PaneRow(sid) for sid in sids]


def _board(run: Run) -> SourceBoard | None:
    return forecast_run(run).board


def source_line(run: Run, row: PaneRow, style: Styles) -> Text:
    """``S3  ● title · site · date · reactions``: a row of the Sources pane."""
    sid = row.key
    board = _board(run)
    text = Text(" ")
    if board is None:
        return text
    if sid.startswith("#"):
        entry = board.entries[int(sid[1:]) - 1]
        cited = board.board_source_of(entry)
        text.append(f"{sid:<5} ", style(RowStyle.KEY))
        text.append("● ", style(RowStyle.NEW))
        text.append(one_line(str(cited.get("title", "(no title)"))))
        return text
    source = board.board_source(sid) or {}
    entries = board.entries_for(sid)
    text.append(f"{visible(sid, keep_newlines=False):<5} ", style(RowStyle.KEY))
    text.append("● " if entries else "  ", style(RowStyle.NEW))
    text.append(one_line(str(source.get("title") or "(no title)"), limit=80))
    site = urlsplit(str(source.get("url") or "")).netloc
    if site:
        text.append(f" · {visible(site, keep_newlines=False)}", style(RowStyle.DIM))
    if source.get("date"):
        text.append(f" · {visible(str(source['date']), keep_newlines=False)}", style(RowStyle.DIM))
    for entry in entries:
        reactions = ", ".join(
            f"{visible(str(k), keep_newlines=False)} {visible(str(v), keep_newlines=False)}"
            for k, v in entry.reaction.items()
        )
        if reactions:
            text.append(f" · {reactions}", style(RowStyle.NEW))
    return text


def source_text(run: Run, row: PaneRow) -> str:
    sid = row.key
    board = _board(run)
    source = board.board_source(sid) if board is not None and not sid.startswith("#") else None
    return f"{sid} {source or ''}"


MESSAGES = PaneSpec(
    name="messages",
    title="Messages",
    key="M",
    command="Message pool",
    help="Show the message pool",
    word=MESSAGE,
    absent="this run has no message pool",
    empty="no messages",
    has=_has_pool,
    rows=context_rows,
    line=message_line,
    text=message_text,
    follows_step=True,
    caption=messages_caption,
)
"""What the model saw at the selected step, or the whole pool (``p``)."""

SOURCES = PaneSpec(
    name="sources",
    title="Sources",
    key="B",
    command="Source board",
    help="Show the source board",
    word=SOURCE,
    absent="this run has no source board",
    empty="no sources",
    has=_has_board,
    rows=board_rows,
    line=source_line,
    text=source_text,
    mentions=True,
)
"""The web sources the run found, board entries first."""
