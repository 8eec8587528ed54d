"""Settings that survive a session (theme, merged chunks), in platformdirs' config dir.

The settings file is trajtui's own, but it is read as untrusted data all the same: through
:mod:`trajtui.core.io.safeio` (a FIFO, a link to ``/dev/zero`` or a huge file in its place is
refused without blocking), and decoded with a parser that refuses deep nesting instead of
crashing. Anything unusable gives the defaults.

A session writes only the settings it changed, merged under a lock into what the file
holds then (two sessions open at once never undo each other's changes), atomically, and
never inside a path the user opened: when the opened directory holds the config directory (``trajtui ~`` with
``~/.config/trajtui``), nothing is written. Nothing is ever written beside the data being
inspected.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from platformdirs import user_config_path

from trajtui.core.io import filelock, safeio
from trajtui.core.io.discover import inside
from trajtui.core.io.jsonutil import JsonError, loads

DEFAULTS: dict[str, Any] = {"theme": "textual-dark", "merge_chunks": False}
OPTIONAL = ("cache_max_mb",)
"""Settings with no default, kept when the file has them as a whole number >= 0 (the index
cache's cap in MB: :mod:`trajtui.core.jsonl.indexcache`)."""
LOCK_NAME = ".settings.lock"
"""The lock file beside the settings, held while they are read and written back."""
MAX_SIZE = 64 << 10
"""A settings file bigger than this is not read (ours are under 100 bytes)."""

_saved: dict[str, Any] | None = None
"""The settings as last read from or written to the file (None before :func:`load`)."""


def settings_path() -> Path:
    """Where the settings live (``~/.config/trajtui/settings.json`` on Linux)."""
    return user_config_path("trajtui") / "settings.json"


def load() -> dict[str, Any]:
    """The saved settings over the defaults (defaults when the file is missing or bad)."""
    global _saved
    settings = dict(DEFAULTS)
    try:
        saved, _ = loads(safeio.read_bytes(str(settings_path()), limit=MAX_SIZE))
    except (OSError, JsonError):
        saved = None
    if isinstance(saved, dict):
        for key, default in DEFAULTS.items():
            if isinstance(saved.get(key), type(default)):
                settings[key] = saved[key]
        for key in OPTIONAL:
            value = saved.get(key)
            if type(value) is int and value >= 0:
                settings[key] = value
    _saved = dict(settings)
    return settings


def kept_modes(settings: dict[str, Any]) -> list[str]:
    """The modes the settings turn on that an earlier session chose (not the defaults), as
    the keys that change them say them: ``streamed chunks merged (m)``."""
    kept = []
    if settings.get("merge_chunks") is True:
        kept.append("streamed chunks merged (m)")
    theme = settings.get("theme")
    if isinstance(theme, str) and theme != DEFAULTS["theme"]:
        kept.append(f"the {theme.removeprefix('textual-')} theme (T)")
    return kept


def outside_opened(path: Path, opened: Sequence[str]) -> bool:
    """True when ``path`` (a place trajtui would write its state) is in none of the
    ``opened`` paths, once links are resolved."""
    for root in opened:
        try:
            if inside(os.path.realpath(root), str(path)):
                return False
        except (OSError, ValueError):
            return False
    return True


def save(changes: dict[str, Any], *, opened: Sequence[str] = ()) -> bool:
    """Write the settings in ``changes`` (those a session changed) into the settings file.

    Only these keys are written: under a lock, the file is read again and ``changes`` merged
    into what it holds, so a setting another session changed meanwhile stays as that
    session left it. Nothing is written when the file already says so, when the settings
    file would be inside one of the ``opened`` paths, or when the directory cannot be
    written. The file is replaced atomically (a temporary file, then a rename).

    Returns:
        True when the file was written.
    """
    global _saved
    path = settings_path()
    if not changes or not outside_opened(path, opened):
        return False
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with filelock.locked(path.parent / LOCK_NAME):
            try:
                current, _ = loads(safeio.read_bytes(str(path), limit=MAX_SIZE))
            except (OSError, JsonError):
                current = None
            merged = dict(current) if isinstance(current, dict) else {}
            if all(k in merged and merged[k] == v for k, v in changes.items()):
                return False
            merged.update(changes)
            fd, tmp = tempfile.mkstemp(prefix=".settings-", suffix=".tmp", dir=path.parent)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    f.write(json.dumps(merged, indent=2))
                os.replace(tmp, path)
            except BaseException:
                os.unlink(tmp)
                raise
    except OSError:
        return False
    _saved = {**(_saved or DEFAULTS), **changes}
    return True
