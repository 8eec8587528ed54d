"""The registry's hooks of forecast-agent (:data:`FORECAST`): which files and directories are
its, recognised by content (:mod:`~.detect`), each opened as a source of :mod:`~.source`,
imported only then (a command that meets none never imports the readers)."""

from __future__ import annotations

import os
from types import ModuleType

from trajtui.core.format_api import ByShape, Opened
from trajtui.core.io.detect import Sniffed
from trajtui.core.io.discover import Walked
from trajtui.core.source import FormatInfo, Source
from trajtui.formats.forecast.detect import (
    files_of,
    is_eval_dir,
    is_run_dir,
    is_single_file,
    looks_single_file,
)
from trajtui.formats.forecast.files import RUN_FILES, SUMMARY

EVAL = FormatInfo("forecast-eval", "forecast-agent eval")
RUN = FormatInfo("forecast-run", "forecast-agent run")


def _sources() -> ModuleType:
    from trajtui.formats.forecast import source

    return source


def claim_dir(place: Walked) -> Opened | None:
    """Claim an eval directory or a run directory, recognised by content."""
    if is_eval_dir(place.path, place.files):
        from trajtui.formats.forecast.scope import EvalScope
        from trajtui.formats.forecast.source import EvalSource

        return Opened((EvalSource(place.path),), scope=EvalScope(place.path))
    if is_run_dir(place.path, place.files):
        from trajtui.formats.forecast.scope import RunScope
        from trajtui.formats.forecast.source import RunSource

        return Opened((RunSource(place.path),), scope=RunScope(place.path))
    return None


def open_file(path: str, sniffed: Sniffed, label: str | None) -> Source | None:
    """Open a forecast file: a single-file trajectory as one run; a run's
    info.json/trajectory.json/sources.json as its run directory; summary.json as its eval."""
    if sniffed.layout not in ("json", "jsonl"):
        return None
    name = os.path.basename(path)
    folder = os.path.dirname(path) or "."
    if name == SUMMARY:
        return (
            _sources().EvalSource(folder, label) if is_eval_dir(folder, files_of(folder)) else None
        )
    if name in RUN_FILES and is_run_dir(folder, files_of(folder)):
        return _sources().RunSource(folder, label)
    if sniffed.layout == "jsonl":
        single = is_single_file(sniffed.first)
    else:
        single = looks_single_file(path)
    return _sources().RunSource(path, label, single_file=True) if single else None


class ForecastFormat(ByShape):
    """forecast-agent eval and run directories (and their files opened on their own)."""

    infos = (EVAL, RUN)
    view = "trajtui.formats.forecast.view:VIEW"
    figures = "trajtui.formats.forecast.figures:FIGURES"
    open_file = staticmethod(open_file)
    open_dir = staticmethod(claim_dir)


FORECAST = ForecastFormat()
"""The registered forecast-agent format."""
