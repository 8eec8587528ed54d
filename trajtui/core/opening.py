"""Which format reads a given file or directory: the formats are passed in.

Every format given is asked about every file and directory met (see
:mod:`trajtui.core.format_api` for the contract); the most certain claim wins, so their order
only breaks ties (the contract test fails when two formats tie on the same input). Formats
never decide by a file name alone: a name only says which files are worth reading. This
module names no format: :mod:`trajtui.formats.registry` lists them.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field

from trajtui.core.format_api import Claim, Format, Opened, Reach, Scope
from trajtui.core.io.detect import Sniffed, sniff
from trajtui.core.io.discover import MAX_FILES, Walked, walk
from trajtui.core.model import Problem, Severity
from trajtui.core.source import Source


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


def claims_for_file(
    formats: Sequence[Format], path: str, sniffed: Sniffed, label: str | None
) -> list[tuple[Format, Claim]]:
    """Every format's claim on a file (for the contract test and for diagnostics)."""
    out = []
    for fmt in formats:
        c = fmt.claim_file(path, sniffed, label)
        if c is not None:
            out.append((fmt, c))
    return out


def claims_for_dir(
    formats: Sequence[Format], place: Walked, besides: Format | None = None
) -> list[tuple[Format, Claim]]:
    """Every format's claim on a directory (``besides`` not asked)."""
    out = []
    for fmt in formats:
        if fmt is besides:
            continue
        c = fmt.claim_dir(place)
        if c is not None:
            out.append((fmt, c))
    return out


def open_file(
    formats: Sequence[Format],
    path: str,
    sniffed: Sniffed,
    label: str | None,
    *,
    besides: Format | None = None,
) -> tuple[Source | None, str | None]:
    """Open a file whose start was sniffed; ``(None, reason)`` when no format reads it.

    Every layout is offered to the formats (``besides`` excepted), binary ones (zip
    archives) included.
    """
    sources, reason = open_file_sources(formats, path, sniffed, label, besides=besides)
    return (sources[0] if sources else None), reason


def open_file_sources(
    formats: Sequence[Format],
    path: str,
    sniffed: Sniffed,
    label: str | None,
    *,
    besides: Format | None = None,
) -> tuple[tuple[Source, ...], str | None]:
    """As :func:`open_file`, every source the file holds (a session file: the session and,
    apart, the subagents whose lines it holds)."""
    try:
        found = claims_for_file(formats, path, sniffed, label)
        claim = best([c for fmt, c in found if fmt is not besides])
        opened = claim.open() if claim is not None else None
    except OSError as err:
        return (), err.strerror or str(err)
    if opened is not None and opened.sources:
        return opened.sources, None
    return (), _not_read(sniffed)


def _not_read(sniffed: Sniffed) -> str:
    if sniffed.layout == "empty":
        return "empty file"
    if sniffed.layout == "binary":
        return "binary data, not JSON"
    if sniffed.layout == "jsonl":
        return (
            "JSON, but not a format trajtui reads "
            f"(first object has keys: {_describe_keys(sniffed.keys)})"
        )
    if sniffed.layout == "json":
        return "a JSON document, but not a format trajtui reads"
    return "not JSON (text)"


def _internal(err: Exception) -> str:
    text = " ".join(str(err).split())[:200]
    return f"internal error ({type(err).__name__}{': ' + text if text else ''})"


@dataclass
class Found:
    """What :func:`open_dir` found under a directory.

    Attributes:
        sources: Every supported output, in walk order.
        ignored: Files and directories looked at and not read, with why (``ls --verbose``).
        problems: What could not be read.
        looked_at: How many files were looked at (read by a format or not).
        passed_over: How many entries the walk did not look into (tool directories, links
            out, FIFOs: in :attr:`ignored` too).
    """

    sources: list[Source] = field(default_factory=list)
    ignored: list[tuple[str, str]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    looked_at: int = 0
    passed_over: int = 0


@dataclass(frozen=True, slots=True)
class _Claimed:
    """A claimed directory the walk is inside: its scope, and the format that claimed it
    (``scope`` None: a directory below it that the claim does not read, free for all)."""

    path: str
    scope: Scope | None
    fmt: Format | None


def _below(path: str, parent: str) -> bool:
    return path == parent or path.startswith(parent.rstrip(os.sep) + os.sep)


def _claim_dir(
    formats: Sequence[Format], place: Walked, besides: Format | None
) -> tuple[Format, Opened] | None:
    """What the most certain format (``besides`` excepted) that recognises ``place``
    opens there."""
    found = claims_for_dir(formats, place, besides)
    winner = best([c for _, c in found])
    if winner is None:
        return None
    fmt = next(f for f, c in found if c is winner)
    return fmt, winner.open()


def open_dir(formats: Sequence[Format], root: str) -> Found:
    """Find every supported output under ``root`` (the root itself included).

    A directory a format claims is read by that format's sources, as far as its
    :class:`~trajtui.core.format_api.Scope` says; every other file below it is still
    sniffed and offered to every format, and every other directory may be claimed by
    another format. Files no format reads are listed in :attr:`Found.ignored` with why.
    """
    out = Found()
    seen: set[tuple[int, int]] = set()  # a file reached twice (a link inside) is read once
    stack: list[_Claimed] = []  # the claimed directories the walk is inside, innermost last
    walker = walk(root)
    for place in walker:
        here = os.path.normpath(place.path)
        while stack and not _below(here, stack[-1].path):
            stack.pop()
        inner = stack[-1] if stack else None
        try:
            reach = Reach.NONE
            if inner is not None and inner.scope is not None and here != inner.path:
                reach = inner.scope.reach_dir(place)
            if reach is Reach.ALL:
                place.dirs.clear()
                continue
            if reach is Reach.NONE and inner is not None and inner.scope is not None:
                inner = _Claimed(here, None, None)  # the claim reads nothing from here down
                stack.append(inner)
            claimed = None
            if reach is not Reach.FILES:
                besides = inner.fmt if reach is Reach.OTHERS and inner is not None else None
                claimed = _claim_dir(formats, place, besides)
        except Exception as err:  # one unreadable directory never loses the others
            out.problems.append(Problem(place.path, None, f"not read: {_internal(err)}"))
            place.dirs.clear()
            continue
        if claimed is not None:
            fmt, opened = claimed
            if reach is Reach.OTHERS and inner is not None and inner.scope is not None:
                inner.scope.exclude(here)
            out.sources.extend(opened.sources)
            out.problems.extend(opened.problems)
            if opened.scope is None:
                place.dirs.clear()
                continue
            inner = _Claimed(here, opened.scope, fmt)
            stack.append(inner)
        _read_files(formats, place, inner, seen, out)
    _newest_first(out.sources)
    out.problems.extend(walker.problems)
    out.ignored.extend(walker.skipped)
    out.passed_over = len(walker.skipped)
    if walker.stopped:
        out.problems.append(
            Problem(root, None, f"stopped looking after {MAX_FILES:,} files", Severity.WARNING)
        )
    return out


def _newest_first(sources: list[Source]) -> None:
    """Sources that know when their run started, newest first, in the places they hold
    among the others (which keep the walk's order); equal times keep the walk's order."""
    places = [k for k, source in enumerate(sources) if source.started is not None]
    dated = sorted((sources[k] for k in places), key=lambda s: s.started or 0.0, reverse=True)
    for k, source in zip(places, dated, strict=True):
        sources[k] = source


def _read_files(
    formats: Sequence[Format],
    place: Walked,
    inner: _Claimed | None,
    seen: set[tuple[int, int]],
    out: Found,
) -> None:
    """Offer each file of ``place`` to the claim it is inside (``inner``), then to every
    format."""
    scope = inner.scope if inner is not None else None
    for name in place.files:
        path = os.path.join(place.path, name)
        label = os.path.normpath(os.path.join(place.rel, name))
        out.looked_at += 1
        try:
            st = os.stat(path)
            if (st.st_dev, st.st_ino) in seen:
                continue
            seen.add((st.st_dev, st.st_ino))
            reach = scope.reach_file(place, name) if scope is not None else Reach.NONE
            if reach is Reach.ALL:
                continue
            sniffed = sniff(path)  # by content, whatever the file is called
            besides = inner.fmt if inner is not None and reach is Reach.UNLESS_CLAIMED else None
            sources, reason = open_file_sources(formats, path, sniffed, label, besides=besides)
        except OSError as err:
            out.problems.append(Problem(path, None, err.strerror or str(err)))
            continue
        except Exception as err:  # one unreadable file never loses the others
            out.problems.append(Problem(path, None, f"not read: {_internal(err)}"))
            continue
        if sources:
            out.sources.extend(sources)
            if scope is not None and reach is Reach.UNLESS_CLAIMED:
                scope.release(path)
        elif reach is not Reach.UNLESS_CLAIMED:  # else the claim reads it, and says why
            out.ignored.append((path, f"not recognised: {reason}" if reason else "not recognised"))
