"""``C``: two open sources compared, prompt by prompt (the same prompts run by two agents,
or before and after a change).

With two sources open they are A and B; with more, a picker asks for A, then for B. The
screen lists the prompts of both, paired by reference: flips first (pass to fail, then fail
to pass), then by how much the score changed, then those only on one side; each row gives
both sides' status and score and the change. Above, the summary of ``trajtui diff A B``:
pass rates with their counts, flips each way, the paired difference in mean score with its
95% interval. ``enter`` on a row compares that prompt's two runs step by step.
"""

from __future__ import annotations

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from trajtui.core.compare import Row, SourceComparison, compare_sources
from trajtui.core.io.text import visible
from trajtui.core.model import RunSummary
from trajtui.core.search.texts import graders_reasoning
from trajtui.core.source import LoadError
from trajtui.core.workspace import Workspace
from trajtui.render import compare as words
from trajtui.ui.literal import literal
from trajtui.ui.screens.compare import CompareScreen, SideSpec
from trajtui.ui.widgets.footer import FittingFooter
from trajtui.ui.widgets.run_list import fit
from trajtui.ui.widgets.vlist import VirtualList


def pick_and_compare(screen: Widget, ws: Workspace) -> None:
    """Open the source compare of ``ws`` over ``screen``: its two sources, or the two the
    user picks when more are open."""
    if len(ws.sources) == 2:
        screen.app.push_screen(SourcesScreen(ws, 0, 1))
        return

    def picked_b(a: int, b: int | None) -> None:
        if b is not None:
            screen.app.push_screen(SourcesScreen(ws, a, b))

    def picked_a(a: int | None) -> None:
        if a is not None:
            screen.app.push_screen(PickSource(ws, "B", exclude=a), lambda b: picked_b(a, b))

    screen.app.push_screen(PickSource(ws, "A"), picked_a)


class PickSource(ModalScreen[int | None]):
    """Which open source is side A (or B) of a source compare."""

    BINDINGS = [
        Binding("escape,q", "cancel", "Cancel"),
        Binding("j", "cursor_down", show=False),
        Binding("k", "cursor_up", show=False),
    ]

    DEFAULT_CSS = """
    PickSource { align: center middle; }
    PickSource > Vertical {
        width: 70%; height: auto; border: round $accent; background: $surface; padding: 0 1;
    }
    PickSource Static { color: $text-muted; }
    PickSource OptionList { height: auto; max-height: 20; border: none; }
    """

    def __init__(self, ws: Workspace, side_name: str, exclude: int | None = None) -> None:
        super().__init__()
        self.ws = ws
        self.side_name = side_name
        self.exclude = exclude

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(literal(f"compare sources: which is {self.side_name}? (⏎ picks)"))
            options = [
                Option(literal(f"{source.label}  ({len(source):,} entries)"), id=str(s))
                for s, source in enumerate(self.ws.sources)
                if s != self.exclude
            ]
            yield OptionList(*options)

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(int(event.option.id or 0))

    def action_cursor_down(self) -> None:
        self.query_one(OptionList).action_cursor_down()

    def action_cursor_up(self) -> None:
        self.query_one(OptionList).action_cursor_up()

    def action_cancel(self) -> None:
        self.dismiss(None)


class SourceRows(VirtualList):
    """The prompts: reference, A's status and score, B's, the change, the flip."""

    COMPONENT_CLASSES = VirtualList.COMPONENT_CLASSES | {"srcs--worse", "srcs--better", "srcs--dim"}

    DEFAULT_CSS = """
    SourceRows {
        height: 1fr;
        & > .srcs--worse { color: $error; text-style: bold; }
        & > .srcs--better { color: $success; text-style: bold; }
        & > .srcs--dim { color: $text-muted; }
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rows: tuple[Row, ...] = ()
        self.empty_text = "reading the runs of both sources…"

    @property
    def row_count(self) -> int:
        return len(self.rows)

    @staticmethod
    def widths(width: int) -> list[int]:
        """Cells of the columns: reference, A, B, change, note."""
        side = max(10, min(24, (width - 34) // 3))
        return [max(8, width - 2 * side - 9 - 12 - 5), side, side, 9, 11]

    def render_row(self, index: int, width: int) -> Text:
        r = self.rows[index]
        w = self.widths(width)
        note = words.row_note(r.flip, r.a is not None, r.b is not None)
        tone = (
            "srcs--worse"
            if r.flip == "pass→fail"
            else "srcs--better"
            if r.flip == "fail→pass"
            else "srcs--dim"
        )
        text = Text(" ")
        text.append(fit(visible(r.ref, keep_newlines=False), w[0]) + " ")
        text.append(fit(visible(words.run_cell(r.a), keep_newlines=False), w[1]) + " ")
        text.append(fit(visible(words.run_cell(r.b), keep_newlines=False), w[2]) + " ")
        text.append(words.row_change(r.score_change).rjust(w[3]) + " ")
        text.append(note, self.cstyle(tone))
        return text

    def row_text(self, index: int) -> str:
        r = self.rows[index]
        return f"{r.ref} {words.run_cell(r.a)} {words.run_cell(r.b)} {r.flip or ''}"


class SourcesScreen(Screen[None]):
    """Two sources' runs paired by reference."""

    BINDINGS = [
        Binding("escape,h", "back", "back"),
        Binding("enter,l", "open_row", "compare runs"),
        Binding("w", "toggle_why", "graders' reasoning"),
        Binding("q", "app.quit", "quit"),
    ]

    DEFAULT_CSS = """
    SourcesScreen #srcs-why {
        height: auto; max-height: 12; padding: 0 1; border-top: solid $panel; display: none;
    }
    SourcesScreen #srcs-why.-shown { display: block; }
    SourcesScreen #srcs-title { height: auto; background: $panel; text-style: bold; padding: 0 1; }
    SourcesScreen #srcs-summary { height: auto; padding: 0 1; }
    SourcesScreen #srcs-heads { height: 1; color: $text-muted; text-style: bold; background: $panel; }
    """

    def __init__(self, ws: Workspace, a: int, b: int) -> None:
        """Args:
        ws: What is open.
        a: Index of source A.
        b: Index of source B.
        """
        super().__init__()
        self.ws = ws
        self.a, self.b = a, b
        self.comparison: SourceComparison | None = None
        self.where: tuple[dict[str, int], dict[str, int]] = ({}, {})

    def compose(self) -> ComposeResult:
        yield Static(id="srcs-title")
        yield Static(literal("reading the runs of both sources…"), id="srcs-summary")
        yield Static(id="srcs-heads")
        yield SourceRows(id="srcs-rows")
        yield Static(id="srcs-why")
        yield FittingFooter()

    @property
    def rows(self) -> SourceRows:
        """The prompts."""
        return self.query_one(SourceRows)

    def on_mount(self) -> None:
        self.rows.focus()
        self._draw_title()
        self._draw_heads()
        self._read()

    def on_resize(self) -> None:
        self._draw_title()
        self._draw_heads()

    def _draw_title(self) -> None:
        """Which source is A and which is B: on one line, or a line each (never B cut off)."""
        la, lb = self.ws.sources[self.a].label, self.ws.sources[self.b].label
        width = max(20, (self.size.width or 80) - 2)
        lines = words.title_lines("compare sources", la, lb, width)
        self.query_one("#srcs-title", Static).update(literal("\n".join(lines), lines=True))

    def _draw_heads(self) -> None:
        w = SourceRows.widths(self.rows.scrollable_content_region.width or self.size.width)
        heads = ["REF", "A", "B", "Δ SCORE".rjust(w[3]), ""]
        self.query_one("#srcs-heads", Static).update(
            literal(" " + " ".join(fit(h, w[k]) for k, h in enumerate(heads)))
        )

    @work(thread=True, exclusive=True, group="compare-sources", exit_on_error=False)
    def _read(self) -> None:
        """Every run of both sources (the first of a reference seen twice), off the UI
        thread, then the comparison."""
        runs: list[list[RunSummary]] = []
        where: list[dict[str, int]] = []
        for s in (self.a, self.b):
            source = self.ws.sources[s]
            found: list[RunSummary] = []
            index: dict[str, int] = {}
            for i in range(len(source)):
                entry = source.peek(i)
                if entry is None:
                    entry = source.entry(i)
                if isinstance(entry, RunSummary) and entry.ref not in index:
                    index[entry.ref] = i
                    found.append(entry)
            runs.append(found)
            where.append(index)
        c = compare_sources(runs[0], runs[1])
        self.app.call_from_thread(self._done, c, (where[0], where[1]), len(runs[0]), len(runs[1]))

    def _done(
        self, c: SourceComparison, where: tuple[dict[str, int], dict[str, int]], na: int, nb: int
    ) -> None:
        self.comparison, self.where = c, where
        lines = [f"A {na:,} runs · B {nb:,} runs", *words.sources_summary(c)]
        if not all(self.ws.sources[s].complete for s in (self.a, self.b)):
            lines.append("the sources are still being read: the runs read so far are compared")
        self.query_one("#srcs-summary", Static).update(Text("\n".join(lines)))  # numbers only
        self.rows.rows = c.rows
        self.rows.empty_text = "neither source has a run"
        self.rows.reset(cursor=0)

    def action_back(self) -> None:
        self.dismiss(None)

    # -- the graders' reasoning of the row under the cursor (w) -----------------------------

    def action_toggle_why(self) -> None:
        """``w``: show (or hide) both sides' grader's reasoning for the row under the
        cursor, following the cursor while shown."""
        why = self.query_one("#srcs-why", Static)
        why.toggle_class("-shown")
        if why.has_class("-shown"):
            self._show_why()

    @on(VirtualList.Highlighted, "#srcs-rows")
    def _moved(self, event: VirtualList.Highlighted) -> None:
        if self.query_one("#srcs-why", Static).has_class("-shown"):
            self._show_why()

    def _show_why(self) -> None:
        rows = self.rows
        if self.comparison is None or not rows.rows:
            return
        r = rows.rows[min(rows.cursor, len(rows.rows) - 1)]
        self.query_one("#srcs-why", Static).update(literal(f"{r.ref}: reading…"))
        self._read_why(r)

    @work(thread=True, exclusive=True, group="srcs-why", exit_on_error=False)
    def _read_why(self, r: Row) -> None:
        """Both sides' grader's reasoning of row ``r``, read off the UI thread."""
        text = Text()
        text.append(visible(r.ref, keep_newlines=False), style="bold")
        for name, s, summary, where in (
            ("A", self.a, r.a, self.where[0]),
            ("B", self.b, r.b, self.where[1]),
        ):
            if summary is None:
                text.append(f"\ngrader {name}  ", style="bold")
                text.append("(no run of this prompt)", style="dim")
                continue
            try:
                run = self.ws.sources[s].run(where[r.ref])
            except (LoadError, OSError) as err:
                text.append(f"\ngrader {name}  ", style="bold")
                text.append(f"(could not be read: {err})", style="dim")
                continue
            judged = graders_reasoning(run)
            if not judged:
                text.append(f"\ngrader {name}  ", style="bold")
                text.append("(the file gives no reasoning)", style="dim")
            for whose, why in judged:
                part = whose[len(run.summary.ref) + 1 :] if "/" in whose else ""
                head = f"{name} {visible(part, keep_newlines=False)}" if part else name
                text.append(f"\ngrader {head}  ", style="bold")
                text.append(visible(why))
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._why_read, r, text)

    def _why_read(self, r: Row, text: Text) -> None:
        rows = self.rows
        if rows.rows and rows.rows[min(rows.cursor, len(rows.rows) - 1)] is r:
            self.query_one("#srcs-why", Static).update(literal(text, lines=True))

    def action_open_row(self) -> None:
        self.rows.select()

    @on(VirtualList.Selected, "#srcs-rows")
    def _open(self, event: VirtualList.Selected) -> None:
        if self.comparison is None or not self.rows.rows:
            return
        r = self.rows.rows[event.index]
        if r.a is None or r.b is None:
            side = "A" if r.b is None else "B"
            self.notify(f"{r.ref} is only in {side}: nothing to compare it with", timeout=3)
            return
        sa, sb = self.ws.sources[self.a], self.ws.sources[self.b]
        spec_a = SideSpec(self.a, self.where[0][r.ref], None, self.ws.ref(sa, r.a.ref))
        spec_b = SideSpec(self.b, self.where[1][r.ref], None, self.ws.ref(sb, r.b.ref))
        self.app.push_screen(CompareScreen(self.ws, spec_a, spec_b))
