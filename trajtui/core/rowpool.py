"""Run-list rows of a big JSONL file, decoded on every core.

A run-list row needs a few fields of a record (its status, score, timing, the type and
status of each step), not the megabytes of text around them. A :class:`RecordFormat` that
declares a ``lite`` type (a ``msgspec.Struct`` naming only those fields) has its rows
decoded by msgspec, which skips every other field without building it, in worker
processes: one per core, each reading a contiguous span of the file by itself. The row is
then made by the format's own ``summarize`` from a plain dict of the decoded fields, so a
row is the same whichever way it was read.

Anything out of the ordinary (a line msgspec cannot decode into the lite type: bad JSON,
invalid UTF-8, a field of an unexpected type, a record without its key, a record the
format warns about) comes back as
"read it here", and the source reads that record the ordinary way, with its problems and
warnings. So does every record of a file that was replaced since it was indexed.

Small jobs are not worth a process: :class:`RowFiller` decodes in the calling thread
until a source has :data:`PARALLEL_FROM` records left to read.
"""

from __future__ import annotations

import atexit
import gc
import os
import stat
import sys
import threading
from collections import deque
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import msgspec

from trajtui.core.jsonutil import id_text
from trajtui.core.model import RunSummary
from trajtui.core.safeio import read_head

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

BATCH_BYTES = 4 << 20
"""Bytes of records one job reads (a contiguous span of the file)."""
BATCH_RECORDS = 4096
"""Records one job decodes at most."""
PARALLEL_FROM = 2048
"""Records left to read from which worker processes are used."""
SMALL_RECORD = 2048
"""Bytes per record (on average) below which rows are read here: a small record is
decoded in about the time its row takes to come back from a worker (unpickled here)."""
PARALLEL_BYTES = 64 << 20
"""A file this big has its rows read by worker processes from the first one."""
IN_FLIGHT = 3
"""Jobs submitted ahead per worker (so none waits between two)."""


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


Row = RunSummary | None
"""A record's run summary, or None: read the record the ordinary way (it is unusual)."""


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


def rows_of(job: Job) -> list[Row]:
    """The rows of a job's records (run in a worker process, or here for small jobs)."""
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
    return out


# -- the pool ----------------------------------------------------------------------------------

_pool: ProcessPoolExecutor | None = None
_pool_lock = threading.Lock()
_failed = False  # processes could not be started here: rows are read in the caller
_starting = False  # a thread is starting the pool
_starting_lock = threading.Lock()


def cores() -> int:
    """Cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def pool(preload: tuple[str, ...] = ()) -> ProcessPoolExecutor | None:
    """The worker processes (started on first use, each importing the modules ``preload``
    names while it starts, such as the format of the rows it will read), or None on a
    single core or where processes cannot be started."""
    global _pool, _failed
    with _pool_lock:
        if _pool is None and not _failed and cores() > 1:
            # imported here: only a big file needs processes
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            # fork when this process runs one thread (a command line's): a worker is then
            # ready at once, with every module already imported (spawning one costs a core
            # 0.2 s). Otherwise (the TUI has threads, and a forked copy of them is unsafe)
            # spawn. multiprocessing hands its helper process the standard error's
            # descriptor, which a running TUI has replaced: the real one is lent meanwhile,
            # and the workers are started now, inside.
            fork = _may_fork()
            # the workers' collections leave the objects they were forked with be (what
            # was kept before stays kept after)
            freeze = fork and gc.get_freeze_count() == 0
            if freeze:
                gc.freeze()
            try:
                context = multiprocessing.get_context("fork" if fork else "spawn")
                with _real_stderr(), _plain_main():
                    started = ProcessPoolExecutor(
                        max_workers=cores(),
                        mp_context=context,
                        initializer=_start,
                        initargs=(preload,),
                    )
                    # one job per worker at once: each starts its process now, inside
                    for ready in [started.submit(int) for _ in range(cores())]:
                        ready.result()
            except Exception:  # no processes here (a sandbox, a limit): rows are read here
                _failed = True
                return None
            finally:
                if freeze:
                    gc.unfreeze()
            _pool = started
            atexit.register(shutdown)
        return _pool


def ready(preload: tuple[str, ...] = ()) -> bool:
    """True when :func:`pool` answers at once (the workers are running, or cannot run
    here); otherwise start them in the background (once) and say False, without waiting
    for them (starting them takes a few tenths of a second)."""
    global _starting
    if _pool is not None or _failed or cores() <= 1:
        return True
    with _starting_lock:
        if not _starting:
            _starting = True
            threading.Thread(
                target=pool, args=(preload,), name="trajtui-rowpool", daemon=True
            ).start()
    return False


def _may_fork() -> bool:
    """True when worker processes may be forked from this one: it is running one thread
    (counted by the kernel, so threads started outside Python count too), this one."""
    import multiprocessing

    # Linux only: macOS offers fork, but its system libraries are not safe across one
    if (
        not sys.platform.startswith("linux")
        or "fork" not in multiprocessing.get_all_start_methods()
    ):
        return False
    if threading.current_thread() is not threading.main_thread():
        return False
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:  # no /proc: only Python's own count is known
        return threading.active_count() == 1


@contextmanager
def _real_stderr() -> Iterator[None]:
    """``sys.stderr`` is the process's own while inside (Textual replaces it with an object
    that has no usable file descriptor)."""
    saved = sys.stderr
    try:
        usable = saved.fileno() >= 0  # Textual's stand-in says -1
    except (AttributeError, OSError, ValueError):
        usable = False
    if not usable and sys.__stderr__ is not None:
        sys.stderr = sys.__stderr__
    try:
        yield
    finally:
        sys.stderr = saved


@contextmanager
def _plain_main() -> Iterator[None]:
    """Workers start without running the program's main script: spawn re-imports
    ``__main__`` from its file in each worker (for ``trajtui``, the whole CLI and every
    format, 0.4 s of a core each), and rows need none of it."""
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    spec = getattr(main, "__spec__", None)
    if main is None or (path is None and spec is None):
        yield
        return
    try:
        if path is not None:
            del main.__file__
        main.__spec__ = None
        yield
    finally:
        if path is not None:
            main.__file__ = path
        main.__spec__ = spec


WORKER_NICE = 10
"""How much lower the workers' scheduling priority is than their parent's (``nice``)."""


def _start(preload: tuple[str, ...]) -> None:
    """In a worker, as it starts: nothing it prints can reach the terminal the TUI draws on;
    the modules its jobs need are imported now, while the caller is still busy (the first
    job would otherwise wait for them)."""
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    os.close(null)
    try:
        # the process it works for comes first: a worker has a core when nothing else
        # wants it, and the TUI (whose UI thread and loader share that process) is not
        # made to wait for a core while it answers a key
        os.nice(WORKER_NICE)
    except (AttributeError, OSError):  # no nice here, or not allowed: as it is
        pass
    import importlib

    for name in preload:
        try:
            importlib.import_module(name)
        except Exception:  # the job that needs it says what is wrong
            pass


def _worth_workers(index: Any, left: int) -> bool:
    """Rows of ``left`` more records of the file ``index`` indexes are read by workers:
    many records, or a big file, of records that are not small."""
    if index.count and index.size < SMALL_RECORD * index.count:
        return False
    return left >= PARALLEL_FROM or index.size >= PARALLEL_BYTES


def _big_records(path: str, size: int) -> bool:
    """The file ``path`` (of ``size`` bytes) will need the workers: it is big, and its
    records (judged from its first megabyte) are not small."""
    if size < PARALLEL_BYTES:
        return False
    try:
        head = read_head(path, 1 << 20)
    except OSError:
        return False
    return len(head) >= SMALL_RECORD * (head.count(b"\n") + 1)


def start_early(paths: Sequence[str]) -> None:
    """Fork the workers now when a file among ``paths`` will need them and this process
    (a command about to start the TUI, before it starts its threads) runs one thread:
    later, from the TUI's threads, they could only be spawned (0.2 s of a core each)."""
    if not _may_fork() or cores() <= 1:
        return
    for path in paths:
        try:
            st = os.stat(path)
        except OSError:
            continue
        if stat.S_ISREG(st.st_mode) and _big_records(path, st.st_size):
            pool()
            return


def warm_up(sources: list[Any]) -> None:
    """Start the worker processes now when one of ``sources`` (JSONL sources, opened and
    not read yet) will need them, so they are ready when its first rows are: forked at
    once from a process of one thread, else spawned in the background."""
    big = [s for s in sources if s.decodes_rows() and _big_records(s.path, s.index.size)]
    if big:
        preload = tuple(sorted({type(s.fmt).__module__ for s in big}))
        if _may_fork():  # a few milliseconds: done now, before any thread is started
            pool(preload)
            return
        ready(preload)


def shutdown() -> None:
    """Stop the worker processes (at exit, or when a test wants a fresh pool)."""
    global _pool, _failed, _starting
    with _pool_lock:
        if _pool is not None:
            _pool.shutdown(wait=False, cancel_futures=True)
            _pool = None
        _failed = _starting = False


class RowFiller:
    """Reads the rows of a JSONL source in file order, in batches, on every core when many
    are left; keeps its jobs in flight between calls to :meth:`fill`."""

    def __init__(self, source: Any, start: int = 0) -> None:
        """Read ``source`` (a :class:`~trajtui.core.jsonl_source.JsonlSource`) from record
        ``start`` on."""
        self.source = source
        self.done = start  # rows handed out
        self._next = start  # first record not in a job yet
        self._jobs: deque[tuple[Job, Future[list[Row]] | None]] = deque()

    def close(self) -> None:
        """Cancel the jobs not started yet."""
        for _, future in self._jobs:
            if future is not None:
                future.cancel()
        self._jobs.clear()

    def fill(self, upto: int, *, wait: bool = True) -> Iterator[tuple[int, list[Row]]]:
        """Rows of the records before ``upto`` not handed out yet, as ``(first index,
        rows)`` batches in file order. Stopping the iteration early keeps the jobs under way
        for the next call. Without ``wait``, only the batches workers have finished are
        handed out (the caller has other work, such as indexing the rest of the file), and
        none while the worker processes are still starting."""
        many = _worth_workers(self.source.index, upto - self.done)
        if many and not wait and not ready((type(self.source.fmt).__module__,)):
            return  # the workers are starting: the caller goes on with its other work
        workers = pool() if many or any(f is not None for _, f in self._jobs) else None
        while self.done < upto:
            ahead = IN_FLIGHT * cores() if workers is not None else 1
            while len(self._jobs) < ahead and self._next < upto:
                job = self._job(self._next, upto)
                if job is None:
                    break
                future = workers.submit(rows_of, job) if workers is not None else None
                self._jobs.append((job, future))
                self._next = job.first + len(job.spans)
            if not self._jobs:
                return
            if not wait and (self._jobs[0][1] is None or not self._jobs[0][1].done()):
                return
            job, future = self._jobs.popleft()
            try:
                rows = future.result() if future is not None else rows_of(job)
            except Exception:  # a worker that died: read these records here
                rows = [None] * len(job.spans)
            self.done = job.first + len(rows)
            yield job.first, rows

    def _job(self, lo: int, hi: int) -> Job | None:
        """A job for records from ``lo``: contiguous, at most a batch's bytes and records."""
        source = self.source
        index = source.index
        if lo >= min(hi, index.count):
            return None
        hi = min(hi, index.count, lo + BATCH_RECORDS)
        starts = index.starts
        begin = starts[lo]
        spans: list[tuple[int, int]] = []
        i = lo
        while i < hi:
            n = index.length(i)
            off = starts[i] - begin
            if spans and off + n > BATCH_BYTES:
                break
            spans.append((off, n))
            i += 1
        return Job(
            path=index.path,
            ident=index.ident,
            fmt=source.fmt,
            begin=begin,
            spans=tuple(spans),
            refs=tuple(source.ref_of(j) for j in range(lo, i)),
            lines=tuple(index.line_of(j) for j in range(lo, i)),
            first=lo,
            keys=tuple(index.key(j) for j in range(lo, i)) if index.checks_deferred else (),
        )
