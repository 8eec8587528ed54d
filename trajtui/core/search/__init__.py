"""Search every text of every run of the opened sources (headless: the CLI's ``grep`` and the
TUI's search screen drive it).

* :mod:`~trajtui.core.search.needle`: what is searched for, and its raw-bytes prefilter;
* :mod:`~trajtui.core.search.texts`: where text lives in a run, each with its reference;
* :mod:`~trajtui.core.search.engine`: the search itself, streamed, cancellable;
* :mod:`~trajtui.core.search.snippet`: a line of context around a match.
"""

from trajtui.core.search.engine import Event, Hit, Progress, RunPredicate, Search
from trajtui.core.search.needle import Needle, PatternError, compile_needle
from trajtui.core.search.snippet import Snippet, snippet
from trajtui.core.search.texts import KINDS, FieldText, run_texts

__all__ = [
    "KINDS",
    "Event",
    "FieldText",
    "Hit",
    "Needle",
    "PatternError",
    "Progress",
    "RunPredicate",
    "Search",
    "Snippet",
    "compile_needle",
    "run_texts",
    "snippet",
]
