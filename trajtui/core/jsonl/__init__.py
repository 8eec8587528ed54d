"""The big-file engine: a JSON Lines file's index of records, its keys, the reader, the rows
read on every core, and the index cache."""
