"""Inspect AI logs: ``.eval`` zip archives and ``.json`` EvalLog documents (also those the R
package vitals writes).

What is read
    An ``.eval`` log (a zip archive holding ``header.json`` or, while the eval runs,
    ``_journal/start.json``; members deflated or Zstandard-compressed) and a ``.json`` log
    (one object whose first members are ``version``, ``status``, ``eval``), each known by
    its content. A log directory is walked as any directory: each log is a source.
    ``logs.json`` (a listing of logs) is not a log.

Runs and steps
    A run is one sample and epoch, ``ID/epoch-N``. Its status is the log's headline
    scorer's value in Inspect's words (``correct``, ``incorrect``, ``partial``,
    ``noanswer``; a number is ``scored``), ``error`` when the sample failed, ``time limit``
    (a timeout) or another limit; its score that value as Inspect counts it (C 1, P 0.5,
    I 0). Its tokens and cost are its ``model_usage``'s, its duration its ``total_time``.
    Every scorer's value, answer and explanation, the target, the input and the log's own
    figures (status, results by scorer and metric, usage) are in its detail. Steps are its
    events: the input, model calls (tokens, time, the tool calls asked for), tool calls
    (arguments, result, error), scores, errors and log lines.

Modules
    :mod:`~.archive` (one zip member at a time), :mod:`~.scores` (a sample's status and
    score), :mod:`~.sample` (a sample's timeline), :mod:`~.log` (the header, rows and
    runs), :mod:`~.source` (the sources), :mod:`~.view` (the screens).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from trajtui.core.format_api import Certainty, Claim, Format, claimed
from trajtui.core.io import safeio
from trajtui.core.io.detect import Sniffed
from trajtui.core.lazynames import lazy_names
from trajtui.formats.inspect.ident import FORMAT, FORMAT_ID

if TYPE_CHECKING:
    from trajtui.formats.inspect.source import EvalSource, JsonSource

_JSON_HEAD = re.compile(
    rb'\A(?:\xef\xbb\xbf)?\s*\{\s*"version"\s*:\s*\d+\s*,\s*"status"\s*:\s*"[^"]*"\s*,\s*"eval"\s*:\s*\{'
)
_ZIP = b"PK\x03\x04"


class InspectFormat(Format):
    """Inspect AI's ``.eval`` and ``.json`` logs."""

    infos = (FORMAT,)
    view = "trajtui.formats.inspect.view:VIEW"

    def claim_file(self, path: str, sniffed: Sniffed, label: str | None) -> Claim | None:
        if sniffed.layout in ("json", "jsonl"):
            if _JSON_HEAD.match(safeio.read_head(path, 4096)) is None:
                return None
            from trajtui.formats.inspect.source import JsonSource

            return claimed(Certainty.MARKED, JsonSource(path, label))
        if sniffed.layout != "binary" or not safeio.read_head(path, 4).startswith(_ZIP):
            return None
        from trajtui.formats.inspect.archive import Archive, ArchiveError
        from trajtui.formats.inspect.source import EvalSource

        try:
            with Archive(path) as archive:
                if (
                    "header.json" not in archive.members
                    and "_journal/start.json" not in archive.members
                ):
                    return None
        except ArchiveError:
            return None
        return claimed(Certainty.MARKED, EvalSource(path, label))


INSPECT = InspectFormat()
"""The registered format."""

# the sources, imported when first named (the registry needs only INSPECT: a command that
# meets no Inspect log never imports the readers)
if not TYPE_CHECKING:  # (for mypy, the names are the imports above)
    __getattr__ = lazy_names(__name__, {"EvalSource": "source", "JsonSource": "source"})


__all__ = ["FORMAT", "FORMAT_ID", "INSPECT", "EvalSource", "InspectFormat", "JsonSource"]
