"""The list of an extra pane of a format's view (a forecast run's messages or sources, say),
drawn from its :class:`~trajtui.render.view.PaneSpec`: one widget for every such pane,
which knows no format.

The spec gives the rows of a run (for the step selected there, when the pane follows the
step) and draws each one with the looks of :class:`~trajtui.render.view.RowStyle`, which
this widget's component classes colour from the theme.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from trajtui.core.model import Run
from trajtui.render.view import PaneRow, PaneSpec, RowStyle
from trajtui.ui.widgets.vlist import VirtualList


class PaneList(VirtualList):
    """The rows of one extra pane; the cursor's row is what its preview shows.

    Attributes:
        pane: The pane's name (its spec's, whichever format's view gives it).
        spec: The spec the rows come from (the run's view's), or None when cleared.
        run: The run the rows are of, or None.
        rows: The rows listed.
    """

    COMPONENT_CLASSES = VirtualList.COMPONENT_CLASSES | {f"pane--{s.value}" for s in RowStyle}

    DEFAULT_CSS = """
    PaneList {
        & > .pane--new { color: $success; text-style: bold; }
        & > .pane--gone { color: $error; text-style: strike; }
        & > .pane--strong { color: $accent; text-style: bold; }
        & > .pane--key { color: $accent; }
        & > .pane--dim { color: $text-muted; }
    }
    """

    def __init__(self, pane: str, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.pane = pane
        self.spec: PaneSpec | None = None
        self.run: Run | None = None
        self.rows: list[PaneRow] = []

    def clear(self) -> None:
        """Show nothing (the run has nothing for this pane)."""
        self.spec = self.run = None
        self.rows = []
        self.reset(cursor=0)

    def show(self, spec: PaneSpec, run: Run, number: int | None) -> None:
        """Show ``run``'s rows (for step ``number`` when the pane follows the step; None:
        every row). A pane that follows the step keeps its cursor on the row of the same
        key; one of the run's own rows keeps it while the run is the same, and starts at
        the top for another run."""
        if not spec.follows_step and run is self.run and spec is self.spec:
            return
        key = self.current_key() if spec.follows_step else None
        self.spec, self.run = spec, run
        self.empty_text = spec.empty
        self.rows = list(spec.rows(run, number))
        target = 0
        if key is not None:
            found = self.row_of(key)
            target = found if found is not None else 0
        self.reset(cursor=target)

    @property
    def row_count(self) -> int:
        return len(self.rows)

    def current_key(self) -> str | None:
        """The key of the row under the cursor."""
        if not self.rows:
            return None
        return self.rows[min(self.cursor, len(self.rows) - 1)].key

    def row_of(self, key: str) -> int | None:
        """The row of ``key``."""
        for k, row in enumerate(self.rows):
            if row.key == key:
                return k
        return None

    def _style(self, style: RowStyle) -> Style:
        return self.cstyle(f"pane--{style.value}")

    def render_row(self, index: int, width: int) -> Text:
        if self.spec is None or self.run is None:
            return Text()
        return self.spec.line(self.run, self.rows[index], self._style)

    def row_text(self, index: int) -> str:
        if self.spec is None or self.run is None:
            return ""
        return self.spec.text(self.run, self.rows[index])
