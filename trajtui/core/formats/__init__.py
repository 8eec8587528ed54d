"""The formats trajtui reads, each in its own module, and detection by content."""
