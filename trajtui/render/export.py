"""Views taken out of trajtui: the run table, a run or a step, as files other tools read.

* the run table as CSV, JSON Lines or a Markdown table, with the columns the run list shows;
* a run (or a trial) as Markdown in acp-harness's evaluation-record layout (``## Evaluation
  Record: ID``, numbered steps each ending ``[→ID-step-N]``), so a judge's markdown and
  trajtui name steps alike; or as one self-contained HTML file: no script, no network, every
  value escaped, long values folded in ``<details>``, readable offline;
* a step the same ways.

Everything from the file is untrusted and goes through :mod:`trajtui.core.io.sanitize`:
control characters and escape sequences are made visible (never written raw: an export may
end up printed on a terminal), Markdown output keeps text as text (every character Markdown
could read as HTML, a link, an image or emphasis escaped; values in fences longer than any
run of backticks in them), HTML is escaped once, CSV cells are defused for spreadsheets.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from trajtui.core.io.jsonutil import dumps_line
from trajtui.core.io.sanitize import (
    csv_cell,
    html_text,
    json_record,
    md_fence,
    md_text,
    visible,
)
from trajtui.core.io.text import unflat
from trajtui.core.model import Attempt, Field, Kind, Run, RunSummary, Step
from trajtui.core.search.texts import grader_reasoning
from trajtui.core.source import Source
from trajtui.render import fmt
from trajtui.render.columns import NUMBERS, WORDS, meta_value

PREVIEW = 100
"""Characters of a step's text in a Markdown trajectory line (as acp-harness writes it)."""
FOLD_LINES = 12
"""Values longer than this many lines are folded in the HTML export."""

TABLE_COLUMNS = (
    "ref",
    "status",
    "steps",
    "tool_calls",
    "failed_tool_calls",
    "toolErrors",
    "duration_ms",
    "score",
    "score_label",
    "cost",
    *(c.key for c in WORDS),
    "title",
    "bookmarked",
    "note",
)
"""The run list's columns, under the names ``ls --json`` uses (the file's own ``toolErrors``
flag under its name, a session's project as ``ls`` shows it), and the user's bookmark and
note on the run (``trajtui notes``)."""

Marks = dict[str, tuple[bool, str]]
"""The user's bookmarks and notes of one source: reference -> (bookmarked, note text)."""

_TAGS = {
    Kind.THOUGHT: "THOUGHT",
    Kind.MESSAGE: "MESSAGE",
    Kind.PLAN: "PLAN",
    Kind.MODEL_CALL: "MODEL",
    Kind.TASK: "TASK",
    Kind.SAMPLE: "SAMPLE",
    Kind.RESULT: "RESULT",
    Kind.OTHER: "STEP",
}


def _value_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return dumps_line(value) if not isinstance(value, (dict, list)) else _pretty(value)


def _pretty(value: Any) -> str:
    import json

    try:
        return json.dumps(value, indent=2, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


# -- the run table -----------------------------------------------------------------------------


def table_record(s: RunSummary, ref: str, marks: Marks | None = None) -> dict[str, Any]:
    """One row of the run table, as data (``ref`` as shown: qualified when several
    sources are open; ``marks``: the source's bookmarks and notes)."""
    row = {name: getattr(s, name, None) for name in TABLE_COLUMNS}
    row["ref"] = ref
    row["status"] = s.status
    row["toolErrors"] = s.tool_errors
    row["title"] = unflat(s.title)  # the input's line breaks, not the run list's ⏎
    for column in WORDS:
        row[column.key] = meta_value(s.metadata, column.key) or None
    bookmarked, note = (marks or {}).get(s.ref, (False, ""))
    row["bookmarked"] = bookmarked
    row["note"] = note or None
    return row


def table_csv(rows: Iterable[dict[str, Any]]) -> str:
    """The rows as CSV with a header (values made visible; a cell a spreadsheet would run
    as a formula, starting with ``=``, ``+``, ``-``, ``@``, a tab or CR, is prefixed with
    ``'``: :func:`~trajtui.core.io.sanitize.csv_cell`)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(TABLE_COLUMNS)
    for row in rows:
        writer.writerow([csv_cell(row.get(name)) for name in TABLE_COLUMNS])
    return out.getvalue()


def table_jsonl(rows: Iterable[dict[str, Any]]) -> str:
    """The rows as JSON Lines."""
    return "".join(dumps_line(row) + "\n" for row in rows)


def table_markdown(rows: Iterable[dict[str, Any]]) -> str:
    """The rows as a Markdown table (cells on one line, kept as text: pipes, HTML and
    links escaped)."""
    rows = list(rows)
    noted = any(row.get("note") or row.get("bookmarked") for row in rows)
    figures = [c.key for c in NUMBERS if c.key in _MD_CELLS]  # the column table's order
    words = [c.key for c in WORDS if any(row.get(c.key) for row in rows)]
    heads = ["ref", "status", *figures, *words, "title"]
    heads += ["your note"] if noted else []
    lines = ["| " + " | ".join(heads) + " |", "|" + "---|" * len(heads)]
    for row in rows:
        cells = [
            row["ref"],
            row["status"] or "",
            *(_MD_CELLS[key](row) for key in figures),
            *(row.get(key) or "" for key in words),
            row["title"] or "",
        ]
        if noted:
            cells.append(("★ " if row.get("bookmarked") else "") + (row.get("note") or ""))
        lines.append("| " + " | ".join(md_cell(str(c)) for c in cells) + " |")
    return "\n".join(lines) + "\n"


def _md_score(row: dict[str, Any]) -> str:
    return fmt.number(row["score"]) if row["score"] is not None else ""


_MD_CELLS: dict[str, Callable[[dict[str, Any]], str]] = {
    "steps": lambda row: _count(row["steps"]),
    "tool calls": lambda row: _count(row["tool_calls"]),
    "tool errors": lambda row: _errors(row),
    "duration": lambda row: (
        fmt.duration(row["duration_ms"]) if row["duration_ms"] is not None else ""
    ),
    "score": _md_score,
}
"""The cells of the run table's Markdown export, by column (the column table's key)."""


def _errors(row: dict[str, Any]) -> str:
    """The tool-errors cell, as the run list's (``flagged``: see :data:`fmt.FLAGGED`)."""
    if not row["failed_tool_calls"] and row.get("toolErrors") is True:
        return fmt.FLAGGED
    return _count(row["failed_tool_calls"])


def _count(n: int | None) -> str:
    return "" if n is None else f"{n:,}"


def md_cell(text: str) -> str:
    """A table cell: one line by nature, so a line break is a space (as Markdown reads a
    line break in a paragraph), never the screen's ``⏎``; escaped as all data text is."""
    return md_text(" ".join(part.strip() for part in text.splitlines() if part.strip()))


# -- a record as JSON Lines -------------------------------------------------------------------


def record_jsonl(source: Source, index: int, run: Run) -> str:
    """Run ``index`` of ``source`` as one JSON line: its record exactly as in the file when
    the source keeps records as lines (every dangerous character inside a string written as
    its JSON escape, the same value when parsed; bytes that are not UTF-8 kept for the
    writer: :func:`~trajtui.core.io.sanitize.json_record`), else its value encoded."""
    records = source.record_index()
    if records is not None:
        return json_record(records.read(index).rstrip(b"\r\n")) + "\n"
    return dumps_line(run.raw) + "\n"


# -- a run or a step as Markdown ---------------------------------------------------------------


def _one_line(text: str) -> str:
    """Text on one line, made visible, and nothing more (for a line HTML escapes after)."""
    return visible(text, keep_newlines=False)


def _inline(text: str, limit: int, esc: Callable[[str], str] = md_text) -> str:
    one = visible(text, keep_newlines=False)
    return esc(one[:limit]) + ("..." if len(one) > limit else "")


def _md_value(label: str, text: str, limit: int) -> list[str]:
    """``**Label:** text`` for a value of one line; a value of several lines in a fence
    after the label, line for line as in the file (whatever Markdown it holds stays text)."""
    cut = text[:limit] + ("..." if len(text) > limit else "")
    if "\n" not in cut.strip("\n"):
        return [f"**{md_text(label)}:** {_inline(text, limit)}"]
    return [f"**{md_text(label)}:**", "", md_fence(cut.strip("\n"))]


def step_line(step: Step, marks: Marks | None = None, *, markdown: bool = True) -> str:
    """A step as acp-harness's markdown writes it: ``N. [TOOL:name] -> status (Nms)
    [→REF]``, ``N. [THOUGHT] first 100 characters... [→REF]``; then the user's bookmark
    (``★``) and note, when it has them. Every text from the file in it is kept as text for
    Markdown, or, with ``markdown=False``, only made visible (for HTML to escape once)."""
    esc = md_text if markdown else _one_line
    if step.kind is Kind.TOOL_CALL:
        duration = f" ({step.duration_ms:g}ms)" if step.duration_ms else ""
        name = esc(step.tool or step.title)
        status = esc(step.status or "—")
        line = f"{step.number}. [TOOL:{name}] -> {status}{duration} [→{esc(step.ref)}]"
    else:
        text = step.text if step.text is not None else step.title
        tag = _TAGS.get(step.kind, "STEP")
        line = f"{step.number}. [{tag}] {_inline(text, PREVIEW, esc)} [→{esc(step.ref)}]"
    return line + _mark_text((marks or {}).get(step.ref), esc)


def _mark_text(mark: tuple[bool, str] | None, esc: Callable[[str], str] = md_text) -> str:
    if mark is None:
        return ""
    bookmarked, note = mark
    return (" ★" if bookmarked else "") + (f" — note: {_inline(note, 300, esc)}" if note else "")


def _trajectory_md(steps: Sequence[Step], marks: Marks | None) -> list[str]:
    lines = ["**Trajectory:**"]
    for step in steps:
        lines.append(step_line(step, marks))
        if step.kind is Kind.TOOL_CALL and step.input is not None:
            lines.append("   " + md_fence(_value_text(step.input), "json").replace("\n", "\n   "))
    return [*lines, ""]


def _verdict_md(
    status: str | None,
    duration: float | None,
    score: float | None,
    label: str | None = None,
    duration_label: str | None = None,
) -> list[str]:
    lines = [f"**Status:** {md_text(status or '—')}"]
    if duration is not None:
        what = f" ({md_text(duration_label)})" if duration_label else ""
        lines.append(f"**Duration:** {duration:g}ms{what}")
    if score is not None:
        what = f" ({md_text(label)})" if label and label != "score" else ""
        lines.append(f"**Score:** {fmt.number(score)}{what}")
    return lines


def _output_md(fields: Sequence[Field]) -> list[str]:
    out = next((f.value for f in fields if f.label == "output"), None)
    return [*_md_value("Output", _value_text(out), 200), ""] if out is not None else []


def _trial_md(trial: Attempt, marks: Marks | None) -> list[str]:
    """One trial of a whole trials record: its timeline, output, verdict and reasoning."""
    lines = [f"### Trial {trial.number}: {md_text(trial.ref)}", ""]
    own = (marks or {}).get(trial.ref)
    if own is not None:
        lines += [f"**Bookmark:**{_mark_text(own) or ' ★'}", ""]
    lines += _trajectory_md(trial.steps, marks)
    lines += _output_md(trial.fields)
    lines += _verdict_md(trial.status, trial.duration_ms, trial.score)
    reasoning = grader_reasoning(trial.fields)
    if reasoning is not None:
        lines += _md_value("Reasoning", reasoning, 2000)
    return [*lines, ""]


def run_markdown(
    run: Run, ref: str, attempt: Attempt | None = None, marks: Marks | None = None
) -> str:
    """A run (or one trial) as an evaluation record (with the user's bookmarks and notes
    from ``marks``); a whole trials record holds every trial, each with its timeline,
    output, verdict and grader's reasoning, then the record's own figures."""
    s = run.summary
    inp = next((f.value for f in run.fields if f.label == "input"), None)
    lines = [f"## Evaluation Record: {md_text(ref)}", ""]
    if inp is not None:
        lines += [*_md_value("Input", _value_text(inp), 2000), ""]
    own = (marks or {}).get(attempt.ref if attempt is not None else s.ref)
    if own is not None:
        lines += [f"**Bookmark:**{_mark_text(own) or ' ★'}", ""]
    whole_trials = attempt is None and not run.steps and run.attempts
    if whole_trials:
        for trial in run.attempts:
            lines += _trial_md(trial, marks)
        lines += [f"### The record: {len(run.attempts):,} trials", ""]
    else:
        lines += _trajectory_md(attempt.steps if attempt is not None else run.timeline(), marks)
        lines += _output_md((*(attempt.fields if attempt else ()), *run.fields))
    if run.metadata:
        meta = ", ".join(f"{k}={v}" for k, v in run.metadata)
        lines.append(f"**Metadata:** {_inline(meta, 2000)}")
    if attempt is not None:
        lines += _verdict_md(attempt.status, attempt.duration_ms, attempt.score)
    else:
        lines += _verdict_md(s.status, s.duration_ms, s.score, s.score_label, s.duration_label)
    passes = fmt.passes_text(s) if whole_trials else None
    if passes is not None:
        lines.append(f"**Passes:** {md_text(passes)}")
    reasoning = grader_reasoning(attempt.fields if attempt is not None else run.fields)
    if reasoning is not None:
        lines += _md_value("Reasoning", reasoning, 2000)
    lines += ["", "---", ""]
    return "\n".join(lines)


def step_markdown(step: Step) -> str:
    """One step whole: its line, then each value in a fence."""
    parts = [f"### {md_text(step.ref)}", "", step_line(step), ""]
    for label, value in _step_values(step):
        parts += [f"**{md_text(label)}:**", "", md_fence(_value_text(value)), ""]
    return "\n".join(parts)


def _step_values(step: Step) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    if step.text is not None:
        out.append(("text", step.text))
    if step.input is not None:
        out.append(("input", step.input))
    if step.output is not None:
        out.append(("output", step.output))
    if step.error is not None:
        out.append(("error", step.error))
    out.extend((f.label, f.value) for f in step.fields)
    return out


# -- HTML --------------------------------------------------------------------------------------

_CSS = """
body{font:14px/1.45 system-ui,sans-serif;max-width:70rem;margin:2rem auto;padding:0 1rem;
color:#1b1b1b;background:#fff}
h1{font-size:1.3rem} table{border-collapse:collapse} td,th{padding:.2rem .6rem;
text-align:left;vertical-align:top;border-bottom:1px solid #ddd}
pre{white-space:pre-wrap;word-break:break-word;background:#f6f6f6;padding:.5rem;margin:.3rem 0}
details>summary{cursor:pointer;color:#555} .k{color:#777;font-size:.85em} .ref{font-family:
monospace;color:#555}
@media (prefers-color-scheme:dark){body{color:#ddd;background:#161616}pre{background:#222}
td,th{border-color:#333}}
"""


def _value_html(value: Any) -> str:
    text = _value_text(value)
    block = f"<pre>{html_text(text)}</pre>"
    lines = text.count("\n") + 1
    if lines > FOLD_LINES:
        return f"<details><summary>{lines:,} lines</summary>{block}</details>"
    return block


def html_page(title: str, body: str, css: str = "") -> str:
    """One self-contained page around ``body`` (HTML already escaped): no script, and a
    content security policy that lets it fetch nothing (``css``: more style rules)."""
    return (
        "<!doctype html>\n<html><head><meta charset='utf-8'>"
        "<meta http-equiv='Content-Security-Policy' content=\"default-src 'none'; "
        "style-src 'unsafe-inline'\">"
        f"<title>{html_text(title)}</title><style>{_CSS}{css}</style></head><body>\n{body}\n"
        "<p class='k'>exported by trajtui</p></body></html>\n"
    )


def _facts_html(pairs: Sequence[tuple[str, str]]) -> str:
    cells = "".join(f"<tr><th>{html_text(k)}</th><td>{html_text(v)}</td></tr>" for k, v in pairs)
    return f"<table>{cells}</table>"


def _step_html(step: Step, marks: Marks | None = None) -> str:
    head = f"<span class='ref'>{html_text(step.ref)}</span> {html_text(step_line(step, marks, markdown=False))}"
    values = "".join(
        f"<div class='k'>{html_text(label)}</div>{_value_html(value)}"
        for label, value in _step_values(step)
    )
    return f"<details id='{html_text(step.ref)}'><summary>{head}</summary>{values}</details>"


def _trial_html(trial: Attempt, marks: Marks | None) -> list[str]:
    """One trial of a whole trials record: its figures, fields (output, the grader's
    reasoning) and timeline."""
    facts = [
        ("reference", trial.ref),
        ("status", trial.status or "—"),
        ("steps", f"{len(trial.steps):,}"),
        ("duration", fmt.duration(trial.duration_ms)),
        ("score", fmt.number(trial.score)),
    ]
    own = (marks or {}).get(trial.ref)
    if own is not None:
        facts.append(("your note", ("★ " if own[0] else "") + own[1]))
    body = [f"<h2 id='{html_text(trial.ref)}'>trial {trial.number}</h2>", _facts_html(facts)]
    body += [f"<h3 class='k'>{html_text(f.label)}</h3>{_value_html(f.value)}" for f in trial.fields]
    body.append(f"<h3>Timeline of trial {trial.number} ({len(trial.steps):,} steps)</h3>")
    body += [_step_html(step, marks) for step in trial.steps]
    return body


def run_html(run: Run, ref: str, attempt: Attempt | None = None, marks: Marks | None = None) -> str:
    """A run (or one trial) as one self-contained HTML page: facts, fields, the timeline
    with every step folded; a whole trials record, every trial so."""
    s = run.summary
    whole_trials = attempt is None and not run.steps and run.attempts
    steps = attempt.steps if attempt is not None else run.timeline()
    count = sum(len(t.steps) for t in run.attempts) if whole_trials else len(steps)
    facts = [
        ("reference", ref),
        ("status", (attempt.status if attempt else s.status) or "—"),
        ("steps", f"{count:,}"),
        ("duration", fmt.duration(attempt.duration_ms if attempt else s.duration_ms)),
        ("score", fmt.number(attempt.score if attempt else s.score)),
    ]
    if attempt is None:
        if s.duration_label:
            facts[3] = ("duration", f"{facts[3][1]} ({s.duration_label})")
        if s.score_label and s.score_label != "score":
            facts[4] = ("score", f"{facts[4][1]} ({s.score_label})")
        passes = fmt.passes_text(s)
        if passes is not None:
            facts.append(("passes", passes))
        facts += [("tool calls", _count(s.tool_calls) or "—"), ("cost", fmt.cost(s.cost))]
    facts += [(k, v) for k, v in run.metadata]
    own = (marks or {}).get(attempt.ref if attempt is not None else s.ref)
    if own is not None:
        facts.append(("your note", ("★ " if own[0] else "") + own[1]))
    fields = attempt.fields if attempt is not None else run.fields
    body = [f"<h1>{html_text(ref)}</h1>", _facts_html(facts)]
    body += [f"<h2 class='k'>{html_text(f.label)}</h2>{_value_html(f.value)}" for f in fields]
    if whole_trials:
        for trial in run.attempts:
            body += _trial_html(trial, marks)
    else:
        body.append(f"<h2>Timeline ({len(steps):,} steps)</h2>")
        body += [_step_html(step, marks) for step in steps]
    return html_page(ref, "\n".join(body))


def step_html(step: Step) -> str:
    """One step as a self-contained HTML page, unfolded."""
    return html_page(step.ref, _step_html(step).replace("<details ", "<details open ", 1))
