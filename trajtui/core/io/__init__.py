"""Safe input and output: regular files only, bounded reads, detection by content, the
walk of a directory, JSON and YAML read without trusting them, and text made safe to show."""
