"""Logs where they lie: ``s3://``, ``https://`` and ``ssh://`` URLs opened as local paths.

A URL names an object (a file) or a prefix (a directory: every object under it). Each
object is read through a *mirror*: a sparse file of its size in trajtui's cache
(``~/.cache/trajtui/remote/<hash of the URL>/``, private: :mod:`.mirrortree` lays it out),
its blocks fetched by range reads the first time a reader reads them
(:mod:`trajtui.core.io.sparse` is the hook the core's read functions call), and kept: a byte
is fetched at most once, by one process when several read it at once (:mod:`.mirror`). The
mirror is kept with the object's identity (size, ETag, modification time, digest, as the
server gives them): a second open of an object whose identity has not changed fetches
nothing but its listing (the HEAD, the stat), and a changed object is fetched anew (one
whose server says none of them, anew at each open). The mirror's own modification
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
from pathlib import Path
from typing import Any

from platformdirs import user_cache_path

from trajtui.core.io import filelock, sparse
from trajtui.core.io.mirror import Mirror, fetched
from trajtui.core.io.mirrortree import Placed, identity, place

SCHEMES = ("s3", "http", "https", "ssh", "sftp")
_URL = re.compile(r"^(s3|https?|ssh|sftp)://", re.IGNORECASE)
WHOLE = 1 << 20
"""Objects this small are fetched whole when listed (together, one request each)."""


def is_url(word: str) -> bool:
    """``word`` is a URL trajtui opens (``s3://``, ``http(s)://``, ``ssh://``, ``sftp://``)."""
    return bool(_URL.match(word))


def cache_root() -> Path:
    """Where mirrors live (``$XDG_CACHE_HOME/trajtui/remote`` on Linux)."""
    return user_cache_path("trajtui") / "remote"


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
        for sub, counted in (("data", True), ("meta", False)):  # (a tree holds links to data)
            with contextlib.suppress(OSError):
                for item in os.scandir(entry / sub):
                    with contextlib.suppress(OSError):
                        used += item.stat(follow_symlinks=False).st_blocks * 512
                        count += counted
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


def _safe_parts(rel: str) -> list[str]:
    """A listed key's path below the prefix as path components that stay inside the mirror
    (``..``, ``.`` and empty parts dropped, a NUL made visible)."""
    return [p.replace("\0", "\u2400") for p in rel.split("/") if p not in ("", ".", "..")]


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
    out = Opened(url)
    name = _safe_parts(rpath.rstrip("/"))[-1:] or ["object"]
    base = rpath.rstrip("/") + "/"
    wanted: list[Placed] = []
    for rp, inf in sorted(objects.items()):
        rel = _safe_parts(rp[len(base) :] if is_dir and rp.startswith(base) else "")
        if is_dir and not rel:
            continue  # (the prefix's own marker object, "dir/", or a key only of ".." parts)
        shown_url = url.rstrip("/") + "/" + "/".join(rel) if is_dir else url
        try:
            if not isinstance(inf.get("size"), int):  # (an HTTP index page's links: ask each)
                inf = fs.info(rp)
            ident = identity(inf)
            if not isinstance(ident["size"], int):
                raise RemoteError("the server does not say the object's size (no range reads)")
        except (OSError, RemoteError) as err:
            out.problems.append((shown_url, message(err)))
            continue
        wanted.append(Placed(rp, ident, rel, shown_url))
    try:
        digest = hashlib.sha256(url.encode("utf-8", "surrogateescape")).hexdigest()[:32]
        root = _private(cache_root() / digest)
        with filelock.locked(root / "lock"):  # (other processes may open it now too)
            top, unplaced = place(root, name[0], is_dir, wanted)
    except OSError as err:
        raise RemoteError(f"no private cache directory to keep it in ({err})") from None
    out.problems.extend(unplaced)
    out.path = str(top)
    small: dict[str, tuple[Mirror, Placed]] = {}
    for o in wanted:
        m = Mirror(fs, o.rpath, str(o.store), o.ident["size"], str(o.have), o.ident)
        st = os.stat(o.store)
        sparse.register((st.st_dev, st.st_ino), m)
        out.mirrors.append(m)
        if m.size <= WHOLE and not m.complete():
            small[o.rpath] = (m, o)
    if small:
        _fetch_whole(fs, small, out, url)
    if not os.path.exists(top):
        out.path = None
    _roots.append((str(top), url.rstrip("/") if is_dir else url))
    return out


def _fetch_whole(fs: Any, small: dict[str, tuple[Mirror, Placed]], out: Opened, url: str) -> None:
    """The small objects, fetched together (fsspec's batched ``cat``)."""
    try:
        got = fs.cat(list(small), on_error="return")
    except Exception:  # read by their blocks instead (what is wrong then is said there)
        return
    for rp, data in got.items():
        if rp not in small:
            continue
        m, _ = small[rp]
        if isinstance(data, BaseException) or len(data) != m.size:
            # left to be read by its blocks, as a big object is (what is wrong then is said
            # by what reads it); its name stays: other processes may read the same tree
            continue
        fetched.add(len(data))
        if data:
            m.put(0, data)
