"""One job of run-list rows: the records of a contiguous span of a JSONL file, decoded
into rows (in a worker process of :mod:`trajtui.core.jsonl.rowpool`, or in the caller).

Only the fields a row needs are decoded (the format's ``lite`` msgspec type); anything out
of the ordinary comes back as None, "read it here": the source then reads that record the
ordinary way, with its problems and warnings.
"""

from __future__ import annotations

import copyreg
import operator
import os
from dataclasses import dataclass, fields
from typing import Any

import msgspec

from trajtui.core.io.jsonutil import id_text
from trajtui.core.jsonl.stepfacts import pack
from trajtui.core.model import RunSummary

__all__ = ["ANY_KEY", "Job", "Row", "RowMaker", "Rows", "plain", "row_at", "row_values", "rows_of"]


@dataclass(frozen=True, slots=True)
class Job:
    """Records of one file for a worker to turn into rows.

    Attributes:
        path: The file.
        ident: ``(st_dev, st_ino)`` of the file that was indexed.
        fmt: The record format (pickled by reference to its class).
        begin: File offset of the first record.
        spans: ``(offset from begin, length)`` of each record.
        refs: Each record's reference.
        lines: Each record's line number.
        first: Index of the first record.
        keys: Each record's key as the index took it from the line's head, to check against
            the key the record decodes to (empty: the index checked them).
        facts: Make each record's step facts too (the format's ``lite_facts``: what the
            statistics count of its steps), from the same decoded fields.
    """

    path: str
    ident: tuple[int, int]
    fmt: Any
    begin: int
    spans: tuple[tuple[int, int], ...]
    refs: tuple[str | None, ...]
    lines: tuple[int, ...]
    first: int
    keys: tuple[str | None, ...] = ()
    facts: bool = False


Row = RunSummary | None
"""A record's run summary, or None: read the record the ordinary way (it is unusual)."""


class Rows(list[Row]):
    """A job's rows, and (a job asking for them) each one's step facts in :attr:`facts`,
    packed (:func:`~trajtui.core.jsonl.stepfacts.pack`; None where its row is: the record
    is read the ordinary way)."""

    facts: list[Any] | None = None


_decoders: dict[type, msgspec.json.Decoder[Any]] = {}

_FIELDS = [f.name for f in fields(RunSummary)]
_summary_values = operator.attrgetter(*_FIELDS)
_LINE = _FIELDS.index("line")
if _FIELDS[:2] != ["ref", "index"]:
    raise AssertionError("a row's reference and index are its first fields")


def row_values(row: RunSummary) -> tuple[Any, ...]:
    """A row as its values, in the order of its fields (:func:`row_at` makes it again)."""
    values: tuple[Any, ...] = _summary_values(row)
    return values


def row_at(values: tuple[Any, ...], ref: str, index: int, line: int) -> RunSummary:
    """The row :func:`row_values` gave, with this reference, index and line number."""
    fixed = list(values)
    fixed[0], fixed[1], fixed[_LINE] = ref, index, line
    return RunSummary(*fixed)


def _reduce_summary(row: RunSummary) -> tuple[type[RunSummary], tuple[Any, ...]]:
    """A row pickled (sent back from a worker) as its values, in the order of its fields:
    the dataclass's own way lists the fields again for each row, a fifth of its cost."""
    return RunSummary, _summary_values(row)


copyreg.pickle(RunSummary, _reduce_summary)


def plain(value: Any, kept: tuple[type, ...] = ()) -> Any:
    """A decoded lite value as the plain JSON value it stands for: structs become dicts of
    the fields the record has, under the file's names (a field it lacks is left out, not
    None), except structs of the ``kept`` types (the format's ``lite_kept``), left as they
    are with the lists that hold them."""
    if not kept:
        return msgspec.to_builtins(value)
    return _plain(value, kept)


def _plain(value: msgspec.Struct, kept: tuple[type, ...]) -> Any:
    """A struct as a dict (structs of the ``kept`` types as they are)."""
    if isinstance(value, kept):
        return value
    out: dict[str, Any] = {}
    unset, struct = msgspec.UNSET, msgspec.Struct
    for name, key in zip(value.__struct_fields__, value.__struct_encode_fields__, strict=True):
        item = getattr(value, name)
        if item is unset:
            continue
        if isinstance(item, struct):
            item = _plain(item, kept)
        elif (
            type(item) is list  # typed as structs (a field typed Any holds plain values)
            and item
            and isinstance(item[0], struct)
            and not isinstance(item[0], kept)
        ):
            item = [_plain(x, kept) for x in item]
        out[key] = item
    return out


def rows_of(job: Job) -> Rows:
    """The rows of a job's records (run in a worker process, or here for small jobs)."""
    made: dict[int, Any] | None = {} if job.facts else None
    out = Rows(_rows_of(job, made))
    if made is not None:
        out.facts = [made.get(k) if row is not None else None for k, row in enumerate(out)]
    return out


def _rows_of(job: Job, facts: dict[int, Any] | None) -> list[Row]:
    """The rows of ``job`` (and into ``facts``, when given, the step facts of each record
    made into a row, by its position in the job)."""
    if not job.spans:
        return []
    last_off, last_len = job.spans[-1]
    try:
        fd = os.open(job.path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | os.O_NONBLOCK)
    except OSError:
        return [None] * len(job.spans)
    try:
        st = os.fstat(fd)
        if (st.st_dev, st.st_ino) != job.ident:
            return [None] * len(job.spans)
        want = last_off + last_len
        data = os.pread(fd, want, job.begin)
    except OSError:
        return [None] * len(job.spans)
    finally:
        os.close(fd)
    if len(data) < want:
        return [None] * len(job.spans)
    make = RowMaker(job.fmt, facts is not None)
    # msgspec skips a field without checking its UTF-8; the ordinary read warns about
    # invalid UTF-8 anywhere in a record: such records are read there.
    checked = data.isascii()
    view = memoryview(data)  # records decoded where they are, not copied out
    out: list[Row] = []
    for k, (off, n) in enumerate(job.spans):
        key = job.keys[k] if job.keys else ANY_KEY
        row, fact = make(
            view[off : off + n], checked, job.refs[k], job.first + k, job.lines[k], key
        )
        out.append(row)
        if facts is not None and row is not None:
            facts[k] = fact
    return out


ANY_KEY = object()
"""The key a record decodes to is not checked (the index checked it)."""


class RowMaker:
    """Makes the row of one record from its bytes (and its packed step facts, when asked),
    or None: read it the ordinary way."""

    __slots__ = ("_both", "_check", "_decoder", "_facts", "_keep", "_key", "_summarize")

    def __init__(self, fmt: Any, facts: bool) -> None:
        lite = fmt.lite
        decoder = _decoders.get(lite)
        if decoder is None:
            decoder = _decoders[lite] = msgspec.json.Decoder(lite)
        self._decoder = decoder
        self._key = fmt.key
        self._keep = getattr(fmt, "lite_kept", ())
        self._check = fmt.check
        self._summarize = fmt.summarize
        self._facts = fmt.lite_facts if facts else None
        # the row and the facts from one pass over the steps, where the format can
        self._both = getattr(fmt, "summarize_facts", None) if facts else None

    def __call__(
        self, raw: memoryview, ascii: bool, ref: str | None, index: int, line: int, key: Any
    ) -> tuple[Row, Any]:
        """The row of the record ``raw`` (``ascii``: its bytes are known to be ASCII), with
        reference ``ref``; ``key`` is the key the index took for it (checked against the
        one it decodes to), or :data:`ANY_KEY`."""
        if not ascii:
            try:
                str(raw, "utf-8")
            except UnicodeDecodeError:
                return None, None
        try:
            value = self._decoder.decode(raw)
        except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
            return None, None
        obj = plain(value, self._keep)
        if ref is None or not isinstance(obj, dict) or self._key not in obj:
            return None, None
        if key is not ANY_KEY and id_text(obj[self._key]) != key:  # spelled again later
            return None, None
        if self._check(obj) is not None:  # a warning names the record's keys: read it there
            return None, None
        if self._both is not None:
            row, made = self._both(obj, ref, index, line)
            return row, pack(made)
        row = self._summarize(obj, ref, index, line)
        return row, None if self._facts is None else pack(self._facts(obj))
