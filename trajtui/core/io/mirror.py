"""One remote object's local mirror, filled on demand, shared safely between processes.

A mirror is a sparse file of the object's size and a *bitmap* beside it, a byte a
:data:`BLOCK`: ``1`` when the block's bytes are in the file. Several processes may fill one
mirror at once (two sessions on one URL, a TUI and an ``ls``), and one may be killed at any
moment; what keeps the mirror true:

* A block is marked only after its bytes are written whole and flushed (``fdatasync``):
  a bitmap byte never says more than the file holds, whatever process dies when, even the
  machine.
* A process marks only ``1`` bytes, each at its own offset: two writers never undo each
  other's marks. Before fetching, a process reads the bitmap again (another may have
  fetched the blocks meanwhile).
* Blocks being fetched are locked across processes (``lockf`` on their bytes of the bitmap,
  released by the kernel when a process dies): a second process waits for them instead of
  fetching them again, then finds them marked. One that waits longer than
  :data:`LOCK_WAIT` fetches them itself (the same bytes: the mirror stays true).

Within a process, threads share the in-memory bitmap and claim blocks as *busy* (a block is
fetched by one thread, the others wait), as before; POSIX record locks belong to the
process, so the ranges one process locks never overlap (each is a busy claim).
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX
    fcntl = None  # type: ignore[assignment]

BLOCK = 64 << 10
"""Bytes fetched at a time, at least (what a read touches is fetched by whole blocks)."""
READ_ON = 8 << 20
"""Fetched ahead, in the background and one request, when a reader reads on from where it
stopped (a scan): the next stretch arrives while the reader parses this one."""
LOCK_WAIT = 60.0
"""Seconds a process waits for another to finish fetching blocks it needs, before it
fetches them itself."""


@dataclass
class Fetched:
    """Bytes fetched from servers by this process (the benchmark and ``--verbose`` say them)."""

    bytes: int = 0
    requests: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add(self, n: int) -> None:
        with self.lock:
            self.bytes += n
            self.requests += 1


fetched = Fetched()


CHANGED = "changed since it was opened (it is another version now): open it again"
"""Why a block of an object is not read: the server has another version of it."""


class _Changed(Exception):
    """The object is another version than the one listed."""


def _protocols(fs: Any) -> tuple[str, ...]:
    protocol = getattr(fs, "protocol", ())
    return (protocol,) if isinstance(protocol, str) else tuple(protocol)


class Mirror:
    """One remote object's local mirror, filled on demand (a :class:`sparse.Filler`)."""

    def __init__(
        self,
        fs: Any,
        rpath: str,
        local: str,
        size: int,
        have: str,
        ident: dict[str, Any] | None = None,
    ) -> None:
        self.fs, self.rpath, self.local, self.size = fs, rpath, local, size
        self.ident = ident or {}  # the object's identity when it was listed
        self._fd = os.open(local, os.O_RDWR | os.O_CLOEXEC)
        self.have = have
        self._have_fd = os.open(have, os.O_RDWR | os.O_CLOEXEC)
        self._have = bytearray(self.blocks)
        self._reload(0, self.blocks - 1)
        self._busy = bytearray(self.blocks)  # blocks being fetched (by a thread)
        self._cond = threading.Condition()
        self._reading_ahead = False
        self._stamp = os.stat(local).st_mtime_ns
        self._next = -1  # where the last read ended: a read from there reads on

    @property
    def blocks(self) -> int:
        return (self.size + BLOCK - 1) // BLOCK

    def complete(self) -> bool:
        return all(self._have) or self._reload(0, self.blocks - 1)

    def _reload(self, first: int, last: int) -> bool:
        """Read the marks of blocks ``first``..``last`` again (another process may have
        fetched some): whether they are all present now."""
        if last < first:
            return True
        marks = os.pread(self._have_fd, last + 1 - first, first)
        for i, mark in enumerate(marks):
            if mark == 1:
                self._have[first + i] = 1
        return all(self._have[first : last + 1])

    def fill(self, offset: int, size: int) -> None:
        """Fetch the blocks under ``size`` bytes at ``offset`` that are not here yet (each
        block once: one being fetched by another thread or process is waited for). A read
        on from where the last one ended (a scan) has the next :data:`READ_ON` bytes fetched
        meanwhile, in the background."""
        end = min(offset + size, self.size)
        if offset >= end:
            return
        first, last = offset // BLOCK, (end - 1) // BLOCK
        reading_on = offset == self._next  # (the read goes on from where the last ended)
        self._next = end
        if not all(self._have[first : last + 1]):
            with self._cond:
                self._reload(first, last)
        while not all(self._have[first : last + 1]):
            with self._cond:
                b = next((k for k in range(first, last + 1) if not self._have[k]), None)
                if b is None:
                    break
                if self._busy[b]:
                    self._cond.wait()
                    continue
                stop = b
                while stop < last and not self._have[stop + 1] and not self._busy[stop + 1]:
                    stop += 1
                self._busy[b : stop + 1] = b"\1" * (stop + 1 - b)
            self._run(b, stop)
        if reading_on:
            self._ahead(last + 1)

    def _ahead(self, b: int) -> None:
        """Fetch the :data:`READ_ON` bytes from block ``b`` in a thread (one at a time)."""
        with self._cond:
            if self._reading_ahead or b >= self.blocks or self._have[b] or self._busy[b]:
                return
            stop, limit = b, min(self.blocks, b + READ_ON // BLOCK) - 1
            while stop < limit and not self._have[stop + 1] and not self._busy[stop + 1]:
                stop += 1
            self._busy[b : stop + 1] = b"\1" * (stop + 1 - b)
            self._reading_ahead = True

        def run() -> None:
            try:
                self._run(b, stop)
            except OSError:
                pass  # (the read that needs these blocks fetches them again, and says why)
            finally:
                with self._cond:
                    self._reading_ahead = False

        threading.Thread(target=run, name="trajtui-read-ahead", daemon=True).start()

    def _run(self, first: int, last: int) -> None:
        """Fetch blocks ``first``..``last`` (claimed as busy by the caller) that no other
        process has fetched meanwhile, then free them."""
        try:
            with self._locked(first, last):
                with self._cond:
                    self._reload(first, last)
                k = first
                while k <= last:
                    if self._have[k]:
                        k += 1
                        continue
                    j = k
                    while j < last and not self._have[j + 1]:
                        j += 1
                    self._fetch(k, j)
                    k = j + 1
        finally:
            with self._cond:
                self._busy[first : last + 1] = bytes(last + 1 - first)
                self._cond.notify_all()

    @contextlib.contextmanager
    def _locked(self, first: int, last: int) -> Iterator[None]:
        """Blocks ``first``..``last`` locked against other processes (their bitmap bytes),
        waited for up to :data:`LOCK_WAIT` seconds (then fetched unlocked)."""
        n = last + 1 - first
        held = False
        if fcntl is not None:
            deadline = time.monotonic() + LOCK_WAIT
            while True:
                try:
                    fcntl.lockf(self._have_fd, fcntl.LOCK_EX | fcntl.LOCK_NB, n, first)
                    held = True
                    break
                except OSError:  # (held by another process: EAGAIN, EACCES)
                    if time.monotonic() > deadline:
                        break
                    time.sleep(0.01)
        try:
            yield
        finally:
            if held:
                with contextlib.suppress(OSError):
                    fcntl.lockf(self._have_fd, fcntl.LOCK_UN, n, first)

    def _fetch(self, first: int, last: int) -> None:
        start, stop = first * BLOCK, min(self.size, (last + 1) * BLOCK)
        etag = self.ident.get("etag")
        http = etag and set(_protocols(self.fs)) & {"http", "https"}
        try:
            if http:  # the bytes of the version listed, or none (412): one request
                data = self.fs.cat_file(
                    self.rpath, start=start, end=stop, headers={"If-Match": etag}
                )
            else:
                data = self.fs.cat_file(self.rpath, start=start, end=stop)
                if self.ident:
                    self._same_version()
        except Exception as err:  # the library's own errors (aiohttp, botocore, asyncssh)
            if isinstance(err, _Changed) or getattr(err, "status", None) == 412:
                raise OSError(CHANGED) from None
            from trajtui.core.io.remote import message

            raise OSError(message(err)) from None
        if len(data) == self.size and (start, stop) != (0, self.size):
            # a server that does not honour Range (python -m http.server) sends the whole
            # object: kept, so nothing is fetched again
            fetched.add(len(data))
            self.put(0, data)
            return
        if len(data) != stop - start:
            raise OSError(f"the server sent {len(data):,} bytes for {stop - start:,}")
        fetched.add(len(data))
        self.put(start, data)

    def _same_version(self) -> None:
        """Raise :class:`_Changed` when the object is not the version listed any more (its
        validators differ): the bytes just fetched may be the new version's."""
        from trajtui.core.io.mirrortree import VALIDATORS, identity

        now = identity(self.fs.info(self.rpath))
        for key in ("size", *VALIDATORS):
            if self.ident.get(key) is not None and now.get(key) not in (None, self.ident[key]):
                raise _Changed

    def put(self, start: int, data: bytes) -> None:
        """Keep ``data`` (whole blocks from ``start``, or the object's end) in the mirror:
        written whole and flushed, then marked."""
        view, done = memoryview(data), 0
        while done < len(data):  # (a short write, a full disk: never marked)
            n = os.pwrite(self._fd, view[done:], start + done)
            if n <= 0:
                raise OSError(f"{self.local}: the mirror could not be written")
            done += n
        if not data:
            return
        os.fdatasync(self._fd)
        first, last = start // BLOCK, (start + len(data) - 1) // BLOCK
        os.pwrite(self._have_fd, b"\1" * (last + 1 - first), first)
        with self._cond:
            self._have[first : last + 1] = b"\1" * (last + 1 - first)
        os.utime(self._fd, ns=(self._stamp, self._stamp))  # (the identity's stamp, kept)
