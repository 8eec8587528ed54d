"""The extra panes of the detail area: those a format's view declares as data
(:class:`~trajtui.render.view.PaneSpec`: a forecast run's Messages and Sources, say).

Each is a tab beside Detail: a :class:`~trajtui.ui.widgets.pane_list.PaneList` and a preview
of the row under its cursor (what ``RUN/WORD:KEY`` shows), with a caption over the list when
the spec has one. A pane that follows the step lists the selected step's rows (``enter`` in
the step's detail leads there; its toggle lists every row); the words of a detail that lead
somewhere (``[``, ``]``, ``enter``) open their row in the pane the view names for them.
Every view's panes are composed once, hidden until a run of that view has them; this module
names no format.

A part composed into the screen, reaching it through :class:`Paned`; the other parts ask
it what they need (its tabs, its panes, what a subject of a pane shows). The keys are the
view's commands: ``show_pane('NAME')``, ``toggle_pane('NAME')``, greyed
(:meth:`ExtraPanes.greyed`) where the run's view has no such pane.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Protocol

from rich.text import Text
from textual.actions import parse
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static, TabbedContent, TabPane

from trajtui.core.model import Run
from trajtui.core.source import Target
from trajtui.formats.registry import run_view, view_of, views
from trajtui.render import detail as details
from trajtui.render.view import PLAIN, PaneSpec, View
from trajtui.ui.literal import literal
from trajtui.ui.screens.main.layout import Builder
from trajtui.ui.screens.main.panes import Panes, Parts
from trajtui.ui.subjects import SegmentSubject, StepSubject, Subject
from trajtui.ui.widgets.detail import DetailView
from trajtui.ui.widgets.pane_list import PaneList
from trajtui.ui.widgets.vlist import VirtualList

if TYPE_CHECKING:
    pass

PANE_ACTIONS = ("show_pane", "toggle_pane")
"""The actions of a view's pane keys (their parameter: the pane's name)."""


def tab_id(name: str) -> str:
    """The id of the tab of pane ``name``."""
    return f"tab-{name}"


def composed_panes() -> dict[str, PaneSpec]:
    """Every pane a format's view declares, by name (the first view's spec of a name gives
    the tab its title): each has a tab, hidden until a run has it."""
    out: dict[str, PaneSpec] = {}
    for view in views():
        for spec in view.panes:
            out.setdefault(spec.name, spec)
    return out


def pane_action(action: str, parameters: tuple[object, ...]) -> str | None:
    """The pane a pane key's action names (None for any other action); ``action`` may be
    the whole action string (``show_pane('messages')``), as the palette asks about it."""
    if "(" in action:
        _, action, parameters = parse(action)
    if action in PANE_ACTIONS and parameters:
        return str(parameters[0])
    return None


class Paned(Panes, Parts, Protocol):
    """What the extra panes need of the screen."""

    def display_ref(self, ref: str) -> str:
        """``ref`` as the user types it."""


class ExtraPanes:
    """The tabs of the extra panes the formats' views declare."""

    def __init__(self, screen: Paned, node: Screen[None]) -> None:
        """Args:
        screen: The screen the panes are in.
        node: The same screen as a Textual screen (its focus, widgets and toasts).
        """
        self.screen = screen
        self.node = node
        self.pane_lists: dict[str, PaneList] = {}
        """Each pane's list, by name."""
        self.pane_previews: dict[str, DetailView] = {}
        """Each pane's preview, by name."""

    def compose_tabs(self) -> Iterator[Widget]:
        """The extra tabs of the detail area (hidden until a run has them)."""
        for name, spec in composed_panes().items():
            with TabPane(literal(spec.title), id=tab_id(name)):
                if spec.caption is not None:
                    yield Static(id=f"{name}-caption", classes="pane-caption")
                with Horizontal(classes="split"):
                    listed = PaneList(name, id=name)
                    listed.empty_text = spec.empty
                    self.pane_lists[name] = listed
                    yield listed
                    self.pane_previews[name] = DetailView(id=f"{name}-preview")
                    yield self.pane_previews[name]

    # -- what the run on screen has ----------------------------------------------------------

    def view(self) -> View:
        """The view of the selected run's format."""
        return self._view()

    def _view(self) -> View:
        """The view of the selected run's format."""
        if self.screen.state.run_key is None:
            return PLAIN
        return view_of(self.screen.ws.sources[self.screen.state.run_key[0]].format.id)

    def _spec(self, run: Run | None, name: str) -> PaneSpec | None:
        """The spec of pane ``name`` when ``run`` has something to show in it."""
        if run is None or name not in self.pane_lists:
            return None
        spec = self._view().pane(name)
        return spec if spec is not None and spec.has(run) else None

    def _owner(self, widget: Any) -> str | None:
        """The pane whose list or preview ``widget`` is."""
        for name in self.pane_lists:
            if widget is self.pane_lists[name] or widget is self.pane_previews[name]:
                return name
        return None

    def greyed(self, action: str, parameters: tuple[object, ...]) -> bool:
        """``action`` is a pane key of a pane the run's format does not have."""
        name = pane_action(action, parameters)
        return name is not None and self._view().pane(name) is None

    # -- what the other parts ask -------------------------------------------------------------

    def show_tabs(self, run: Run | None) -> None:
        """Show the tabs ``run``'s format adds (hide them all for None)."""
        if run is not None:
            self.screen.state.pane_subjects.clear()
        offered = [spec.name for spec in self._view().panes] if run is not None else []
        on_ = any(self._spec(run, name) is not None for name in offered)
        if not on_:
            # The detail tab first: hiding the active tab would activate another one later.
            self.screen.tabs.active = "tab-detail"
            if self._owner(self.node.focused) is not None:
                self.screen.run_list.focus()
            for name in self.pane_lists:
                self.pane_lists[name].clear()
                self.pane_previews[name].clear()
        for name in self.pane_lists:
            if on_ and name in offered:
                self.screen.tabs.show_tab(tab_id(name))
            else:
                self.screen.tabs.hide_tab(tab_id(name))
        if on_ and self.screen.state.run is not None:
            for name in offered:
                self._update_pane(name)
        self.node.refresh_bindings()

    def panes(self) -> list[Widget]:
        """The extra panes of the run on screen that ``tab`` cycles through."""
        return [self.pane_lists[n] for n in self.pane_lists if self._spec(self.screen.state.run, n)]

    def tab_of(self, widget: Any) -> str | None:
        """The tab ``widget`` (an extra pane or its preview) sits in, or None."""
        name = self._owner(widget)
        return None if name is None else tab_id(name)

    def list_of(self, widget: Any) -> Any:
        """The list whose preview ``widget`` is (itself when it is no preview)."""
        name = self._owner(widget)
        return widget if name is None else self.pane_lists[name]

    def pane_name(self, widget: Any) -> str | None:
        """The extra pane ``widget`` is, in words (None: it is none)."""
        name = self._owner(widget)
        if name is None:
            return None
        if widget is self.pane_lists[name]:
            return name
        spec = self._view().pane(name)
        if spec is None or self.screen.state.run_key is None:
            return name
        return self.screen.ws.sources[self.screen.state.run_key[0]].segments.get(
            spec.word, spec.word
        )

    def builder(self, run: Run, subject: Subject) -> Builder | None:
        """What the detail pane shows for a subject of an extra pane, or None."""
        if not isinstance(subject, SegmentSubject):
            return None
        view = run_view(run)
        raw, lines = self.screen.state.raw, self.screen.frame.fold()
        word, key = subject.word, subject.key
        ref = self.screen.display_ref(f"{run.ref}/{word}:{key}")
        raw_value = view.segment_object(run, word, key)
        return lambda: details.titled(
            ref, view.render_segment(run, word, key), raw, raw_value, lines
        )

    def mentions(self, run: Run) -> dict[str, str]:
        """Words of the detail that can be followed (``[``, ``]``, ``enter``), with what
        each leads to."""
        if not any(spec.mentions for spec in self._view().panes):
            return {}
        return run_view(run).mentions(run)

    def subject_shown(self, run: Run) -> None:
        """The detail pane shows a new subject (the panes that follow it update)."""
        view = self._view()
        for spec in view.panes:
            if spec.follows_step and spec.has(run):
                self._update_pane(spec.name)
        if view.link_name:  # its key is greyed on a step that leads nowhere
            self.node.refresh_bindings()

    def focused_subject(self) -> Subject:
        """The subject of the focused pane (what ``y`` copies and ``e`` pages)."""
        name = self._owner(self.node.focused)
        if name is not None and name in self.screen.state.pane_subjects:
            return self.screen.state.pane_subjects[name]
        return self.screen.state.subject

    def select(self, target: Target) -> bool:
        """Select what ``target`` names in an extra pane; False when it names none."""
        if target.segment is None:
            return False
        word, key = target.segment
        spec = self._view().pane_of(word)
        if spec is None:
            return False
        if spec.follows_step:
            self.screen.state.pane_whole.add(
                spec.name
            )  # the row asked for, whichever step is selected
        self._open_row(spec.name, key)
        return True

    def drill(self, focused: Any) -> None:
        """``enter`` in ``focused`` (the detail, when it had nothing to follow, or an extra
        pane)."""
        name = self._owner(focused)
        if focused is self.screen.detail:
            if isinstance(self.screen.state.subject, StepSubject):
                for spec in self._view().panes:
                    if spec.follows_step and self._spec(self.screen.state.run, spec.name):
                        self.screen.tabs.active = tab_id(spec.name)
                        self.pane_lists[spec.name].focus()
                        return
        elif name is not None and focused is self.pane_lists[name]:
            if self.pane_lists[name].current_key() is not None:
                self.pane_previews[name].focus()
        elif name is not None:
            assert isinstance(focused, DetailView)
            focused.follow()

    def back(self, focused: Any) -> bool:
        """``esc`` in a preview of an extra pane: back to its list. False elsewhere."""
        name = self._owner(focused)
        if name is not None and focused is self.pane_previews[name]:
            self.pane_lists[name].focus()
            return True
        return False

    def refresh_views(self) -> None:
        """Draw the previews again (raw or fold changed)."""
        for subject in list(self.screen.state.pane_subjects.values()):
            self._show_side(subject)

    # -- the tabs ----------------------------------------------------------------------------

    def tab_activated(self, event: TabbedContent.TabActivated) -> None:
        """A tab the run does not have cannot come back (focus restored into it, a click)."""
        for name in self.pane_lists:
            if event.pane.id == tab_id(name) and self._spec(self.screen.state.run, name) is None:
                self.screen.tabs.active = "tab-detail"

    def _update_pane(self, name: str) -> None:
        """List pane ``name``'s rows for the run on screen (and the step selected, when it
        follows the step), and its caption."""
        run = self.screen.state.run
        spec = self._spec(run, name)
        listed = self.pane_lists[name]
        if run is None or spec is None:
            listed.clear()
            return
        number = None
        following = spec.follows_step and name not in self.screen.state.pane_whole
        if following and isinstance(self.screen.state.subject, StepSubject):
            number = self.screen.state.subject.first + 1
        listed.show(spec, run, number)
        if spec.caption is not None:
            caption = Text(spec.caption(number, listed.row_count), style="dim")
            self.node.query_one(f"#{name}-caption", Static).update(literal(caption))

    def row_highlighted(self, message: VirtualList.Highlighted) -> None:
        """A pane's cursor moved: its row in the preview."""
        listed = message.control
        if not isinstance(listed, PaneList) or listed.spec is None:
            return
        key = listed.current_key()
        if key is not None:
            self._show_side(SegmentSubject(listed.spec.word, key))

    def _show_side(self, subject: SegmentSubject) -> None:
        """Show a row's object in its pane's preview."""
        spec = self._view().pane_of(subject.word)
        if spec is None:
            return
        self.screen.state.pane_subjects[spec.name] = subject
        run = self.screen.state.run
        if run is None:
            return
        self.screen.selection.present(self.pane_previews[spec.name], run, subject)

    def follow_mention(self, message: DetailView.FollowMention) -> None:
        """A word of the detail followed: its row in the pane that lists it."""
        for spec in self._view().panes:
            if spec.mentions:
                self._open_row(spec.name, message.target)
                return

    def _open_row(self, name: str, key: str) -> None:
        """Show pane ``name`` with the cursor on row ``key``, focused, and the row's object
        in its preview."""
        spec = self._spec(self.screen.state.run, name)
        if spec is None:
            return
        self.screen.tabs.active = tab_id(name)
        self._update_pane(name)
        listed = self.pane_lists[name]
        row = listed.row_of(key)
        if row is not None:
            listed.set_cursor(row, post=False, center=True)
        listed.focus()
        self._show_side(SegmentSubject(spec.word, key))

    # -- actions -----------------------------------------------------------------------------

    def show_pane(self, name: str) -> None:
        """The key of pane ``name``: show it, focused."""
        spec = self._view().pane(name)
        if spec is None:
            return
        if self._spec(self.screen.state.run, name) is None:
            self.node.notify(spec.absent, timeout=3)
            return
        self.screen.tabs.active = tab_id(name)
        self._update_pane(name)
        self.pane_lists[name].focus()
        self.screen.frame.update_layout()

    def toggle_pane(self, name: str) -> None:
        """Pane ``name`` lists every row, or the selected step's."""
        spec = self._view().pane(name)
        if spec is None:
            return
        if self._spec(self.screen.state.run, name) is None:
            self.node.notify(spec.absent, timeout=3)
            return
        self.screen.state.pane_whole ^= {name}
        self._update_pane(name)
