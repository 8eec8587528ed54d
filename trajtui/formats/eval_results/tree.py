"""How a results tree is laid out: which directories are run directories or tree roots
(:func:`is_results_place`), which files may be runs (:class:`Candidate`), and the names
runs get (:func:`unique_tails`).
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import TYPE_CHECKING

from trajtui.core.format_api import Reach, Scope
from trajtui.core.io import safeio
from trajtui.core.io.discover import SKIP_DIRS, inside
from trajtui.core.io.jsonutil import JsonError, loads
from trajtui.formats.eval_results.shapes import sniff_shape

if TYPE_CHECKING:
    from trajtui.core.io.discover import Walked


RUN_FILES = ("results.json", "results.jsonl")
"""Names of a run directory's results file, in order of preference."""
COMPANION_FILES = frozenset({"config.json", "summary.json", "run_manifest.json"})
COMPANION_DIRS = frozenset({"debug", "item_logs"})
"""Per-sample companions of a run directory: never walked for runs."""
_NOT_RUNS = COMPANION_DIRS | SKIP_DIRS
_RUN_STEM = re.compile(r"^run_.*\.json$")
_RUN_DIR = re.compile(r"^run_\d+$")
_JSON_SUFFIXES = (".json", ".jsonl", ".ndjson")


MAX_CLAIM_DIRS = 256
"""Directories looked into when deciding whether a directory is a results tree."""
MAX_CLAIM_FILES = 4
"""Files sniffed per directory when deciding it."""


# -- files that may be runs ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Candidate:
    """A file that may be a run.

    Attributes:
        path: The file.
        parts: Path components naming the run (the last one is its own name).
        kind: ``run`` (a run directory's results file), ``file`` (any other JSON file) or
            ``config`` (a run configuration in a directory with no results file).
        run_dir: The directory whose companions belong to the run, or None.
    """

    path: str
    parts: tuple[str, ...]
    kind: str
    run_dir: str | None = None

    @property
    def reported(self) -> bool:
        """A broken file is reported (its name says it is meant to be a results file)."""
        name = os.path.basename(self.path)
        return self.kind == "run" or bool(_RUN_STEM.match(name))


def unique_tails(paths: Sequence[tuple[str, ...]]) -> list[str]:
    """The shortest trailing part of each path that no other path ends with, ``/``-joined
    (identical paths keep their whole path)."""
    names: list[str | None] = [None] * len(paths)
    pending = list(range(len(paths)))
    k = 1
    while pending:
        counts = Counter(p[-k:] for p in paths)
        rest = []
        for i in pending:
            tail = paths[i][-k:]
            if counts[tail] == 1 or k >= len(paths[i]):
                names[i] = "/".join(tail)
            else:
                rest.append(i)
        pending = rest
        k += 1
    return [n or "" for n in names]


def candidates(place: Walked, base: tuple[str, ...]) -> list[Candidate]:
    files = set(place.files)
    out: list[Candidate] = []
    run_file = next((n for n in RUN_FILES if n in files), None)
    if run_file is not None:
        out.append(Candidate(os.path.join(place.path, run_file), base, "run", place.path))
    for name in place.files:
        if name in RUN_FILES or not name.endswith(_JSON_SUFFIXES):
            continue
        if run_file is not None and name in COMPANION_FILES:
            continue
        stem = name.rsplit(".", 1)[0]
        kind = "config" if run_file is None and name == "config.json" else "file"
        out.append(Candidate(os.path.join(place.path, name), (*base, stem), kind))
    return out


def run_name(path: str) -> str:
    """A single file's run name: its directory for ``results.json(l)``, else its stem."""
    full = os.path.abspath(path)
    name = os.path.basename(full)
    if name in RUN_FILES:
        return os.path.basename(os.path.dirname(full)) or name
    return name.rsplit(".", 1)[0]


# -- recognising a tree -------------------------------------------------------------------------


def _dir_holds_results(path: str, root_real: str) -> bool:
    """``path`` directly holds a results file (``results.json(l)`` or ``run_*.json`` whose
    content is one)."""
    try:
        with os.scandir(path) as it:
            names = sorted(e.name for e in it if e.is_file())
    except OSError:
        return False
    wanted = [n for n in names if n in RUN_FILES or _RUN_STEM.match(n)]
    for name in wanted[:MAX_CLAIM_FILES]:
        full = os.path.join(path, name)
        if not inside(root_real, full):
            continue
        try:
            if sniff_shape(full) is not None:
                return True
        except OSError:
            continue
    return False


def _subdirs(path: str, root_real: str) -> list[str]:
    try:
        with os.scandir(path) as it:
            names = sorted(e.name for e in it if e.is_dir() and e.name not in _NOT_RUNS)
    except OSError:
        return []
    found = [os.path.join(path, n) for n in names]
    return [d for d in found if inside(root_real, d)]


def _levels(place: Walked, root_real: str, deepest: int = 4) -> Iterator[tuple[str, int]]:
    """Directories below ``place``, breadth first, with their depth (1 = a subdirectory).
    Each directory is listed only once it has been yielded, so a caller that stops early
    lists little."""
    frontier = [os.path.join(place.path, d) for d in place.dirs if d not in COMPANION_DIRS]
    level = 1
    while frontier and level <= deepest:
        deeper: list[str] = []
        for path in frontier:
            yield path, level
            if level < deepest:
                deeper.extend(_subdirs(path, root_real))
        frontier = deeper
        level += 1


def is_results_place(place: Walked) -> bool:
    """``place`` is a run directory, or a results tree root, or (when it is the opened
    directory) a directory of run directories.

    A tree root has run directories two levels down (``results/{mode}/{run}/`` and
    ``results/baseline/{task}/run_*.json``) or ``run_N`` directories four levels down (the
    later ``results/{dataset}/{method}/{policy}_K{k}/run_N/``). At most
    :data:`MAX_CLAIM_DIRS` directories are looked into.
    """
    root_real = os.path.realpath(place.path)
    if _dir_holds_results(place.path, root_real):
        return True
    for path, level in islice(_levels(place, root_real), MAX_CLAIM_DIRS):
        if level == 3 or (level == 1 and place.rel != "."):
            continue
        if level == 4 and not _RUN_DIR.match(os.path.basename(path)):
            continue
        if _dir_holds_results(path, root_real):
            return True
    return False


# -- what a tree reads ----------------------------------------------------------------------------


def looks_like_run_config(value: object) -> bool:
    """A run directory's ``config.json`` (the eval's: ``model`` and ``k``)."""
    return isinstance(value, dict) and "model" in value and "k" in value


class ResultsScope(Scope):
    """What a results tree (or run directory) reads below its directory, by content: its
    results files, each run directory's companions (``config.json``, ``summary.json``,
    ``run_manifest.json``, ``results.jsonl`` beside ``results.json``, ``debug/`` and
    ``item_logs/``) and the ``config.json`` of a run directory that wrote no results. A
    file named as a run's results file whose content is another format's is that format's
    (:attr:`Reach.UNLESS_CLAIMED`); every other file and directory is left to the walk."""

    def __init__(self, root: str) -> None:
        super().__init__(root)
        self._shapes: dict[str, tuple[tuple[int, int], str | None]] = {}

    def shape(self, path: str) -> str | None:
        """:func:`sniff_shape` of ``path`` (None when it cannot be read), once per version
        of the file."""
        try:
            st = os.stat(path)
        except OSError:
            return None
        stamp = (st.st_mtime_ns, st.st_size)
        known = self._shapes.get(path)
        if known is not None and known[0] == stamp:
            return known[1]
        try:
            shape = sniff_shape(path)
        except OSError:
            shape = None
        self._shapes[path] = (stamp, shape)
        return shape

    def _run_file(self, folder: str, files: set[str]) -> str | None:
        """The results file of the run directory ``folder``, when it is one by content."""
        name = next((n for n in RUN_FILES if n in files), None)
        if name is None or self.shape(os.path.join(folder, name)) is None:
            return None
        return name

    def reach_dir(self, place: Walked) -> Reach:
        folder, name = os.path.split(os.path.normpath(place.path))
        if name in COMPANION_DIRS:
            try:
                files = set(os.listdir(folder))
            except OSError:
                files = set()
            if self._run_file(folder, files) is not None:
                return Reach.ALL
        if self._run_file(place.path, set(place.files)) is not None:
            return Reach.FILES  # a run directory: no other format's
        return Reach.OTHERS

    def reach_file(self, place: Walked, name: str) -> Reach:
        path = os.path.join(place.path, name)
        files = set(place.files)
        named = next((n for n in RUN_FILES if n in files), None)
        if name == named or _RUN_STEM.match(name):
            return Reach.ALL if self.shape(path) is not None else Reach.UNLESS_CLAIMED
        if named is not None and (
            name in COMPANION_FILES or (name == "results.jsonl" and named == "results.json")
        ):
            # a companion of its run, read with it; of a results file that is not one by
            # content (an empty results.jsonl: a run with no samples), unless another
            # format reads it
            if self._run_file(place.path, files) is not None:
                return Reach.ALL
            return Reach.UNLESS_CLAIMED
        if named is None and name == "config.json":
            return Reach.ALL if _run_config(path) else Reach.NONE
        if name.endswith(_JSON_SUFFIXES) and self.shape(path) is not None:
            return Reach.ALL
        return Reach.NONE


def _run_config(path: str) -> bool:
    try:
        value = loads(safeio.read_bytes(path, limit=1 << 20))[0]
    except (OSError, JsonError):
        return False
    return looks_like_run_config(value)
