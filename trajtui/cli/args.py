"""Telling paths from references in ``PATH... REF`` arguments (``export``, ``diff``).

A word is a path when it is given as one, never just because a file of that name happens
to be in the current directory (``trajtui export runs.jsonl websearch-17`` run where a
``websearch-17`` directory exists must still export the run, not the whole run table):

* the first word is always a path (every command starts with one);
* a word written as a path (``./x``, ``../x``, ``/x``, ``~/x``, or ending in ``/``) that
  exists is a path;
* a word that does not exist on disk is a reference;
* any other word names something on disk *and* could be a reference: it is a reference
  when the paths already known hold a run it names (and a note on stderr says how to open
  the file instead), else a path.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from trajtui.core.io import remote
from trajtui.core.io.text import visible
from trajtui.formats.registry import formats


@dataclass
class Split:
    """The words of a command line, told apart.

    Attributes:
        paths: Files and directories to open, in the order given.
        refs: References, in the order given.
        notes: One line each for a word that was taken as a reference although a file
            of that name exists here.
    """

    paths: list[str] = field(default_factory=list)
    refs: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def written_as_path(word: str) -> bool:
    """``word`` is spelled as a path (not a bare name that a reference could also be)."""
    seps = (os.sep, os.altsep) if os.altsep else (os.sep,)
    return (
        os.path.isabs(word)
        or word.startswith(("./", "../", "~"))
        or word in (".", "..")
        or word.endswith(seps)
    )


def split_args(
    command: str, words: Sequence[str], names_a_run: Callable[[list[str], str], bool]
) -> Split:
    """Tell the paths from the references among ``words``.

    Args:
        command: The command's name, for the notes (``export``).
        words: The positional arguments, in order.
        names_a_run: ``names_a_run(paths, word)``: whether the sources under ``paths`` hold
            something ``word`` names (asked only for words that are both on disk and
            could be references, with the paths known so far).
    """
    out = Split()
    ambiguous: list[int] = []
    kinds: list[str] = []
    for k, word in enumerate(words):
        if remote.is_url(word):  # (a URL is a path: s3://, https://, ssh://)
            kinds.append("path")
        elif not os.path.exists(word):
            kinds.append("ref")
        elif k == 0 or written_as_path(word):
            kinds.append("path")
        else:
            kinds.append("?")
            ambiguous.append(k)
    if ambiguous:
        known = [w for w, kind in zip(words, kinds, strict=True) if kind == "path"]
        for k in ambiguous:
            word = words[k]
            if known and names_a_run(known, word):
                kinds[k] = "ref"
                shown = visible(word, keep_newlines=False)
                out.notes.append(
                    f"trajtui {command}: {shown!r} is taken as a reference (a run of that "
                    f"name is open); a file of that name is here too: give it as "
                    f"./{shown} to open it"
                )
            else:
                kinds[k] = "path"
    for word, kind in zip(words, kinds, strict=True):
        (out.paths if kind == "path" else out.refs).append(word)
    return out


def names_a_run(paths: list[str], word: str) -> bool:
    """Whether the sources under ``paths`` hold something ``word`` names (the question
    :func:`split_args` asks; nothing is reported: the command opens the paths itself)."""
    from trajtui.cli.show import resolve_streaming
    from trajtui.core.refs import RefError
    from trajtui.core.source import LoadError
    from trajtui.core.workspace import open_paths

    ws = open_paths(paths, formats())
    try:
        resolve_streaming(ws, word)
    except (RefError, LoadError, OSError):
        return False
    finally:
        ws.close()
    return True
