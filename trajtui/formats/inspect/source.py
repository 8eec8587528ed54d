"""The Inspect log sources: an ``.eval`` zip and a ``.json`` EvalLog, one source per log.

:class:`EvalSource` lists an ``.eval`` log's samples from its central directory, its header
and its summaries (``summaries.json``; while the eval runs, or when it was killed, the
``_journal/`` start and summaries, and the sample members written since the last flush),
then reads each sample once, one member (or, in the chunked layout, one folder of members)
at a time, so its row has its steps and tool calls as opening it shows them: in the TUI
(:attr:`~trajtui.core.source.Source.partial_rows`) the rows are listed from the summaries
first and learn their counts as the samples are read; in ``ls`` each row is listed once,
counted.

:class:`JsonSource` reads a ``.json`` log in one pass with the core engine for big JSON
documents (:mod:`trajtui.core.io.jsondoc`): every member but ``samples`` is kept (the
header), each sample is decoded on its own, folded into its row and let go, its byte span
kept; opening one reads that span again, nothing else. So memory holds one sample at a
time whatever the size of the log.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from trajtui.core.io import safeio, sparse
from trajtui.core.io.jsondoc import DocumentScan, Span, read_item
from trajtui.core.io.jsonutil import JsonError, loads
from trajtui.core.io.text import one_line
from trajtui.core.jsonl.index import ScanProgress
from trajtui.core.model import Problem, Run, RunSummary, Severity
from trajtui.core.source import LoadError
from trajtui.core.static_source import StaticSource
from trajtui.formats.inspect.archive import MAX_SMALL, Archive, ArchiveError, Member
from trajtui.formats.inspect.ident import FORMAT as FORMAT
from trajtui.formats.inspect.log import (
    LogInfo,
    build_run,
    log_info,
    reductions,
    summary_row,
)
from trajtui.formats.inspect.sample import input_text, timeline
from trajtui.formats.inspect.scores import error_text

_SAMPLE = re.compile(
    r"\Asamples/(?P<id>.+)_epoch_(?P<epoch>\d+)(?:\.json|/sample\.json)\Z", re.DOTALL
)
SAMPLE_KEY = "samples"
SAMPLES = frozenset({SAMPLE_KEY})
_CHUNK = re.compile(r"\A(?P<n>\d+)\.json\Z")


def _json(data: bytes) -> Any:
    """A member decoded as the house reads JSON (NaN, Infinity and invalid UTF-8 tolerated).

    Raises:
        JsonError: It is not JSON.
    """
    return loads(data)[0]


class _InspectSource(StaticSource):
    def __init__(self, path: str, label: str | None = None) -> None:
        super().__init__(path, FORMAT, label)
        self.log: LogInfo | None = None
        self.reduced: dict[tuple[str, str], Any] = {}
        """The log's epoch reductions (:func:`~.log.reductions`)."""

    def _say_empty(self) -> None:
        """A log with no sample is said, with its status and error (never an empty list)."""
        if len(self) or self.log is None:
            return
        error = f": {one_line(self.log.error)}" if self.log.error else ""
        self.add_problem(
            Problem(self.path, None, f"no samples in this log (status {self.log.status}{error})"),
            row=True,
        )

    def _make_run(self, i: int, entry: RunSummary) -> Run:
        run = super()._make_run(i, entry)
        self._learn(i, run.summary)
        return run

    def _learn(self, i: int, summary: RunSummary) -> None:
        """Row ``i`` learns what its sample says (its steps and tool calls): the same
        figures on every surface once the sample has been read."""
        if self._table.get(i) != summary:
            self._table.put(i, summary)
            self.revision += 1


class EvalSource(_InspectSource):
    """An ``.eval`` log (a zip archive)."""

    _members: dict[str, Member] | None = None
    """The archive's members, as its listing read them."""

    def _load(self) -> Iterator[ScanProgress]:
        self.watch(self.path)
        try:
            archive = Archive(self.path)
        except ArchiveError as err:
            self.add_problem(Problem(self.path, None, str(err)), row=True)
            return
        except OSError as err:
            self.add_problem(
                Problem(self.path, None, f"cannot read: {err.strerror or err}"), row=True
            )
            return
        with archive:
            self._members = archive.members
            yield from self._list(archive)

    def _member(self, archive: Archive, name: str) -> Any:
        try:
            return _json(archive.read(name, limit=MAX_SMALL))
        except ArchiveError as err:
            self.add_problem(Problem(self.path, None, str(err)))
        except JsonError as err:
            self.add_problem(Problem(self.path, None, f"{name}: {err}"))
        except OSError as err:
            self.add_problem(Problem(self.path, None, f"{name}: {err.strerror or err}"))
        return None

    def _list(self, archive: Archive) -> Iterator[ScanProgress]:
        names = archive.names()
        header = self._member(archive, "header.json") if "header.json" in names else None
        started = not isinstance(header, dict)
        if started:
            header = (
                self._member(archive, "_journal/start.json")
                if "_journal/start.json" in names
                else None
            )
        if not isinstance(header, dict):
            self.add_problem(
                Problem(
                    self.path, None, "no header.json or _journal/start.json: not an Inspect log"
                ),
                row=True,
            )
            return
        log = self.log = log_info(header, started=started)
        if "reductions.json" in names:
            self.reduced = reductions(self._member(archive, "reductions.json"))
        rows: dict[tuple[str, str], RunSummary] = {}
        for part in self._summaries(archive, names):
            for obj in part if isinstance(part, list) else ():
                if isinstance(obj, dict):  # a sample summarized twice (retried): the last one
                    rows[(str(obj.get("id")), str(obj.get("epoch")))] = summary_row(obj, log)
        members: dict[tuple[str, str], str] = {}
        for name in names:
            m = _SAMPLE.match(name)
            if m is not None:
                members.setdefault((m["id"], m["epoch"]), name)
        for key in members:  # written since the last summaries were flushed
            if key not in rows:
                rows[key] = summary_row({"id": key[0], "epoch": int(key[1])}, log)
        yield ScanProgress(1, 2, 0)
        # a remote log (its local mirror) is listed from its central directory and summaries
        # alone: reading every sample for its counts would fetch the whole archive; and so
        # is a log one run of which is wanted (show): that run is read when it is opened
        counted = not self.one_run and not sparse.is_mirror(self.path)
        if counted and not self.partial_rows:  # (ls) rows printed as listed, with their counts
            last = time.monotonic()
            for n, (key, row) in enumerate(rows.items(), 1):
                member = members.get(key)
                if member is None:
                    self.add_run(row, self._missing(key))
                    continue
                self.add_run(self._counted(archive, member, row, log), self._loader(member, log))
                if time.monotonic() - last > 0.1:
                    last = time.monotonic()
                    yield ScanProgress(n, len(rows), len(self))
            self._say_empty()
            return
        unread: list[tuple[int, str]] = []  # (row, member) of the samples to read
        for key, row in rows.items():
            member = members.get(key)
            if member is None:
                self.add_run(row, self._missing(key))
            else:
                listed = self.add_run(row, self._loader(member, log))
                if counted:
                    unread.append((listed.index, member))
        self._say_empty()
        yield ScanProgress(1, 2, len(self))  # the first screen: summaries, no sample read
        last = time.monotonic()
        for n, (i, member) in enumerate(unread, 1):
            entry = self._table.get(i)
            assert isinstance(entry, RunSummary)
            self._learn(i, self._counted(archive, member, entry, log))
            if time.monotonic() - last > 0.1:
                last = time.monotonic()
                yield ScanProgress(n, len(unread), len(self))

    def _counted(self, archive: Archive, member: str, row: RunSummary, log: LogInfo) -> RunSummary:
        """``row`` with what its sample says (its steps and tool calls), as opening it
        shows them: the sample read once, on its own, and let go. A sample that cannot be
        read leaves the row as its summary says (opening it says why)."""
        try:
            sample = read_sample(archive, member)
        except (ArchiveError, JsonError, ValueError, OSError):
            return row
        if not isinstance(sample, dict):
            return row
        return build_run(sample, log, row.ref, self.path, self.reduced).summary

    def _summaries(self, archive: Archive, names: list[str]) -> Iterator[Any]:
        """The sample summaries, a part at a time: ``summaries.json``, or the journal's
        (one member per flush, each small) while the eval runs, after it was killed, and
        when ``summaries.json`` is too big to read at once (a huge eval)."""
        journal = sorted(
            (n for n in names if n.startswith("_journal/summaries/") and n.endswith(".json")),
            key=lambda n: (len(n), n),
        )
        whole = archive.members.get("summaries.json")
        if whole is not None and (whole.size <= MAX_SMALL or not journal):
            yield self._member(archive, "summaries.json")
            return
        for name in journal:
            yield self._member(archive, name)

    def _missing(self, key: tuple[str, str]) -> Any:
        def load(ref: str) -> Run:
            raise LoadError(
                Problem(
                    self.path,
                    None,
                    f"{ref}: listed in the summaries, no sample member in the archive",
                    ref=ref,
                )
            )

        return load

    def _loader(self, name: str, log: LogInfo) -> Any:
        def load(ref: str) -> Run:
            with Archive(self.path, self._members) as archive:
                try:
                    sample = read_sample(archive, name)
                except (ArchiveError, JsonError, ValueError) as err:
                    raise LoadError(Problem(self.path, None, f"{name}: {err}", ref=ref)) from None
            if not isinstance(sample, dict):
                raise LoadError(
                    Problem(self.path, None, f"{name}: not a sample (a JSON object)", ref=ref)
                )
            return build_run(sample, log, ref, self.path, self.reduced)

        return load


def read_sample(archive: Archive, name: str) -> Any:
    """The sample of member ``name``: one JSON member, or a chunked sample's folder
    (``…/sample.json`` with its ``messages/``, ``events/``, ``calls/`` and ``attachments/``
    chunks, each sequence the chunks in the numeric order of their names) put together."""
    if not name.endswith("/sample.json"):
        return _json(archive.read(name))
    folder = name[: -len("sample.json")]
    sample = _json(archive.read(name))
    if not isinstance(sample, dict):
        return sample

    def sequence(kind: str) -> list[Any]:
        found: list[tuple[int, str]] = []
        for n in archive.names():
            if n.startswith(f"{folder}{kind}/"):
                m = _CHUNK.match(n[len(folder) + len(kind) + 1 :])
                if m is not None:
                    found.append((int(m["n"]), n))
        out: list[Any] = []
        for _, n in sorted(found):
            part = _json(archive.read(n))
            out.extend(part if isinstance(part, list) else [part])
        return out

    pool = sequence("messages")
    sample["events"] = sequence("events")
    refs = sample.get("message_refs")
    if isinstance(refs, list):
        sample["messages"] = [
            m for r in refs if isinstance(r, list) and len(r) == 2 for m in pool[r[0] : r[1]]
        ]
    sample["events_data"] = {"messages": pool, "calls": sequence("calls")}
    attachments = sequence("attachments")
    if attachments:
        sample["attachments"] = {str(i): a for i, a in enumerate(attachments)}
    if f"{folder}metadata.json" in archive.members:
        sample["metadata"] = _json(archive.read(f"{folder}metadata.json"))
    return sample


class JsonSource(_InspectSource):
    """A ``.json`` log (one EvalLog document), read in one pass sample by sample, each
    sample's span kept (:class:`~trajtui.core.io.jsondoc.Spans`, 24 bytes): a sample opened is read
    again by its span alone (``pread`` and decode), from the file the listing read."""

    def __init__(self, path: str, label: str | None = None) -> None:
        super().__init__(path, label)
        self._scan: DocumentScan | None = None  # the listing's: the samples' spans
        self._ident: tuple[int, int] | None = None
        self._size = 0
        self._file: safeio.SafeFile | None = None  # the file samples are read from
        self._file_lock = threading.Lock()

    def _load(self) -> Iterator[ScanProgress]:
        """Read the document: the header (the members before ``samples``, in the writer's
        order) as soon as it is read, then each sample as a compact row, so rows are listed
        while a big log is still being read; what precedes a break in the document is
        listed, the break one problem line."""
        self.watch(self.path)
        self.close()
        waiting: list[dict[str, Any] | None] = []  # samples before the header (another order)
        position = 0

        def started(key: str, members: dict[str, Any]) -> None:
            self.log = log_info(dict(members))

        def visit(key: str, span: Span, item: Any) -> None:
            waiting.append(_compact(item) if isinstance(item, dict) else None)

        try:
            with safeio.open_regular(self.path) as f:
                self._ident, self._size = f.ident, f.size
                scan = DocumentScan(f, arrays=SAMPLES, visit=visit, started=started)
                self._scan = scan
                last = time.monotonic()
                for at in scan:
                    if self.log is not None:
                        position = self._list_rows(waiting, position)
                    if time.monotonic() - last > 0.1:
                        last = time.monotonic()
                        yield ScanProgress(at, f.size, len(self))
        except OSError as err:
            if self.log is not None:
                self._list_rows(waiting, position)
            message = f"cannot read: {err.strerror or err}"
            self.add_problem(Problem(self.path, None, message), row=True)
            return
        scanned = scan.scanned
        if scanned.error is not None:
            if self.log is not None:
                self._list_rows(waiting, position)
            self.add_problem(Problem(self.path, *scanned.error), row=True)
            return
        header = scanned.value if isinstance(scanned.value, dict) else {}
        results = header.get("results")
        self.reduced = reductions(
            header.get("reductions")
            or (results.get("sample_reductions") if isinstance(results, dict) else None)
        )
        if self.log is None:
            self.log = log_info(header)
        self._list_rows(waiting, position)
        for note in scanned.warnings:
            self.add_problem(Problem(self.path, None, note, Severity.WARNING))
        self._say_empty()

    def _list_rows(self, waiting: list[dict[str, Any] | None], position: int) -> int:
        """List the rows waiting (the header is known); the position of the next sample."""
        assert self.log is not None
        for obj in waiting:
            if obj is None:
                self.add_problem(
                    Problem(
                        self.path, None, f"samples[{position}] is not a sample (a JSON object)"
                    ),
                    row=True,
                )
            else:
                counts = obj.pop("_counts")
                row = replace(summary_row(obj, self.log), **counts)
                self.add_run(row, self._loader(position))
            position += 1
        waiting.clear()
        return position

    def _sample(self, position: int) -> Any:
        """The sample at ``position``, read again by its span (one file kept open for it).

        Raises:
            IndexError: The listing kept no span there.
            JsonError: It is no longer JSON (the file changed since it was read).
            OSError: The file cannot be read, or is no longer the one read.
        """
        scan = self._scan
        spans = scan.scanned.spans.get(SAMPLE_KEY) if scan is not None else None
        if spans is None:
            raise IndexError(position)
        span = spans[position]
        with self._file_lock:
            f = self._file
            if f is None:
                f = safeio.open_regular(self.path)
                if f.ident != self._ident or f.size != self._size:
                    f.close()
                    raise OSError("the file changed since it was read (open it again)")
                self._file = f
            return read_item(f, span)

    def _loader(self, position: int) -> Any:
        def load(ref: str) -> Run:
            assert self.log is not None
            try:
                item = self._sample(position)
            except (JsonError, OSError) as err:
                what = getattr(err, "strerror", None) or err
                raise LoadError(Problem(self.path, None, f"{ref}: {what}", ref=ref)) from None
            except IndexError:
                raise LoadError(
                    Problem(self.path, None, f"{ref}: no longer in the file", ref=ref)
                ) from None
            if not isinstance(item, dict):
                raise LoadError(
                    Problem(self.path, None, f"{ref}: not a sample (a JSON object)", ref=ref)
                )
            return build_run(item, self.log, ref, self.path, self.reduced)

        return load

    def close(self) -> None:
        with self._file_lock:
            if self._file is not None:
                self._file.close()
                self._file = None


def _compact(sample: dict[str, Any]) -> dict[str, Any]:
    """What a sample's row needs, from the sample (which is then let go): its summary's
    keys, its input as text (as far as a title looks), its scores' values, and the counts of
    its timeline."""
    line = timeline(sample, "")
    scores = sample.get("scores")
    out: dict[str, Any] = {
        key: sample.get(key)
        for key in ("id", "epoch", "limit", "model_usage", "total_time")
        if key in sample
    }
    out["input"] = input_text(sample.get("input"))[:16384]
    out["error"] = error_text(sample.get("error"))
    if isinstance(scores, dict):
        out["scores"] = {
            k: {"value": v.get("value") if isinstance(v, dict) else v} for k, v in scores.items()
        }
    old = sample.get("score")
    if scores is None and isinstance(old, dict):  # very old logs: one score (log.with_scores)
        out["score"] = {"value": old.get("value")}
    meta = sample.get("metadata")
    if isinstance(meta, dict):
        out["metadata"] = {k: v for k, v in meta.items() if isinstance(v, str | int | float | bool)}
    out["_counts"] = {
        "steps": len(line.steps),
        "tool_calls": line.tool_calls,
        "failed_tool_calls": line.failed,
        "tools": line.tools,
    }
    return out
