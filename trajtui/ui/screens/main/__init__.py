"""The main screen: run list, step timeline and a detail area with tabs.

The screen owns the behaviour; widgets own their drawing and post messages up. What the
screen shows and what is under way is one typed object, :class:`.state.MainState`
(``screen.state``), that every part reads. :class:`~.screen.MainScreen` is a thin
composition: it composes the widgets, holds the state, and hands its keys and messages to
its parts, each an object of its own that owns one job and reaches the screen through a
protocol it declares (the screen passes itself):

=====================  =======================================================================
:mod:`.screen`         the screen: its widgets, the settled signal, keys and messages handed on
:mod:`.state`          the state: the run shown, view modes, loading, requests under way
:mod:`.layout`         ``Frame``: panes and layout, narrow terminals, header line, breadcrumb
:mod:`.selection`      ``Selection``: which run, trial, step or object is shown; going to a
                       reference
:mod:`.loading`        ``Loader``: thread workers (indexing, reading a run, resolving a
                       reference) and what their progress changes
:mod:`.extra_panes`    ``ExtraPanes``: the extra panes the formats' views declare (a list and a
                       preview each)
:mod:`.finding`        ``Finding``: search, filter and sort (:mod:`.hints`: a query's problem
                       under its box)
:mod:`.actions`        ``Keys``: what the other keys do (moving, drilling, copying, exporting)
:mod:`.changes`        ``DiskWatch``: changes on disk (:mod:`.watching`: how a path is marked)
:mod:`.marks`          ``Bookmarks``: bookmarks and notes (``b``, ``A``, ``'``)
:mod:`.comparing`      ``Comparing``: marking a run and comparing two (``c``), two sources (``C``)
=====================  =======================================================================

The parts ask each other through the screen (``screen.selection.load_run(...)``), never
by inheriting. All reading happens in thread workers, which only post messages or wait on
:class:`.state.Wake` (woken by the screen, never polling): nothing here waits on I/O.
"""

from __future__ import annotations

from trajtui.ui.screens.main.screen import MainScreen

__all__ = ["MainScreen"]
