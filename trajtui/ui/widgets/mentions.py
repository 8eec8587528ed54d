"""Mentions in the detail pane's text that can be followed (``S3`` -> a source): found
whole-word, in time linear in the text."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Mention:
    """A reference in the shown text that can be followed (``S3`` -> a source)."""

    line: int
    start: int
    end: int
    target: str


_WORD = re.compile(r"[A-Za-z0-9_]+")


def find_mentions(lines: Sequence[str], words: Mapping[str, str]) -> list[Mention]:
    """Each whole-word occurrence in ``lines`` of a key of ``words`` (not inside a longer
    run of letters, digits and ``_``), leftmost first, the longest where two start at the
    same place, never overlapping; ``target`` is the key's value.

    Time is linear in the text whatever the number of words: a word made only of word
    characters can only be a whole run of them, so runs are looked up in a dict; the
    rare word with other characters (``src:S3``) is found with ``str.find``."""
    if not words:
        return []
    plain = {w for w in words if w and _WORD.fullmatch(w)}
    other = [w for w in words if w and w not in plain]
    found: list[Mention] = []
    for y, line in enumerate(lines):
        spans: list[tuple[int, int, str]] = []
        if plain:
            for m in _WORD.finditer(line):
                if m.group() in plain:
                    spans.append((m.start(), m.end(), m.group()))
        for w in other:
            start = line.find(w)
            while start >= 0:
                end = start + len(w)
                if not _is_word_char(line, start - 1) and not _is_word_char(line, end):
                    spans.append((start, end, w))
                start = line.find(w, start + 1)
        if len(spans) > 1:
            spans.sort(key=lambda s: (s[0], -s[1]))
        last = 0
        for start, end, w in spans:
            if start >= last:
                found.append(Mention(y, start, end, words[w]))
                last = end
    return found


def _is_word_char(line: str, i: int) -> bool:
    return 0 <= i < len(line) and (line[i].isascii() and (line[i].isalnum() or line[i] == "_"))
