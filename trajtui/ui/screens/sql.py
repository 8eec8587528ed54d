"""The query screen (``Q``): SQL over the tables of what is open (``runs``, ``steps``,
``tool_calls``, ``trials``, as ``trajtui sql`` has them), the result as a table; enter on a
row that has a ``ref`` (or ``run_ref``) column goes to that run or step in the main screen,
as ``:`` does.

The tables are written (or brought up to date: only changed sources are written again) in
a worker, into the same cache ``trajtui sql`` of the same paths uses, once every file is
read; the query runs in a worker too. pyarrow and DuckDB are imported only there. Every cell
is plain text (made visible, never markup); an error is the one line ``trajtui sql`` says.
"""

from __future__ import annotations

import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static
from textual.worker import get_current_worker

from trajtui.core.io.text import visible
from trajtui.core.jsonl import indexcache
from trajtui.core.workspace import Workspace
from trajtui.ui.literal import SafeInput, literal

MAX_ROWS = 10_000
"""Result rows shown at most (the status says when there are more)."""
CELL_CHARS = 200
"""Characters of a cell shown at most (a long text ends in ``…``: the run has it whole)."""
REF_COLUMNS = ("ref", "run_ref")
"""The columns whose value ``enter`` goes to, the first the result has."""


def _cut(text: str) -> str:
    return text if len(text) <= CELL_CHARS else text[: CELL_CHARS - 1] + "…"


@dataclass(frozen=True, slots=True)
class SqlChoice:
    """What the screen leaves with: the query typed (remembered for the next opening) and
    the reference of the row chosen (None: none)."""

    query: str
    ref: str | None = None


@dataclass
class _Answer:
    columns: list[str]
    numeric: list[bool]
    cells: list[list[str]]
    refs: list[str | None]
    more: bool


class SqlScreen(Screen[SqlChoice]):
    """SQL over the tables of the open sources; enter on a result row opens its run."""

    BINDINGS = [
        Binding("escape", "close", "Close"),
        Binding("down", "to_rows", "Rows", show=False),
    ]

    DEFAULT_CSS = """
    SqlScreen > Vertical { height: 1fr; }
    SqlScreen #sql-status { color: $text-muted; height: auto; padding: 0 1; }
    SqlScreen #sql-status.-error { color: $error; }
    SqlScreen DataTable { height: 1fr; }
    """

    def __init__(
        self,
        ws: Workspace,
        paths: Sequence[str],
        query: str = "",
        *,
        ready: Callable[[], bool] = lambda: True,
    ) -> None:
        """Args:
        ws: What is open (its sources and their references).
        paths: The paths opened (the tables' cache is kept by them, as ``trajtui sql``'s).
        query: The query to start with (the last one of the session), run at once.
        ready: Every file is read (the tables are written once it is).
        """
        super().__init__()
        self.ws = ws
        self.paths = list(paths)
        self.ready = ready
        self._initial = query
        self._out: Path | None = None
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        self._con: Any = None
        self._lock = threading.Lock()
        self._refs: list[str | None] = []
        self.error = ""

    def compose(self) -> ComposeResult:
        with Vertical():
            yield SafeInput(
                value=self._initial,
                placeholder="SQL over runs, steps, tool_calls, trials · ⏎ runs it · esc: close",
                id="sql-input",
            )
            yield Static(id="sql-status")
            table: DataTable[Text] = DataTable(id="sql-rows", cursor_type="row", zebra_stripes=True)
            yield table
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(SafeInput).focus()
        if self._initial.strip():
            self._start(self._initial)
        else:
            self._say("type a query: SELECT ref, status, score FROM runs ORDER BY score")

    @property
    def table(self) -> DataTable[Text]:
        """The result table."""
        return self.query_one("#sql-rows", DataTable)

    # -- running ---------------------------------------------------------------------------

    @on(SafeInput.Submitted, "#sql-input")
    def _submitted(self, event: SafeInput.Submitted) -> None:
        self._start(event.value)

    def _start(self, query: str) -> None:
        self._say("running…" if self._con is not None else "writing the tables…")
        self._run(query)

    @work(thread=True, exclusive=True, group="sql", exit_on_error=False)
    def _run(self, query: str) -> None:
        worker = get_current_worker()
        with self._lock:
            if self._con is None and not self._build(lambda: worker.is_cancelled):
                return
            from trajtui.core.tables.sql import SqlError, cell_text, numeric_type
            from trajtui.core.tables.sql import query as run_query

            try:
                result = run_query(self._con, query)
                refs_at = next(
                    (result.columns.index(c) for c in REF_COLUMNS if c in result.columns), None
                )
                cells: list[list[str]] = []
                refs: list[str | None] = []
                more = False
                for row in result.rows:
                    if len(cells) == MAX_ROWS:
                        more = True
                        break
                    if worker.is_cancelled:
                        return
                    cells.append([_cut(cell_text(v)) for v in row])
                    ref = row[refs_at] if refs_at is not None else None
                    refs.append(ref if isinstance(ref, str) else None)
            except SqlError as err:
                if not worker.is_cancelled:
                    self.app.call_from_thread(self._say, str(err), True)
                return
            answer = _Answer(
                result.columns, [numeric_type(t) for t in result.types], cells, refs, more
            )
        if not worker.is_cancelled:
            self.app.call_from_thread(self._show, answer)

    def _build(self, stopped: Callable[[], bool]) -> bool:
        """Write the tables (in the worker) and connect to them; False when it could not
        be done (said) or was stopped."""
        while not self.ready():
            if stopped():
                return False
            self.app.call_from_thread(
                self._say, "the files are still being read: the query runs once they are"
            )
            time.sleep(0.2)
        from trajtui.core.tables.cachedir import cache_dir
        from trajtui.core.tables.sql import connect
        from trajtui.core.tables.writer import TablesError, write_tables

        out = cache_dir(self.paths) if indexcache.enabled() else None
        if out is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="trajtui-sql-")
            out = Path(self._tmp.name)
        last = [0.0]

        def progress(path: str, done: int, total: int) -> None:
            now = time.monotonic()
            if now - last[0] >= 0.1 and not stopped():
                last[0] = now
                shown = visible(path[-60:], keep_newlines=False)
                note = f"writing the tables: {shown} · runs {done:,}/{total:,}"
                self.app.call_from_thread(self._say, note)

        try:
            write_tables(
                self.ws.sources,
                self.ws.ref,
                out,
                inputs=self.paths,
                progress=progress,
                stopped=stopped,
                scanned=True,
            )
        except TablesError as err:
            self.app.call_from_thread(self._say, str(err), True)
            return False
        except OSError as err:
            self.app.call_from_thread(
                self._say, f"{err.filename or out}: {err.strerror or err}", True
            )
            return False
        if stopped():
            return False
        self._out = out
        self._con = connect(out)
        return True

    # -- drawing ---------------------------------------------------------------------------

    def _say(self, text: str, error: bool = False) -> None:
        self.error = text if error else ""
        status = self.query_one("#sql-status", Static)
        status.set_class(error, "-error")
        status.update(literal(text))

    def _show(self, answer: _Answer) -> None:
        table = self.table
        table.clear(columns=True)
        for name, numeric in zip(answer.columns, answer.numeric, strict=True):
            table.add_column(
                Text(visible(name, keep_newlines=False), justify="right" if numeric else "left")
            )
        for row in answer.cells:
            table.add_row(
                *(
                    Text(cell, justify="right" if numeric else "left", no_wrap=True)
                    for cell, numeric in zip(row, answer.numeric, strict=True)
                )
            )
        self._refs = answer.refs
        n = len(answer.cells)
        if not n:
            self._say("no rows")
            return
        note = f"{n:,} rows" if n != 1 else "1 row"
        if answer.more:
            note = f"the first {MAX_ROWS:,} rows (there are more: narrow the query or LIMIT it)"
        if any(r is not None for r in answer.refs):
            note += " · ↓ then ⏎ opens the run or step of a row"
        self._say(note)

    # -- keys ------------------------------------------------------------------------------

    def action_to_rows(self) -> None:
        if self.table.row_count:
            self.table.focus()

    @on(DataTable.RowSelected, "#sql-rows")
    def _chosen(self, event: DataTable.RowSelected) -> None:
        event.stop()
        row = event.cursor_row
        ref = self._refs[row] if 0 <= row < len(self._refs) else None
        if ref is None:
            self.app.notify("this row has no ref or run_ref column to open", timeout=3)
            return
        self._leave(ref)

    def action_close(self) -> None:
        self._leave(None)

    def _leave(self, ref: str | None) -> None:
        self.workers.cancel_group(self, "sql")
        con = self._con
        if con is not None:
            try:
                con.interrupt()
            except Exception:  # pragma: no cover - nothing running to interrupt
                pass
        self.dismiss(SqlChoice(self.query_one(SafeInput).value, ref))
