"""The ``trajtui`` command: the TUI by default, and ``ls``/``show``/``validate`` for scripts.

Exit codes: 0 when data could be read (problems are reported on stderr as
``PATH:LINE: message``), 1 when nothing could be read or a reference names nothing, 2 for
usage errors. No Python traceback reaches a user: unexpected errors print one line
(``TRAJTUI_DEBUG=1`` shows the traceback).

Modules: :mod:`~.group` (the command group and the TUI's ``open``), :mod:`~.ls`,
:mod:`~.show` and :mod:`~.validate` (one command each), :mod:`~.output` (stderr lines and a
quiet stdout), :mod:`~.entry` (:func:`main`, the ``trajtui`` script).
"""

from __future__ import annotations

from trajtui.cli.entry import main
from trajtui.cli.group import cli

__all__ = ["cli", "main"]
