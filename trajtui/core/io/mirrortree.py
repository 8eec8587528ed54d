"""Where a URL's mirrors live in the cache, kept right with several processes at once.

Each URL has a directory of its own (``~/.cache/trajtui/remote/<hash of the URL>/``):

* ``data/<object>-<identity>``: an object's mirror (:mod:`trajtui.core.io.mirror`), one file
  for each identity the object has had (size, ETag, modification time, digest): a changed
  object gets a new file, never a rewrite of the old one, so a process still reading the old
  object keeps reading the old bytes it has, never a mix: a block it reads on is fetched
  only as the version listed (HTTP's ``If-Match``; elsewhere its validators looked at again
  after the fetch), else the read fails, saying the object changed.
* ``meta/<object>-<identity>.have``: its bitmap of the blocks present.
* ``.trajtui-mirror/<generation>/NAME…``: what the readers open, hard links to the mirrors
  under the object's name (a prefix: the names below it), one tree for each listing seen
  (its generation names the objects and their identities). An unchanged listing finds its
  tree again, so its paths (and the index cache, keyed by path) stay the same.
* ``use/<generation>.lock``: held shared by each process reading that tree, as long as it
  lives (the kernel lets go when it dies).

All of this is changed under one lock (``lock``, :func:`trajtui.core.io.filelock.locked`):
a tree no process holds is removed, then a mirror no tree links any more (its bitmap with
it). An object whose server gives no validator (no ETag, modification time or digest: a
plain HTTP server) cannot be told from a changed object of the same size, so its identity
is new at each open: it is fetched again, never shown stale.
"""

from __future__ import annotations

import contextlib
import fcntl  # (POSIX: trajtui runs where eval engineers SSH to)
import hashlib
import os
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

MIRROR_DIR = ".trajtui-mirror"
"""The trees' directory (a walk of a directory holding the cache, ``trajtui ~``, passes it
over as a tool's own: :data:`trajtui.core.io.discover.SKIP_DIRS`)."""
VALIDATORS = ("etag", "mtime", "digest")

_held: list[int] = []
"""The shared locks of the trees this process reads (open for the process's life)."""


@dataclass
class Placed:
    """One listed object: given its remote path, identity and name below the URL; placed,
    its mirror (``store``), bitmap (``have``) and name in the tree (``local``)."""

    rpath: str
    ident: dict[str, Any]
    rel: list[str]
    url: str
    store: Path = field(default_factory=Path)
    have: Path = field(default_factory=Path)
    local: Path = field(default_factory=Path)


def identity(info: dict[str, Any]) -> dict[str, Any]:
    """An object's identity as its listing gives it (``None`` where the server says nothing)."""
    mtime = info.get("LastModified") or info.get("Last-Modified") or info.get("mtime")
    digest = info.get("Content-MD5") or info.get("Digest")
    return {
        "size": info.get("size"),
        "etag": info.get("ETag") or info.get("etag"),
        "mtime": str(mtime) if mtime is not None else None,
        "digest": str(digest) if digest is not None else None,
    }


def _stamp(ident: dict[str, Any]) -> str:
    if all(ident.get(k) is None for k in VALIDATORS):
        return "once" + os.urandom(8).hex()  # (nothing tells a change: never reused)
    return hashlib.sha256(orjson.dumps(ident, option=orjson.OPT_SORT_KEYS)).hexdigest()[:16]


def _private(d: Path) -> Path:
    d.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(d, 0o700)
    return d


def place(
    root: Path, name: str, is_dir: bool, objects: list[Placed]
) -> tuple[Path, list[tuple[str, str]]]:
    """Make each object's mirror (kept when its identity is unchanged) and the tree that
    names them; hold the tree for this process; remove what no process holds. Call it under
    ``root/lock``. Returns the tree's top and a line for each object that could not be
    placed (``(url, message)``), which is left out of ``objects``.

    Raises:
        OSError: The cache cannot be written.
    """
    data, meta, use, trees = (_private(root / d) for d in ("data", "meta", "use", MIRROR_DIR))
    for o in objects:
        key = hashlib.sha256(o.rpath.encode("utf-8", "surrogateescape")).hexdigest()[:32]
        o.store = data / f"{key}-{_stamp(o.ident)}"
        o.have = meta / f"{o.store.name}.have"
        try:
            fresh = o.store.stat().st_size != o.ident["size"] or not o.have.is_file()
        except OSError:
            fresh = True
        if fresh:
            for p in (o.store, o.have):
                p.unlink(missing_ok=True)
            fd = os.open(o.store, os.O_CREAT | os.O_EXCL | os.O_WRONLY | os.O_CLOEXEC, 0o600)
            os.ftruncate(fd, o.ident["size"])
            os.close(fd)
            os.close(os.open(o.have, os.O_CREAT | os.O_WRONLY | os.O_CLOEXEC, 0o600))
            stamp = time.time_ns()  # (the identity's stamp: the index cache's key)
            os.utime(o.store, ns=(stamp, stamp))
    listing = [(o.rel, o.store.name) for o in objects]
    gen = hashlib.sha256(orjson.dumps([is_dir, name, listing])).hexdigest()[:16]
    _hold(use / f"{gen}.lock")
    top = trees / gen / name
    problems: list[tuple[str, str]] = []
    for o in list(objects):
        o.local = top.joinpath(*o.rel) if is_dir else top
        try:
            _link(o.store, o.local)
        except OSError as err:
            problems.append((o.url, f"cannot be kept in the cache ({err.strerror or err})"))
            objects.remove(o)
    _sweep(trees, use, gen)
    _collect(data, meta, {o.store.name for o in objects})
    return top, problems


def _link(store: Path, local: Path) -> None:
    """``local`` a hard link to ``store`` (replaced at once if it names another file)."""
    with contextlib.suppress(OSError):
        if os.path.samefile(store, local):
            return
    _private(local.parent)
    tmp = local.with_name(f".{local.name}.{os.getpid()}.tmp")
    tmp.unlink(missing_ok=True)
    os.link(store, tmp)
    os.replace(tmp, local)


def _lock(path: Path, how: int) -> int | None:
    """``path`` opened and locked (``fcntl.LOCK_SH`` or ``LOCK_EX``, not waiting): its
    descriptor, or None when another process holds it."""
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | os.O_CLOEXEC
    fd = os.open(path, flags, 0o600)
    try:
        fcntl.flock(fd, how | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def _hold(path: Path) -> None:
    fd = _lock(path, fcntl.LOCK_SH)
    if fd is None:  # (only a sweep holds it exclusive, under the lock we hold: never)
        raise OSError(f"{path}: held by another process")
    _held.append(fd)


def _sweep(trees: Path, use: Path, keep: str) -> None:
    """Remove the trees no process holds (an earlier listing's, a killed process's)."""
    for entry in os.listdir(trees):
        if entry == keep:
            continue
        lock = use / f"{entry}.lock"
        fd = _lock(lock, fcntl.LOCK_EX)
        if fd is None:
            continue  # (a process still reads it)
        try:
            path = trees / entry
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink(missing_ok=True)
            lock.unlink(missing_ok=True)
        finally:
            os.close(fd)


def _collect(data: Path, meta: Path, keep: set[str]) -> None:
    """Remove the mirrors no tree links any more, and bitmaps without their mirror."""
    for entry in os.scandir(data):
        with contextlib.suppress(OSError):
            if entry.name not in keep and entry.stat(follow_symlinks=False).st_nlink <= 1:
                os.unlink(entry.path)
    names = set(os.listdir(data))
    for entry in os.scandir(meta):
        if entry.name.removesuffix(".have") not in names:
            with contextlib.suppress(OSError):
                os.unlink(entry.path)
