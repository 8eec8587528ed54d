"""Logs where they lie: ``s3://``, ``https://`` and ``ssh://`` URLs opened as local paths.

A URL names an object (a file) or a prefix (a directory: every object under it). Each
object is read through a *mirror*: a sparse file of its size in trajtui's cache
(``~/.cache/trajtui/remote/<hash of the URL>/.trajtui-mirror/…``, private), its blocks fetched by range
reads the first time a reader reads them (:mod:`trajtui.core.io.sparse` is the hook the
core's read functions call), and kept: a byte is fetched at most once. The mirror is kept
with the object's identity (size, ETag, modification time, as the server gives them): a
second open of an object whose identity has not changed fetches nothing but its listing
(the HEAD, the stat), and a changed object is fetched anew. The mirror's own modification
time is the one stamp of that identity, so the index cache (keyed by path, size and mtime)
finds a remote capture's index again as it finds a local one's.

Why a sparse mirror and not a stream: every reader reads a local file already (``pread``,
a zip's central directory, ``mmap``), so each reads a remote object unchanged, only what it
reads (an Inspect ``.eval`` is listed from its central directory and two members, never its
samples), and a capture's first screen needs only its first blocks: the index goes on
reading (and fetching, a few MB ahead when it reads on) in the background.

The filesystems are fsspec's (s3fs, HTTP over aiohttp, sshfs over asyncssh), imported only
here, when a URL is given. Credentials come from where those tools look for them: boto's
chain for S3 (``AWS_*`` variables, ``~/.aws`` profiles, ``AWS_ENDPOINT_URL``), ssh's config
and agent for SSH (``~/.ssh/config``, ``SSH_AUTH_SOCK``, known hosts); nothing is written there.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
from platformdirs import user_cache_path

from trajtui.core.io import sparse

SCHEMES = ("s3", "http", "https", "ssh", "sftp")
_URL = re.compile(r"^(s3|https?|ssh|sftp)://", re.IGNORECASE)
BLOCK = 64 << 10
"""Bytes fetched at a time, at least (what a read touches is fetched by whole blocks)."""
READ_ON = 8 << 20
"""Fetched ahead, in the background and one request, when a reader reads on from where it
stopped (a scan): the next stretch arrives while the reader parses this one."""
MIRROR_DIR = ".trajtui-mirror"
"""The mirrors' directory (a walk of a directory holding the cache, ``trajtui ~``, passes
it over as a tool's own: :data:`trajtui.core.io.discover.SKIP_DIRS`)."""
WHOLE = 1 << 20
"""Objects this small are fetched whole when listed (together, one request each)."""


def is_url(word: str) -> bool:
    """``word`` is a URL trajtui opens (``s3://``, ``http(s)://``, ``ssh://``, ``sftp://``)."""
    return bool(_URL.match(word))


def cache_root() -> Path:
    """Where mirrors live (``$XDG_CACHE_HOME/trajtui/remote`` on Linux)."""
    return user_cache_path("trajtui") / "remote"


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
_roots: list[tuple[str, str]] = []
"""``(local mirror path, URL)`` of every URL opened: what :func:`shown` maps back."""


def shown(path: str) -> str:
    """The URL a mirror's path stands for (``path`` itself when it is no mirror's)."""
    for local, url in _roots:
        if path == local:
            return url
        if path.startswith(local + os.sep):
            return url.rstrip("/") + "/" + path[len(local) + 1 :]
    return path


def clear() -> tuple[int, int]:
    """Remove every mirror: how many objects had one, and the bytes they held on disk."""
    count = used = 0
    top = cache_root()
    if not top.is_dir() or top.is_symlink():
        return 0, 0
    for entry in top.iterdir():
        for dirpath, _dirs, files in os.walk(entry / MIRROR_DIR):
            for name in files:
                with contextlib.suppress(OSError):
                    used += os.lstat(os.path.join(dirpath, name)).st_blocks * 512
                    count += 1
        shutil.rmtree(entry, ignore_errors=True)
    return count, used


class RemoteError(Exception):
    """A URL that cannot be opened or read; the message is one line."""


def message(err: BaseException) -> str:
    """One line for what went wrong reaching a remote object (no library's traceback)."""
    name = type(err).__name__
    text = " ".join(str(err).split()) or name
    if isinstance(err, RemoteError):
        return text
    cause = err.__cause__ or err.__context__
    if isinstance(err, FileNotFoundError) and cause is not None:  # (fsspec's HTTP says why here)
        status = getattr(cause, "status", None)
        if status in (401, 403):
            return f"access denied (HTTP {status})"
        if isinstance(status, int):
            return f"no such object (HTTP {status})"
        return message(cause)
    if isinstance(err, FileNotFoundError) or name in ("NoSuchKey", "SFTPNoSuchFile"):
        return "no such object"
    if name == "NoSuchBucket":
        return "no such bucket"
    if name in ("AccessDenied", "InvalidAccessKeyId", "SignatureDoesNotMatch"):
        return f"access denied ({name})"
    if name in ("SFTPPermissionDenied", "PermissionDenied"):  # (asyncssh: a file; the login)
        return f"access denied ({text[:200]})"
    if name == "HostKeyNotVerifiable":
        return f"the host's key is not in known_hosts ({text[:200]})"
    if isinstance(err, PermissionError):
        return f"access denied ({text[:200]})"
    if name in ("NoCredentialsError", "PartialCredentialsError"):
        return "no AWS credentials (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, AWS_PROFILE, ~/.aws)"
    if name in ("ClientConnectorError", "ConnectionRefusedError", "EndpointConnectionError"):
        return f"cannot connect ({text[:200]})"
    if isinstance(err, (TimeoutError, ConnectionError)):
        return f"cannot connect ({text[:200]})"
    if name == "ModuleNotFoundError":
        return f"this kind of URL cannot be read here ({text[:200]})"
    return f"cannot be read ({name}: {text[:200]})"


class Mirror:
    """One remote object's local mirror, filled on demand (a :class:`sparse.Filler`)."""

    def __init__(self, fs: Any, rpath: str, local: str, size: int, have: str) -> None:
        self.fs, self.rpath, self.local, self.size = fs, rpath, local, size
        self._fd = os.open(local, os.O_RDWR | os.O_CLOEXEC)
        self.have = have
        self._have_fd = os.open(have, os.O_RDWR | os.O_CLOEXEC)
        self._have = bytearray(os.pread(self._have_fd, self.blocks, 0).ljust(self.blocks, b"\0"))
        self._busy = bytearray(self.blocks)  # blocks being fetched (by a thread)
        self._cond = threading.Condition()
        self._reading_ahead = False
        self._stamp = os.stat(local).st_mtime_ns
        self._next = -1  # where the last read ended: a read from there reads on

    @property
    def blocks(self) -> int:
        return (self.size + BLOCK - 1) // BLOCK

    def complete(self) -> bool:
        return all(self._have)

    def fill(self, offset: int, size: int) -> None:
        """Fetch the blocks under ``size`` bytes at ``offset`` that are not here yet (each
        block once: one being fetched by another thread is waited for). A read on from where
        the last one ended (a scan) has the next :data:`READ_ON` bytes fetched meanwhile, in
        the background."""
        end = min(offset + size, self.size)
        if offset >= end:
            return
        first, last = offset // BLOCK, (end - 1) // BLOCK
        reading_on = offset == self._next  # (the read goes on from where the last ended)
        self._next = end
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
        """Fetch blocks ``first``..``last`` (claimed as busy by the caller), then free them."""
        try:
            self._fetch(first, last)
        finally:
            with self._cond:
                self._busy[first : last + 1] = bytes(last + 1 - first)
                self._cond.notify_all()

    def _fetch(self, first: int, last: int) -> None:
        start, stop = first * BLOCK, min(self.size, (last + 1) * BLOCK)
        try:
            data = self.fs.cat_file(self.rpath, start=start, end=stop)
        except Exception as err:  # the library's own errors (aiohttp, botocore, asyncssh)
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

    def drop(self) -> None:
        """Forget the mirror (an object that could not be fetched is not opened)."""
        sparse.forget(self)
        for fd in (self._fd, self._have_fd):
            os.close(fd)
        for p in (self.local, self.have):
            with contextlib.suppress(OSError):
                os.unlink(p)

    def put(self, start: int, data: bytes) -> None:
        """Keep ``data`` (whole blocks from ``start``, or the object's end) in the mirror."""
        os.pwrite(self._fd, data, start)
        first, last = start // BLOCK, (start + len(data) - 1) // BLOCK
        self._have[first : last + 1] = b"\1" * (last + 1 - first)
        os.pwrite(self._have_fd, b"\1" * (last + 1 - first), first)
        os.utime(self._fd, ns=(self._stamp, self._stamp))  # (the identity's stamp, kept)


def _safe_parts(rel: str) -> list[str]:
    """A listed key's path below the prefix as path components that stay inside the mirror
    (``..``, ``.`` and empty parts dropped, a NUL made visible)."""
    return [p.replace("\0", "\u2400") for p in rel.split("/") if p not in ("", ".", "..")]


def _identity(info: dict[str, Any]) -> dict[str, Any]:
    mtime = info.get("LastModified") or info.get("Last-Modified") or info.get("mtime")
    return {
        "size": info.get("size"),
        "etag": info.get("ETag") or info.get("etag"),
        "mtime": str(mtime) if mtime is not None else None,
    }


def _private(d: Path) -> Path:
    d.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(d, 0o700)
    return d


class Opened:
    """A URL opened: :attr:`path` is the local mirror to read, :attr:`problems` the objects
    under it that could not be (``(url, message)``)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.path: str | None = None
        self.problems: list[tuple[str, str]] = []
        self.mirrors: list[Mirror] = []


def open_url(url: str) -> Opened:
    """Open ``url`` (an object or a prefix) as a local mirror; nothing is fetched yet but
    the listing and the objects under :data:`WHOLE` bytes.

    Raises:
        RemoteError: It cannot be reached or listed (one line).
    """
    try:
        import fsspec  # (only when a URL is given)

        fs, rpath = fsspec.core.url_to_fs(url)
        info = None if url.endswith("/") else fs.info(rpath)
        if info is None or info.get("type") == "directory":
            listed = fs.find(rpath, detail=True, withdirs=False)
            if not listed and info is None and not fs.exists(rpath):
                raise FileNotFoundError(url)
            objects = {p: i for p, i in listed.items() if i.get("type", "file") != "directory"}
            is_dir = True
        else:
            objects, is_dir = {rpath: info}, False
    except RemoteError:
        raise
    except Exception as err:
        raise RemoteError(message(err)) from None
    try:
        digest = hashlib.sha256(url.encode("utf-8", "surrogateescape")).hexdigest()[:32]
        root = _private(cache_root() / digest)
        tree, meta = _private(root / MIRROR_DIR), _private(root / "meta")
    except OSError as err:
        raise RemoteError(f"no private cache directory to keep it in ({err})") from None
    name = _safe_parts(rpath.rstrip("/"))[-1:] or ["object"]
    top = tree / name[0]
    if is_dir and top.is_file():  # (the URL named an object before, a prefix now: or back)
        top.unlink()
    elif not is_dir and top.is_dir():
        shutil.rmtree(top, ignore_errors=True)
    out = Opened(url)
    out.path = str(top)
    base = rpath.rstrip("/") + "/"
    small: dict[str, tuple[Mirror, str]] = {}
    for rp, inf in sorted(objects.items()):
        rel = _safe_parts(rp[len(base) :] if is_dir and rp.startswith(base) else "")
        if is_dir and not rel:
            continue  # (the prefix's own marker object, "dir/", or a key only of ".." parts)
        local = top.joinpath(*rel) if is_dir else top
        shown_url = url.rstrip("/") + "/" + "/".join(rel) if is_dir else url
        try:
            if not isinstance(inf.get("size"), int):  # (an HTTP index page's links: ask each)
                inf = fs.info(rp)
            m = _mirror(fs, rp, local, meta, inf)
        except (OSError, RemoteError) as err:
            out.problems.append((shown_url, message(err)))
            continue
        out.mirrors.append(m)
        if m.size <= WHOLE and not m.complete():
            small[rp] = (m, shown_url)
    if is_dir:
        _prune(top, {m.local for m in out.mirrors})
    if small:
        _fetch_whole(fs, small, out, url)
        if not os.path.exists(top):
            out.path = None
    _roots.append((str(top), url.rstrip("/") if is_dir else url))
    return out


def _prune(top: Path, keep: set[str]) -> None:
    """Remove the mirrors of objects no longer listed (deleted since an earlier open)."""
    for dirpath, _dirs, files in os.walk(top):
        for name in files:
            p = os.path.join(dirpath, name)
            if p not in keep:
                with contextlib.suppress(OSError):
                    os.unlink(p)


def _mirror(fs: Any, rpath: str, local: Path, meta: Path, info: dict[str, Any]) -> Mirror:
    ident = _identity(info)
    if not isinstance(ident["size"], int):
        raise RemoteError("the server does not say the object's size (no range reads)")
    key = hashlib.sha256(rpath.encode("utf-8", "surrogateescape")).hexdigest()[:32]
    kept, have = meta / f"{key}.json", meta / f"{key}.have"
    try:
        same = orjson.loads(kept.read_bytes())["identity"] == ident and local.is_file()
    except (OSError, ValueError, KeyError, TypeError):
        same = False
    if not same:
        _private(local.parent)
        for p in (local, have):
            p.unlink(missing_ok=True)
        fd = os.open(local, os.O_CREAT | os.O_EXCL | os.O_WRONLY | os.O_CLOEXEC, 0o600)
        os.ftruncate(fd, ident["size"])
        os.close(fd)
        os.close(os.open(have, os.O_CREAT | os.O_WRONLY | os.O_CLOEXEC, 0o600))
        stamp = time.time_ns()
        os.utime(local, ns=(stamp, stamp))
        kept.write_bytes(
            orjson.dumps({"identity": ident, "path": rpath.encode("utf-8", "replace").decode()})
        )
    m = Mirror(fs, rpath, str(local), ident["size"], str(have))
    st = os.stat(local)
    sparse.register((st.st_dev, st.st_ino), m)
    return m


def _fetch_whole(fs: Any, small: dict[str, tuple[Mirror, str]], out: Opened, url: str) -> None:
    """The small objects, fetched together (fsspec's batched ``cat``)."""
    try:
        got = fs.cat(list(small), on_error="return")
    except Exception as err:
        out.problems.append((url, message(err)))
        return
    for rp, data in got.items():
        if rp not in small:
            continue
        m, shown_url = small[rp]
        if isinstance(data, BaseException) or len(data) != m.size:
            why = message(data) if isinstance(data, BaseException) else "changed while read"
            out.problems.append((shown_url, why))
            m.drop()  # (not opened: it is said once, here)
            continue
        fetched.add(len(data))
        if data:
            m.put(0, data)
