"""The formats trajtui reads: one line each, and those other packages add.

Every format here is asked about every file and directory opened (the contract is
:mod:`trajtui.core.format_api`; the opening itself, :mod:`trajtui.core.opening`, names no
format). The most certain claim wins, so the order only breaks ties.

Adding a format is one package under ``trajtui/formats/`` and one line in :data:`BUILT_IN`;
a format of another distribution is found through the ``trajtui.formats`` entry-point
group (see :func:`formats`).
"""

from __future__ import annotations

from trajtui.core.format_api import Format
from trajtui.formats.acp import ACP
from trajtui.formats.atif import ATIF
from trajtui.formats.eval_results import EVAL_RESULTS
from trajtui.formats.forecast import FORECAST
from trajtui.formats.ultraplan import ULTRAPLAN

BUILT_IN: tuple[Format, ...] = (
    ACP,
    FORECAST,
    ULTRAPLAN,
    EVAL_RESULTS,
    ATIF,
)
"""The formats that ship with trajtui."""

FORMATS = BUILT_IN
"""Every format trajtui reads (the built-in ones; :func:`formats` adds plugins)."""


def formats() -> tuple[Format, ...]:
    """Every format trajtui reads: the built-in ones, then those other distributions add."""
    return FORMATS
