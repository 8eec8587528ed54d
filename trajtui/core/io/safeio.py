"""The one safe way to read a file by name.

Everything trajtui reads by name from a tree it was pointed at (a forecast run's
``sources.json``, an eval ``results.json``, an ultraplan result log, the head of a file being
sniffed) goes through this module, because any name there may be something other than a
small regular file: a FIFO (opening it would block forever), a character device such as
``/dev/zero`` (endless), a 20 GB sparse file (no disk used, all of memory to read), or a file
swapped for one of these between the directory listing and the read.

So a file is opened ``O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC`` (and ``O_NOFOLLOW``
when a link must not be followed), after a ``stat`` that refuses anything but a regular file
without opening it (opening some devices has effects); the opened descriptor is checked again
with ``fstat`` (the name may have been swapped in between) and only then put back in blocking
mode. Whole-file reads are refused above a size cap *before* anything is read, and never read
more than the cap even when the file grows meanwhile.

A refusal is a :class:`Refused`, an :class:`OSError` whose ``strerror`` is one line naming
what the file is and why it was not read (``not a regular file (a FIFO)``, ``too large to
read (21,474,836,480 bytes; limit 134,217,728)``), so code that already reports ``OSError``
as ``PATH: message`` reports these too, and one bad file never stops the others from being
read.

API:

* :func:`open_regular` -- a :class:`SafeFile` (a context manager around the descriptor, with
  ``size``, ``pread`` and ``read_all``); :func:`open_fd` -- the bare descriptor, for a
  reader that keeps it;
* :func:`read_bytes` / :func:`read_text` -- a whole file, at most ``limit`` bytes;
* :func:`read_head` / :func:`read_head_tail` -- the first (and last) bytes of a file of any
  size;
* :func:`iter_lines` -- the lines of an open file, one at a time, each at most a given
  length (longer ones are passed over without being held in memory);
* :func:`regular_file` -- whether a name is a regular file (``stat``, never ``open``).
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from types import TracebackType

from trajtui.core.io import sparse

CHUNK = 1 << 20
"""Bytes read at a time by :func:`iter_lines`."""
MAX_DOCUMENT = 128 << 20
"""Default cap of :func:`read_bytes`: a JSON or YAML document bigger than this is refused
(parsing one takes several times its size in memory)."""

_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
)
_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISLNK, "a symbolic link"),
)


class Refused(OSError):
    """A file that was deliberately not read. ``strerror`` is the one-line reason."""


def kind_of(mode: int) -> str:
    """What a file of mode ``mode`` is, in words (``a FIFO``, ``a regular file``...)."""
    for test, name in _KINDS:
        if test(mode):
            return name
    return "a regular file" if stat.S_ISREG(mode) else "not a file"


def _not_regular(path: str, mode: int) -> Refused:
    return Refused(errno.EINVAL, f"not a regular file ({kind_of(mode)}; not read)", path)


def too_large(path: str, size: int, limit: int) -> Refused:
    """The refusal of a file of ``size`` bytes over a cap of ``limit``."""
    return Refused(errno.EFBIG, f"too large to read ({size:,} bytes; limit {limit:,})", path)


def regular_file(path: str, *, follow_links: bool = True) -> bool:
    """True when ``path`` names a regular file (by ``stat``: nothing is opened)."""
    try:
        st = os.stat(path, follow_symlinks=follow_links)
    except (OSError, ValueError):
        return False
    return stat.S_ISREG(st.st_mode)


class SafeFile:
    """An open regular file, read-only (made by :func:`open_regular`).

    Use it as a context manager (it closes its descriptor on exit) or call :meth:`close`.

    Attributes:
        path: The name it was opened by (for messages).
        fd: The descriptor (blocking, close-on-exec).
        size: Its size when it was opened.
        ident: ``(st_dev, st_ino)`` of the opened file.
    """

    def __init__(self, path: str, fd: int, st: os.stat_result) -> None:
        self.path = path
        self.fd = fd
        self.size = st.st_size
        self.ident = (st.st_dev, st.st_ino)

    def __enter__(self) -> SafeFile:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Close the descriptor (again is harmless)."""
        if self.fd >= 0:
            try:
                os.close(self.fd)
            except OSError:
                pass
            self.fd = -1

    def pread(self, size: int, offset: int) -> bytes:
        """Up to ``size`` bytes at ``offset`` (fewer at the end of the file)."""
        if size <= 0:
            return b""
        sparse.ensure(self.ident, offset, size)  # (a remote object's mirror: fetched first)
        return os.pread(self.fd, size, offset)

    def read_all(self, limit: int = MAX_DOCUMENT) -> bytes:
        """The whole file, from its start.

        Raises:
            Refused: It is (or, while being read, grew) bigger than ``limit`` bytes.
            OSError: It cannot be read.
        """
        if self.size > limit:
            raise too_large(self.path, self.size, limit)
        parts = [self.pread(self.size + 1, 0)]
        got = len(parts[0])
        while got > self.size:  # it grew since it was opened: read on, up to the cap
            if got > limit:
                raise too_large(self.path, got, limit)
            chunk = self.pread(min(1 << 20, limit + 1 - got), got)
            if not chunk:
                break
            parts.append(chunk)
            got += len(chunk)
        if got > limit:
            raise too_large(self.path, got, limit)
        return parts[0] if len(parts) == 1 else b"".join(parts)


def open_fd(path: str, *, follow_links: bool = True) -> tuple[int, os.stat_result]:
    """Open a regular file for reading, refusing anything else without blocking: the
    descriptor (blocking, close-on-exec; the caller closes it) and its ``fstat``.

    Args:
        path: The file's name.
        follow_links: Follow a symbolic link (``False``: a link is refused, ``O_NOFOLLOW``).

    Raises:
        Refused: ``path`` is not a regular file (a FIFO, a device, a directory, a socket,
            or a link when ``follow_links`` is False).
        OSError: It cannot be opened (missing, no permission...).
    """
    st = os.stat(path, follow_symlinks=follow_links)
    if not stat.S_ISREG(st.st_mode):
        raise _not_regular(path, st.st_mode)
    flags = _FLAGS | (0 if follow_links else getattr(os, "O_NOFOLLOW", 0))
    try:
        fd = os.open(path, flags)
    except OSError as err:
        if err.errno == errno.ELOOP and not follow_links:
            raise _not_regular(path, stat.S_IFLNK) from None
        raise
    try:
        st = os.fstat(fd)  # the name may have been swapped since the stat above
        if not stat.S_ISREG(st.st_mode):
            raise _not_regular(path, st.st_mode)
        _set_blocking(fd)
    except BaseException:
        os.close(fd)
        raise
    return fd, st


def open_regular(path: str, *, follow_links: bool = True) -> SafeFile:
    """:func:`open_fd` as a :class:`SafeFile` (use it in a ``with`` block).

    Raises:
        Refused: ``path`` is not a regular file.
        OSError: It cannot be opened.
    """
    fd, st = open_fd(path, follow_links=follow_links)
    return SafeFile(path, fd, st)


def _set_blocking(fd: int) -> None:
    try:
        os.set_blocking(fd, True)
    except (AttributeError, OSError):  # pragma: no cover - not on every platform
        pass


def read_bytes(path: str, *, limit: int = MAX_DOCUMENT, follow_links: bool = True) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes.

    Raises:
        Refused: It is not a regular file, or is bigger than ``limit``.
        OSError: It cannot be opened or read.
    """
    with open_regular(path, follow_links=follow_links) as f:
        return f.read_all(limit)


def read_text(path: str, *, limit: int = MAX_DOCUMENT, follow_links: bool = True) -> str:
    """:func:`read_bytes` decoded as UTF-8 (undecodable bytes replaced).

    Raises:
        Refused: As :func:`read_bytes`.
        OSError: As :func:`read_bytes`.
    """
    return read_bytes(path, limit=limit, follow_links=follow_links).decode(
        "utf-8", errors="replace"
    )


def read_head(path: str, size: int) -> bytes:
    """The first ``size`` bytes of a regular file of any size.

    Raises:
        Refused: It is not a regular file.
        OSError: It cannot be opened or read.
    """
    with open_regular(path) as f:
        return f.pread(size, 0)


def read_head_tail(path: str, head: int, tail: int) -> tuple[bytes, bytes]:
    """The first ``head`` and the last ``tail`` bytes of a regular file of any size.

    Raises:
        Refused: It is not a regular file.
        OSError: It cannot be opened or read.
    """
    with open_regular(path) as f:
        return f.pread(head, 0), f.pread(tail, max(0, f.size - tail))


def iter_lines(
    f: SafeFile, *, limit: int, max_bytes: int | None = None, brk: bytes = b"\n"
) -> Iterator[tuple[int, bytes | None]]:
    """The lines of an open file from its start: ``(number, line)``, numbered from 1.

    A line comes without its newline and with trailing CRs removed; the last line is
    included when it has no newline (unless it is empty). Memory stays bounded by ``limit``
    plus one chunk, and time is linear in the bytes read.

    Args:
        f: The file.
        limit: The longest line returned: a longer one comes as ``(number, None)``, and is
            passed over without being kept.
        max_bytes: Stop after reading about this many bytes (None: read to the end).
        brk: The byte that ends lines (``\r`` for a file with CR-only line endings).
    """
    pos = 0  # file offset of the end of buf
    buf = b""
    at = 0  # where the current line starts in buf
    number = 0
    skipping = False  # inside a line longer than limit
    while True:
        nl = buf.find(brk, at)
        if nl >= 0:
            number += 1
            yield number, (None if skipping or nl - at > limit else buf[at:nl].rstrip(b"\r"))
            skipping = False
            at = nl + 1
            continue
        if len(buf) - at > limit:
            skipping, buf, at = True, b"", 0
        if max_bytes is not None and pos >= max_bytes:
            return
        chunk = f.pread(max(CHUNK, len(buf) - at), pos)
        if not chunk:
            rest = buf[at:]
            if skipping or rest:
                yield number + 1, None if skipping else rest.rstrip(b"\r")
            return
        pos += len(chunk)
        buf = buf[at:] + chunk
        at = 0
