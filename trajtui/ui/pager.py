"""Open text in the user's ``$PAGER`` (``e``), suspending the TUI meanwhile.

The text is written to a temporary file in trajtui's own cache directory (never beside the
data), with control characters made visible, and removed afterwards.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile

from platformdirs import user_cache_path
from textual.app import App

from trajtui.core.text import visible


def page(app: App[object], text: str) -> str | None:
    """Show ``text`` in ``$PAGER`` (default ``less``). Returns an error message or None."""
    command = shlex.split(os.environ.get("PAGER") or "less") or ["less"]
    cache = user_cache_path("trajtui", ensure_exists=True)
    fd, path = tempfile.mkstemp(prefix="trajtui-", suffix=".txt", dir=cache)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(visible(text))
        try:
            with app.suspend():
                subprocess.run([*command, path], check=False)
        except Exception as err:  # SuspendNotSupported in headless tests, missing pager...
            return f"cannot open a pager ({' '.join(command)}): {err or type(err).__name__}"
    finally:
        try:
            os.unlink(path)
        except OSError:
            pass
    return None
