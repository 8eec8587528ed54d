"""Screens of the trajtui TUI."""
