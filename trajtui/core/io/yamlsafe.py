"""Load YAML written by agents without trusting it.

Ultraplan result logs and PLAN.md frontmatter are written by LLM agents: any text can be in
them. :func:`load` reads one YAML document through PyYAML's *safe* loader only (the C one,
``yaml.CSafeLoader``, when PyYAML was built with libyaml) and, before a single Python object
is constructed, checks the composed node graph:

* every tag must be a plain-data tag (``str``, ``int``, ``float``, ``bool``, ``null``,
  ``seq``, ``map`` and the ``<<`` merge key); ``!!python/...``, ``!!binary``, ``!!set``,
  local ``!tags`` and the like are refused with a one-line message;
* nesting and size are bounded *before* the node graph is built: a first pass over the
  parser's events (libyaml's parser keeps its own stack, so it never recurses) refuses a
  document nested deeper than :data:`MAX_DEPTH` levels or holding more than
  :data:`MAX_NODES` values, because PyYAML's C composer recurses once per level and a
  document of 50,000 ``[`` would overflow the C stack (the process dies, SIGSEGV);
* aliases are bounded: a document whose expanded size (every alias counted as a copy of what
  it names) exceeds :data:`MAX_NODES`, that uses more than :data:`MAX_ALIASES` aliases, that
  nests deeper than :data:`MAX_DEPTH` levels, or that refers to itself is refused ("billion
  laughs" documents are refused in time linear in their size);
* timestamps stay the strings they are in the file (no ``datetime`` objects), so values
  remain plain JSON data; so do integers longer than :data:`MAX_INT_TEXT` characters
  (Python refuses to convert more than 4,300 digits either way, and a base-60 ``1:2:3:...`` integer
  costs time quadratic in its length): their digits are kept exactly, as text.

Every failure is a :class:`YamlError` whose message is one line and whose ``line`` is the
1-based line of the file it is about (when known). Nothing else escapes :func:`load`.
"""

from __future__ import annotations

from typing import Any

MAX_BYTES = 8 << 20
"""Bigger files are not parsed (result logs are a few kB)."""
MAX_NODES = 100_000
"""Largest document, in nodes, once every alias is expanded."""
MAX_ALIASES = 1_000
"""Most alias uses in one document."""
MAX_DEPTH = 100
"""Deepest nesting of sequences and mappings."""
MAX_INT_TEXT = 1000
"""Integers written with more characters than this are kept as their text (so that no
integer read has more than about 1,200 digits: every one can be printed)."""


class YamlError(ValueError):
    """A document that was not read. ``str(err)`` is one line; ``line`` is 1-based or None."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


def load(data: str | bytes, path: str = "<yaml>") -> Any:
    """Parse one YAML document safely.

    Args:
        data: The file's bytes (UTF-8, a BOM is skipped) or text.
        path: The file's name, used only in messages.

    Returns:
        The document as plain data (dicts, lists, strings, numbers, booleans, None); None
        for an empty document.

    Raises:
        YamlError: The data is not one safe, bounded YAML document.
    """
    text = _text(data, path)
    # PyYAML is imported by the first YAML file read: a command that meets none (``ls`` of
    # a JSONL file) does not pay for it
    from trajtui.core.io import yamlparse

    return yamlparse.parse(text)


def _text(data: str | bytes, path: str) -> str:
    size = len(data)
    if size > MAX_BYTES:
        raise YamlError(f"too large to read as YAML ({size:,} bytes; limit {MAX_BYTES:,})")
    if isinstance(data, str):
        return data.removeprefix("\ufeff")
    raw = data.removeprefix(b"\xef\xbb\xbf")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw[: err.start].count(b"\n") + 1
        raise YamlError(f"invalid UTF-8 at byte {err.start}", line) from None
