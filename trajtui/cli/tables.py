"""Writing the Parquet tables for ``export --parquet`` and ``sql``: progress on stderr,
errors as one line, and the cache directory ``sql`` builds its tables in.

pyarrow is imported here only inside :func:`write`: ``trajtui --help`` and ``ls`` never
load it.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from trajtui.cli.output import print_err
from trajtui.core.io.sanitize import visible
from trajtui.core.tables.cachedir import cache_dir, clear_cache
from trajtui.core.workspace import Workspace

__all__ = ["cache_dir", "clear_cache", "write"]

if TYPE_CHECKING:
    from trajtui.core.tables.writer import Written

PROGRESS_AFTER = 1.0
"""Seconds after which progress is shown on stderr (on a terminal)."""


class _Progress:
    def __init__(self, what: str) -> None:
        self.what = what
        self.started = time.monotonic()
        self.shown = False
        self.tty = sys.stderr.isatty()

    def __call__(self, path: str, done: int, total: int) -> None:
        if not self.tty or time.monotonic() - self.started < PROGRESS_AFTER:
            return
        self.shown = True
        shown = visible(path[-40:], keep_newlines=False)
        sys.stderr.write(f"\r{self.what}: {shown} runs {done:,}/{total:,}   ")
        sys.stderr.flush()

    def end(self) -> None:
        if self.shown:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


def write(ws: Workspace, out: Path, paths: Sequence[str], what: str) -> Written:
    """Write (or bring up to date) the tables of ``ws`` in ``out``; exit 2 with one line
    when ``out`` cannot be written."""
    from trajtui.core.tables.writer import TablesError, write_tables

    progress = _Progress(what)
    try:
        return write_tables(ws.sources, ws.ref, out, inputs=paths, progress=progress, say=print_err)
    except TablesError as err:
        progress.end()
        print_err(f"trajtui {what}: {err}")
        sys.exit(2)
    except OSError as err:
        progress.end()
        print_err(f"trajtui {what}: {err.filename or out}: {err.strerror or err}")
        sys.exit(2)
    finally:
        progress.end()
