"""The Format contract: what a format gives trajtui, and what trajtui gives a format.

A format is one package under ``trajtui/formats/`` that defines a :class:`Format` object,
plus one line in :mod:`trajtui.formats.registry` (or an entry point of the
``trajtui.formats`` group, from another distribution). trajtui asks
every registered format about every file and directory it meets; the format that is the
most sure (:class:`Certainty`) opens it, so the order of the registry never decides.

The life of a file, as a format sees it::

    claim_file(path, sniffed, label)  ->  Claim(certainty, open)   (or None: not mine)
    claim.open()                      ->  Opened(sources, problems)
    source.scan()                     ->  progress; entries (run summaries, problems) appear
    source.entry(i) / source.run(i)   ->  RunSummary / Run (steps, trials, fields)
    source.resolve("RUN/step-3")      ->  Target

A directory met while walking goes the same way through :meth:`Format.claim_dir`. What a
claimed directory holds beyond what its sources read is still the walk's: the claim's
:class:`Scope` says which files and subdirectories below it are its own, and every other
file there is offered to every format (and listed by ``ls --verbose`` with why when none
reads it), so one format's directory never hides another format's files. A claim without a
scope reads everything below its directory. Everything a format reads is untrusted: it never
raises on bad input (it reports :class:`~trajtui.core.model.Problem` objects naming the file
and line), reads only regular files through :mod:`trajtui.core.io.safeio`, and never writes
anywhere.

Beyond reading, a format may name two objects of its package, imported only when first
needed (:func:`load`): its view (:attr:`Format.view`: what its runs add to the screens, so
commands that show nothing never import Rich) and its figures for the statistics
(:attr:`Format.figures`).
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum, IntEnum

from trajtui.core.io.detect import Sniffed
from trajtui.core.io.discover import Walked
from trajtui.core.model import Problem
from trajtui.core.source import FormatInfo, Source


class Certainty(IntEnum):
    """How sure a format is that a file or directory is one of its outputs.

    The most certain claim wins. Two formats claiming the same input with the same certainty
    is a bug in one of them: the registry's contract test fails on it.
    """

    NAME = 20
    """A name the format writes (``summary.json``), with content that does not contradict it."""
    SHAPE = 50
    """The content has the keys and layout the format writes (``trajectory`` + ``timing``)."""
    MARKED = 90
    """The content names the format (``"schema_version": "ATIF-v1.6"``, a magic number)."""


class Reach(Enum):
    """How much of a file or directory below a claimed directory the claim reads."""

    NONE = "none"
    """Not the claim's: walked and offered to every format as if nothing had claimed it (a
    directory: the claim reads nothing in it or below it)."""
    OTHERS = "others"
    """A directory the claim looks into for files of its own, asked one by one; the other
    formats may still claim it as theirs (the claim then leaves it to them:
    :meth:`Scope.exclude`), the claiming format is not asked again."""
    FILES = "files"
    """A directory of the claim's own (a run directory of a tree it reads): walked, its
    files asked one by one; no format is asked to claim it as a whole."""
    ALL = "all"
    """The claim's: a file it reads, or a directory it reads as a whole (not walked)."""
    UNLESS_CLAIMED = "unless claimed"
    """A file the claim reads unless another format claims it (one named as the claim's
    files are, whose content is another format's): the claim is then told
    (:meth:`Scope.release`) and leaves it alone."""


class Scope:
    """What a directory claim reads below its directory (the directory itself included).

    The registry walks a claimed directory and asks its scope about every subdirectory
    (:meth:`reach_dir`) and file (:meth:`reach_file`) there; what the scope does not take
    is offered to every format. A source that lists its files by walking (an eval results
    tree) asks the same scope (:meth:`reads`), so the two agree. This base class takes
    everything (a claim of the whole directory).

    Attributes:
        root: The claimed directory.
        excluded: Directories below ``root`` that another format claimed (not read by this
            claim).
        released: Files another format claimed (not read by this claim).
    """

    def __init__(self, root: str) -> None:
        self.root = os.path.normpath(root)
        self.excluded: set[str] = set()
        self.released: set[str] = set()

    def reach_dir(self, place: Walked) -> Reach:
        """How much of the directory ``place`` (below :attr:`root`) the claim reads."""
        return Reach.ALL

    def reach_file(self, place: Walked, name: str) -> Reach:
        """How the claim reads the file ``name`` of the directory ``place`` (:attr:`root`
        or a directory below it that is not :attr:`Reach.ALL`)."""
        return Reach.ALL

    def exclude(self, path: str) -> None:
        """Leave the directory ``path`` below :attr:`root` (and what is below it) to the
        format that claimed it."""
        self.excluded.add(os.path.normpath(path))

    def release(self, path: str) -> None:
        """Leave the file ``path`` to the format that claimed it."""
        self.released.add(os.path.normpath(path))

    def left(self, path: str) -> bool:
        """True for a directory (or file) left to another format: excluded, or below an
        excluded directory, or released."""
        path = os.path.normpath(path)
        if path in self.released or path in self.excluded:
            return True
        return any(path.startswith(d + os.sep) for d in self.excluded)

    def reads(self, place: Walked, name: str) -> bool:
        """Whether the claim's sources read the file ``name`` of ``place``: the question a
        source that walks its directory asks of each file, answered as the registry was."""
        if self.reach_file(place, name) not in (Reach.ALL, Reach.UNLESS_CLAIMED):
            return False
        return not self.left(os.path.join(place.path, name))


@dataclass(frozen=True, slots=True)
class Opened:
    """What opening a claimed file or directory gave.

    Attributes:
        sources: The sources it holds (usually one).
        problems: Problems found while opening it (the sources still open).
        scope: For a directory, what below it the sources read (None: everything); the
            rest is walked and offered to every format.
    """

    sources: tuple[Source, ...]
    problems: tuple[Problem, ...] = ()
    scope: Scope | None = None


@dataclass(frozen=True, slots=True)
class Claim:
    """A format's claim on a file or directory.

    Attributes:
        certainty: How sure the format is.
        open: Opens it; called only for the winning claim, at most once. It may raise
            OSError (the file went away, permission denied): the caller reports it.
    """

    certainty: Certainty
    open: Callable[[], Opened]


def claimed(certainty: Certainty, *sources: Source) -> Claim:
    """A claim whose sources are already built (cheap constructors)."""
    return Claim(certainty, lambda: Opened(sources))


class Format:
    """A format trajtui reads. Subclass it, override what applies, and register an instance.

    Attributes:
        infos: The format ids and names this format's sources carry (one format module may
            read several kinds of file, e.g. acp-harness capture, trials and summary files).
        view: Where the format's view is, ``"package.module:NAME"`` (a
            :class:`trajtui.render.view.View`: its header line, run block, step body,
            panes, keys, validation), or None for the plain view. Imported when one of its
            runs is first shown.
        figures: Where its figures for ``trajtui stats`` are, ``"package.module:NAME"``
            (a :class:`~trajtui.core.stats.parts.FormatFigures`), or None. Imported when
            runs are counted.
    """

    infos: tuple[FormatInfo, ...] = ()
    view: str | None = None
    figures: str | None = None

    def claim_file(self, path: str, sniffed: Sniffed, label: str | None) -> Claim | None:
        """Whether the file at ``path`` is one of this format's.

        Args:
            path: The file (a regular file when this is called; it may change or vanish).
            sniffed: What its first bytes are: layout (``jsonl``, ``json``, ``yaml``, ``text``,
                ``binary``, ``empty``), the first JSON object and its keys. Binary files
                (zip archives...) are asked too.
            label: How the user will see the path (relative to the directory they opened),
                or None to show ``path``.

        Returns:
            A claim, or None when the file is not this format's. Deciding must be cheap
            (the sniffed head, a few small reads): the whole file is read by the source.

        Raises:
            OSError: Reading the file to decide failed; the caller reports it.
        """
        return None

    def claim_dir(self, place: Walked) -> Claim | None:
        """Whether the directory ``place`` (met while walking, or opened directly) is one of
        this format's outputs (a run directory, an eval tree, a project).

        Args:
            place: The directory, with the names of its regular files and subdirectories.
                What the claim reads below it is its :class:`Scope` (on the
                :class:`Opened`); the rest is walked and offered to every format.

        Returns:
            A claim, or None. Deciding reads at most a few small files.
        """
        return None

    def __repr__(self) -> str:
        ids = ", ".join(info.id for info in self.infos)
        return f"<{type(self).__name__} {ids}>"


class ByShape(Format):
    """A format that knows its files and directories by their content, at
    :attr:`Certainty.SHAPE`: a subclass says how to open them (:meth:`open_file`,
    :meth:`open_dir`), and the claims follow."""

    def open_file(self, path: str, sniffed: Sniffed, label: str | None) -> Source | None:
        """The source of a file that is this format's (as :meth:`Format.claim_file`
        decides), or None."""
        return None

    def open_dir(self, place: Walked) -> Opened | None:
        """What a directory that is this format's opens to (as :meth:`Format.claim_dir`
        decides), or None."""
        return None

    def claim_file(self, path: str, sniffed: Sniffed, label: str | None) -> Claim | None:
        source = self.open_file(path, sniffed, label)
        return None if source is None else claimed(Certainty.SHAPE, source)

    def claim_dir(self, place: Walked) -> Claim | None:
        found = self.open_dir(place)
        return None if found is None else Claim(Certainty.SHAPE, lambda: found)


def load(path: str) -> object:
    """The object ``"package.module:NAME"`` names (``NAME`` may be dotted), imported now.

    Raises:
        ImportError: The module cannot be imported (any error importing it is raised).
        AttributeError: The module has no such name.
    """
    module, _, name = path.partition(":")
    found: object = importlib.import_module(module)
    for part in name.split(".") if name else ():
        found = getattr(found, part)
    return found
