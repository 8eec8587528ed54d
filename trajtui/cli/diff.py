"""``trajtui diff``: two runs (or trials) side by side, their timelines aligned step by step.

Exit status as diff's: 0 when the two timelines are the same step for step, 1 when they
differ, 2 on trouble (a reference that names nothing, a file that cannot be read).
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable
from typing import Any

import click

from trajtui.cli.args import names_a_run, split_args
from trajtui.cli.cache import no_cache_option, use_cache
from trajtui.cli.output import open_workspace, print_err, workspace_rows
from trajtui.cli.show import resolve_streaming
from trajtui.cli.where import row_predicate, where_option
from trajtui.core.compare import (
    Comparison,
    Row,
    Side,
    SourceComparison,
    compare,
    compare_sources,
    side,
)
from trajtui.core.compare.align import Op, Pair
from trajtui.core.io.jsonutil import dumps_line
from trajtui.core.io.text import visible
from trajtui.core.model import RunSummary
from trajtui.core.refs import RefError
from trajtui.core.search.texts import graders_reasoning
from trajtui.core.source import LoadError, Source, Target
from trajtui.core.workspace import Workspace
from trajtui.render import compare as words
from trajtui.render.compare import comparison_html, comparison_markdown, comparison_text


def _side(ws: Workspace, ref: str) -> Side:
    """The run or trial ``ref`` names (a step's reference names its run or trial)."""
    target: Target = resolve_streaming(ws, ref)
    run = target.source.run(target.index)
    shown = ws.ref(target.source, target.ref.split("/step-")[0].split("-step-")[0])
    if target.attempt is not None:
        shown = ws.ref(target.source, f"{run.summary.ref}/trial-{target.attempt}")
    elif target.step is not None:
        shown = ws.ref(target.source, run.summary.ref)
    return side(run, shown, target.attempt)


def _pair_json(c: Comparison, p: Pair) -> dict[str, Any]:
    a = c.a.steps[p.a] if p.a is not None else None
    b = c.b.steps[p.b] if p.b is not None else None
    step = a if a is not None else b
    assert step is not None
    return {
        "op": p.op.value,
        "a": a.ref if a is not None else None,
        "b": b.ref if b is not None else None,
        "kind": step.kind.value,
        "tool": step.tool,
        "title": step.title,
        "similarity": round(p.similarity, 3),
        "why": p.why or None,
    }


def _side_json(s: Side) -> dict[str, Any]:
    return {
        "ref": s.ref,
        "status": s.status,
        "verdict": s.verdict,
        "score": s.score,
        "duration_ms": s.duration_ms,
        "cost": s.cost,
        "tokens_in": s.tokens_in,
        "tokens_out": s.tokens_out,
        "tool_calls": s.tool_calls,
        "failed_tool_calls": s.failed_tool_calls,
        "steps": len(s.steps),
        "reasoning": [{"ref": ref, "text": why} for ref, why in s.reasoning],
    }


def comparison_json(c: Comparison) -> dict[str, Any]:
    """The comparison as data: both sides' figures, the counts and every aligned pair."""
    al = c.alignment
    return {
        "a": _side_json(c.a),
        "b": _side_json(c.b),
        "same": c.same,
        "first_divergence": al.first_divergence,
        "counts": {op.name.lower(): al.count(op) for op in Op},
        "pairs": [_pair_json(c, p) for p in al.pairs],
    }


@click.command("diff")
@click.argument("args", nargs=-1, required=True, metavar="PATH... REF_A REF_B")
@click.option("--json", "as_json", is_flag=True, help="The comparison as one JSON object.")
@click.option(
    "-f",
    "--format",
    "form",
    type=click.Choice(["text", "json", "markdown", "html"]),
    default="text",
    help="text (default), json (as --json), markdown, or one self-contained html page (two runs).",
)
@where_option
@no_cache_option
def diff_cmd(
    args: tuple[str, ...], as_json: bool, form: str, where: str | None, no_cache: bool
) -> None:
    """Compare two runs step by step (PATH... REF_A REF_B), or two sources (PATH_A PATH_B).

    \b
    Each reference names a run or a trial as ls prints it (a step's reference names its
    run); the paths are the files or directories to find them in (one file for two runs of
    it, two files for a run of each: use SOURCE::REF when a reference is in both).
    Prints both sides' outcome, score, duration, cost, tokens and tool calls with their
    differences, each grader's reasoning (a line each; --json: whole), the first
    divergence, then one line per aligned pair of steps (a whole trials record: every
    trial's steps, trial-2/step-3):

    \b
      =  the same step (same tool and input, or same text; same output and status)
      ~  the same tool with another input, or a reworded text: what differs is said
      -  a step only A has        +  a step only B has (moved: where the other has it)

    \b
    Examples:
      trajtui diff trials.jsonl task-7/trial-1 task-7/trial-2
      trajtui diff before.jsonl after.jsonl before.jsonl::web-17 after.jsonl::web-17
      trajtui diff run.jsonl a b --json | jq '.pairs[] | select(.op != "=")'

    \b
    With two paths and no reference, compares the sources: the runs of each are paired by
    reference (the same prompt ids run by two agents, or before and after a change), and a
    table lists each prompt's outcome and score on both sides, flips first (pass to fail,
    then fail to pass), after a summary: pass rate of each side over the prompts both
    graded, flips each way, and the paired difference in mean score with its 95% interval;
    under each prompt's row, its graders' reasoning, a line each.

    \b
      trajtui diff codex.jsonl claude.jsonl
      trajtui diff before/ after/ --json | jq '.rows[] | select(.flip)'
      trajtui diff codex.jsonl claude.jsonl --where 'metadata.category:ui'

    Exit status: 0 when the timelines (or the sources' verdicts and scores) are the same,
    1 when they differ, 2 on trouble.
    """
    split = split_args("diff", args, names_a_run)
    paths, refs = split.paths, split.refs
    for note in split.notes:
        print_err(note)
    use_cache(no_cache)
    if not refs and len(paths) == 2:
        if form in ("markdown", "html"):
            print_err(f"trajtui diff: --format {form} is for two runs; two sources: text or json")
            sys.exit(2)
        keep = row_predicate(where)
        sys.exit(diff_sources(paths[0], paths[1], as_json or form == "json", keep))
    if where is not None:
        print_err("trajtui diff: --where selects the prompts of two sources; not with references")
        sys.exit(2)
    if len(refs) != 2 or not paths:
        print_err(
            "trajtui diff: give two files or directories, or the files and two references "
            f"(got {len(paths)} path(s) and {len(refs)} reference(s): {', '.join(refs) or '—'})"
        )
        sys.exit(2)
    ws = open_workspace(paths)
    if not ws.sources:
        sys.exit(2)
    try:
        try:
            c = compare(_side(ws, refs[0]), _side(ws, refs[1]))
        except RefError as err:
            print_err(f"trajtui diff: {err}")
            sys.exit(2)
        except LoadError as err:
            print_err(str(err.problem))
            sys.exit(2)
        if as_json or form == "json":
            click.echo(dumps_line(comparison_json(c)))
        elif form == "markdown":
            sys.stdout.write(comparison_markdown(c))
        elif form == "html":
            sys.stdout.write(comparison_html(c))
        else:
            sys.stdout.write(comparison_text(c, _width()))
    finally:
        ws.close()
    sys.exit(0 if c.same else 1)


def _width() -> int:
    """Characters of a line of reasoning: the terminal's width (``COLUMNS`` when set)."""
    return shutil.get_terminal_size((words.REASONING_WIDTH, 24)).columns


# -- two sources ---------------------------------------------------------------------------

Judged = list[tuple[str, str]]
"""A run's graders' reasoning: ``(the reference judged, the reasoning)`` pairs."""


class _Runs:
    """Every run of the sources under one path (the first of a reference seen twice), and
    each one's graders' reasoning, read when asked for."""

    def __init__(self, path: str, keep: Callable[[RunSummary], bool] | None) -> None:
        self.ws = open_workspace([path])
        self.runs: list[RunSummary] = []
        self._where: dict[str, Source] = {}
        for source, entry in workspace_rows(self.ws) if self.ws.sources else ():
            if isinstance(entry, RunSummary) and entry.ref not in self._where:
                if keep is not None and not keep(entry):
                    continue
                self._where[entry.ref] = source
                self.runs.append(entry)

    def judged(self, s: RunSummary | None) -> Judged:
        """The graders' reasoning of run ``s`` (none when it cannot be read: its row then
        says what it says, and the line reading it was reported when it was listed)."""
        if s is None:
            return []
        source = self._where[s.ref]
        index = source.find(s.ref)
        if index is None:
            return []
        try:
            return graders_reasoning(source.run(index))
        except (LoadError, OSError):
            return []


def _print_sources(
    path_a: str, path_b: str, c: SourceComparison, sides: tuple[_Runs, _Runs]
) -> None:
    out = sys.stdout
    na, nb = len(sides[0].runs), len(sides[1].runs)
    out.write(f"A  {visible(path_a, keep_newlines=False)} ({na:,} runs)\n")
    out.write(f"B  {visible(path_b, keep_newlines=False)} ({nb:,} runs)\n\n")
    for line in words.sources_summary(c):
        out.write(line + "\n")
    out.write("\n")
    rows = [("REF", "A", "B", "Δ SCORE", "")]
    for r in c.rows:
        rows.append(
            (
                visible(r.ref, keep_newlines=False),
                words.run_cell(r.a),
                words.run_cell(r.b),
                words.row_change(r.score_change),
                words.row_note(r.flip, r.a is not None, r.b is not None),
            )
        )
    widths = [max(len(row[k]) for row in rows) for k in range(5)]
    width = _width() - 2
    for k, row in enumerate(rows):
        out.write("  ".join(cell.ljust(widths[k]) for k, cell in enumerate(row)).rstrip() + "\n")
        if k:
            r = c.rows[k - 1]
            a, b = sides[0].judged(r.a), sides[1].judged(r.b)
            for line in words.judged_lines(r.ref, a, b, width):
                out.write("  " + line + "\n")


def _row_json(r: Row, sides: tuple[_Runs, _Runs]) -> dict[str, Any]:
    def one(s: RunSummary | None, runs: _Runs) -> dict[str, Any] | None:
        if s is None:
            return None
        return {
            "status": s.status,
            "verdict": s.outcome.verdict.value,
            "score": s.score,
            "reasoning": [{"ref": ref, "text": why} for ref, why in runs.judged(s)],
        }

    return {
        "ref": r.ref,
        "a": one(r.a, sides[0]),
        "b": one(r.b, sides[1]),
        "flip": r.flip,
        "score_change": r.score_change,
    }


def diff_sources(
    path_a: str, path_b: str, as_json: bool, keep: Callable[[RunSummary], bool] | None = None
) -> int:
    """Compare the runs under two paths; returns the exit status (0 same, 1 differ, 2
    trouble)."""
    sides = (_Runs(path_a, keep), _Runs(path_b, keep))
    try:
        return _diff_sources(path_a, path_b, as_json, sides)
    finally:
        for runs in sides:
            runs.ws.close()


def _diff_sources(path_a: str, path_b: str, as_json: bool, sides: tuple[_Runs, _Runs]) -> int:
    if not sides[0].ws.sources or not sides[1].ws.sources:
        return 2
    runs_a, runs_b = sides[0].runs, sides[1].runs
    c = compare_sources(runs_a, runs_b)
    if as_json:
        paired = None
        if c.paired is not None:
            iv = c.paired
            paired = {"mean": iv.mean, "ci95": [iv.low, iv.high], "interval": iv.method}
            paired["n"] = iv.n
        click.echo(
            dumps_line(
                {
                    "a": {"path": path_a, "runs": len(runs_a)},
                    "b": {"path": path_b, "runs": len(runs_b)},
                    "both": c.both,
                    "pass_a": {"passed": c.pass_a.count, "judged": c.pass_a.of},
                    "pass_b": {"passed": c.pass_b.count, "judged": c.pass_b.of},
                    "flips": {
                        "pass_to_fail": c.flips("pass→fail"),
                        "fail_to_pass": c.flips("fail→pass"),
                    },
                    "mean_score_a": c.mean_a,
                    "mean_score_b": c.mean_b,
                    "paired_score_difference": paired,
                    "rows": [_row_json(r, sides) for r in c.rows],
                }
            )
        )
    else:
        _print_sources(path_a, path_b, c, sides)
    return 0 if c.same else 1
