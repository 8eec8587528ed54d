"""Walk a directory for files worth sniffing, safely.

Rules: symbolic links are never followed out of the opened directory (a link to a file or
directory inside it is read once, through its real path); directory loops end (every
directory is visited once, by its device and inode); ``.git``, ``node_modules``, ``.venv``
and other tool directories are skipped; an unreadable directory is skipped with a warning
naming it; a walk goes at most :data:`MAX_DEPTH` levels down (and says so when there is
more), so the work per directory is bounded whatever the tree; only regular files are listed
(FIFOs, devices and sockets never are). What is passed over (a tool directory, a link out, a
FIFO) is kept with why (:attr:`walk.skipped`: ``ls --verbose`` says it). Nothing is written
anywhere.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterator
from dataclasses import dataclass

from trajtui.core.model import Problem, Severity

SKIP_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        "node_modules",
        ".venv",
        "venv",
        "__pycache__",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".tox",
        ".nox",
        ".idea",
        ".vscode",
        ".trajtui-mirror",  # (remote objects' mirrors: core/io/remote.py)
    }
)
TOOL_DIR = "not looked into: a tool's own directory (.git, node_modules, .venv and the like)"
LINK_OUT = "a link out of the opened directory: not followed"
NOT_REGULAR = "not a regular file (a FIFO, a device, a socket or a broken link): not read"
MAX_FILES = 200_000
"""A walk stops after this many files (and says so)."""
MAX_DEPTH = 64
"""A walk does not go deeper than this many levels below its root (and says so). Real
outputs nest a few levels; every path check costs time in proportion to the depth, so an
unbounded walk of a tree thousands of levels deep would take time quadratic in its size."""


@dataclass(slots=True)
class Walked:
    """One directory visited by :func:`walk`.

    Attributes:
        path: The directory, as reached from the root (not resolved).
        rel: Its path relative to the root (``.`` for the root).
        dirs: Names of its subdirectories that will be visited; a caller may empty this
            list (before asking for the next directory) to not descend (as ``os.walk``).
        files: Names of its regular files (links inside the root included).
    """

    path: str
    rel: str
    dirs: list[str]
    files: tuple[str, ...]


def inside(root_real: str, path: str) -> bool:
    """True when ``path`` resolves to somewhere inside ``root_real`` (a resolved path)."""
    try:
        real = os.path.realpath(path)
    except OSError:
        return False
    return real == root_real or real.startswith(root_real.rstrip(os.sep) + os.sep)


def subdirs(path: str) -> list[str]:
    """The names of ``path``'s subdirectories (links left out; none when it cannot be read)."""
    try:
        with os.scandir(path) as it:
            return [e.name for e in it if _is_dir(e)]
    except OSError:
        return []


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def stem(path: str, suffixes: tuple[str, ...]) -> str:
    """A run's name from its file: the file name without the first of ``suffixes`` it ends
    with (``x.traj.json`` is ``x`` for ``(".traj.json", ".json")``); a name that is only the
    suffix is kept whole."""
    name = os.path.basename(path)
    for suffix in suffixes:
        if name.endswith(suffix) and len(name) > len(suffix):
            return name[: -len(suffix)]
    return name


class walk:
    """Visit ``root`` and every directory below it, top-down, once each.

    Iterate over it; afterwards :attr:`stopped` says whether the walk gave up after
    :data:`MAX_FILES` files, :attr:`problems` holds a warning for each directory below
    the root that could not be read or was deeper than :data:`MAX_DEPTH` (the root itself
    is the caller's to check), and :attr:`skipped` the tool directories not walked.
    """

    def __init__(self, root: str, *, skip_dirs: frozenset[str] = SKIP_DIRS) -> None:
        self.root = root
        self.skip_dirs = skip_dirs
        self.stopped = False
        self.problems: list[Problem] = []
        self.skipped: list[tuple[str, str]] = []
        """What was met and not walked or listed, with why: tool directories
        (:data:`SKIP_DIRS`), links out of the root, anything that is not a regular file or
        a directory (a FIFO, a device, a socket, a broken link)."""

    def _skip(self, path: str, why: str) -> None:
        self.problems.append(Problem(path, None, why, Severity.WARNING))

    def __iter__(self) -> Iterator[Walked]:
        root = self.root
        root_real = os.path.realpath(root)
        seen: set[tuple[int, int]] = set()
        stack: list[tuple[str, int]] = [(root, 0)]
        files_seen = 0
        while stack:
            path, depth = stack.pop()
            try:
                st = os.stat(path)
            except OSError:
                continue
            ident = (st.st_dev, st.st_ino)
            if ident in seen:
                continue
            seen.add(ident)
            try:
                with os.scandir(path) as it:
                    entries = sorted(it, key=lambda e: e.name)
            except OSError as err:
                if depth:
                    self._skip(path, f"cannot read directory: {_reason(err)} (skipped)")
                continue
            dirs: list[str] = []
            files: list[str] = []
            for entry in entries:
                try:
                    if entry.is_symlink() and not inside(root_real, entry.path):
                        self.skipped.append((entry.path, LINK_OUT))
                        continue
                    if entry.is_dir():  # follows links that stay inside
                        if entry.name not in self.skip_dirs:
                            dirs.append(entry.name)
                        else:
                            self.skipped.append((entry.path, TOOL_DIR))
                    elif entry.is_file():
                        files.append(entry.name)
                    else:
                        self.skipped.append((entry.path, NOT_REGULAR))
                except OSError:
                    continue
            files_seen += len(files)
            place = Walked(path, os.path.relpath(path, root), dirs, tuple(files))
            yield place
            if files_seen > MAX_FILES:
                self.stopped = True
                return
            if place.dirs and depth >= MAX_DEPTH:
                n = len(place.dirs)
                what = "subdirectory" if n == 1 else f"{n:,} subdirectories"
                self._skip(
                    path, f"{what} not looked into (deeper than {MAX_DEPTH} levels below {root})"
                )
                continue
            stack.extend((os.path.join(path, d), depth + 1) for d in reversed(place.dirs))


def _reason(err: OSError) -> str:
    if err.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    return err.strerror or str(err)
