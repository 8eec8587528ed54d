"""Open what the user named: files and directories become sources, or problems.

A :class:`Workspace` is everything one ``trajtui`` invocation opened. When it holds several
sources, references are qualified with the source's label (``SOURCE::REF``) so that the same
string names the same object on screen, in ``show``, in ``--goto`` and in exports; a source
whose run references are unique on their own (:meth:`~trajtui.core.source.Source.own_refs`:
a session's id) is not, unless another open source gives the same reference.
"""

from __future__ import annotations

import dataclasses
import errno
import os
import shlex
import threading
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from trajtui.core import opening
from trajtui.core.format_api import Format
from trajtui.core.io import remote
from trajtui.core.io.detect import sniff
from trajtui.core.jsonl import indexcache, rowpool
from trajtui.core.jsonl.index import ScanProgress
from trajtui.core.model import Problem, Severity
from trajtui.core.refs import SOURCE_SEP, NoSuchRun, RefError, nearby, readings, split_source
from trajtui.core.source import Source, Target


@dataclass
class Workspace:
    """The sources opened by one invocation.

    Attributes:
        sources: Every source found, in the order the paths were given and found.
        problems: Paths that could not be opened or hold nothing trajtui reads.
        ignored: What was looked at in directories and not read, with why (``not
            recognised: ...``; ``ls --verbose`` lists them; they are not problems).
    """

    sources: list[Source] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    ignored: list[tuple[str, str]] = field(default_factory=list)
    _alone: dict[int, bool] = field(default_factory=dict, repr=False)
    _alone_of: int = field(default=-1, repr=False)

    def passed_over(self, directory: str) -> list[tuple[str, str]]:
        """What was looked at under ``directory`` and not read, with why (as
        :attr:`ignored`)."""
        top = os.path.join(os.path.abspath(directory), "")
        return [(p, why) for p, why in self.ignored if os.path.abspath(p).startswith(top)]

    def close(self) -> None:
        """Close every source."""
        for source in self.sources:
            source.close()

    @property
    def qualified(self) -> bool:
        """References carry their source's label (several sources are open)."""
        return len(self.sources) > 1

    def alone(self, source: Source) -> bool:
        """The references of ``source`` are shown and taken without its label: it is the
        only source open, or its run references are unique on their own
        (:meth:`~trajtui.core.source.Source.own_refs`) and no other open source gives
        one of them."""
        if not self.qualified:
            return True
        if self._alone_of != len(self.sources):
            owned = [(s, s.own_refs()) for s in self.sources]
            seen = Counter(r for _, refs in owned if refs for r in set(refs))
            self._alone = {
                id(s): refs is not None and all(seen[r] == 1 for r in refs) for s, refs in owned
            }
            self._alone_of = len(self.sources)
        return self._alone.get(id(source), False)

    def ref(self, source: Source, ref: str) -> str:
        """The reference shown for ``ref`` of ``source`` (qualified when needed)."""
        return ref if self.alone(source) else f"{source.label}{SOURCE_SEP}{ref}"

    def scan(self) -> Iterator[tuple[Source, ScanProgress]]:
        """Scan every source in turn, yielding progress."""
        for source in self.sources:
            for progress in source.scan():
                yield source, progress

    def cancel(self) -> None:
        """Stop every running scan."""
        for source in self.sources:
            source.cancel()

    def split(self, ref: str) -> tuple[Source, str] | None:
        """``(source, rest)`` when ``ref`` starts with a name of one open source and ``::``.

        A source is named by its label, by its whole path, or by any suffix of its path
        (whole components: ``mon/results.jsonl``) that no other open source's path ends
        with. Names are matched as a whole, so a run id that itself contains ``::`` still
        resolves unqualified.
        """
        labelled = [
            s
            for s in sorted(self.sources, key=lambda s: -len(s.label))
            if ref.startswith(s.label + SOURCE_SEP)
        ]
        if labelled:  # (one file may hold several sources: the one with the run)
            rest = ref[len(labelled[0].label + SOURCE_SEP) :]
            for source in labelled:
                if source.label == labelled[0].label and _holds(source, rest):
                    return source, rest
            return labelled[0], rest
        for name, rest in _splits(ref):
            named = self.sources_named(name)
            if len(named) == 1:
                return named[0], rest
        return None

    def sources_named(self, name: str) -> list[Source]:
        """Open sources whose path (or URL) is ``name`` or ends with it (whole path
        components)."""
        if not name:
            return []
        want = os.path.normpath(name)
        absolute = os.path.abspath(want)
        tail = [p for p in want.split(os.sep) if p not in ("", ".")]
        found = []
        for source in self.sources:
            path = os.path.normpath(source.path)
            parts = path.split(os.sep)
            if (
                path == want
                or remote.shown(source.path) == name  # (a remote object, by its URL)
                or os.path.abspath(path) == absolute
                or (tail and not os.path.isabs(want) and parts[-len(tail) :] == tail)
            ):
                found.append(source)
        return found

    def knows(self, ref: str) -> bool:
        """True once some source has indexed the run ``ref`` names (cheap: no record is
        read), so a caller driving a scan can stop early and resolve."""
        found = self.split(ref)
        candidates = [found] if found is not None else [(s, ref) for s in self.sources]
        for source, rest in candidates:
            for parts in readings(rest):
                if parts.run is not None and source.find(parts.run) is not None:
                    return True
                if parts.run is None and len(source) >= 1:
                    return True
        return False

    def resolve(self, ref: str) -> Target:
        """Find what ``ref`` names, in any source.

        Raises:
            RefError: Nothing has that reference, or several sources do (the message lists
                the qualified references to choose from).
        """
        found = self.split(ref)
        if found is not None:
            return found[0].resolve(found[1])
        if not self.sources:
            raise RefError("nothing is open")
        for name, _ in _splits(ref):
            named = self.sources_named(name)
            if len(named) > 1:
                paths = ", ".join(s.path for s in named[:6])
                raise RefError(
                    f"{name!r} names {len(named)} sources ({paths}): give more of the path"
                )
        try:
            return self._resolve_unqualified(ref)
        except RefError as err:
            label, _ = split_source(ref)
            if label is None:
                raise
            labels = [s.label for s in self.sources]
            near = nearby(label, labels)
            hint = f"; open sources include: {', '.join(near or labels[:5])}"
            raise RefError(f"no source called {label!r}{hint} ({err})") from None

    def _resolve_unqualified(self, ref: str) -> Target:
        if len(self.sources) == 1:
            return self.sources[0].resolve(ref)
        owner = [s for s in self.sources if s.own_refs() is not None and s.find(ref) is not None]
        if len(owner) == 1:  # a run's own reference, whole (no other source read for it)
            return owner[0].resolve(ref)
        found: list[Target] = []
        specific: list[str] = []  # a source has the run, but not what the rest names
        for source in self.sources:
            try:
                found.append(source.resolve(ref))
            except NoSuchRun:
                continue
            except RefError as err:
                specific.append(f"{source.label}: {err}")
        if len(found) == 1:
            return found[0]
        if found:
            choices = ", ".join(self.ref(t.source, t.ref) for t in found[:6])
            raise RefError(f"{ref!r} is in {len(found)} sources; name one: {choices}")
        if specific:
            raise RefError("; ".join(specific))
        all_refs = [self.ref(s, r) for s in self.sources for r in s.run_refs()]
        near = nearby(ref, all_refs)
        hint = f"; nearby: {', '.join(near)}" if near else ""
        raise RefError(f"nothing called {ref!r} in {len(self.sources)} sources{hint}")


def _holds(source: Source, ref: str) -> bool:
    """Some reading of ``ref`` names a run ``source`` has (nothing read)."""
    return any(p.run is not None and source.find(p.run) is not None for p in readings(ref))


def _splits(ref: str) -> Iterator[tuple[str, str]]:
    """Every ``(SOURCE, REF)`` reading of ``ref`` at one of its ``::``."""
    start = ref.find(SOURCE_SEP)
    while start > 0:
        yield ref[:start], ref[start + len(SOURCE_SEP) :]
        start = ref.find(SOURCE_SEP, start + 1)


def _os_message(err: OSError) -> str:
    if err.errno == errno.ENOENT:
        return "no such file or directory"
    if err.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if err.errno == errno.EISDIR:
        return "is a directory"
    if err.errno == errno.ELOOP:
        return "too many levels of symbolic links"
    return err.strerror or str(err)


def open_file(
    path: str, formats: Sequence[Format], label: str | None = None
) -> tuple[Source | None, str | None]:
    """Open one file as a source of one of ``formats``.

    Returns:
        ``(source, None)``, or ``(None, reason)`` when the file is not a format trajtui reads
        (or cannot be read).
    """
    try:
        sniffed = sniff(path)
    except OSError as err:
        return None, _os_message(err)
    return opening.open_file(formats, path, sniffed, label)


def open_file_sources(
    path: str, formats: Sequence[Format], label: str | None = None
) -> tuple[tuple[Source, ...], str | None]:
    """As :func:`open_file`, every source the file holds."""
    try:
        sniffed = sniff(path)
    except OSError as err:
        return (), _os_message(err)
    return opening.open_file_sources(formats, path, sniffed, label)


def short_labels(paths: Sequence[str]) -> list[str]:
    """The shortest trailing part of each path that tells it apart from the others
    (``a/x/results.jsonl``, ``b/x/results.jsonl`` -> ``a/x/results.jsonl``,
    ``b/x/results.jsonl``; ``a/one.jsonl``, ``a/two.jsonl`` -> ``one.jsonl``, ``two.jsonl``)."""
    parts = [tuple(os.path.normpath(p).split(os.sep)) for p in paths]
    labels = ["/".join(mine) for mine in parts]
    # Level by level: a tail of k parts can only be shared by paths whose tails of k-1
    # parts were shared, so each level counts only the paths still undecided (linear in
    # the number of paths, where comparing every pair took minutes for 100,000 files).
    todo = list(range(len(parts)))
    k = 1
    while todo:
        counts = Counter(parts[i][-k:] for i in todo)
        rest = []
        for i in todo:
            mine = parts[i]
            if counts[mine[-k:]] == 1:
                labels[i] = "/".join(mine[-k:])
            elif k < len(mine):
                rest.append(i)
        todo = rest
        k += 1
    return labels


NOTHING_FOUND = "no trajectories or eval results found in this directory"


def nothing_found(path: str, looked_at: int, passed_over: int) -> str:
    """What is said of a directory holding nothing trajtui reads: how many files were looked
    at, and the command that says why for each (``passed_over``: what the walk did not look
    into, a tool directory, a link out)."""
    verbose = f"trajtui ls --verbose {shlex.quote(path)}"
    if looked_at:
        files = f"{looked_at:,} file{'s' if looked_at != 1 else ''}"
        return f"{NOTHING_FOUND} ({files} looked at: {verbose} says why for each)"
    if passed_over:
        return f"{NOTHING_FOUND} (no files in it, {passed_over:,} passed over: {verbose} says which and why)"
    return f"{NOTHING_FOUND} (it is empty)"


def open_paths(paths: Sequence[str], formats: Sequence[Format]) -> Workspace:
    """Open each path (file or directory) as the sources of ``formats`` (the application
    passes :func:`trajtui.formats.registry.formats`; the core names no format), and collect
    sources and problems."""
    indexcache.note_opened(paths)
    workers_before_urls(paths)
    ws = Workspace()
    for path in paths:
        if remote.is_url(path):  # (read through a local mirror: core/io/remote.py)
            try:
                opened = remote.open_url(path)
            except remote.RemoteError as err:
                ws.problems.append(Problem(path, None, str(err)))
                continue
            ws.problems.extend(Problem(url, None, why) for url, why in opened.problems)
            if opened.path is None or not os.path.exists(opened.path):
                if not opened.problems:
                    ws.problems.append(
                        Problem(path, None, NOTHING_FOUND + " (no objects under it)")
                    )
                continue
            path = opened.path
        try:
            st = os.stat(path)
        except OSError as err:
            ws.problems.append(Problem(path, None, _os_message(err)))
            continue
        if os.path.isdir(path):
            # ``.`` (and ``./``, ``a/..``) is walked as its absolute path: the normal form of
            # ``./x`` is ``x``, whose parent is ``""``, not ``.``, and a format that asks
            # whether a directory is a child of the one it claimed would say no.
            root = os.path.abspath(path) if os.path.normpath(path) == os.curdir else path
            found = opening.open_dir(formats, root)
            ws.sources.extend(found.sources)
            ws.ignored.extend((remote.shown(p), why) for p, why in found.ignored)
            ws.problems.extend(_shown(p) for p in found.problems)
            if not found.sources and all(p.severity is Severity.WARNING for p in found.problems):
                said = nothing_found(remote.shown(path), found.looked_at, found.passed_over)
                ws.problems.append(Problem(remote.shown(path), None, said))
            continue
        if not os.path.isfile(path) and st is not None:
            ws.problems.append(Problem(path, None, "not a regular file"))
            continue
        sources, reason = open_file_sources(path, formats, label=path)
        if not sources:
            said = reason or "not a format trajtui reads"
            ws.problems.append(Problem(remote.shown(path), None, said))
        else:
            ws.sources.extend(sources)
    paths = list(dict.fromkeys(s.path for s in ws.sources))  # (a file may hold several)
    labels = dict(zip(paths, short_labels([remote.shown(p) for p in paths]), strict=True))
    for source in ws.sources:
        source.label = labels[source.path]
    return ws


def workers_before_urls(paths: Sequence[str]) -> None:
    """Fork the row workers now when a URL is among ``paths`` and this process runs one
    thread: reading a URL starts fsspec's thread, after which they could only be spawned
    (0.7 s, where a fork takes milliseconds)."""
    if any(remote.is_url(p) for p in paths) and threading.active_count() == 1:
        rowpool.pool()


def _shown(problem: Problem) -> Problem:
    """``problem`` naming the URL of a remote object's mirror (itself for a local path)."""
    path = remote.shown(problem.path)
    return problem if path == problem.path else dataclasses.replace(problem, path=path)
