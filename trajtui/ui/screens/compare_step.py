"""One aligned pair of a compare, opened: A's step and B's side by side.

Each side shows its step as the detail pane does (heading, facts, input, output), so a
changed input or output is read across; a side with no step says the step is only in the
other run (and where the other run has it, when it was moved). The two sides scroll together (as a diff tool's
panes), ``tab`` switches sides, ``r`` shows both as in the file, ``o`` unfolds long values, ``escape`` goes back.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Static

from trajtui.core.compare import Comparison
from trajtui.core.compare.align import Op, Pair
from trajtui.core.io.text import visible
from trajtui.core.model import Run, Step
from trajtui.core.workspace import Workspace
from trajtui.formats.registry import run_view
from trajtui.render import compare as words
from trajtui.render import detail as details
from trajtui.ui.literal import literal
from trajtui.ui.screens.compare import SideSpec
from trajtui.ui.widgets.detail import DetailView
from trajtui.ui.widgets.footer import FittingFooter

FOLDED_LINES = 40
"""Lines of a long value shown before it is folded (``o`` shows them all)."""
UNFOLDED_LINES = 10_000

WHAT = {
    Op.SAME: "the same step in both runs",
    Op.CHANGED: "paired steps that differ",
    Op.ONLY_A: "a step only A has",
    Op.ONLY_B: "a step only B has",
}


class PairScreen(Screen[None]):
    """The two steps of one aligned row, side by side."""

    BINDINGS = [
        Binding("escape,h", "back", "back"),
        Binding("tab", "switch", "other side"),
        Binding("r", "toggle_raw", "raw JSON"),
        Binding("o", "toggle_fold", "unfold"),
        Binding("q", "app.quit", "quit"),
    ]

    DEFAULT_CSS = """
    PairScreen #pair-title { height: 1; background: $panel; text-style: bold; padding: 0 1; }
    PairScreen #pair-why { height: auto; padding: 0 1; color: $warning; }
    PairScreen Horizontal { height: 1fr; }
    PairScreen .pair-side { width: 1fr; border: round $panel-lighten-2; }
    PairScreen .pair-side:focus-within { border: round $accent; }
    PairScreen DetailView { height: 1fr; }
    """

    def __init__(
        self,
        ws: Workspace,
        a: SideSpec,
        b: SideSpec,
        c: Comparison,
        runs: tuple[Run, Run],
        index: int,
    ) -> None:
        """Args:
        ws: What is open.
        a: Side A.
        b: Side B.
        c: The comparison.
        runs: The two runs read whole (A's, B's).
        index: The row opened (its index among the aligned pairs).
        """
        super().__init__()
        self.ws = ws
        self.specs = (a, b)
        self.comparison = c
        self.runs = runs
        self.index = index
        self.pair: Pair = c.alignment.pairs[index]
        self.raw = False
        self.unfold = False

    def compose(self) -> ComposeResult:
        c, p = self.comparison, self.pair
        la, lb = words.step_label(c.a, p.a), words.step_label(c.b, p.b)
        title = f" {p.op.value}  {WHAT[p.op]}: A {la} · B {lb}"
        yield Static(literal(title), id="pair-title")
        yield Static(literal(visible(p.why, keep_newlines=False) if p.why else ""), id="pair-why")
        with Horizontal():
            for name in ("a", "b"):
                with Vertical(classes="pair-side", id=f"side-{name}"):
                    yield DetailView(id=f"detail-{name}")
        yield FittingFooter()

    def on_resize(self) -> None:
        self._name_sides()

    def _name_sides(self) -> None:
        """Each half's border names its run, cut by what the two names share (never
        alike where they differ)."""
        half = max(12, (self.size.width or 80) // 2 - 6)
        heads = words.side_heads(self.specs[0].ref, self.specs[1].ref, half)
        for name, head in zip(("a", "b"), heads, strict=True):
            self.query_one(f"#side-{name}").border_title = literal(head.strip())

    def on_mount(self) -> None:
        self._name_sides()
        a_view = self.query_one("#detail-a", DetailView)
        b_view = self.query_one("#detail-b", DetailView)
        self.watch(a_view, "scroll_y", lambda y: self._follow(b_view, y), init=False)
        self.watch(b_view, "scroll_y", lambda y: self._follow(a_view, y), init=False)
        self.query_one("#pair-why").display = bool(self.pair.why)
        self._show()
        a, _ = words.pair_steps(self.comparison, self.index)
        self.query_one("#detail-a" if a is not None else "#detail-b", DetailView).focus()

    def _show(self) -> None:
        c, p = self.comparison, self.pair
        for k, (step_at, steps) in enumerate(((p.a, c.a.steps), (p.b, c.b.steps))):
            view = self.query_one("#detail-a" if k == 0 else "#detail-b", DetailView)
            run, spec = self.runs[k], self.specs[k]
            if step_at is None:
                other = "B" if k == 0 else "A"
                note = f"no step here: only {other} has this step"
                if p.why:
                    note += f" ({visible(p.why, keep_newlines=False)})"
                view.show(_note(note), key=f"gap:{k}:{p}")
                continue
            view.show(
                self._builder(run, spec, steps, step_at),
                key=f"{k}:{step_at}:{self.raw}:{self.unfold}",
            )

    def _builder(
        self, run: Run, spec: SideSpec, steps: Sequence[Step], at: int
    ) -> Callable[[], RenderableType]:
        """What one side's pane shows: the step as the detail pane shows it."""
        ws, raw = self.ws, self.raw
        lines = UNFOLDED_LINES if self.unfold else FOLDED_LINES
        source = ws.sources[spec.source]

        def ref_of(ref: str) -> str:
            return ws.ref(source, ref)

        view = run_view(run)
        return lambda: details.step_detail(run, view, steps, at, at, ref_of, raw, lines)

    @staticmethod
    def _follow(view: DetailView, y: float) -> None:
        """Scroll ``view`` to ``y`` (as far as it goes): the sides move together."""
        if round(view.scroll_y) != round(y):
            view.scroll_to(y=min(y, view.max_scroll_y), animate=False)

    def action_back(self) -> None:
        self.dismiss(None)

    def action_switch(self) -> None:
        a = self.query_one("#detail-a", DetailView)
        b = self.query_one("#detail-b", DetailView)
        (b if self.focused is a else a).focus()

    def action_toggle_raw(self) -> None:
        self.raw = not self.raw
        self._show()

    def action_toggle_fold(self) -> None:
        self.unfold = not self.unfold
        self._show()


def _note(note: str) -> Callable[[], RenderableType]:
    """A builder of ``note`` in italics."""
    return lambda: Text(note, style="italic")
