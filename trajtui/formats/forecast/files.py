"""Reading a forecast run's JSON files (info.json, trajectory.json, sources.json, or one
single-file trajectory) inside the opened directory only: :class:`Reader` and
:class:`RunFiles`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson

from trajtui.core.io import safeio
from trajtui.core.io.discover import inside
from trajtui.core.io.jsonutil import BOM, JsonError, loads
from trajtui.core.model import Problem, Severity

INFO, TRAJECTORY, SOURCES_JSON = "info.json", "trajectory.json", "sources.json"
SUMMARY = "summary.json"
RUN_FILES = (INFO, TRAJECTORY, SOURCES_JSON)


HEAD_BYTES = 4096
TAIL_BYTES = 4096


def _error_line(data: bytes) -> int | None:
    """The line orjson names for invalid ``data`` (JsonError keeps only the message)."""
    try:
        orjson.loads(data)
    except orjson.JSONDecodeError as err:
        return err.lineno or None
    except (RecursionError, ValueError):
        return None
    return None


def decode(data: bytes, shown: str, ref: str | None = None) -> tuple[Any, list[Problem]]:
    """Decode one JSON document; a problem (with its line when known) when it is not JSON."""
    try:
        value, warning = loads(data)
    except JsonError as err:
        return None, [Problem(shown, _error_line(data), str(err), Severity.ERROR, ref)]
    notes = [Problem(shown, None, warning, Severity.WARNING, ref)] if warning else []
    return value, notes


def head_tail(path: str) -> tuple[bytes, bytes]:
    """The first and last few bytes of a file (BOM dropped).

    Raises:
        OSError: It cannot be read, or is not a regular file.
    """
    head, tail = safeio.read_head_tail(path, HEAD_BYTES, TAIL_BYTES)
    return (head[3:] if head.startswith(BOM) else head), tail


def head_matches(path: str, pattern: re.Pattern[bytes]) -> bool:
    try:
        head, _ = head_tail(path)
    except OSError:
        return False
    return pattern.match(head) is not None


def read_small(path: str) -> Any:
    """A JSON file decoded, or None when it is missing, unreadable, not a regular file, too
    big (:data:`~trajtui.core.io.safeio.MAX_DOCUMENT`) or not JSON."""
    try:
        data = safeio.read_bytes(path)
    except OSError:
        return None
    try:
        return loads(data)[0]
    except JsonError:
        return None


class Reader:
    """Reads the JSON files of one opened directory (or file), never outside it.

    Every file read is passed to ``watch`` (the source's change detection); problems name
    files by the path the user opened joined with their place below it.
    """

    def __init__(self, root: str, watch: Callable[[str], None]) -> None:
        self.root = root
        self.root_real = os.path.realpath(root)
        self._watch = watch

    def contains(self, path: str) -> bool:
        """``path`` resolves to somewhere inside the opened directory."""
        return inside(self.root_real, path)

    def json(self, path: str, ref: str | None = None) -> tuple[Any, list[Problem]]:
        """The decoded file, or None when it is missing; problems when it is unreadable."""
        self._watch(path)
        if not self.contains(path):
            return None, [Problem(path, None, "outside the opened directory (not read)", ref=ref)]
        try:
            data = safeio.read_bytes(path)
        except FileNotFoundError:
            return None, []
        except safeio.Refused as err:  # a FIFO, a device, 20 GB: said as it is
            return None, [Problem(path, None, err.strerror or str(err), ref=ref)]
        except OSError as err:
            return None, [Problem(path, None, f"cannot read: {err.strerror or err}", ref=ref)]
        return decode(data, path, ref)


@dataclass(frozen=True, slots=True)
class RunFiles:
    """What one run's files hold, each part None when absent or unreadable.

    Attributes:
        path: The run directory, or the single file.
        info: info.json (or the single file's ``info``).
        trajectory: trajectory.json (or the single file itself).
        sources_json: sources.json (the web sources and the source board).
        single: The trajectory is the single-file 1.0 shape (a plain message list).
        problems: What could not be read.
    """

    path: str | None
    info: dict[str, Any] | None = None
    trajectory: dict[str, Any] | None = None
    sources_json: dict[str, Any] | None = None
    single: bool = False
    problems: tuple[Problem, ...] = ()


def _object(
    value: Any, path: str, ref: str | None, problems: list[Problem]
) -> dict[str, Any] | None:
    if value is None or isinstance(value, dict):
        return value
    problems.append(Problem(path, None, "expected a JSON object", Severity.ERROR, ref))
    return None


def read_run_dir(reader: Reader, run_dir: str, ref: str | None = None) -> RunFiles:
    """Read the three files of a run directory (each may be missing or broken)."""
    problems: list[Problem] = []
    parts: list[dict[str, Any] | None] = []
    for name in RUN_FILES:
        path = os.path.join(run_dir, name)
        value, found = reader.json(path, ref)
        problems.extend(found)
        parts.append(_object(value, path, ref, problems))
    info, trajectory, sources_json = parts
    return RunFiles(run_dir, info, trajectory, sources_json, problems=tuple(problems))


def read_single_file(reader: Reader, path: str, ref: str | None = None) -> RunFiles:
    """Read a single-file (1.0) trajectory."""
    value, problems = reader.json(path, ref)
    doc = _object(value, path, ref, problems)
    if doc is None:
        return RunFiles(path, problems=tuple(problems))
    info = doc.get("info")
    return RunFiles(
        path,
        info=info if isinstance(info, dict) else None,
        trajectory=doc,
        single=True,
        problems=tuple(problems),
    )
