"""One job of run-list rows: the records of a contiguous span of a JSONL file, decoded
into rows (in a worker process of :mod:`trajtui.core.jsonl.rowpool`, or in the caller).

Only the fields a row needs are decoded (the format's ``lite`` msgspec type); anything out
of the ordinary comes back as None, "read it here": the source then reads that record the
ordinary way, with its problems and warnings.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import msgspec

from trajtui.core.io.jsonutil import id_text
from trajtui.core.jsonl.stepfacts import pack
from trajtui.core.model import RunSummary

__all__ = ["Job", "Row", "Rows", "plain", "rows_of"]


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
    lite = job.fmt.lite
    decoder = _decoders.get(lite)
    if decoder is None:
        decoder = _decoders[lite] = msgspec.json.Decoder(lite)
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
    out: list[Row] = []
    key = job.fmt.key
    kept = getattr(job.fmt, "lite_kept", ())
    # msgspec skips a field without checking its UTF-8; the ordinary read warns about
    # invalid UTF-8 anywhere in a record: such records are read there.
    checked = data.isascii()
    view = memoryview(data)  # records decoded where they are, not copied out
    for k, (off, n) in enumerate(job.spans):
        ref = job.refs[k]
        raw = view[off : off + n]
        if not checked:
            try:
                str(raw, "utf-8")
            except UnicodeDecodeError:
                out.append(None)
                continue
        try:
            value = decoder.decode(raw)
        except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
            out.append(None)
            continue
        obj = plain(value, kept)
        if ref is None or not isinstance(obj, dict) or key not in obj:
            out.append(None)
            continue
        if job.keys and id_text(obj[key]) != job.keys[k]:  # spelled again later: read there
            out.append(None)
            continue
        if job.fmt.check(obj) is not None:  # a warning names the record's keys: read it there
            out.append(None)
            continue
        out.append(job.fmt.summarize(obj, ref, job.first + k, job.lines[k]))
        if facts is not None:
            facts[k] = pack(job.fmt.lite_facts(obj))
    return out
