"""Run-list rows of a big JSONL file, decoded on every core.

A run-list row needs a few fields of a record (its status, score, timing, the type and status of
each step), not the megabytes of text around them. A :class:`RecordFormat` that declares a ``lite``
type (a ``msgspec.Struct`` naming only those fields) has its rows decoded by msgspec, which skips
every other field without building it, in worker processes: one per core, each reading a contiguous
span of the file by itself. The row is then made by the format's own ``summarize`` from a plain
dict of the decoded fields, so a row is the same whichever way it was read.

Anything out of the ordinary (a line msgspec cannot decode into the lite type: bad JSON, invalid
UTF-8, a field of an unexpected type, a record without its key, a record the format warns about)
comes back as "read it here", and the source reads that record the ordinary way, with its problems
and warnings. So does every record of a file that was replaced since it was indexed.

Small jobs are not worth a process: :class:`RowFiller` decodes in the calling thread until a source
has :data:`PARALLEL_FROM` records left to read.

A worker that dies (``kill -9``, the out-of-memory killer) breaks its pool: the jobs it had are
done in the calling thread, the pool is replaced by a new one (after :data:`LOST_LIMIT` losses,
rows are read in the caller from then on), no row is lost, and :func:`notices` has one line saying
so for the user.
"""

from __future__ import annotations

import atexit
import gc
import os
import stat
import threading
import time
from collections import deque
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from trajtui.core import gcpace
from trajtui.core.io.safeio import read_head
from trajtui.core.jsonl import tracker
from trajtui.core.jsonl.rowjobs import Job, Row, plain, rows_of
from trajtui.core.jsonl.workerenv import may_fork, plain_main, real_stderr

__all__ = ["Job", "Row", "RowFiller", "notices", "plain", "pool", "rows_of", "shutdown"]

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
LOST_LIMIT = 3
"""Pools that lost a worker after which rows are read in the caller (workers keep dying:
the memory they need is not there)."""


# -- the pool ----------------------------------------------------------------------------------

_pool: ProcessPoolExecutor | None = None
_pool_lock = threading.Lock()
_failed = False  # processes could not be started here: rows are read in the caller
_starting = False  # a thread is starting the pool
_starting_lock = threading.Lock()
_lost = 0  # pools that lost a worker
_notices: list[str] = []  # for the user, once
_at_exit = False  # shutdown is registered to run at exit
_forked = False  # the running pool's workers were forked from this process


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
    global _pool, _failed, _forked
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
            fork = may_fork()
            # the workers' collections leave the objects they were forked with be (what
            # was kept before stays kept after: a command line keeps what it made since
            # it started, trajtui.core.gcpace)
            frozen = gc.get_freeze_count()
            if fork:
                gc.freeze()
            try:
                context = multiprocessing.get_context("fork" if fork else "spawn")
                if not fork:
                    tracker.quiet()
                with real_stderr(), plain_main():
                    started = ProcessPoolExecutor(
                        max_workers=cores(),
                        mp_context=context,
                        initializer=_start,
                        initargs=(preload, os.getpid(), _nice),
                    )
                    # one job per worker at once: each starts its process now, inside
                    for ready in [started.submit(int) for _ in range(cores())]:
                        ready.result()
            except Exception:  # no processes here (a sandbox, a limit): rows are read here
                _failed = True
                return None
            finally:
                if fork and not frozen:
                    gc.unfreeze()
            _pool = started
            _forked = fork
            global _at_exit
            if not _at_exit:
                _at_exit = True
                atexit.register(shutdown)
        return _pool


def forked(preload: tuple[str, ...] = ()) -> ProcessPoolExecutor | None:
    """The worker processes when they are forked from this one (now, when none are
    running and this process runs one thread; see :func:`pool`), else None: spawned
    workers, or none, or a single core."""
    with _pool_lock:
        if _pool is not None:
            return _pool if _forked else None
    if not may_fork():
        return None
    workers = pool(preload)
    return workers if _forked else None


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


WORKER_NICE = 10
"""How much lower the workers' scheduling priority is than their parent's (``nice``), for
the TUI: its UI thread answers keys before the workers read on."""

_nice = WORKER_NICE  # the priority of workers started from now on


def for_command_line() -> None:
    """The workers started from now on work at this process's own priority: a command line
    (``ls``, ``stats``...) has nothing to answer meanwhile, and on a busy machine workers
    of lower priority would wait behind every other process while the user waits for them."""
    global _nice
    _nice = 0


PARENT_CHECK = 1.0
"""Seconds between a worker's looks at whether the process it works for is still there."""


def _start(preload: tuple[str, ...], parent: int, nice: int = WORKER_NICE) -> None:
    """In a worker, as it starts: nothing it prints can reach the terminal the TUI draws on;
    the signals that end trajtui end the worker plainly (a forked one has the handlers of
    the process it works for: SIGINT, which a terminal sends to every process of the job,
    is left to that process, which stops the workers); a worker whose process (``parent``,
    by its pid) is gone, killed outright (nothing could stop the workers) even before this
    one got here, ends within :data:`PARENT_CHECK` seconds rather than live on; the modules
    its jobs need are imported now, while the caller is still busy (the first job would
    otherwise wait for them)."""
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    os.close(null)
    import signal

    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def orphaned() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK)
        os._exit(0)

    threading.Thread(target=orphaned, name="trajtui-parent", daemon=True).start()
    gcpace.default_pace()  # (a command line's pace is for what the command keeps)
    try:
        # the TUI's process comes first: a worker has a core when nothing else wants it,
        # and the TUI (whose UI thread and loader share that process) is not made to wait
        # for a core while it answers a key
        if nice:
            os.nice(nice)
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


def big_records(path: str, size: int) -> bool:
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
    if not may_fork() or cores() <= 1:
        return
    for path in paths:
        try:
            st = os.stat(path)
        except OSError:
            continue
        if stat.S_ISREG(st.st_mode) and big_records(path, st.st_size):
            pool()
            return


def warm_up(sources: list[Any]) -> None:
    """Start the worker processes now when one of ``sources`` (JSONL sources, opened and
    not read yet) will need them, so they are ready when its first rows are: forked at
    once from a process of one thread, else spawned in the background."""
    big = [s for s in sources if s.decodes_rows() and big_records(s.path, s.index.size)]
    if big:
        preload = tuple(sorted({type(s.fmt).__module__ for s in big}))
        if may_fork():  # a few milliseconds: done now, before any thread is started
            pool(preload)
            return
        ready(preload)


def shutdown() -> None:
    """Stop the worker processes (at exit, or when a test wants a fresh pool)."""
    global _pool, _failed, _starting, _lost
    with _pool_lock:
        if _pool is not None:
            _pool.shutdown(wait=False, cancel_futures=True)
            _pool = None
        _failed = _starting = False
        _lost = 0
        _notices.clear()


def notices() -> list[str]:
    """What the user should be told about the workers since the last call (a worker that
    died), each once."""
    with _pool_lock:
        out = list(_notices)
        _notices.clear()
        return out


def is_lost(err: BaseException) -> bool:
    """``err`` says the pool lost a worker (or was shut down for it meanwhile)."""
    from concurrent.futures import BrokenExecutor

    return isinstance(err, BrokenExecutor) or (
        isinstance(err, RuntimeError) and "shutdown" in str(err)
    )


def lose(workers: ProcessPoolExecutor) -> None:
    """``workers`` lost a process: forget the pool (the next :func:`pool` starts a new one,
    or none after :data:`LOST_LIMIT` losses) and, the first time, say so."""
    global _pool, _failed, _lost, _starting
    with _pool_lock:
        if _pool is not workers:
            return  # forgotten already
        how = _how_ended(workers)
        _pool = None
        _starting = False
        _lost += 1
        if _lost >= LOST_LIMIT:
            _failed = True
        try:
            workers.shutdown(wait=False, cancel_futures=True)
        except Exception:  # already torn down by its own thread
            pass
        if _lost == 1:
            again = " and new workers started" if not _failed else ""
            _notices.append(f"a row worker {how}; its rows were read again{again}: none lost")


def _how_ended(workers: ProcessPoolExecutor) -> str:
    """How a process of the broken pool ``workers`` ended, in words (the pool terminates
    the others itself: a signal other than SIGTERM is the one that broke it)."""
    import signal

    procs = list((getattr(workers, "_processes", None) or {}).values())
    for proc in procs:  # ended (killed, or terminated by the pool): reaped in a moment
        try:
            proc.join(0.5)
        except Exception:  # not a process this one can wait for
            pass
    codes = [c for c in (getattr(p, "exitcode", None) for p in procs) if c]
    for code in sorted(codes, key=lambda c: c == -signal.SIGTERM):
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            why = " (out of memory?)" if -code == signal.SIGKILL else ""
            return f"was killed by {name}{why}"
        return f"ended with exit status {code}"
    return "ended abruptly"


class RowFiller:
    """Reads the rows of a JSONL source in file order, in batches, on every core when many
    are left; keeps its jobs in flight between calls to :meth:`fill`."""

    def __init__(self, source: Any, start: int = 0) -> None:
        """Read ``source`` (a :class:`~trajtui.core.jsonl.source.JsonlSource`) from record
        ``start`` on."""
        self.source = source
        self.done = start  # rows handed out
        self._next = start  # first record not in a job yet
        # each job, its future (None: done here) and the pool it was given to
        self._jobs: deque[tuple[Job, Future[list[Row]] | None, Any]] = deque()

    def close(self) -> None:
        """Cancel the jobs not started yet."""
        for _, future, _ in self._jobs:
            if future is not None:
                future.cancel()
        self._jobs.clear()

    def fill(self, upto: int, *, wait: bool = True) -> Iterator[tuple[int, list[Row]]]:
        """Rows of the records before ``upto`` not handed out yet, as ``(first index,
        rows)`` batches in file order. Stopping the iteration early keeps the jobs under way
        for the next call. Without ``wait``, only the batches workers have finished are
        handed out (the caller has other work, such as indexing the rest of the file), and
        none while the worker processes are still starting."""
        yield from self._ready()
        many = upto > self.done and _worth_workers(self.source.index, upto - self.done)
        preload = (type(self.source.fmt).__module__,)
        if many and not wait and not ready(preload):
            return  # the workers are starting: the caller goes on with its other work
        workers = pool() if many or any(f is not None for _, f, _ in self._jobs) else None
        while self.done < upto:
            ahead = IN_FLIGHT * cores() if workers is not None else 1
            while len(self._jobs) < ahead and self._next < upto:
                job = self._job(self._next, upto)
                if job is None:
                    break
                future, workers = submit(workers, job)
                self._jobs.append((job, future, workers))
                self._next = job.first + len(job.spans)
            if not self._jobs:
                return
            job, future, owner = self._jobs[0]
            if future is None and workers is None and many and (wait or ready(preload)):
                workers = pool()  # a new pool, after one lost a worker
            if future is None and workers is not None:
                future, workers = submit(workers, job)
                owner = workers
            if not wait and (future is None or not future.done()):
                if future is not None:
                    self._jobs[0] = (job, future, owner)
                return
            self._jobs.popleft()
            rows = _rows(job, future, owner)
            self.source.facts.put(job.first, getattr(rows, "facts", None), len(rows))
            self.done = job.first + len(rows)
            yield job.first, rows

    def _ready(self) -> Iterator[tuple[int, list[Row]]]:
        """The rows made with the index (:mod:`trajtui.core.jsonl.pieces`) from here on."""
        ready = self.source.ready
        while ready and not self._jobs:
            first, rows, facts = ready.popleft()
            if first != self.done:  # not where this reader stands: read the ordinary way
                ready.clear()
                return
            self.source.facts.put(first, facts, len(rows))
            self.done = self._next = first + len(rows)
            yield first, rows

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
            facts=source.facts.wanted,
        )


def submit(workers: Any, job: Any, work: Any = rows_of) -> tuple[Future[Any] | None, Any]:
    """Give ``job`` to ``workers`` (None: it is done here) to do ``work``: its future, and
    the pool to give the next jobs to (None when this one lost a worker: they are done
    here)."""
    if workers is None:
        return None, None
    try:
        return workers.submit(work, job), workers
    except Exception as err:  # the pool broke (a worker died) or was shut down for it
        if is_lost(err):
            lose(workers)
        return None, None


def _rows(job: Job, future: Future[list[Row]] | None, owner: Any) -> list[Row]:
    """The rows of ``job`` from its worker, or made here when it has none or its worker
    died; a job that failed in its worker for another reason has its records read the
    ordinary way (None rows)."""
    if future is None:
        return rows_of(job)
    try:
        return future.result()
    except Exception as err:
        if is_lost(err):
            if owner is not None:
                lose(owner)
            return rows_of(job)
        return [None] * len(job.spans)
