"""The Textual app: run list, step timeline, detail, message pool and source board."""
