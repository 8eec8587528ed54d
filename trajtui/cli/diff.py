"""``trajtui diff``: two runs (or trials) side by side, their timelines aligned step by step.

Exit status as diff's: 0 when the two timelines are the same step for step, 1 when they
differ, 2 on trouble (a reference that names nothing, a file that cannot be read).
"""

from __future__ import annotations

import os
import sys
from typing import Any

import click

from trajtui.cli.cache import no_cache_option, use_cache
from trajtui.cli.output import open_workspace, print_err
from trajtui.cli.show import resolve_streaming
from trajtui.core.align import Op, Pair
from trajtui.core.compare import Comparison, Side, compare, difference, side
from trajtui.core.jsonutil import dumps_line
from trajtui.core.model import Step
from trajtui.core.refs import RefError
from trajtui.core.source import LoadError, Target
from trajtui.core.text import visible
from trajtui.core.workspace import Workspace
from trajtui.render import fmt

TITLE_CELLS = 60
"""Characters of a step's title printed on its line."""


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


def _num(value: float | None, unit: str = "", digits: int = 2) -> str:
    return "—" if value is None else f"{value:,.{digits}f}{unit}"


def _signed(value: float | None, unit: str = "", digits: int = 2) -> str:
    return "" if value is None or value == 0 else f"{value:+,.{digits}f}{unit}"


def _duration(ms: float | None) -> str:
    return "—" if ms is None else fmt.duration(ms)


def _figures(s: Side) -> list[str]:
    return [
        s.verdict + (f" ({s.status})" if s.status and s.status != s.verdict else ""),
        _num(s.score, digits=3),
        _duration(s.duration_ms),
        fmt.cost(s.cost),
        "—" if s.tokens_in is None else f"{s.tokens_in:,}",
        "—" if s.tokens_out is None else f"{s.tokens_out:,}",
        f"{s.tool_calls:,} ({s.failed_tool_calls:,} failed)",
        f"{len(s.steps):,}",
    ]


HEADS = ["outcome", "score", "duration", "cost", "tokens in", "tokens out", "tool calls", "steps"]


def _deltas(c: Comparison) -> list[str]:
    a, b = c.a, c.b
    dur = difference(a.duration_ms, b.duration_ms)
    return [
        "same" if a.verdict == b.verdict else f"{a.verdict} → {b.verdict}",
        _signed(difference(a.score, b.score), digits=3),
        "" if not dur else ("+" if dur > 0 else "-") + fmt.duration(abs(dur)),
        _signed(difference(a.cost, b.cost), digits=4),
        _signed(difference(a.tokens_in, b.tokens_in), digits=0),
        _signed(difference(a.tokens_out, b.tokens_out), digits=0),
        _signed(b.tool_calls - a.tool_calls, digits=0),
        _signed(len(b.steps) - len(a.steps), digits=0),
    ]


def _step_label(step: Step | None) -> str:
    return "·" if step is None else f"step-{step.number}"


def _describe(step: Step) -> str:
    name = step.tool if step.tool else step.kind.value
    title = visible(step.title or (step.text or ""), keep_newlines=False)
    if len(title) > TITLE_CELLS:
        title = title[: TITLE_CELLS - 1] + "…"
    return f"{name}  {title}" if title and title != name else name


def _print(c: Comparison) -> None:
    out = sys.stdout
    refs = [visible(c.a.ref, keep_newlines=False), visible(c.b.ref, keep_newlines=False)]
    rows = [["", "A", "B", "B - A"]]
    for k, head in enumerate(HEADS):
        rows.append([head, _figures(c.a)[k], _figures(c.b)[k], _deltas(c)[k]])
    out.write(f"A  {refs[0]}\nB  {refs[1]}\n\n")
    widths = [max(len(r[k]) for r in rows) for k in range(4)]
    for r in rows:
        out.write("  ".join(cell.ljust(widths[k]) for k, cell in enumerate(r)).rstrip() + "\n")
    al = c.alignment
    out.write("\n")
    if al.first_divergence is None:
        out.write(f"the timelines are the same: {len(al.pairs):,} steps, step for step\n")
    else:
        p = al.pairs[al.first_divergence]
        a = c.a.steps[p.a] if p.a is not None else None
        b = c.b.steps[p.b] if p.b is not None else None
        out.write(
            f"first divergence: A {_step_label(a)} / B {_step_label(b)}"
            + (f" ({p.why})" if p.why else "")
            + f"; {al.count(Op.SAME):,} same, {al.count(Op.CHANGED):,} changed, "
            f"{al.count(Op.ONLY_A):,} only in A, {al.count(Op.ONLY_B):,} only in B\n"
        )
    out.write("\n")
    for p in al.pairs:
        a = c.a.steps[p.a] if p.a is not None else None
        b = c.b.steps[p.b] if p.b is not None else None
        step = a if a is not None else b
        assert step is not None
        why = f"  [{visible(p.why, keep_newlines=False)}]" if p.why else ""
        out.write(
            f"{p.op.value}  {_step_label(a):<10} {_step_label(b):<10} {_describe(step)}{why}\n"
        )


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
@no_cache_option
def diff_cmd(args: tuple[str, ...], as_json: bool, no_cache: bool) -> None:
    """Compare two runs (or trials) step by step: PATH... REF_A REF_B.

    \b
    Each reference names a run or a trial as ls prints it (a step's reference names its
    run); the paths are the files or directories to find them in (one file for two runs of
    it, two files for a run of each: use SOURCE::REF when a reference is in both).
    Prints both sides' outcome, score, duration, cost, tokens and tool calls with their
    differences, the first divergence, then one line per aligned pair of steps:

    \b
      =  the same step (same tool and input, or same text; same output and status)
      ~  the same tool with another input, or a reworded text: what differs is said
      -  a step only A has        +  a step only B has (moved: where the other has it)

    \b
    Examples:
      trajtui diff trials.jsonl task-7/trial-1 task-7/trial-2
      trajtui diff before.jsonl after.jsonl before.jsonl::web-17 after.jsonl::web-17
      trajtui diff run.jsonl a b --json | jq '.pairs[] | select(.op != "=")'

    Exit status: 0 when the timelines are the same step for step, 1 when they differ,
    2 on trouble.
    """
    paths = [a for a in args if os.path.exists(a)]
    refs = [a for a in args if not os.path.exists(a)]
    if len(refs) != 2 or not paths:
        print_err(
            "trajtui diff: give the files or directories, then two references "
            f"(got {len(paths)} path(s) and {len(refs)} reference(s): {', '.join(refs) or '—'})"
        )
        sys.exit(2)
    use_cache(no_cache)
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
        if as_json:
            click.echo(dumps_line(comparison_json(c)))
        else:
            _print(c)
    finally:
        ws.close()
    sys.exit(0 if c.same else 1)
