"""Settings that survive a session (theme, merged chunks), in platformdirs' config dir.

The settings file is trajtui's own, but it is read as untrusted data all the same: through
:mod:`trajtui.core.safeio` (a FIFO, a link to ``/dev/zero`` or a huge file in its place is
refused without blocking), and decoded with a parser that refuses deep nesting instead of
crashing. Anything unusable gives the defaults.

It is written only when a setting changed, atomically, and never inside a path the user
opened: when the opened directory holds the config directory (``trajtui ~`` with
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

from trajtui.core import safeio
from trajtui.core.discover import inside
from trajtui.core.jsonutil import JsonError, loads

DEFAULTS: dict[str, Any] = {"theme": "textual-dark", "merge_chunks": False}
OPTIONAL = ("cache_max_mb",)
"""Settings with no default, kept when the file has them as a whole number >= 0 (the index
cache's cap in MB: :mod:`trajtui.core.indexcache`)."""
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


def save(settings: dict[str, Any], *, opened: Sequence[str] = ()) -> bool:
    """Save the settings when they changed since they were read or last saved.

    Nothing is written when they did not change, when the settings file would be inside
    one of the ``opened`` paths, or when the directory cannot be written.

    Returns:
        True when the file was written.
    """
    global _saved
    if settings == _saved:
        return False
    path = settings_path()
    if not outside_opened(path, opened):
        return False
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".settings-", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(json.dumps(settings, indent=2))
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        return False
    _saved = dict(settings)
    return True
