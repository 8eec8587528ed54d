"""The compare screen: two runs (or trials) side by side, their timelines aligned.

A header gives both sides' outcome, score, duration, cost, tokens, tool calls and steps,
with their differences (B - A); under it, one row per aligned pair of steps: A's step on the
left, B's on the right, a gap as a blank cell, and in the gutter between them ``=`` (the
same step), ``~`` (paired, something differs: said at the right), ``-`` (only in A) or
``+`` (only in B). One cursor moves over the aligned rows, so moving in one side moves the
other; it starts on the first divergence (marked ``▶``). ``n`` / ``N`` go to the next /
previous stretch that differs, ``enter`` opens the two steps of the row side by side,
``escape`` goes back.

The runs are read and aligned in a worker: the screen is drawn at once and says so meanwhile.
The words are those of ``trajtui diff`` (:mod:`trajtui.render.compare`).
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass

from rich.table import Table
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

from trajtui.core.compare import Comparison, compare, side
from trajtui.core.compare.align import Op, Pair
from trajtui.core.io.text import flat, visible
from trajtui.core.model import Run, Step
from trajtui.core.source import LoadError
from trajtui.core.workspace import Workspace
from trajtui.render import compare as words
from trajtui.render import fmt
from trajtui.render.show import step_preview
from trajtui.ui.host import host
from trajtui.ui.literal import literal
from trajtui.ui.widgets.footer import FittingFooter
from trajtui.ui.widgets.vlist import VirtualList

WHY_MIN_WIDTH = 90
"""From this width on, each row says what differs in a column of its own."""
ROOMY = 110
"""From this width on, the header shows every figure, even those neither side has."""


@dataclass(frozen=True, slots=True)
class SideSpec:
    """Which run (or trial) is one side of a comparison.

    Attributes:
        source: Index of its source in the workspace.
        index: Its entry's index in the source.
        attempt: The trial's number, or None for the whole run.
        ref: Its reference as the user types it (``LABEL::REF``, ``REF/trial-2``).
    """

    source: int
    index: int
    attempt: int | None
    ref: str


OP_CLASS = {
    Op.SAME: "pairs--same",
    Op.CHANGED: "pairs--changed",
    Op.ONLY_A: "pairs--only-a",
    Op.ONLY_B: "pairs--only-b",
}


class PairList(VirtualList):
    """The aligned rows: A's step, the gutter, B's step, what differs."""

    COMPONENT_CLASSES = VirtualList.COMPONENT_CLASSES | {
        *OP_CLASS.values(),
        "pairs--dim",
        "pairs--first",
    }

    DEFAULT_CSS = """
    PairList {
        height: 1fr;
        & > .pairs--same { color: $text-muted; }
        & > .pairs--changed { color: $warning; text-style: bold; }
        & > .pairs--only-a { color: $error; text-style: bold; }
        & > .pairs--only-b { color: $success; text-style: bold; }
        & > .pairs--dim { color: $text-muted; }
        & > .pairs--first { color: $accent; text-style: bold; }
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.comparison: Comparison | None = None
        self.empty_text = "reading and aligning the two runs…"

    @property
    def pairs(self) -> tuple[Pair, ...]:
        """The aligned pairs (none before the alignment is done)."""
        return self.comparison.alignment.pairs if self.comparison is not None else ()

    @property
    def row_count(self) -> int:
        return len(self.pairs)

    def widths(self, width: int) -> tuple[int, int]:
        """``(cells of each side, cells of the why column)`` in a row ``width`` wide."""
        why = min(30, width // 5) if width >= WHY_MIN_WIDTH else 0
        return max(8, (width - 3 - why) // 2), why

    def _cell(self, step_at: int | None, steps: Sequence[Step], width: int) -> Text:
        """One side's step in ``width`` cells (a gap: blank)."""
        if step_at is None:
            return Text(" " * width)
        step = steps[step_at]
        text = Text(f"{step.number:>5} ", self.cstyle("pairs--dim"))
        text.append(fmt.KIND_GLYPH[step.kind] + " ")
        text.append(visible(step.title, keep_newlines=False))
        preview = step_preview(step)
        if preview:
            text.append("  " + visible(preview, keep_newlines=False), self.cstyle("pairs--dim"))
        if step.status:
            text.append(f" {fmt.OUTCOME_GLYPH[step.outcome]}")
        text.truncate(width, overflow="ellipsis", pad=True)
        return text

    def render_row(self, index: int, width: int) -> Text:
        c = self.comparison
        assert c is not None
        p = self.pairs[index]
        side_w, why_w = self.widths(width)
        first = index == c.alignment.first_divergence
        gutter = Text()
        gutter.append("▶" if first else " ", self.cstyle("pairs--first"))
        gutter.append(p.op.value, self.cstyle(OP_CLASS[p.op]))
        gutter.append(" ")
        row = Text.assemble(
            self._cell(p.a, c.a.steps, side_w), gutter, self._cell(p.b, c.b.steps, side_w)
        )
        if why_w and p.why:
            why = Text(" " + visible(p.why, keep_newlines=False), self.cstyle("pairs--dim"))
            why.truncate(why_w, overflow="ellipsis")
            row.append_text(why)
        return row

    def row_text(self, index: int) -> str:
        c = self.comparison
        assert c is not None
        p = self.pairs[index]
        a, b = words.pair_steps(c, index)
        parts = [p.op.value, p.why]
        parts += [s.title + " " + step_preview(s) for s in (a, b) if s is not None]
        return " ".join(parts)


def figures_table(c: Comparison, width: int = 120) -> Table:
    """Both sides' figures and their differences, one row each (A, B, B - A). Under
    :data:`ROOMY` cells, the figures neither side has (``—`` on both) make room for the
    others."""
    fa, fb, deltas = words.figures(c.a), words.figures(c.b), words.deltas(c)
    names = words.heads(c)
    keep = [
        k
        for k in range(len(words.HEADS))
        if width >= ROOMY or not (fa[k] == fb[k] == "—" and not deltas[k])
    ]
    table = Table(box=None, padding=(0, 1), show_edge=False, expand=False)
    table.add_column("", style="bold", no_wrap=True)
    for k in keep:
        table.add_column(names[k], no_wrap=True, overflow="ellipsis", justify="right")
    for name, cells in (("A", fa), ("B", fb)):
        table.add_row(Text(name), *(Text(visible(cells[k], keep_newlines=False)) for k in keep))
    table.add_row(
        Text("B - A"), *(Text(visible(deltas[k], keep_newlines=False), style="bold") for k in keep)
    )
    return table


REASONING_LINES = 2
"""Lines of each side's grader's reasoning the header shows (``x`` exports it whole)."""


def reasoning_lines(c: Comparison, width: int) -> Text:
    """Each side's grader's reasoning, on one line each (its line breaks as ``⏎``), cut to
    :data:`REASONING_LINES` lines of ``width`` with an ellipsis (one line each when a side
    is a whole trials record, whose every trial has its grader); empty when neither has
    one."""
    out = Text()
    rows = words.reasoning_rows(c)
    most = REASONING_LINES if len(rows) <= 2 else 1
    room = max(20, width - 2)  # (the pane's padding)
    for name, why in rows:
        if out:
            out.append("\n")
        head = f"grader {visible(name, keep_newlines=False)}  "
        text = flat(why, limit=most * room)
        lines = textwrap.wrap(head + text, room, break_on_hyphens=False) or [head]
        if len(lines) > most:
            lines = lines[:most]
            lines[-1] = lines[-1][: room - 1] + "…"
        shown = "\n".join(lines)
        out.append(head, style="bold")
        out.append(shown[len(head) :])
    return out


class CompareScreen(Screen[None]):
    """Two runs or trials, aligned step by step."""

    BINDINGS = [
        Binding("escape,h", "back", "back"),
        Binding("n", "next_difference", "next diff"),
        Binding("N", "prev_difference", "prev diff"),
        Binding("enter,l", "open_pair", "open steps"),
        Binding("x", "export", "export"),
        Binding("question_mark", "help", "help", show=False),
        Binding("q", "app.quit", "quit"),
    ]

    DEFAULT_CSS = """
    CompareScreen #compare-title { height: auto; background: $panel; text-style: bold; padding: 0 1; }
    CompareScreen #compare-figures { height: auto; padding: 0 1; }
    CompareScreen #compare-reasoning { height: auto; padding: 0 1; }
    CompareScreen #compare-status { height: auto; padding: 0 1; color: $accent; }
    CompareScreen #compare-heads { height: 1; padding: 0 0; color: $text-muted; text-style: bold; background: $panel; }
    CompareScreen #compare-status.-error { color: $error; }
    """

    def __init__(self, ws: Workspace, a: SideSpec, b: SideSpec) -> None:
        """Args:
        ws: What is open.
        a: Side A (the marked run or trial).
        b: Side B.
        """
        super().__init__()
        self.ws = ws
        self.spec_a, self.spec_b = a, b
        self.comparison: Comparison | None = None
        self.runs: tuple[Run, Run] | None = None
        self.error = ""

    def compose(self) -> ComposeResult:
        yield Static(id="compare-title")
        yield Static(id="compare-figures")
        yield Static(id="compare-reasoning")
        yield Static(literal("reading and aligning the two runs…"), id="compare-status")
        yield Static(id="compare-heads")
        yield PairList(id="pairs")
        yield FittingFooter()

    @property
    def pair_list(self) -> PairList:
        """The aligned rows."""
        return self.query_one(PairList)

    def on_mount(self) -> None:
        self._draw_title()
        self.pair_list.focus()
        self._align()

    @work(thread=True, exclusive=True, group="compare", exit_on_error=False)
    def _align(self) -> None:
        """Read both runs and align their timelines, off the UI thread."""
        sides = []
        runs = []
        for spec in (self.spec_a, self.spec_b):
            source = self.ws.sources[spec.source]
            try:
                run = source.run(spec.index)
            except LoadError as err:
                self.app.call_from_thread(self._failed, f"{spec.ref}: {err.problem}")
                return
            except OSError as err:
                self.app.call_from_thread(self._failed, f"{spec.ref}: {err}")
                return
            runs.append(run)
            sides.append(side(run, spec.ref, spec.attempt))
        c = compare(sides[0], sides[1])
        self.app.call_from_thread(self._aligned, c, (runs[0], runs[1]))

    def action_export(self) -> None:
        """``x``: the comparison as Markdown or one HTML page, to a file the user names."""
        from trajtui.ui.screens.export import ExportChoice, ExportScreen

        c = self.comparison
        if c is None:
            self.notify("nothing to export yet", timeout=3)
            return
        opened = [*host(self).paths, *(s.path for s in self.ws.sources)]
        what = f"{c.a.ref}-vs-{c.b.ref}"

        def done(choice: ExportChoice | None) -> None:
            if choice is not None:
                self._write_export(c, choice.path, choice.form)

        self.app.push_screen(
            ExportScreen(what, f"the comparison {what}", ("html", "markdown"), opened), done
        )

    @work(thread=True, group="export", exit_on_error=False)
    def _write_export(self, c: Comparison, path: str, form: str) -> None:
        from trajtui.ui.exporting import write_export_file

        render = words.comparison_html if form == "html" else words.comparison_markdown
        write_export_file(self.app, path, lambda: render(c))

    def _failed(self, why: str) -> None:
        self.error = why
        status = self.query_one("#compare-status", Static)
        status.add_class("-error")
        status.update(literal(why))
        self.pair_list.empty_text = "nothing to compare: " + why
        self.pair_list.reset()

    def _aligned(self, c: Comparison, runs: tuple[Run, Run]) -> None:
        self.comparison, self.runs = c, runs
        self._draw_figures()
        self.query_one("#compare-status", Static).update(literal(words.divergence_line(c)))
        plist = self.pair_list
        plist.comparison = c
        plist.empty_text = "both timelines are empty"
        first = c.alignment.first_divergence
        plist.reset(cursor=first or 0)
        if first is not None:
            plist.set_cursor(first, center=True)
        self._draw_heads()

    def on_resize(self) -> None:
        self._draw_title()
        self._draw_heads()
        self._draw_figures()

    def _draw_title(self) -> None:
        """Which run is A and which is B: on one line, or a line each (never B cut off)."""
        width = max(20, (self.size.width or 80) - 2)
        lines = words.title_lines("compare", self.spec_a.ref, self.spec_b.ref, width)
        self.query_one("#compare-title", Static).update(literal("\n".join(lines), lines=True))

    def _draw_figures(self) -> None:
        if self.comparison is not None:
            table = figures_table(self.comparison, self.size.width)
            self.query_one("#compare-figures", Static).update(table)
            self.query_one("#compare-reasoning", Static).update(
                literal(reasoning_lines(self.comparison, self.size.width), lines=True)
            )

    def _draw_heads(self) -> None:
        """Column names over the rows, each side's above its half."""
        width = self.pair_list.scrollable_content_region.width or self.size.width
        side_w, why_w = self.pair_list.widths(width)
        text = Text()
        head_a, head_b = words.side_heads(self.spec_a.ref, self.spec_b.ref, side_w)
        text.append(head_a + "   ")
        text.append(head_b)
        if why_w:
            text.append(" what differs"[:why_w])
        self.query_one("#compare-heads", Static).update(literal(text))

    # -- keys ------------------------------------------------------------------------------

    def action_back(self) -> None:
        self.dismiss(None)

    def action_help(self) -> None:
        from trajtui.ui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen())

    def _starts(self) -> list[int]:
        """Rows where a stretch that differs starts."""
        pairs = self.pair_list.pairs
        return [
            k
            for k, p in enumerate(pairs)
            if p.op is not Op.SAME and (k == 0 or pairs[k - 1].op is Op.SAME)
        ]

    def action_next_difference(self) -> None:
        cursor = self.pair_list.cursor
        after = [k for k in self._starts() if k > cursor]
        if after:
            self.pair_list.set_cursor(after[0], center=True)
        else:
            self.notify("no more differences below", timeout=2)

    def action_prev_difference(self) -> None:
        cursor = self.pair_list.cursor
        before = [k for k in self._starts() if k < cursor]
        if before:
            self.pair_list.set_cursor(before[-1], center=True)
        else:
            self.notify("no differences above", timeout=2)

    def action_open_pair(self) -> None:
        self.pair_list.select()

    @on(VirtualList.Selected, "#pairs")
    def _open(self, event: VirtualList.Selected) -> None:
        c, runs = self.comparison, self.runs
        if c is None or runs is None or not c.alignment.pairs:
            return
        from trajtui.ui.screens.compare_step import PairScreen

        self.app.push_screen(PairScreen(self.ws, self.spec_a, self.spec_b, c, runs, event.index))
