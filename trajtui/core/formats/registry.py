"""The formats trajtui reads, and which one reads a given file or directory.

Every format in :data:`FORMATS` is asked about every file and directory met (see
:mod:`trajtui.core.formats.base` for the contract); the most certain claim wins, so the order
below only breaks ties, and the contract test fails when two formats tie on the same input.
Formats never decide by a file name alone: a name only says which files are worth reading.

Adding a format is one line here.
"""

from __future__ import annotations

import os

from trajtui.core.detect import Sniffed, sniff
from trajtui.core.discover import MAX_FILES, Walked, walk
from trajtui.core.formats.acp import ACP
from trajtui.core.formats.atif import ATIF
from trajtui.core.formats.base import Claim, Format, Opened
from trajtui.core.formats.eval_results import EVAL_RESULTS
from trajtui.core.formats.forecast import FORECAST
from trajtui.core.formats.ultraplan import ULTRAPLAN
from trajtui.core.model import Problem, Severity
from trajtui.core.source import Source

FORMATS: tuple[Format, ...] = (
    ACP,
    FORECAST,
    ULTRAPLAN,
    EVAL_RESULTS,
    ATIF,
)
"""Every format trajtui reads."""


def _describe_keys(keys: list[str]) -> str:
    shown = ", ".join(keys[:8]) + (", ..." if len(keys) > 8 else "")
    return shown or "none"


def best(claims: list[Claim | None]) -> Claim | None:
    """The most certain claim (the first of equals)."""
    winner: Claim | None = None
    for c in claims:
        if c is not None and (winner is None or c.certainty > winner.certainty):
            winner = c
    return winner


def claims_for_file(path: str, sniffed: Sniffed, label: str | None) -> list[tuple[Format, Claim]]:
    """Every format's claim on a file (for the contract test and for diagnostics)."""
    out = []
    for fmt in FORMATS:
        c = fmt.claim_file(path, sniffed, label)
        if c is not None:
            out.append((fmt, c))
    return out


def claims_for_dir(place: Walked) -> list[tuple[Format, Claim]]:
    """Every format's claim on a directory."""
    out = []
    for fmt in FORMATS:
        c = fmt.claim_dir(place)
        if c is not None:
            out.append((fmt, c))
    return out


def open_file(path: str, sniffed: Sniffed, label: str | None) -> tuple[Source | None, str | None]:
    """Open a file whose start was sniffed; ``(None, reason)`` when no format reads it.

    Every layout is offered to the formats, binary ones (zip archives) included.
    """
    try:
        claim = best([c for _, c in claims_for_file(path, sniffed, label)])
        opened = claim.open() if claim is not None else None
    except OSError as err:
        return None, err.strerror or str(err)
    if opened is not None and opened.sources:
        return opened.sources[0], None
    if sniffed.layout == "empty":
        return None, "empty file"
    if sniffed.layout == "binary":
        return None, "binary data, not JSON"
    if sniffed.layout == "jsonl":
        return None, (
            "JSON, but not a format trajtui reads "
            f"(first object has keys: {_describe_keys(sniffed.keys)})"
        )
    if sniffed.layout == "json":
        return None, "a JSON document, but not a format trajtui reads"
    return None, "not JSON (text)"


def _internal(err: Exception) -> str:
    text = " ".join(str(err).split())[:200]
    return f"internal error ({type(err).__name__}{': ' + text if text else ''})"


def claim(place: Walked) -> Opened | None:
    """What the most certain format that recognises ``place`` opens there."""
    winner = best([c for _, c in claims_for_dir(place)])
    return winner.open() if winner is not None else None


def open_dir(root: str) -> tuple[list[Source], list[tuple[str, str]], list[Problem]]:
    """Find every supported output under ``root`` (the root itself included).

    Returns:
        ``(sources, ignored, problems)``: ``ignored`` lists files looked at and not
        recognised, with why.
    """
    sources: list[Source] = []
    ignored: list[tuple[str, str]] = []
    problems: list[Problem] = []
    seen: set[tuple[int, int]] = set()  # a file reached twice (a link inside) is read once
    walker = walk(root)
    for place in walker:
        try:
            claimed = claim(place)
        except Exception as err:  # one unreadable directory never loses the others
            problems.append(Problem(place.path, None, f"not read: {_internal(err)}"))
            place.dirs.clear()
            continue
        if claimed is not None:
            sources.extend(claimed.sources)
            problems.extend(claimed.problems)
            place.dirs.clear()
            continue
        for name in place.files:
            path = os.path.join(place.path, name)
            label = os.path.normpath(os.path.join(place.rel, name))
            try:
                st = os.stat(path)
                if (st.st_dev, st.st_ino) in seen:
                    continue
                seen.add((st.st_dev, st.st_ino))
                sniffed = sniff(path)  # by content, whatever the file is called
                source, reason = open_file(path, sniffed, label)
            except OSError as err:
                problems.append(Problem(path, None, err.strerror or str(err)))
                continue
            except Exception as err:  # one unreadable file never loses the others
                problems.append(Problem(path, None, f"not read: {_internal(err)}"))
                continue
            if source is None:
                ignored.append((path, reason or "not recognised"))
            else:
                sources.append(source)
    problems.extend(walker.problems)
    if walker.stopped:
        problems.append(
            Problem(root, None, f"stopped looking after {MAX_FILES:,} files", Severity.WARNING)
        )
    return sources, ignored, problems
