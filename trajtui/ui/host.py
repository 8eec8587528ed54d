"""What a screen needs from the app that runs it: the host protocol.

Screens reach the app only through :func:`host`, typed by :class:`Host`, which
:class:`~trajtui.ui.app.TrajtuiApp` implements (mypy checks it where the app is defined).
An app that is not a host (a test's bare ``App``) fails at once, naming what it lacks,
rather than a screen quietly doing nothing.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any, Protocol, runtime_checkable

from textual.dom import DOMNode


@runtime_checkable
class Host(Protocol):
    """The app as its screens see it.

    Attributes:
        paths: The paths opened on the command line (nothing is written inside them).
        follow: New records and files are shown as they are written (``F``, ``--follow``).
        settings: The saved settings (None until they are read).
        path_marks: How each opened path was when it was last opened.
        strict_keys: Files found to spell a record's key twice: indexed with every key
            checked.
    """

    paths: list[str]
    follow: bool
    settings: dict[str, Any] | None
    path_marks: dict[str, object]
    strict_keys: set[str]

    def reload(self, ref: str | None = None, *, to_end: bool = False) -> None:
        """Open the paths again, at ``ref`` (or the last run, with ``to_end``)."""

    def remember(self, key: str, value: object) -> None:
        """Change a setting and save it."""

    def copy_text(self, text: str, what: str) -> None:
        """Copy ``text`` to the clipboard and say so (``what`` it is)."""

    def toggle_theme(self) -> None:
        """Switch between the dark and the light theme."""

    def suspend(self) -> AbstractContextManager[None]:
        """Give the terminal back for a while (a pager)."""


def host(node: DOMNode) -> Host:
    """The app ``node`` runs in, as a :class:`Host`."""
    app = node.app
    if not isinstance(app, Host):
        missing = [name for name in _MEMBERS if not hasattr(app, name)]
        raise TypeError(f"{type(app).__name__} is no trajtui host: it lacks {', '.join(missing)}")
    return app


_MEMBERS = (
    "paths",
    "follow",
    "settings",
    "path_marks",
    "strict_keys",
    "reload",
    "remember",
    "copy_text",
    "toggle_theme",
    "suspend",
)
