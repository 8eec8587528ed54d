"""Settings that survive a session (theme, merged chunks), in platformdirs' config dir.

Nothing is ever written beside the data being inspected.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from platformdirs import user_config_path

DEFAULTS: dict[str, Any] = {"theme": "textual-dark", "merge_chunks": False}


def settings_path() -> Path:
    """Where the settings live (``~/.config/trajtui/settings.json`` on Linux)."""
    return user_config_path("trajtui") / "settings.json"


def load() -> dict[str, Any]:
    """The saved settings over the defaults (defaults when the file is missing or bad)."""
    settings = dict(DEFAULTS)
    try:
        saved = json.loads(settings_path().read_text(encoding="utf-8"))  # noqa: TID251 - our own small file
    except (OSError, ValueError):
        return settings
    if isinstance(saved, dict):
        for key, default in DEFAULTS.items():
            if isinstance(saved.get(key), type(default)):
                settings[key] = saved[key]
    return settings


def save(settings: dict[str, Any]) -> None:
    """Save the settings (silently skipped when the directory cannot be written)."""
    path = settings_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(settings, indent=2), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        pass
