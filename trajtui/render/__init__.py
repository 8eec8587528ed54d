"""Turn model objects into text and Rich renderables, shared by the CLI and the TUI.

``fmt`` is plain Python (used by ``trajtui ls`` on hot paths); ``show`` builds Rich
renderables. Nothing here parses files, and untrusted text always goes through
:func:`trajtui.core.io.text.visible` and into ``Text`` objects, never into markup.
"""
