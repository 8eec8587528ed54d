"""The headless core of trajtui: formats, index, reader and model.

Everything here is importable without textual, rich or click (a test checks this in a
fresh interpreter). The CLI and the TUI sit on top of it; data flows one way:
file -> index -> reader -> model -> widgets.
"""
