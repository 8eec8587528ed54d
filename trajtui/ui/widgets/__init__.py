"""Widgets of the trajtui TUI."""
