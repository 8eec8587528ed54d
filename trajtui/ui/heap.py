"""Keep Python's cyclic garbage collector off the objects the TUI keeps.

A full collection walks every object alive. With Textual's widgets, the modules and the
summaries of 10,000 runs that is over a million objects: 40-60 ms, run in whichever thread
allocated last, most often the UI thread in the middle of a frame, so a key pressed then
waited for it. What is alive once the first screen is drawn (modules, widgets, the first
runs), and once every file is read (the summaries), stays alive as long as its screen:
:func:`keep` moves it out of the collector's sight (``gc.freeze``, as servers do before
they fork workers). Reference counting still frees what is dropped meanwhile.

A screen's widgets hold each other in cycles, which only the collector frees: once a screen
alive at a :func:`keep` is left (``R`` opens a new one; a dialog open then is closed),
:func:`tidy`, called every second, hands everything back to the collector, collects, and
keeps what is still alive. A screen left and still held (by a worker finishing) is looked
for again the next second, a few times.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import sys
import weakref
from collections.abc import Callable, Sequence

_kept: weakref.WeakKeyDictionary[object, int] = weakref.WeakKeyDictionary()
"""The screens alive when objects were last kept, each with the number of times it was
found left and still alive (something, a worker finishing, held it a while longer)."""

TRIES = 5
"""Times a screen left is looked for again (a full collection each, a second apart)."""


def keep(screens: Sequence[object]) -> None:
    """Objects alive now stay alive with ``screens`` (the app's screen stack): the
    collector stops walking them."""
    gc.collect(1)  # the young garbage first (a few ms): kept, a cycle would never be freed
    gc.freeze()
    for screen in screens:
        _kept.setdefault(screen, 0)


def tidy(screens: Sequence[object]) -> bool:
    """When a screen kept is no longer in ``screens`` (the stack), free it and what it
    held, and keep the rest again. Returns True when it collected."""
    left = [screen for screen in list(_kept) if screen not in screens]
    if not left:
        return False
    tries = {id(screen): _kept[screen] + 1 for screen in left}
    del left  # (not held here while collecting)
    gc.unfreeze()
    gc.collect()
    alive = {screen: tries[id(screen)] for screen in list(_kept) if id(screen) in tries}
    _kept.clear()
    # a screen left that is still alive is looked for again, at most TRIES times
    _kept.update({screen: n for screen, n in alive.items() if n < TRIES})
    del alive
    keep(screens)
    return True


def release() -> None:
    """The app ends: what it kept goes back to the collector (a program that runs the app
    and goes on, such as a test, gets its memory back)."""
    gc.unfreeze()
    _kept.clear()


def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, where the C library is glibc (None elsewhere)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim: Callable[[int], int] = libc.malloc_trim
    except (OSError, AttributeError):
        return None
    return trim


_trim = _malloc_trim()


def give_back() -> None:
    """Return the C heap's free memory to the system (glibc keeps what a reading thread
    freed in its arenas: the 4 MB spans a big session is read in, the windows of steps
    built and dropped). Reading a 1 GB Codex rollout in the TUI peaked at 87 MB private
    without it and at 61 MB with it, called every second (well under a millisecond)."""
    if _trim is not None:
        _trim(0)
