"""What is wrong with a JSONL file, as problem rows and ``PATH:LINE: message`` lines, in
file order: a byte-order mark, CR-only line endings, runs of blank lines (one warning per
run), records that could not be read, and lines the index found bad."""

from __future__ import annotations

from trajtui.core.jsonl.blanklines import BlankLines
from trajtui.core.jsonl.index import LineIndex
from trajtui.core.model import Problem, Severity


def file_problems(path: str, index: LineIndex, entry_problems: dict[int, Problem]) -> list[Problem]:
    """The problems of the file at ``path`` indexed as ``index``, with those its records
    gave when read (``entry_problems``, by record), sorted by line."""
    found: list[Problem] = []
    if index.bom:
        found.append(
            Problem(path, 1, "UTF-8 byte-order mark at the start (ignored)", Severity.WARNING)
        )
    if index.cr_only:
        found.append(
            Problem(
                path,
                1,
                "line endings are CR only (classic Mac OS): read as line breaks",
                Severity.WARNING,
            )
        )
    found.extend(_blank_problems(path, index.blank_lines()))
    found.extend(entry_problems.values())
    for i, message in list(index.bad.items()):
        if i not in entry_problems:
            found.append(Problem(path, index.line_of(i), message))
    found.sort(key=lambda p: p.line or 0)
    return found


def _blank_problems(path: str, blank: BlankLines) -> list[Problem]:
    """One warning per run of blank lines, and one for those beyond the listed runs."""
    out = []
    for first, last in blank.ranges:
        if first == last:
            message = "blank line (skipped)"
        else:
            message = f"{last - first + 1:,} blank lines (skipped), lines {first:,}-{last:,}"
        out.append(Problem(path, first, message, Severity.WARNING))
    if blank.unlisted:
        out.append(
            Problem(
                path,
                blank.unlisted_from,
                f"{blank.unlisted:,} more blank lines from here on (skipped)",
                Severity.WARNING,
            )
        )
    return out
