"""Local mirrors of remote objects, filled on demand: the hook every read goes through.

A remote object (``s3://…``, ``https://…``, ``ssh://…``: :mod:`trajtui.core.io.remote`) is
read through a local *mirror*: a sparse file of the object's size in trajtui's cache,
whose blocks are fetched the first time something reads them. The readers read the mirror
as any local file; before a read, the core's read functions (:class:`safeio.SafeFile`,
:func:`openfiles.pread_full`, the row workers, an archive's members) call :func:`ensure`
with the file's identity, and the blocks under the range are fetched first (once: what is
fetched stays in the mirror).

This module has no dependency: with no mirror open (every local path), :func:`ensure` is
one test of an empty dict, so local reading does not change.
"""

from __future__ import annotations

import io
import os
from typing import Any, Protocol


class Filler(Protocol):
    """What fills a mirror: :meth:`fill` fetches the blocks under a range not yet there."""

    def fill(self, offset: int, size: int) -> None: ...


_mirrors: dict[tuple[int, int], Filler] = {}


def register(ident: tuple[int, int], filler: Filler) -> None:
    """Reads of the file ``(st_dev, st_ino)`` go through ``filler`` first."""
    _mirrors[ident] = filler


def forget(filler: Filler) -> None:
    """Reads of the file ``filler`` filled no longer go through it (it is gone)."""
    for ident in [k for k, f in _mirrors.items() if f is filler]:
        del _mirrors[ident]


def active() -> bool:
    """Some mirror is open in this process."""
    return bool(_mirrors)


def is_mirror(path: str) -> bool:
    """The file at ``path`` is a remote object's mirror (what is read of it is fetched)."""
    if not _mirrors:
        return False
    try:
        st = os.stat(path)
    except OSError:
        return False
    return (st.st_dev, st.st_ino) in _mirrors


def ensure(ident: tuple[int, int], offset: int, size: int) -> None:
    """Make ``size`` bytes at ``offset`` of the file ``ident`` present (fetched if it is a
    mirror; nothing for a local file). Raises OSError when the fetch fails."""
    if _mirrors and size > 0:
        filler = _mirrors.get(ident)
        if filler is not None:
            filler.fill(offset, size)


def ensure_fd(fd: int, offset: int, size: int) -> None:
    """:func:`ensure` for an open descriptor (its identity by ``fstat`` only when a mirror
    is open)."""
    if _mirrors and size > 0:
        st = os.fstat(fd)
        filler = _mirrors.get((st.st_dev, st.st_ino))
        if filler is not None:
            filler.fill(offset, size)


def ensure_path(path: str) -> None:
    """The whole file at ``path`` present (a reader that maps a file whole)."""
    if _mirrors:
        try:
            st = os.stat(path)
        except OSError:
            return
        filler = _mirrors.get((st.st_dev, st.st_ino))
        if filler is not None:
            filler.fill(0, st.st_size)


class File(io.RawIOBase):
    """An open descriptor as a binary file object whose reads go through :func:`ensure_fd`
    (for a library that reads a file object itself, as :mod:`zipfile` reads a central
    directory). It owns the descriptor: closing it closes the descriptor."""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self._fd = fd
        self._pos = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._fd

    def tell(self) -> int:
        return self._pos

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        if whence == os.SEEK_CUR:
            offset += self._pos
        elif whence == os.SEEK_END:
            offset += os.fstat(self._fd).st_size
        if offset < 0:
            raise ValueError("negative seek position")
        self._pos = offset
        return offset

    def readinto(self, buf: Any) -> int:
        n = len(buf)
        ensure_fd(self._fd, self._pos, n)
        data = os.pread(self._fd, n, self._pos)
        buf[: len(data)] = data
        self._pos += len(data)
        return len(data)

    def close(self) -> None:
        if not self.closed:
            try:
                os.close(self._fd)
            finally:
                super().close()


def open_file(fd: int) -> io.RawIOBase:
    """``fd`` as an unbuffered binary file object: :class:`File` while a mirror is open
    (its reads fetched first), else ``os.fdopen`` as ever."""
    return File(fd) if _mirrors else os.fdopen(fd, "rb", buffering=0)
