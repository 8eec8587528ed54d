"""The Inspect log sources: an ``.eval`` zip and a ``.json`` EvalLog, one source per log.

:class:`EvalSource` lists an ``.eval`` log's samples from its central directory, its header
and its summaries (``summaries.json``; while the eval runs, or when it was killed, the
``_journal/`` start and summaries, and the sample members written since the last flush),
reading no sample; a sample is read when its run is opened or searched, one member (or, in
the chunked layout, one folder of members) at a time.

:class:`JsonSource` streams a ``.json`` log with :mod:`trajtui.core.io.jsonstream`: every
member but ``samples`` is kept (the header), each sample is decoded on its own, counted and
let go; opening one streams the document again up to it. So memory holds one sample at a
time whatever the size of the log (a single value, a sample, of more than
:data:`~trajtui.core.io.jsonstream.MAX_VALUE` characters is one problem line).
"""

from __future__ import annotations

import queue
import re
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from trajtui.core.io import safeio
from trajtui.core.io.jsonstream import StreamError
from trajtui.core.io.jsonutil import JsonError, loads
from trajtui.core.io.text import one_line
from trajtui.core.jsonl.index import ScanProgress
from trajtui.core.model import Problem, Run, RunSummary, Severity
from trajtui.core.source import FormatInfo, LoadError
from trajtui.core.static_source import StaticSource
from trajtui.formats.inspect.archive import MAX_SMALL, Archive, ArchiveError, Member
from trajtui.formats.inspect.log import (
    FORMAT_ID,
    LogInfo,
    build_run,
    log_info,
    reductions,
    summary_row,
)
from trajtui.formats.inspect.sample import input_text, timeline
from trajtui.formats.inspect.scores import error_text
from trajtui.formats.inspect.stream import Counted, Cursor, stream_rows

FORMAT = FormatInfo(FORMAT_ID, "Inspect AI logs")
_SAMPLE = re.compile(
    r"\Asamples/(?P<id>.+)_epoch_(?P<epoch>\d+)(?:\.json|/sample\.json)\Z", re.DOTALL
)
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
        if self._table.get(i) != run.summary:  # the row learns what the sample says
            self._table.put(i, run.summary)
            self.revision += 1
        return run


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
        for key, row in rows.items():
            member = members.get(key)
            if member is None:
                self.add_run(row, self._missing(key))
            else:
                self.add_run(row, self._loader(member, log))
        self._say_empty()

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
    """A ``.json`` log (one EvalLog document), streamed sample by sample.

    Samples are read with a :class:`~.stream.Cursor`: one stream of the document kept
    paused after the last sample read, so reading every sample in order (a search, the
    statistics) streams the document once; a sample before it starts a new stream."""

    def __init__(self, path: str, label: str | None = None) -> None:
        super().__init__(path, label)
        self._cursor: Cursor | None = None
        self._cursor_lock = threading.Lock()

    def _load(self) -> Iterator[ScanProgress]:
        """Stream the document in a thread: the header (the members before ``samples``, in
        the writer's order) as soon as it is read, then each sample as a compact row, so
        rows are listed while a big log is still being read; what precedes a break in the
        document is listed, the break one problem line."""
        self.watch(self.path)
        try:
            fd, st = safeio.open_fd(self.path)
        except OSError as err:
            self.add_problem(
                Problem(self.path, None, f"cannot read: {err.strerror or err}"), row=True
            )
            return
        f = Counted(self.path, fd, st)
        feed: queue.Queue[tuple[str, Any]] = queue.Queue(maxsize=64)
        stop = threading.Event()
        worker = threading.Thread(target=stream_rows, args=(f, feed, stop, _compact), daemon=True)
        worker.start()
        waiting: list[dict[str, Any] | None] = []  # samples before the header (another order)
        position = 0
        last = time.monotonic()
        try:
            while True:
                what, value = feed.get()
                if what == "head":
                    self.log = log_info(value)
                elif what == "item":
                    waiting.append(value)
                    if self.log is not None:
                        position = self._list_rows(waiting, position)
                    if time.monotonic() - last > 0.1:
                        last = time.monotonic()
                        yield ScanProgress(f.read_to, f.size, len(self))
                elif what == "done":
                    header = value.value if isinstance(value.value, dict) else {}
                    results = header.get("results")
                    self.reduced = reductions(
                        header.get("reductions")
                        or (results.get("sample_reductions") if isinstance(results, dict) else None)
                    )
                    if self.log is None:
                        self.log = log_info(header)
                    self._list_rows(waiting, position)
                    for note in value.warnings:
                        self.add_problem(Problem(self.path, None, note, Severity.WARNING))
                    break
                else:  # the document breaks (or cannot be read) here
                    if self.log is not None:
                        self._list_rows(waiting, position)
                    line = value.line if isinstance(value, StreamError) else None
                    message = (
                        value.message
                        if isinstance(value, StreamError)
                        else f"cannot read: {getattr(value, 'strerror', None) or value}"
                    )
                    self.add_problem(Problem(self.path, line, message), row=True)
                    return
        finally:
            stop.set()
            while worker.is_alive():  # let it see the stop: it may wait to put an item
                try:
                    feed.get(timeout=0.05)
                except queue.Empty:
                    pass
            f.close()
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

    def _loader(self, position: int) -> Any:
        def load(ref: str) -> Run:
            assert self.log is not None
            with self._cursor_lock:
                cursor = self._cursor
                if cursor is None or cursor.next > position:
                    if cursor is not None:
                        cursor.close()
                    cursor = self._cursor = Cursor(self.path)
                try:
                    item = cursor.take(position)
                except StreamError as err:
                    raise LoadError(Problem(self.path, err.line, err.message, ref=ref)) from None
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
        with self._cursor_lock:
            if self._cursor is not None:
                self._cursor.close()
                self._cursor = None


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
