"""What ``x`` writes: the run table as the run list lists it, or one run, trial or step
(the same renderings as ``trajtui export``)."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from trajtui.core.io.jsonutil import dumps_line
from trajtui.core.io.sanitize import file_bytes
from trajtui.core.model import RunSummary
from trajtui.core.notes import notes_for
from trajtui.core.workspace import Workspace
from trajtui.render import export
from trajtui.ui.store import ENTRY, RunStore


def write_export_file(app: Any, path: str, make_text: Callable[[], str]) -> None:
    """Write what ``make_text`` makes to ``path`` (its folder made if need be) and say
    where it went, or why not, in a notification. Call it off the UI thread (a worker):
    ``make_text`` may read runs."""
    try:
        data = file_bytes(make_text())  # a byte of the data that is not UTF-8 kept as it was
        os.makedirs(os.path.dirname(os.path.abspath(path)), mode=0o700, exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
    except (OSError, ValueError) as err:
        why = getattr(err, "strerror", None) or str(err)
        app.call_from_thread(app.notify, f"{path}: {why}", severity="error", timeout=8)
        return
    app.call_from_thread(app.notify, f"written {path} ({len(data):,} bytes)", timeout=6)


def table_rows(ws: Workspace, store: RunStore) -> list[dict[str, Any]]:
    """The runs in the order and with the filter the run list has now (rows not read yet
    are read here: call it off the UI thread)."""
    rows = []
    marks: dict[int, export.Marks] = {}
    for kind, s, i in list(store.rows):
        if kind != ENTRY:
            continue
        source = ws.sources[s]
        entry = source.entry(i)
        if isinstance(entry, RunSummary):
            if s not in marks:
                marks[s] = marks_of(source.path)
            rows.append(export.table_record(entry, ws.ref(source, entry.ref), marks[s]))
    return rows


def marks_of(path: str) -> export.Marks:
    """The user's bookmarks and notes of the source at ``path``."""
    return {n.ref: (n.bookmarked, n.text) for n in notes_for(path)}


def export_text(ws: Workspace, store: RunStore, form: str, target: str | None) -> str:
    """The text of an export: the table when ``target`` is None, else that object.

    Raises:
        ValueError: The format does not apply to what is exported.
        RefError, LoadError: The target cannot be read (its file changed).
    """
    if target is None:
        rows = table_rows(ws, store)
        if form == "csv":
            return export.table_csv(rows)
        if form == "markdown":
            return export.table_markdown(rows)
        if form == "jsonl":
            return export.table_jsonl(rows)
        raise ValueError(f"the run table is not exported as {form}")
    found = ws.resolve(target)
    source = found.source
    run = source.run(found.index)
    attempt = run.attempt(found.attempt) if found.attempt is not None else None
    if found.step is not None:
        step = run.timeline(found.attempt)[found.step - 1]
        if form == "html":
            return export.step_html(step)
        if form == "markdown":
            return export.step_markdown(step)
        return dumps_line(step.raw) + "\n"
    shown = ws.ref(source, found.ref)
    marks = marks_of(source.path)
    if form == "html":
        return export.run_html(run, shown, attempt, marks)
    if form == "markdown":
        return export.run_markdown(run, shown, attempt, marks)
    if attempt is not None:
        return dumps_line(attempt.raw) + "\n"
    return export.record_jsonl(source, found.index, run)
