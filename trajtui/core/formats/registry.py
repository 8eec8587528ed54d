"""Which format reads which file or directory: detection by content, then opening.

Each format module exposes what it recognises; this module asks them in turn. Formats
never look at file names alone: a name only says which files are worth reading.
"""

from __future__ import annotations

import os

from trajtui.core.detect import Sniffed
from trajtui.core.discover import CANDIDATE_SUFFIXES, walk
from trajtui.core.formats import acp
from trajtui.core.model import Problem
from trajtui.core.source import JsonlSource, Source


def _describe_keys(keys: list[str]) -> str:
    shown = ", ".join(keys[:8]) + (", ..." if len(keys) > 8 else "")
    return shown or "none"


def open_file(path: str, sniffed: Sniffed, label: str | None) -> tuple[Source | None, str | None]:
    """Open a file whose start was sniffed; ``(None, reason)`` when no format reads it."""
    if sniffed.layout == "empty":
        return None, "empty file"
    if sniffed.layout == "binary":
        return None, "binary data, not JSON"
    if sniffed.layout == "text":
        return None, "not JSON (text)"
    if sniffed.layout == "jsonl":
        fmt = acp.classify(sniffed.first)
        if fmt is not None:
            try:
                return JsonlSource(path, acp.FORMATS[fmt.id], label=label), None
            except OSError as err:
                return None, err.strerror or str(err)
        return None, (
            "JSON Lines, but not a format trajtui reads "
            f"(first record has keys: {_describe_keys(sniffed.keys)})"
        )
    return None, "a JSON document, but not a format trajtui reads"


def open_dir(root: str) -> tuple[list[Source], list[tuple[str, str]], list[Problem]]:
    """Find every supported output under ``root``.

    Returns:
        ``(sources, ignored, problems)``: ``ignored`` lists files looked at and not
        recognised, with why.
    """
    from trajtui.core.detect import sniff

    sources: list[Source] = []
    ignored: list[tuple[str, str]] = []
    problems: list[Problem] = []
    for place in walk(root):
        for name in place.files:
            if not name.endswith(CANDIDATE_SUFFIXES):
                continue
            path = os.path.join(place.path, name)
            label = os.path.normpath(os.path.join(place.rel, name))
            try:
                sniffed = sniff(path)
            except OSError as err:
                problems.append(Problem(path, None, err.strerror or str(err)))
                continue
            source, reason = open_file(path, sniffed, label)
            if source is None:
                ignored.append((path, reason or "not recognised"))
            else:
                sources.append(source)
    return sources, ignored, problems
