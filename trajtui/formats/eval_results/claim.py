"""The registry's hooks of eval results (:data:`EVAL_RESULTS`): which files and directories
are results trees, run directories or results files, recognised by content (:mod:`~.shapes`,
:mod:`~.tree`), each opened as a :class:`~.source.ResultsSource`, imported only then (a
command that meets none never imports the readers)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from trajtui.core.format_api import ByShape, Opened
from trajtui.core.io.detect import Sniffed
from trajtui.core.io.discover import Walked
from trajtui.formats.eval_results.shapes import RESULTS, head_shape, object_shape, read_head
from trajtui.formats.eval_results.tree import ResultsScope, is_results_place

if TYPE_CHECKING:
    from trajtui.formats.eval_results.source import ResultsSource


def open_file(path: str, sniffed: Sniffed, label: str | None) -> ResultsSource | None:
    """Open a results file (a results or per-sample document, a test query dump or legacy
    JSON Lines) as a source with one run; None for anything else.

    Raises:
        OSError: The file cannot be read.
    """
    if sniffed.layout == "jsonl":
        shape = object_shape(sniffed.first)
    elif sniffed.layout == "json":
        shape = head_shape(read_head(path))
    else:
        return None
    if shape is None:
        return None
    from trajtui.formats.eval_results.source import ResultsSource

    return ResultsSource(path, label, single_file=True)


def claim_dir(place: Walked) -> Opened | None:
    """Claim a results tree or a run directory, recognised by the content of its files."""
    if not is_results_place(place):
        return None
    from trajtui.formats.eval_results.source import ResultsSource

    scope = ResultsScope(place.path)
    return Opened((ResultsSource(place.path, place.path, scope=scope),), scope=scope)


class EvalResultsFormat(ByShape):
    """Eval ``results.json`` trees, run directories and results files, by content."""

    infos = (RESULTS,)
    view = "trajtui.formats.eval_results.view:VIEW"
    figures = "trajtui.formats.eval_results.figures:FIGURES"
    open_file = staticmethod(open_file)
    open_dir = staticmethod(claim_dir)


EVAL_RESULTS = EvalResultsFormat()
"""The registered eval-results format."""
