"""Where the tables ``trajtui sql`` and the TUI's query screen query are kept between runs:
platformdirs' cache (``~/.cache/trajtui/tables/HASH``, private), one directory per set of
opened paths, brought up to date (only changed sources written again) by each use.

No pyarrow here: the TUI names the place before its worker imports the writer.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Sequence
from pathlib import Path

from platformdirs import user_cache_path

from trajtui.core.jsonl.cachedir import private_dir


def cache_dir(paths: Sequence[str]) -> Path | None:
    """The tables' directory for ``paths`` (made, private); None when it cannot be had,
    or would be inside one of ``paths`` (``trajtui sql … ~``: nothing is written in what is
    read): then a temporary one is used."""
    real = sorted({os.path.realpath(p) for p in paths})
    name = hashlib.blake2b("\0".join(real).encode("utf-8", "surrogateescape"), digest_size=16)
    where = os.path.realpath(user_cache_path("trajtui") / "tables")
    if any(where == p or where.startswith(os.path.join(p, "")) for p in real):
        return None
    top = private_dir(user_cache_path("trajtui") / "tables", True)
    if top is None:
        return None
    return private_dir(top / name.hexdigest(), True)


def clear_cache() -> tuple[int, int]:
    """Remove every set of tables kept (``cache clear``): how many, and their bytes."""
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
