"""Eval results opened and scanned as the tests read them: the sources of some paths, the one
source of a path, its runs and their fields."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.workspace import open_paths
from trajtui.core.model import Problem, Run, RunSummary, Step
from trajtui.core.source import Source


def scanned(paths: list[Path]) -> tuple[list[Source], list[Problem]]:
    """The sources and problems of ``paths``, each source scanned whole."""
    ws = open_paths([str(p) for p in paths])
    for source in ws.sources:
        for _ in source.scan():
            pass
    return ws.sources, ws.problems


def one_source(path: Path) -> Source:
    """The one eval-results source ``path`` opens, scanned whole."""
    sources, problems = scanned([path])
    assert problems == []
    (source,) = sources
    assert source.format.id == "eval-results"
    return source


def summaries(source: Source) -> dict[str, RunSummary]:
    """The run summaries of ``source``, by reference."""
    return {
        e.ref: e for e in (source.entry(i) for i in range(len(source))) if isinstance(e, RunSummary)
    }


def run_of(source: Source, ref: str) -> Run:
    """The run ``ref`` of ``source``, read whole."""
    index = source.find(ref)
    assert index is not None, ref
    return source.run(index)


def field(obj: Run | Step, label: str) -> object:
    """The value of ``obj``'s field labelled ``label``."""
    for f in obj.fields:
        if f.label == label:
            return f.value
    raise KeyError(label)
