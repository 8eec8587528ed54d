"""What every part of the main screen reaches through it: the opened paths, the run list's
rows, the screen's state and its panes (:class:`Panes`), and the other parts
(:class:`Parts`). A part's own Protocol adds what else it asks of the screen; mypy checks
the screen against each."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from textual.widgets import TabbedContent

from trajtui.core.workspace import Workspace
from trajtui.ui.screens.main.state import MainState
from trajtui.ui.store import RunStore
from trajtui.ui.widgets.detail import DetailView
from trajtui.ui.widgets.run_list import RunList
from trajtui.ui.widgets.timeline import Timeline

if TYPE_CHECKING:
    from trajtui.ui.screens.main.extra_panes import ExtraPanes
    from trajtui.ui.screens.main.finding import Finding
    from trajtui.ui.screens.main.going import GoingTo
    from trajtui.ui.screens.main.layout import Frame
    from trajtui.ui.screens.main.loading import Loader
    from trajtui.ui.screens.main.marks import Bookmarks
    from trajtui.ui.screens.main.selection import Selection


class Panes(Protocol):
    """The screen's data and panes."""

    @property
    def ws(self) -> Workspace:
        """Everything that was opened."""

    @property
    def store(self) -> RunStore:
        """The run list's rows."""

    @property
    def state(self) -> MainState:
        """The screen's state."""

    @property
    def run_list(self) -> RunList:
        """The run list."""

    @property
    def timeline(self) -> Timeline:
        """The timeline."""

    @property
    def detail(self) -> DetailView:
        """The detail pane."""

    @property
    def tabs(self) -> TabbedContent:
        """The detail area's tabs."""


class Parts(Protocol):
    """The screen's other parts, each owning one job."""

    @property
    def frame(self) -> Frame:
        """Layout, header line and breadcrumb."""

    @property
    def selection(self) -> Selection:
        """What is shown."""

    @property
    def going(self) -> GoingTo:
        """Going to a reference."""

    @property
    def loader(self) -> Loader:
        """The workers that read a run and resolve a reference."""

    @property
    def extra(self) -> ExtraPanes:
        """The extra panes."""

    @property
    def finding(self) -> Finding:
        """Search, the filter and the sort."""

    @property
    def bookmarks(self) -> Bookmarks:
        """Bookmarks and notes."""
