"""One JSON document read with the line of each step, and what precedes a break kept.

An ATIF trajectory is one JSON object whose ``steps`` array holds the timeline. Problems
are reported as ``PATH:LINE: message``, so the reader needs the line each step starts on;
and a file cut short (still being written, copied half-way) must still show the steps
that are complete. :func:`read_document` does both in one pass with Python's own JSON
scanner (C), through the one engine for big JSON documents
(:func:`~trajtui.core.io.jsondoc.scan_document`): the top-level object member by member, the
``steps`` array item by item, each item's first line noted, and on an error everything
decoded before it kept with the line the error is on. (A trajectory file is read by the
engine itself, its steps kept as spans: :mod:`~.lazy`; this reads a small document whole.)

Numbers follow :mod:`trajtui.core.io.jsonutil`: integers keep every digit (more than 4,300
digits are kept as their spelling), ``1e999`` is an
:class:`~trajtui.core.io.jsonutil.Overflowed` float, ``NaN``/``Infinity`` are accepted and
reported, invalid UTF-8 is replaced and reported. Nesting too deep for the scanner is an
error, never a crash.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from trajtui.core.io.jsondoc import BytesFile, Span, scan_document

STEPS = "steps"


@dataclass(slots=True)
class Document:
    """What :func:`read_document` read.

    Attributes:
        value: The top-level value; for an object, the members read (``steps`` holds the
            items read, without their lines).
        steps: ``(line, item)`` for each item of a top-level ``steps`` array, or None when
            the document has no such array.
        error: ``(line, message)`` where the document stops being JSON, or None.
        warnings: Things tolerated (invalid UTF-8, NaN or Infinity), one line each.
    """

    value: Any = None
    steps: list[tuple[int | None, Any]] | None = None
    error: tuple[int, str] | None = None
    warnings: list[str] = field(default_factory=list)


def read_document(data: bytes) -> Document:
    """Decode ``data``, keeping the line of each ``steps`` item and what precedes a break.

    Never raises: an error is in :attr:`Document.error`, with what was read before it.
    """
    lined: list[tuple[int | None, Any]] = []

    def visit(key: str, span: Span, item: Any) -> None:
        lined.append((span.line, item))

    scanned = scan_document(BytesFile(data), arrays=frozenset({STEPS}), visit=visit)
    doc = Document(scanned.value, None, scanned.error, scanned.warnings)
    if STEPS in scanned.spans and isinstance(doc.value, dict):
        doc.steps = lined
        doc.value[STEPS] = [item for _, item in lined]
    return doc
