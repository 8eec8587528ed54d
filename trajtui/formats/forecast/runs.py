"""A forecast run's status, run-list row, header fields and the whole :class:`Run`."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from trajtui.core.io.text import flat
from trajtui.core.model import Field, Outcome, Run, RunSummary
from trajtui.core.source import FormatInfo
from trajtui.core.units import cost
from trajtui.core.values import fields, mapping, num, sequence, string
from trajtui.formats.forecast.board import SourceBoard
from trajtui.formats.forecast.claim import EVAL as EVAL
from trajtui.formats.forecast.claim import RUN as RUN
from trajtui.formats.forecast.detail import ForecastRun
from trajtui.formats.forecast.files import RunFiles
from trajtui.formats.forecast.pool import MessagePool
from trajtui.formats.forecast.steps import build_steps, call_facts
from trajtui.formats.forecast.timeline import SPAN_LABEL, Timeline, run_duration, timeline

TITLE_LINE = re.compile(r"^[^\S\n]*Title:\s*(.+)$", re.MULTILINE)
"""The ``Title:`` line of a forecast problem. (Leading blanks never span lines: ``^\\s*``
would rescan every following blank line from each line start, quadratic on a message of
200,000 newlines.)"""


# -- status --------------------------------------------------------------------------------


def outcome_of(word: str | None) -> Outcome:
    """The outcome of a status word (see the module docstring for the mapping)."""
    if not word or word == "pending":
        return Outcome.RUNNING
    if word == "submitted":
        return Outcome.DONE
    low = word.lower()
    if "timeout" in low or "timedout" in low:
        return Outcome.TIMEOUT
    if low.startswith("skipped"):
        return Outcome.SKIPPED
    return Outcome.ERROR


def status_of(
    entry: dict[str, Any] | None, info: dict[str, Any] | None
) -> tuple[str | None, Outcome]:
    """The status word and outcome of a run from its summary.json entry and its info.json.

    A final summary status wins (a timed-out run's directory may still say nothing); else
    the run's own ``exit_status``; an empty one means the run is still being written.
    """
    listed = string(entry.get("status")) if entry is not None else None
    if listed and listed != "pending":
        return listed, outcome_of(listed)
    if info is not None:
        word = string(info.get("exit_status")) or None
        return word if word else listed, outcome_of(word)
    if listed:
        return listed, outcome_of(listed)
    return None, Outcome.NONE


# -- runs ----------------------------------------------------------------------------------


def board_of(files: RunFiles) -> SourceBoard | None:
    """The source board: sources.json, else ``info.board`` (up to 0.1.5), else None."""
    if files.sources_json is not None:
        found = files.sources_json
        return SourceBoard(found.get("sources"), found.get("source_board"))
    if files.info is not None and "board" in files.info:
        return SourceBoard({}, files.info.get("board"))
    return None


def problem_title(pool: MessagePool) -> str:
    """The forecast question: the ``Title:`` line of the first user message, else its text."""
    for key in pool.keys():
        m = pool.get(key)
        if m is None or m.role != "user":
            continue
        found = TITLE_LINE.search(m.text)
        return flat(found.group(1) if found else m.text)
    return ""


def _brier(evaluation: Any) -> float | None:
    return num(mapping(evaluation).get("brier_score"))


def _cost(entry: dict[str, Any] | None, info: dict[str, Any] | None) -> float | None:
    if info is not None:
        total = num(mapping(info.get("cost_stats")).get("total_cost"))
        if total is not None:
            return total
    if entry is not None:
        return num(mapping(entry.get("cost")).get("total"))
    return None


def _two_costs(entry: dict[str, Any] | None, info: dict[str, Any] | None) -> Field | None:
    """Both costs of a run whose summary.json entry and info.json disagree, each named by
    its file and key, the one the run list counts first (mini-prophet's eval writes 0.0 in
    summary.json for a run that raised, while its info.json counts what it spent); None
    when they agree or one is missing."""
    own = num(mapping(info.get("cost_stats")).get("total_cost")) if info is not None else None
    listed = num(mapping(entry.get("cost")).get("total")) if entry is not None else None
    if own is None or listed is None or own == listed:
        return None
    return Field(
        "cost",
        f"{cost(own)} (info.json cost_stats.total_cost: the run's cost in the run list, "
        f"stats and exports) · summary.json cost.total {cost(listed)} (what its total_cost counts)",
    )


def _score(entry: dict[str, Any] | None, info: dict[str, Any] | None) -> float | None:
    score = _brier(entry.get("evaluation")) if entry is not None else None
    if score is None and info is not None:
        score = _brier(info.get("evaluation"))
    return score


def _tool_errors(pool: MessagePool) -> int:
    count = 0
    for key in pool.keys():
        m = pool.get(key)
        if m is not None and m.role == "tool" and m.is_error:
            count += 1
    return count


def _tool_calls(pool: MessagePool) -> int:
    """The tool calls the run's assistant messages made."""
    return sum(len(sequence(mapping(pool.raw(key)).get("tool_calls"))) for key in pool.keys())


def summarize(
    ref: str,
    fmt: FormatInfo,
    entry: dict[str, Any] | None,
    files: RunFiles | None,
    line: Timeline | None,
    eval_head: dict[str, Any] | None = None,
) -> RunSummary:
    """The run-list row of a run, from its summary.json entry and/or its files
    (``eval_head``: the eval's summary.json without its runs, for a run of an eval)."""
    info = files.info if files is not None else None
    status, outcome = status_of(entry, info)
    score = _score(entry, info)
    title = string(entry.get("title")) if entry is not None else None
    if not title and line is not None:
        title = problem_title(line.pool)
    duration = run_duration(line.pool) if line is not None else None
    tools, tokens_in, tokens_out = call_facts(line) if line is not None else ((), None, None)
    return RunSummary(
        ref=ref,
        index=0,
        format=fmt.id,
        status=status,
        outcome=outcome,
        steps=len(line.steps) if line is not None else None,
        failed_tool_calls=_tool_errors(line.pool) if line is not None else None,
        tool_calls=_tool_calls(line.pool) if line is not None else None,
        duration_ms=duration,
        duration_label=SPAN_LABEL if duration is not None else None,
        score=score,
        score_label="brier" if score is not None else None,
        cost=_cost(entry, info),
        title=flat(title or ""),
        metadata=run_metadata(files, eval_head),
        tools=tools,
        tokens_in=tokens_in,
        tokens_out=tokens_out,
    )


INFO_ORDER = ("exit_status", "submission", "evaluation", "cost_stats", "token_usage", "version")
ENTRY_ORDER = ("title", "status", "error", "submission", "evaluation", "cost", "output_dir")


def run_fields(entry: dict[str, Any] | None, files: RunFiles | None) -> tuple[Field, ...]:
    """Everything the summary entry and info.json say, the entry first, ``config`` last.

    An info.json key whose value the entry already shows is not repeated; one whose value
    differs is labelled ``info.KEY`` (``evaluation`` is ``{}`` in info.json while summary.json
    holds the Brier score, for example).
    """
    out: list[Field] = []
    info = files.info if files is not None else None
    both = _two_costs(entry, info)
    if entry is not None:
        listed = fields(entry, ENTRY_ORDER, skip=("run_id", "task_id"))
        if both is not None:  # said once, named: the entry's own object under its file's name
            k = next(k for k, f in enumerate(listed) if f.label == "cost")
            listed = (
                *listed[:k],
                both,
                replace(listed[k], label="summary.json cost"),
                *listed[k + 1 :],
            )
        out.extend(listed)
    shown = {f.label: f.value for f in out}
    tail: list[Field] = []
    if info is not None:
        for f in fields(info, INFO_ORDER, skip=("board",)):
            if f.label in shown and shown[f.label] == f.value:
                continue
            label = f"info.{f.label}" if f.label in shown else f.label
            (tail if f.label == "config" else out).append(replace(f, label=label))
    traj = files.trajectory if files is not None else None
    if traj is not None and "trajectory_format" in traj:
        out.append(Field("trajectory_format", traj["trajectory_format"]))
    return (*out, *tail)


def _config_model(config: dict[str, Any]) -> dict[str, Any]:
    return mapping(config.get("model"))


def run_metadata(
    files: RunFiles | None, eval_head: dict[str, Any] | None = None
) -> tuple[tuple[str, str], ...]:
    """A run's facts for grouping, where the files say them: ``model`` and ``model_class``
    (info.json's ``config``, else the eval's ``eval_config``/``batch_config``), ``agent``
    (the eval's ``agent_name``), ``agent_type`` (info.json's ``config``), ``search`` (the
    eval's ``search_class``), ``dataset`` (the eval's ``dataset_name``) and ``version``
    (info.json's: the agent's version).

    Args:
        files: The run's files (None: a run listed with no directory).
        eval_head: The eval's summary.json without its runs, when the run is one of an eval.
    """
    info = files.info if files is not None else None
    config = mapping(info.get("config")) if info is not None else {}
    head = eval_head or {}
    eval_config = mapping(head.get("eval_config")) or mapping(head.get("batch_config"))
    evaluation = mapping(head.get("eval"))
    pairs = (
        (
            "model",
            _config_model(config).get("model_name"),
            _config_model(eval_config).get("model_name"),
        ),
        ("model_class", config.get("model_type"), _config_model(eval_config).get("model_class")),
        ("agent", evaluation.get("agent_name"), None),
        ("agent_type", config.get("agent_type"), None),
        ("search", mapping(eval_config.get("search")).get("search_class"), None),
        ("dataset", evaluation.get("dataset_name"), None),
        ("version", info.get("version") if info is not None else None, None),
    )
    out = []
    for key, own, listed in pairs:
        value = string(own) or string(listed)
        if value:
            out.append((key, value))
    return tuple(out)


def build_run(
    summary: RunSummary,
    entry: dict[str, Any] | None,
    files: RunFiles | None,
    eval_head: dict[str, Any] | None = None,
) -> Run:
    """A whole run: summary, steps, pool, board, fields, metadata and problems (``eval_head``:
    the eval's summary.json without its runs, for a run of an eval)."""
    line = timeline(files, summary.ref) if files is not None else None
    fresh = summarize(summary.ref, _format_of(summary), entry, files, line, eval_head)
    problems = (*(files.problems if files else ()), *(line.problems if line else ()))
    info = files.info if files is not None else None
    return Run(
        summary=replace(fresh, index=summary.index, line=summary.line),
        steps=build_steps(summary.ref, line) if line is not None else (),
        fields=run_fields(entry, files),
        raw=entry if entry is not None else info,
        detail=ForecastRun(
            line.pool if line is not None else None,
            board_of(files) if files is not None else None,
        ),
        problems=tuple(problems),
        path=files.path if files is not None else None,
        metadata=run_metadata(files, eval_head),
    )


def _format_of(summary: RunSummary) -> FormatInfo:
    return EVAL if summary.format == EVAL.id else RUN
