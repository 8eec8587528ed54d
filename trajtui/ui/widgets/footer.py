"""The footer: the keys of the focused pane, each shown whole or not at all.

Textual's footer cuts the last key at the terminal's edge (``q qu`` at 80 columns). This one
lays the keys out, then hides the ones that do not fit whole, from the right, keeping the
help key (``?`` lists every key) to the last.
"""

from __future__ import annotations

from typing import Any

from textual.widgets import Footer

from trajtui.ui import textual_private
from trajtui.ui.textual_private import FooterKey

KEEP_LAST = ("help",)
"""Actions whose key is the last to make way."""


class FittingFooter(Footer):
    """A footer that never shows part of a key, and is laid out again only when the keys
    it shows change (Textual's is rebuilt on every focus change and binding refresh, which
    restyles all its keys: a cost on every key press over a slow link)."""

    _shown: Any = None
    """What the keys shown were built from (see :meth:`_keys_shown`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._widths: dict[int, int] = {}
        """Cells each key takes (with its margin), by ``id`` of the key, as last laid out."""

    async def recompose(self) -> None:
        if not self.is_attached or textual_private.pruning(
            self
        ):  # its screen is gone (a reload replaced it)
            return
        shown = self._keys_shown()
        if shown is not None and shown == self._shown and self.children:
            return
        self._shown = shown
        self._widths.clear()
        await super().recompose()
        self.call_after_refresh(self._fit)

    def _keys_shown(self) -> Any:
        """Everything :meth:`Footer.compose` reads to lay the keys out, or None when the
        bindings are not known yet."""
        if not textual_private.bindings_ready(self):
            return None
        bindings = tuple(
            (node is not None, b.key, b.action, b.description, b.show, b.group, enabled, tip)
            for node, b, enabled, tip in self.screen.active_bindings.values()
        )
        return (bindings, self.compact, self.show_command_palette)

    def on_resize(self) -> None:
        for key in self.query(FooterKey):
            key.display = True
        self.call_after_refresh(self._fit)

    def _fit(self, tries: int = 5) -> None:
        keys = [k for k in self.query(FooterKey) if not k.has_class("-command-palette")]
        if tries and any(k.display and not k.outer_size.width for k in keys):
            self.call_after_refresh(self._fit, tries - 1)  # not laid out yet
            return
        palette = sum(
            k.outer_size.width for k in self.query(FooterKey) if k.has_class("-command-palette")
        )
        room = self.size.width - palette
        for k in keys:  # a hidden key has no size: keep what it had when it was shown
            if k.outer_size.width:
                self._widths[id(k)] = k.outer_size.width + k.styles.margin.width
        widths = {id(k): self._widths.get(id(k), 0) for k in keys}
        shown = list(keys)
        order = [k for k in reversed(keys) if k.action not in KEEP_LAST] + [
            k for k in reversed(keys) if k.action in KEEP_LAST
        ]
        for key in order:
            if sum(widths[id(k)] for k in shown) <= room:
                break
            shown.remove(key)
        for key in keys:
            key.display = key in shown
