"""The formats trajtui reads: one line each, and those other distributions add.

Every format here is asked about every file and directory opened (the contract is
:mod:`trajtui.core.format_api`; the opening itself, :mod:`trajtui.core.opening`, names no
format). The most certain claim wins, so the order only breaks ties.

Adding a format is one package under ``trajtui/formats/`` and one line in :data:`BUILT_IN`.
A format of another distribution is found through the ``trajtui.formats`` entry-point
group (:data:`GROUP`), loaded once after the built-in ones: a plugin that cannot be loaded,
or is not a :class:`~trajtui.core.format_api.Format`, or reuses a format id, is one line on
stderr and never stops trajtui.

Each format's view and figures are imported when first asked for (:func:`view_of`,
:func:`figures`), so commands that show nothing (``ls``) never import Rich.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from functools import cache
from typing import TYPE_CHECKING

from trajtui.core.format_api import Format, load
from trajtui.core.io.text import visible
from trajtui.formats.acp import ACP
from trajtui.formats.atif import ATIF
from trajtui.formats.claude_code import CLAUDE_CODE
from trajtui.formats.codex import CODEX
from trajtui.formats.eval_results import EVAL_RESULTS
from trajtui.formats.forecast import FORECAST
from trajtui.formats.inspect import INSPECT
from trajtui.formats.mini_swe_agent import MINI_SWE_AGENT
from trajtui.formats.swe_agent import SWE_AGENT
from trajtui.formats.ultraplan import ULTRAPLAN

if TYPE_CHECKING:
    from trajtui.core.model import Run
    from trajtui.core.stats.parts import FormatFigures
    from trajtui.render.view import View

BUILT_IN: tuple[Format, ...] = (
    ACP,
    EVAL_RESULTS,
    FORECAST,
    ULTRAPLAN,
    ATIF,
    CODEX,
    CLAUDE_CODE,
    MINI_SWE_AGENT,
    SWE_AGENT,
    INSPECT,
)
"""The formats that ship with trajtui. Their order breaks ties (a bug the contract test
catches) and orders what they add: ``stats``' sections, the help's lines."""

FORMATS = BUILT_IN
"""The built-in formats (:func:`formats` adds those of other distributions)."""

GROUP = "trajtui.formats"
"""The entry-point group through which another distribution adds a format: each entry
names a :class:`~trajtui.core.format_api.Format` instance (or class)."""


def _say(line: str) -> None:
    """One line on stderr about a plugin (its text made visible: it is another package's)."""
    sys.stderr.write(f"trajtui: {visible(line, keep_newlines=False)}\n")
    sys.stderr.flush()


@cache
def formats() -> tuple[Format, ...]:
    """Every format trajtui reads: the built-in ones, then those other distributions add
    (the entry points are read once)."""
    return BUILT_IN + tuple(_plugins(BUILT_IN))


def _plugins(known: tuple[Format, ...]) -> Iterator[Format]:
    from importlib.metadata import entry_points

    ids = {info.id for fmt in known for info in fmt.infos}
    for entry in entry_points(group=GROUP):
        where = f"format plugin {entry.name} ({entry.value})"
        try:
            found = entry.load()
            fmt = found() if isinstance(found, type) else found
        except Exception as err:
            _say(f"{where} not loaded: {type(err).__name__}: {err}")
            continue
        if not isinstance(fmt, Format):
            _say(f"{where} not loaded: {type(fmt).__name__} is not a trajtui Format")
            continue
        clash = sorted(info.id for info in fmt.infos if info.id in ids)
        if clash:
            _say(f"{where} not loaded: format id {', '.join(clash)} is taken")
            continue
        ids.update(info.id for info in fmt.infos)
        yield fmt


@cache
def _by_id() -> dict[str, Format]:
    return {info.id: fmt for fmt in formats() for info in fmt.infos}


@cache
def format_view(fmt: Format) -> View:
    """The view of a format (imported now; the plain view when it has none, or when its
    view cannot be imported: said in one line)."""
    from trajtui.render.view import PLAIN, View

    if fmt.view is None:
        return PLAIN
    try:
        view = load(fmt.view)
    except Exception as err:
        _say(f"view {fmt.view} not loaded: {type(err).__name__}: {err}")
        return PLAIN
    if not isinstance(view, View):
        _say(f"view {fmt.view} not loaded: {type(view).__name__} is not a trajtui View")
        return PLAIN
    return view


def view_of(format_id: str) -> View:
    """The view of the format with this id (the plain view for an id no format has)."""
    fmt = _by_id().get(format_id)
    if fmt is None:
        from trajtui.render.view import PLAIN

        return PLAIN
    return format_view(fmt)


def run_view(run: Run) -> View:
    """The view of a run's format."""
    return view_of(run.summary.format)


def views() -> tuple[View, ...]:
    """Every format's view, once each, in registry order (their keys, their panes)."""
    return tuple(dict.fromkeys(format_view(fmt) for fmt in formats()))


def validating_formats() -> list[str]:
    """The names of the formats ``trajtui validate`` judges, in registry order."""
    return [info.name for fmt in formats() for info in fmt.infos if format_view(fmt).validates]


@cache
def figures() -> tuple[FormatFigures, ...]:
    """The figures every format adds to the statistics, in registry order (imported now;
    one that cannot be imported is said in one line and left out)."""
    from trajtui.core.stats.parts import FormatFigures

    out: list[FormatFigures] = []
    for fmt in formats():
        if fmt.figures is None:
            continue
        try:
            found = load(fmt.figures)
        except Exception as err:
            _say(f"figures {fmt.figures} not loaded: {type(err).__name__}: {err}")
            continue
        if not isinstance(found, FormatFigures):
            _say(f"figures {fmt.figures} not loaded: not a trajtui FormatFigures")
            continue
        out.append(found)
    return tuple(out)
