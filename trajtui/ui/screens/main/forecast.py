"""The extra panes of forecast runs: the message pool and the source board.

Each is a tab of the detail area: a list, and a preview of the row under its cursor. The
Messages tab lists what the model saw at the selected step (``+`` added, ``-`` dropped
since the step before) or the whole pool (``p``); the Sources tab lists the board. A source
mentioned in a detail (``S3``) leads to its row (``[``, ``]``, ``enter``).

Which formats have which of these tabs is said by each format's view
(:attr:`trajtui.render.views.View.panes`); everything else the screen asks of them goes through the hooks of
:class:`~trajtui.ui.screens.main.layout.MainLayout` that :class:`ForecastPanes` overrides.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rich.text import Text
from textual import on
from textual.containers import Horizontal
from textual.widget import Widget
from textual.widgets import Static, TabbedContent, TabPane

from trajtui.core.model import Run
from trajtui.core.source import Target
from trajtui.render import detail as details
from trajtui.render.views import View, run_view, view_of
from trajtui.ui.literal import literal
from trajtui.ui.screens.main.layout import Builder
from trajtui.ui.screens.main.loading import Loading
from trajtui.ui.subjects import SegmentSubject, StepSubject, Subject
from trajtui.ui.widgets.detail import DetailView
from trajtui.ui.widgets.forecast import MessageList, SourceList
from trajtui.ui.widgets.vlist import VirtualList

MESSAGES_TAB = "tab-messages"
SOURCES_TAB = "tab-sources"

TABS = {"messages": MESSAGES_TAB, "sources": SOURCES_TAB}
"""The tab of each pane a format's view may ask for (:attr:`trajtui.render.views.View.panes`)."""


class ForecastPanes(Loading):
    """The Messages and Sources tabs."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.pool_all = False
        """The Messages tab lists the whole pool, not the selected step's context (``p``)."""
        self.message_subject: SegmentSubject | None = None
        """The message the Messages tab's preview shows."""
        self.source_subject: SegmentSubject | None = None
        """The source the Sources tab's preview shows."""

    def _compose_extra_tabs(self) -> Iterator[Widget]:
        with TabPane(literal("Messages"), id=MESSAGES_TAB):
            yield Static(id="messages-header")
            with Horizontal(classes="split"):
                self.messages = MessageList(id="messages")
                yield self.messages
                self.message_preview = DetailView(id="message-preview")
                yield self.message_preview
        with TabPane(literal("Sources"), id=SOURCES_TAB):
            with Horizontal(classes="split"):
                self.sources = SourceList(id="sources")
                yield self.sources
                self.source_preview = DetailView(id="source-preview")
                yield self.source_preview

    # -- what the run on screen has ----------------------------------------------------------

    def _view(self) -> View:
        """The view of the selected run's format."""
        if self.run_key is None:
            return view_of("")
        return view_of(self.ws.sources[self.run_key[0]].format.id)

    def _format_tabs(self) -> tuple[str, ...]:
        """The extra tabs of the selected run's format."""
        return tuple(TABS[name] for name in self._view().panes if name in TABS)

    def _has_pane(self, run: Run | None, pane: str) -> bool:
        return (
            run is not None
            and TABS[pane] in self._format_tabs()
            and self._view().has_pane(run, pane)
        )

    def _has_pool(self, run: Run | None) -> bool:
        return self._has_pane(run, "messages")

    def _has_board(self, run: Run | None) -> bool:
        return self._has_pane(run, "sources")

    def _segment(self, pane: str, key: str) -> SegmentSubject:
        """The subject of row ``key`` of extra pane ``pane``."""
        return SegmentSubject(self._view().pane_segments.get(pane, pane), key)

    def _pane_of(self, word: str) -> str | None:
        """The extra pane whose rows are reference segments ``word``."""
        for pane, segment in self._view().pane_segments.items():
            if segment == word:
                return pane
        return None

    # -- hooks (see MainLayout) --------------------------------------------------------------

    def _show_extra_tabs(self, run: Run | None) -> None:
        if run is not None:
            self.message_subject = self.source_subject = None
        on_ = self._has_pool(run) or self._has_board(run)
        if not on_:
            # The detail tab first: hiding the active tab would activate another one later.
            self.tabs.active = "tab-detail"
            if self.focused in (
                self.messages,
                self.sources,
                self.message_preview,
                self.source_preview,
            ):
                self.run_list.focus()
            self.messages.clear()
            self.sources.clear()
            self.message_preview.clear()
            self.source_preview.clear()
        for tab in (MESSAGES_TAB, SOURCES_TAB):
            if on_:
                self.tabs.show_tab(tab)
            else:
                self.tabs.hide_tab(tab)
        if on_ and self.run is not None:
            self.sources.show_board(self.run)
            self._update_messages()

    def _extra_panes(self) -> list[Widget]:
        panes: list[Widget] = []
        if self._has_pool(self.run):
            panes.append(self.messages)
        if self._has_board(self.run):
            panes.append(self.sources)
        return panes

    def _extra_tab(self, widget: Any) -> str | None:
        if widget in (self.messages, self.message_preview):
            return MESSAGES_TAB
        if widget in (self.sources, self.source_preview):
            return SOURCES_TAB
        return None

    def _extra_list(self, widget: Any) -> Any:
        return {
            id(self.message_preview): self.messages,
            id(self.source_preview): self.sources,
        }.get(id(widget), widget)

    def _pane_name(self, widget: Any) -> str:
        return {
            id(self.messages): "messages",
            id(self.sources): "sources",
            id(self.message_preview): "message",
            id(self.source_preview): "source",
        }.get(id(widget)) or super()._pane_name(widget)

    def _extra_builder(self, run: Run, subject: Subject) -> Builder | None:
        if not isinstance(subject, SegmentSubject):
            return None
        view = run_view(run)
        raw, lines = self.raw, self._fold()
        word, key = subject.word, subject.key
        ref = self._display_ref(f"{run.ref}/{word}:{key}")
        raw_value = view.segment_object(run, word, key)
        return lambda: details.titled(
            ref, view.render_segment(run, word, key), raw, raw_value, lines
        )

    def _mentions(self, run: Run) -> dict[str, str]:
        if SOURCES_TAB not in self._format_tabs():
            return {}
        return run_view(run).mentions(run)

    def _subject_shown(self, run: Run) -> None:
        if self._has_pool(run):
            self._update_messages()

    def _focused_subject(self) -> Subject:
        focused = self.focused
        if focused in (self.messages, self.message_preview) and self.message_subject is not None:
            return self.message_subject
        if focused in (self.sources, self.source_preview) and self.source_subject is not None:
            return self.source_subject
        return self.subject

    def _select_extra(self, target: Target) -> bool:
        if target.segment is None:
            return False
        word, key = target.segment
        pane = self._pane_of(word)
        if pane == "messages":
            self.tabs.active = MESSAGES_TAB
            self.pool_all = True
            self._update_messages()
            row = self.messages.row_of(key)
            if row is not None:
                self.messages.set_cursor(row, post=False, center=True)
            self.messages.focus()
            self._show_side(self._segment("messages", key))
            return True
        if pane == "sources":
            self._open_source(key)
            return True
        return False

    def _drill_extra(self, focused: Any) -> None:
        if focused is self.detail:
            if isinstance(self.subject, StepSubject) and self._has_pool(self.run):
                self.tabs.active = MESSAGES_TAB
                self.messages.focus()
        elif focused is self.messages:
            if self.messages.current_key() is not None:
                self.message_preview.focus()
        elif focused is self.sources:
            if self.sources.current_sid() is not None:
                self.source_preview.focus()
        elif focused in (self.message_preview, self.source_preview):
            assert isinstance(focused, DetailView)
            focused.follow()

    def _back_extra(self, focused: Any) -> bool:
        if focused is self.message_preview:
            self.messages.focus()
            return True
        if focused is self.source_preview:
            self.sources.focus()
            return True
        return False

    def _refresh_extra_views(self) -> None:
        for side in (self.message_subject, self.source_subject):
            if side is not None:
                self._show_side(side)

    # -- the tabs ----------------------------------------------------------------------------

    @on(TabbedContent.TabActivated)
    def _tab_activated(self, event: TabbedContent.TabActivated) -> None:
        """A tab the run does not have cannot come back (focus restored into it, a click)."""
        pane = event.pane.id
        if (pane == MESSAGES_TAB and not self._has_pool(self.run)) or (
            pane == SOURCES_TAB and not self._has_board(self.run)
        ):
            self.tabs.active = "tab-detail"

    def _update_messages(self) -> None:
        run = self.run
        if run is None or not self._has_pool(run):
            return
        number = None
        if isinstance(self.subject, StepSubject) and not self.pool_all:
            number = self.subject.first + 1
        self.messages.show_pool(run, number)
        header = self.query_one("#messages-header", Static)
        if number is None:
            header.update(
                literal(
                    Text(
                        f" every message of the pool ({self.messages.row_count:,})"
                        " · p: a step's context",
                        style="dim",
                    )
                )
            )
        else:
            header.update(
                literal(
                    Text(
                        f" what the model saw at step {number}: + added, - dropped since step {number - 1} · p: whole pool"
                        if number > 1
                        else " what the model saw at step 1 (its first call) · p: whole pool",
                        style="dim",
                    )
                )
            )

    @on(VirtualList.Highlighted, "#messages")
    def _message_highlighted(self, message: VirtualList.Highlighted) -> None:
        key = self.messages.current_key()
        if key is not None:
            self._show_side(self._segment("messages", key))

    @on(VirtualList.Highlighted, "#sources")
    def _source_highlighted(self, message: VirtualList.Highlighted) -> None:
        sid = self.sources.current_sid()
        if sid is not None:
            self._show_side(self._segment("sources", sid))

    def _show_side(self, subject: SegmentSubject) -> None:
        """Show a message or source in its tab's preview."""
        if self._pane_of(subject.word) == "messages":
            self.message_subject = subject
            preview = self.message_preview
        else:
            self.source_subject = subject
            preview = self.source_preview
        run = self.run
        if run is None:
            return
        self._present(preview, run, subject)

    @on(DetailView.FollowMention)
    def _follow_mention(self, message: DetailView.FollowMention) -> None:
        self._open_source(message.target)

    def _open_source(self, sid: str) -> None:
        run = self.run
        if run is None or not self._has_board(run):
            return
        self.tabs.active = SOURCES_TAB
        self.sources.show_board(run)
        row = self.sources.row_of(sid)
        if row is not None:
            self.sources.set_cursor(row, post=False, center=True)
        self.sources.focus()
        self._show_side(self._segment("sources", sid))

    # -- actions -----------------------------------------------------------------------------

    def action_show_messages(self) -> None:
        if not self._has_pool(self.run):
            self.notify("this run has no message pool", timeout=3)
            return
        self.tabs.active = MESSAGES_TAB
        self._update_messages()
        self.messages.focus()
        self._update_layout()

    def action_show_sources(self) -> None:
        run = self.run
        if run is None or not self._has_board(run):
            self.notify("this run has no source board", timeout=3)
            return
        self.tabs.active = SOURCES_TAB
        self.sources.show_board(run)
        self.sources.focus()
        self._update_layout()

    def action_toggle_pool(self) -> None:
        if not self._has_pool(self.run):
            self.notify("this run has no message pool", timeout=3)
            return
        self.pool_all = not self.pool_all
        self._update_messages()
