"""Every use of Textual's private API, in one module.

Textual is pinned to one major version (``textual>=8.2.8,<9``), and these names are not
promised even within it: an upgrade that breaks one breaks it here, where each use says what
it is for and what it follows. Nothing else in trajtui reaches into Textual's private
attributes or modules (the tests read the screen through :func:`screen_strips`).
"""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.geometry import Size
from textual.screen import Screen
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Footer

# The footer's key widget: Textual exports Footer but not the FooterKey widgets it
# composes, which our footer measures and hides one by one to show only whole keys.
from textual.widgets._footer import FooterKey

__all__ = [
    "FooterKey",
    "bindings_ready",
    "pruning",
    "screen_strips",
    "scroll_update",
    "write_to_terminal",
]


def scroll_update(view: ScrollView, size: Size) -> None:
    """Move ``view``'s scrollbars for a new scrollable ``size`` set without a layout.

    ``ScrollView._scroll_update`` is what Textual itself calls when a widget's size changes
    (``Widget._size_updated``); a virtual list whose row count changes calls it after
    setting ``virtual_size`` without its layout reactive (which arranged the whole screen
    again, 30-150 ms a frame while rows load)."""
    view._scroll_update(size)


def pruning(widget: Widget) -> bool:
    """``widget`` is being removed with its screen (``Widget._pruning``): a footer asked to
    recompose then would compose keys into a screen that is gone (after a reload)."""
    return widget._pruning


def bindings_ready(footer: Footer) -> bool:
    """The footer has been told the screen's bindings (``Footer._bindings_ready``): before
    that, the keys it would lay out are not known, and ours skips measuring them."""
    return footer._bindings_ready


def write_to_terminal(app: App[Any], data: str) -> bool:
    """Write ``data`` to the terminal as it is (``App._driver``); False when the app has
    no terminal (headless, or not started). Used for the one sequence Textual has no API
    for: OSC 52 wrapped in tmux's passthrough, so the outer terminal gets a copy inside
    tmux."""
    driver = app._driver
    if driver is None:
        return False
    driver.write(data)
    return True


def screen_strips(screen: Screen[Any]) -> list[Strip]:
    """The lines of ``screen`` as the compositor last rendered them (``Screen._compositor``):
    what a person reads, for tests."""
    return screen._compositor.render_strips()
