"""Two runs compared, in words: the same wording for ``trajtui diff``, the TUI's compare
screen and exports (text, Markdown, HTML)."""

from __future__ import annotations

import io

from trajtui.core.compare import Comparison, Rate, Side, SourceComparison, difference
from trajtui.core.compare.align import Op
from trajtui.core.io.sanitize import html_text, md_fence, md_text, visible
from trajtui.core.io.text import flat
from trajtui.core.model import RunSummary, Step
from trajtui.core.units import share
from trajtui.render import fmt
from trajtui.render.export import md_cell

TITLE_CELLS = 60
"""Characters of a step's title printed on its line."""


def figures(s: Side) -> list[str]:
    """A side's figures, in the order of :data:`HEADS`, spelled as the run list and
    ``show`` spell them (the file's status word made visible)."""
    status = visible(s.status, keep_newlines=False) if s.status else ""
    return [
        s.verdict + (f" ({status})" if status and s.status != s.verdict else ""),
        fmt.number(s.score),
        fmt.duration(s.duration_ms),
        fmt.cost(s.cost),
        fmt.number(s.tokens_in),
        fmt.number(s.tokens_out),
        _calls(s),
        fmt.number(len(s.steps)),
    ]


def _calls(s: Side) -> str:
    """``12 (1 failed)``; ``—`` for what the file does not tell (never 0)."""
    if s.tool_calls is None:
        return fmt.ABSENT
    return f"{fmt.number(s.tool_calls)} ({fmt.number(s.failed_tool_calls)} failed)"


HEADS = ["outcome", "score", "duration", "cost", "tokens in", "tokens out", "tool calls", "steps"]


def heads(c: Comparison) -> list[str]:
    """:data:`HEADS`, the score named as the file names it when both sides' is the same
    kind (a Harbor trial's ``reward``, as ``show`` says)."""
    label = c.a.score_label if c.a.score_label == c.b.score_label else None
    return [label if h == "score" and label else h for h in HEADS]


def deltas(c: Comparison) -> list[str]:
    """B - A of each figure, spelled as the figure is (:func:`fmt.signed`)."""
    a, b = c.a, c.b
    return [
        "same" if a.verdict == b.verdict else f"{a.verdict} → {b.verdict}",
        fmt.signed(difference(a.score, b.score)),
        fmt.signed(difference(a.duration_ms, b.duration_ms), fmt.duration),
        fmt.signed(difference(a.cost, b.cost), fmt.cost),
        fmt.signed(difference(a.tokens_in, b.tokens_in)),
        fmt.signed(difference(a.tokens_out, b.tokens_out)),
        fmt.signed(difference(a.tool_calls, b.tool_calls)),
        fmt.signed(len(b.steps) - len(a.steps)),
    ]


def title_lines(what: str, a: str, b: str, width: int) -> list[str]:
    """The title of a comparison in ``width`` characters: `` compare  A x  ·  B y`` on one
    line when it fits, else A and B on a line each, aligned, their names cut by what they
    share (:func:`fmt.elide_pair`): which is B is always said. ``a`` and ``b`` are made
    visible."""
    a, b = visible(a, keep_newlines=False), visible(b, keep_newlines=False)
    one = f" {what}  A {a}  ·  B {b}"
    if len(one) <= width:
        return [one]
    pad = " " * (len(what) + 3)
    x, y = fmt.elide_pair(a, b, max(1, width - len(pad) - 2))
    return [f" {what}  A {x}", f"{pad}B {y}"]


def side_heads(a: str, b: str, width: int) -> tuple[str, str]:
    """`` A x`` and `` B y`` in ``width`` characters each (over each side's half of the
    aligned rows), cut by what the names share (:func:`fmt.elide_pair`)."""
    x, y = fmt.elide_pair(
        visible(a, keep_newlines=False), visible(b, keep_newlines=False), max(1, width - 3)
    )
    return f" A {x}".ljust(width), f" B {y}".ljust(width)


def step_label(side: Side, index: int | None) -> str:
    """Step ``index`` of ``side`` by its name in the side (``step-N``, ``trial-T/step-N``
    in a whole trials record), or ``·`` for the side that has no step."""
    return "·" if index is None else side.step_name(index)


def describe(step: Step, *, newline: str = "\u23ce") -> str:
    """The tool (or kind) and the title of a step, on one line (its line breaks shown as
    ``newline``: ``⏎`` on a screen, a space in an export), cut with an ellipsis (both made
    visible: a tool name is the file's)."""
    name = visible(step.tool, keep_newlines=False) if step.tool else step.kind.value
    title = visible(step.title or (step.text or ""), tab="\u21e5").replace("\n", newline)
    if len(title) > TITLE_CELLS:
        title = title[: TITLE_CELLS - 1] + "…"
    return f"{name}  {title}" if title and title != name else name


def comparison_text(c: Comparison, width_of: int | None = None) -> str:
    """The comparison as ``trajtui diff`` prints it: both sides' figures, each grader's
    reasoning on a line of ``width_of`` characters, the first divergence, one line per
    aligned pair."""
    out = io.StringIO()
    refs = [visible(c.a.ref, keep_newlines=False), visible(c.b.ref, keep_newlines=False)]
    rows = figure_rows(c)
    out.write(f"A  {refs[0]}\nB  {refs[1]}\n\n")
    widths = [max(len(r[k]) for r in rows) for k in range(4)]
    for r in rows:
        out.write("  ".join(cell.ljust(widths[k]) for k, cell in enumerate(r)).rstrip() + "\n")
    for line in reasoning_lines(c, REASONING_WIDTH if width_of is None else width_of):
        out.write(line + "\n")
    al = c.alignment
    out.write("\n" + divergence_line(c) + "\n\n")
    width = max([10, *(len(step_label(s, k)) for s in (c.a, c.b) for k in range(len(s.steps)))])
    for p in al.pairs:
        a = c.a.steps[p.a] if p.a is not None else None
        b = c.b.steps[p.b] if p.b is not None else None
        step = a if a is not None else b
        assert step is not None
        why = f"  [{visible(p.why, keep_newlines=False)}]" if p.why else ""
        la, lb = step_label(c.a, p.a), step_label(c.b, p.b)
        out.write(f"{p.op.value}  {la:<{width}} {lb:<{width}} {describe(step)}{why}\n")
    return out.getvalue()


def pair_steps(c: Comparison, k: int) -> tuple[Step | None, Step | None]:
    """The two steps of aligned pair ``k`` (None on the side that has none)."""
    p = c.alignment.pairs[k]
    return (
        c.a.steps[p.a] if p.a is not None else None,
        c.b.steps[p.b] if p.b is not None else None,
    )


def divergence_line(c: Comparison) -> str:
    """``first divergence: A step-3 / B step-3 (input differs: url); 3 same, ...`` or
    ``the timelines are the same: N steps, step for step``."""
    al = c.alignment
    if al.first_divergence is None:
        return f"the timelines are the same: {len(al.pairs):,} steps, step for step"
    p = al.pairs[al.first_divergence]
    return (
        f"first divergence: A {step_label(c.a, p.a)} / B {step_label(c.b, p.b)}"
        + (f" ({visible(p.why, keep_newlines=False)})" if p.why else "")
        + f"; {al.count(Op.SAME):,} same, {al.count(Op.CHANGED):,} changed, "
        f"{al.count(Op.ONLY_A):,} only in A, {al.count(Op.ONLY_B):,} only in B"
    )


REASONING_WIDTH = 100
"""Characters of a grader's reasoning line in ``diff``'s text where the width is not known."""


def reasoning_rows(c: Comparison) -> list[tuple[str, str]]:
    """``(whose, the grader's reasoning)`` for each side that has one, A's then B's: ``A``,
    or ``A trial-2`` for each trial of a whole trials record."""
    return [
        (name + _judged_part(side, ref), why)
        for name, side in (("A", c.a), ("B", c.b))
        for ref, why in side.reasoning
    ]


def _judged_part(side: Side, ref: str) -> str:
    """`` trial-2`` when ``ref`` is a trial of the side's whole trials record, else ""."""
    if side.trials and ref.startswith(side.ref + "/"):
        return " " + ref[len(side.ref) + 1 :]
    return ""


def reasoning_line(name: str, why: str, width: int) -> str:
    """``grader A  the reasoning…``: one line of ``width`` characters at most (its line
    breaks as ``⏎``, cut with ``…``)."""
    head = f"grader {name}  "
    return head + flat(why, limit=max(20, width - len(head)))


def judged_lines(
    ref: str, a: list[tuple[str, str]], b: list[tuple[str, str]], width: int
) -> list[str]:
    """A prompt's graders' reasoning in a source comparison, a line each (``grader A``,
    ``grader B trial-2``), from each side's ``(judged reference, reasoning)`` pairs."""
    lines = []
    for name, judged in (("A", a), ("B", b)):
        for whose, why in judged:
            part = whose[len(ref) + 1 :] if whose.startswith(ref + "/") else ""
            label = visible(f"{name} {part}" if part else name, keep_newlines=False)
            lines.append(reasoning_line(label, why, width))
    return lines


def reasoning_lines(c: Comparison, width: int) -> list[str]:
    """Each grader's reasoning of the comparison, a line each (:func:`reasoning_line`)."""
    lines = [
        reasoning_line(visible(name, keep_newlines=False), why, width)
        for name, why in reasoning_rows(c)
    ]
    return ["", *lines] if lines else []


def figure_rows(c: Comparison) -> list[list[str]]:
    """``[figure, A, B, B - A]`` rows, a header row first."""
    fa, fb, d = figures(c.a), figures(c.b), deltas(c)
    return [["", "A", "B", "B - A"]] + [[h, fa[k], fb[k], d[k]] for k, h in enumerate(heads(c))]


def _md(text: str) -> str:
    """A table cell (an export holds the text: a line break is a space, never ``⏎``)."""
    return md_cell(text)


def comparison_markdown(c: Comparison) -> str:
    """The comparison as Markdown: the figures table, the first divergence, the aligned
    steps as a table (op, A, B, step, what differs)."""
    lines = [f"## Compare: {md_text(c.a.ref)} vs {md_text(c.b.ref)}", ""]
    rows = figure_rows(c)
    lines.append("| " + " | ".join(md_text(x) for x in rows[0]) + " |")
    lines.append("|---|---|---|---|")
    lines += ["| " + " | ".join(_md(x) for x in r) + " |" for r in rows[1:]]
    for name, why in reasoning_rows(c):
        lines += ["", f"**grader {md_text(name)}:**", "", md_fence(why)]
    lines += [
        "",
        md_text(divergence_line(c)),
        "",
        "| op | A | B | step | differs |",
        "|---|---|---|---|---|",
    ]
    for k, p in enumerate(c.alignment.pairs):
        a, b = pair_steps(c, k)
        step = a if a is not None else b
        assert step is not None
        op = p.op.value if p.op.value not in "+-" else "\\" + p.op.value
        la, lb = step_label(c.a, p.a), step_label(c.b, p.b)
        lines.append(f"| {op} | {la} | {lb} | {_md(describe(step, newline=' '))} | {_md(p.why)} |")
    return "\n".join(lines) + "\n"


def comparison_html(c: Comparison) -> str:
    """The comparison as one self-contained HTML page (escaped; no script, no network)."""

    rows = figure_rows(c)
    table = "".join("<tr>" + "".join(f"<td>{html_text(x)}</td>" for x in r) + "</tr>" for r in rows)
    steps = []
    for k, p in enumerate(c.alignment.pairs):
        a, b = pair_steps(c, k)
        cells = [
            p.op.value,
            step_label(c.a, p.a),
            describe(a, newline=" ") if a else "",
            step_label(c.b, p.b),
            describe(b, newline=" ") if b else "",
            p.why,
        ]
        steps.append(
            f"<tr class='{p.op.name.lower()}'>"
            + "".join(f"<td>{html_text(x)}</td>" for x in cells)
            + "</tr>"
        )
    css = (
        "body{font:14px/1.4 system-ui,sans-serif;margin:2rem}td{padding:.15rem .5rem;"
        "vertical-align:top;border-bottom:1px solid #ddd}.changed{background:#fff6d6}"
        ".only_a{background:#fde4e4}.only_b{background:#e2f6e2}"
    )
    return (
        "<!doctype html>\n<html><head><meta charset='utf-8'>"
        "<meta http-equiv='Content-Security-Policy' content=\"default-src 'none'; "
        "style-src 'unsafe-inline'\">"
        f"<title>{html_text(c.a.ref)} vs {html_text(c.b.ref)}</title><style>{css}</style></head><body>"
        f"<h1>{html_text(c.a.ref)} vs {html_text(c.b.ref)}</h1><table>{table}</table>"
        + "".join(
            f"<p><strong>grader {html_text(name)}:</strong></p><pre>{html_text(why)}</pre>"
            for name, why in reasoning_rows(c)
        )
        + f"<p>{html_text(divergence_line(c))}</p><table>{''.join(steps)}</table>"
        "<p>exported by trajtui</p></body></html>\n"
    )


# -- two sources ---------------------------------------------------------------------------


def run_cell(s: RunSummary | None) -> str:
    """A run's status word and score; ``—`` when the side has no run of that prompt."""
    if s is None:
        return "—"
    score = "" if s.score is None else f" {fmt.number(s.score)}"
    return f"{fmt.status(s.status, s.outcome)}{score}"


def rate(r: Rate) -> str:
    """A pass rate with its counts: ``67% (2/3)``."""
    value = r.value
    return "n/a (0 graded)" if value is None else f"{share(value)} ({r.count}/{r.of})"


def sources_summary(c: SourceComparison) -> list[str]:
    """The summary of a source comparison, a line each: prompts on each side, pass rates
    with their counts, flips each way, the paired difference in mean score with its 95%
    interval (when prompts are scored on both sides)."""
    only_a = sum(r.b is None for r in c.rows)
    only_b = sum(r.a is None for r in c.rows)
    lines = [
        f"prompts in both: {c.both:,} · only in A: {only_a:,} · only in B: {only_b:,}",
        f"pass rate over prompts graded on both sides: A {rate(c.pass_a)} · B {rate(c.pass_b)}",
        f"flips: pass→fail {c.flips('pass→fail'):,} · fail→pass {c.flips('fail→pass'):,}",
    ]
    iv = c.paired
    if iv is not None and c.mean_a is not None and c.mean_b is not None:
        interval = ""
        if iv.low is not None and iv.high is not None:
            interval = f", 95% CI [{iv.low:+.3f}, {iv.high:+.3f}] ({iv.method})"
        lines.append(
            f"mean score over {iv.n:,} prompts scored on both sides: A {c.mean_a:.3f} · "
            f"B {c.mean_b:.3f} · paired difference {iv.mean:+.3f}{interval}"
        )
    return lines


def row_change(score_change: float | None) -> str:
    """A prompt's change in score (``+0.25``, as the scores are spelled); empty when a side
    has no score (``0`` when it did not change)."""
    return "" if score_change is None else fmt.signed(score_change) or "0"


def row_note(flip: str | None, in_a: bool, in_b: bool) -> str:
    """A prompt's flip, or the side it is only on."""
    return flip or ("only in A" if not in_b else "only in B" if not in_a else "")
