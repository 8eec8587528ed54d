"""Writing the Parquet tables for ``export --parquet`` and ``sql``: progress on stderr,
errors as one line, and the cache directory ``sql`` builds its tables in.

pyarrow is imported here only inside :func:`write`: ``trajtui --help`` and ``ls`` never
load it.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from platformdirs import user_cache_path

from trajtui.cli.output import print_err
from trajtui.core.io.sanitize import visible
from trajtui.core.jsonl.cachedir import private_dir
from trajtui.core.workspace import Workspace

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


def cache_dir(paths: Sequence[str]) -> Path | None:
    """Where ``sql`` keeps the tables of ``paths`` between runs (platformdirs' cache,
    ``~/.cache/trajtui/tables/HASH``, private): one directory per set of paths, brought up
    to date by each run. None when it cannot be had (then a temporary one is used)."""
    real = sorted({os.path.realpath(p) for p in paths})
    name = hashlib.blake2b("\0".join(real).encode("utf-8", "surrogateescape"), digest_size=16)
    top = private_dir(user_cache_path("trajtui") / "tables", True)
    if top is None:
        return None
    return private_dir(top / name.hexdigest(), True)


def clear_cache() -> tuple[int, int]:
    """Remove every set of tables ``sql`` keeps (``cache clear``): how many, and their bytes."""
    top = user_cache_path("trajtui") / "tables"
    removed = freed = 0
    try:
        sets = [d for d in top.iterdir() if d.is_dir() and not d.is_symlink()]
    except OSError:
        return 0, 0
    for d in sets:
        size = sum(p.stat().st_size for p in d.rglob("*") if p.is_file() and not p.is_symlink())
        shutil.rmtree(d, ignore_errors=True)
        if not d.exists():
            removed += 1
            freed += size
    return removed, freed
