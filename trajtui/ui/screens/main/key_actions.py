"""The main screen's key actions (:class:`KeyActions`): each ``action_*`` method, where
Textual looks for the keys the command table binds, hands its key to the part of the
screen that does it (:mod:`~.actions`, :mod:`~.finding`, :mod:`~.extra_panes`,
:mod:`~.changes`, :mod:`~.comparing`, :mod:`~.marks`). Which are greyed is the screen's
``check_action``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from trajtui.ui.screens.main.actions import Keys
    from trajtui.ui.screens.main.changes import DiskWatch
    from trajtui.ui.screens.main.comparing import Comparing
    from trajtui.ui.screens.main.extra_panes import ExtraPanes
    from trajtui.ui.screens.main.finding import Finding
    from trajtui.ui.screens.main.marks import Bookmarks


class KeyActions:
    """The ``action_*`` methods of :class:`~.screen.MainScreen` (mixed in), each handed to
    its part."""

    # the parts the keys go to (set by the screen)
    keys: Keys
    finding: Finding
    extra: ExtraPanes
    disk: DiskWatch
    comparing: Comparing
    bookmarks: Bookmarks

    def action_open_link(self) -> None:
        self.keys.open_link()

    def action_link_back(self) -> None:
        self.keys.link_back()

    def action_cursor_down(self) -> None:
        self.keys.cursor_down()

    def action_cursor_up(self) -> None:
        self.keys.cursor_up()

    def action_first(self) -> None:
        self.keys.first()

    def action_last(self) -> None:
        self.keys.last()

    def action_page_down(self) -> None:
        self.keys.page_down()

    def action_page_up(self) -> None:
        self.keys.page_up()

    def action_next_mention(self) -> None:
        self.keys.next_mention()

    def action_prev_mention(self) -> None:
        self.keys.prev_mention()

    def action_drill(self) -> None:
        self.keys.drill()

    def action_back(self) -> None:
        self.keys.back()

    def action_next_pane(self) -> None:
        self.keys.next_pane()

    def action_prev_pane(self) -> None:
        self.keys.prev_pane()

    def action_next_run(self) -> None:
        self.keys.next_run()

    def action_prev_run(self) -> None:
        self.keys.prev_run()

    def action_toggle_raw(self) -> None:
        self.keys.toggle_raw()

    def action_toggle_fold(self) -> None:
        self.keys.toggle_fold()

    def action_toggle_merge(self) -> None:
        self.keys.toggle_merge()

    def action_stats(self) -> None:
        self.keys.stats()

    def action_sql(self) -> None:
        self.keys.sql()

    def action_copy(self) -> None:
        self.keys.copy()

    def action_copy_ref(self) -> None:
        self.keys.copy_ref()

    def action_pager(self) -> None:
        self.keys.pager()

    def action_export(self) -> None:
        self.keys.export()

    def action_reload(self) -> None:
        self.keys.reload()

    def action_goto(self) -> None:
        self.keys.goto()

    def action_help(self) -> None:
        self.keys.help()

    def action_toggle_dark(self) -> None:
        self.keys.toggle_dark()

    def action_search(self) -> None:
        self.finding.search()

    def action_grep(self) -> None:
        self.finding.grep()

    def action_next_match(self) -> None:
        self.finding.next_match()

    def action_prev_match(self) -> None:
        self.finding.prev_match()

    def action_filter(self) -> None:
        self.finding.filter()

    def action_sort(self) -> None:
        self.finding.sort()

    def action_sort_by(self) -> None:
        self.finding.sort_by()

    def action_sort_reverse(self) -> None:
        self.finding.sort_reverse()

    def action_show_pane(self, name: str) -> None:
        self.extra.show_pane(name)

    def action_toggle_pane(self, name: str) -> None:
        self.extra.toggle_pane(name)

    def action_toggle_follow(self) -> None:
        self.disk.toggle_follow()

    def action_compare(self) -> None:
        self.comparing.compare()

    def action_compare_marked(self) -> None:
        self.comparing.compare_marked()

    def action_compare_sources(self) -> None:
        self.comparing.compare_sources()

    def action_bookmark(self) -> None:
        self.bookmarks.bookmark()

    def action_note(self) -> None:
        self.bookmarks.note()

    def action_bookmarks(self) -> None:
        self.bookmarks.list_them()
