"""A bounded pool of open file descriptors, shared by every indexed file.

A directory of 100,000 JSONL files opens 100,000 sources; keeping each one's file open
runs into the open-file limit (``ulimit -n``, often 1,024) and makes opening fail. Instead a
:class:`FileHandle` remembers its path and the file's identity (device and inode), and
borrows a descriptor from :data:`POOL` only while it reads. The pool keeps the most
recently used descriptors open (at most a quarter of the limit, and never more than 256)
and closes the oldest idle one when it needs room.

A file reopened by path is checked to be the same file (same device and inode) before a
byte is read from it: a file replaced while its descriptor was closed raises
:class:`FileChanged` instead of being read as if it were the old one.

``pread`` reads at most 2 GiB per call on Linux: :meth:`FileHandle.pread` loops, so a
record longer than that is read whole.
"""

from __future__ import annotations

import os
import resource
import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager

from trajtui.core.io import sparse
from trajtui.core.io.safeio import open_fd

MAX_READ = 1 << 30
"""Bytes asked of one ``pread`` call (the kernel returns at most 0x7ffff000)."""


class FileChanged(Exception):
    """The file was truncated or replaced since it was indexed."""


def default_limit() -> int:
    """How many descriptors the pool keeps open: a quarter of the soft limit, 8 to 256."""
    try:
        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    except (OSError, ValueError):
        return 64
    if soft == resource.RLIM_INFINITY or soft <= 0:
        return 256
    return max(8, min(256, soft // 4))


class FileHandle:
    """A file read by path through the pool; opened once to learn what it is.

    Attributes:
        path: The file.
        ident: ``(st_dev, st_ino)`` of the file when it was opened.
    """

    def __init__(self, path: str, pool: OpenFiles | None = None) -> None:
        """Open ``path`` read-only and remember which file it is.

        Raises:
            OSError: It cannot be opened, or it is not a regular file.
        """
        self.path = path
        self._pool = pool if pool is not None else POOL
        fd, st = open_fd(path)  # a regular file only: never blocks on a FIFO
        self.ident = (st.st_dev, st.st_ino)
        self.closed = False
        self._pool.adopt(self, fd)

    def reopen(self) -> int:
        """A new descriptor for the same file (called by the pool).

        Raises:
            FileChanged: The path now names another file.
            OSError: It cannot be opened (deleted, permissions changed).
        """
        fd, st = open_fd(self.path)
        if (st.st_dev, st.st_ino) != self.ident:
            os.close(fd)
            raise FileChanged(f"{self.path} was replaced by another file")
        return fd

    @contextmanager
    def fd(self) -> Iterator[int]:
        """Borrow the descriptor (it stays open until the block ends)."""
        if self.closed:
            raise OSError(f"{self.path}: closed")
        fd = self._pool.acquire(self)
        try:
            yield fd
        finally:
            self._pool.release(self)

    def size(self) -> int:
        """The file's size now."""
        return self.stat().st_size

    def stat(self) -> os.stat_result:
        """The file's ``fstat`` now."""
        with self.fd() as fd:
            return os.fstat(fd)

    def pread(self, n: int, offset: int) -> bytes:
        """Up to ``n`` bytes at ``offset`` (fewer only at the end of the file).

        Records over 1 GiB come back as a ``bytearray`` (read in place, not copied).
        """
        if self.closed:
            raise OSError(f"{self.path}: closed")
        pool = self._pool
        fd = pool.acquire(self)  # the hot path of reading: no context manager
        try:
            return pread_full(fd, n, offset)
        finally:
            pool.release(self)

    def pread_into(self, buf: bytearray, offset: int) -> int:
        """Fill ``buf`` from ``offset`` (fewer bytes only at the end of the file): the
        number of bytes read."""
        with self.fd() as fd:
            sparse.ensure_fd(fd, offset, len(buf))
            return preadv_full(fd, buf, offset)

    def close(self) -> None:
        """Close the descriptor; reads after this raise OSError."""
        self.closed = True
        self._pool.forget(self)


def pread_full(fd: int, n: int, offset: int) -> bytes:
    """``n`` bytes at ``offset`` of ``fd``, in as many reads as it takes."""
    sparse.ensure_fd(fd, offset, n)  # (a remote object's mirror: fetched first)
    if n <= MAX_READ:
        data = os.pread(fd, n, offset)
        if len(data) == n or not data:
            return data
        parts = [data]
        got = len(data)
        while got < n:
            more = os.pread(fd, min(n - got, MAX_READ), offset + got)
            if not more:
                break
            parts.append(more)
            got += len(more)
        return b"".join(parts)
    buf = bytearray(n)
    got = preadv_full(fd, buf, offset)
    if got < n:
        del buf[got:]
    return buf  # type: ignore[return-value]  # a bytearray reads like bytes


def preadv_full(fd: int, buf: bytearray, offset: int) -> int:
    """Fill ``buf`` from ``offset`` of ``fd`` in place, in as many reads as it takes (fewer
    bytes only at the end of the file): the number of bytes read."""
    got = 0
    with memoryview(buf) as view:
        while got < len(buf):
            k = os.preadv(fd, [view[got : got + min(len(buf) - got, MAX_READ)]], offset + got)
            if k <= 0:
                break
            got += k
    return got


class OpenFiles:
    """Least-recently-used descriptors of :class:`FileHandle` objects (thread-safe)."""

    def __init__(self, limit: int | None = None) -> None:
        self.limit = limit if limit is not None else default_limit()
        self._open: OrderedDict[FileHandle, int] = OrderedDict()
        self._busy: dict[FileHandle, int] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._open)

    def adopt(self, handle: FileHandle, fd: int) -> None:
        """Keep ``fd``, just opened for ``handle``."""
        with self._lock:
            self._open[handle] = fd
            self._evict()

    def acquire(self, handle: FileHandle) -> int:
        """The descriptor of ``handle``, reopened if it was closed; hold it until
        :meth:`release`."""
        with self._lock:
            fd = self._open.get(handle)
            if fd is not None:
                self._open.move_to_end(handle)
                self._busy[handle] = self._busy.get(handle, 0) + 1
                return fd
        fd = handle.reopen()
        with self._lock:
            have = self._open.get(handle)
            if have is not None:  # another thread reopened it meanwhile
                os.close(fd)
                fd = have
                self._open.move_to_end(handle)
            else:
                self._open[handle] = fd
            self._busy[handle] = self._busy.get(handle, 0) + 1
            self._evict()
            return fd

    def release(self, handle: FileHandle) -> None:
        """Done reading with the descriptor from :meth:`acquire`."""
        with self._lock:
            left = self._busy.get(handle, 1) - 1
            if left > 0:
                self._busy[handle] = left
                return
            self._busy.pop(handle, None)
            if handle.closed:
                self._close(handle)
            else:
                self._evict()

    def forget(self, handle: FileHandle) -> None:
        """Close the descriptor of ``handle`` (now, or when its last reader is done)."""
        with self._lock:
            if handle not in self._busy:
                self._close(handle)

    def _close(self, handle: FileHandle) -> None:
        fd = self._open.pop(handle, None)
        if fd is not None:
            try:
                os.close(fd)
            except OSError:
                pass

    def _evict(self) -> None:
        """Close the oldest idle descriptors beyond the limit (busy ones stay open)."""
        while len(self._open) > self.limit:
            idle = next((h for h in self._open if h not in self._busy), None)
            if idle is None:
                return
            self._close(idle)


POOL = OpenFiles()
"""The pool every :class:`FileHandle` uses unless given another."""
