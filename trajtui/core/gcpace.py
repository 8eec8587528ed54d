"""How often Python's cyclic garbage collector runs in a command line, and in the TUI.

A command line (``ls``, ``stats``, ``export``...) reads a file and keeps what it counts
until it ends: hundreds of thousands of rows, facts and tool calls, none of them garbage.
At the collector's default pace (the young objects looked at every 700 allocations, and
every object alive each time the survivors grew by a quarter) it walks them again and
again, and the modules imported with them: 40% of the time ``stats`` spent counting the
runs of a 1 GB capture. :func:`for_command_line` puts what is alive at the start (the
modules) out of its sight and looks at the young objects every 50,000 allocations; cycles
are still freed, a little later. The row workers it forks go back to the default pace
(:func:`default_pace`: each record's objects die young, and looking at 50,000 of them at
once was 5-10% slower there).

The TUI goes back to the default pace (:func:`for_interactive`): it keeps what it holds out
of the collector's sight itself (:mod:`trajtui.ui.heap`), and a collection of 50,000 young
objects would come in the middle of a frame.
"""

from __future__ import annotations

import gc

__all__ = ["COMMAND_LINE_YOUNG", "default_pace", "for_command_line", "for_interactive"]

COMMAND_LINE_YOUNG = 50_000
"""Allocations between two collections of the young objects in a command line."""

_default: tuple[int, int, int] | None = None


def for_command_line() -> None:
    """The objects alive now are kept (``gc.freeze``) and the young ones collected every
    :data:`COMMAND_LINE_YOUNG` allocations."""
    global _default
    if _default is None:
        _default = gc.get_threshold()
    gc.collect(1)  # the young garbage first (a few ms): frozen, a cycle would never be freed
    gc.freeze()
    gc.set_threshold(COMMAND_LINE_YOUNG, *_default[1:])


def default_pace() -> None:
    """The collector's pace before :func:`for_command_line` (what it keeps stays kept)."""
    global _default
    if _default is not None:
        gc.set_threshold(*_default)
        _default = None


def for_interactive() -> None:
    """The collector's pace before :func:`for_command_line`, and every object in its sight
    again."""
    if _default is not None:
        default_pace()
        gc.unfreeze()
