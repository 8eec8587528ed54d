"""ultraplan's files on disk: recognising its directories, reading files safely, finding
PLAN.md.

Recognition
    A project directory holding ``.ultraplan/`` or a ``.planning/`` with plans (or the
    planner's ``config.json``), the ``.ultraplan`` directory itself, its ``logs/``
    directory, a directory of result logs (``executions``, ``archive`` or one date
    directory), or a folder of plans (a directory holding PLAN.md files; the directory
    opened, also when they are one or two levels down: ``.planning``, ``phases``),
    recognised by what is inside (result YAML in ``executions/YYYY-MM-DD/``,
    ``current-session.json``, ``summary/daily-*.json``, an ultraplan ``config.json``, a
    PLAN.md's frontmatter and elements), never by a name alone.

Reading
    Files are read with :func:`read_bytes`, which refuses anything outside the directory the
    user opened, and reads through :mod:`trajtui.core.io.safeio`: anything that is not a regular
    file (a FIFO, a device) or is bigger than :data:`MAX_FILE` is refused without blocking
    or reading it. Every YAML file goes through :mod:`trajtui.core.io.yamlsafe`. Nothing is
    written.

PLAN.md
    Looked for only inside the opened directory: see
    :mod:`~trajtui.formats.ultraplan.planning`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from trajtui.core.io import safeio
from trajtui.core.io.discover import inside
from trajtui.core.io.jsonutil import JsonError, loads
from trajtui.core.io.yamlsafe import YamlError
from trajtui.core.io.yamlsafe import load as load_yaml
from trajtui.core.model import Problem, Severity
from trajtui.formats.ultraplan.ids import DATE, RESULT_NAME, YAML_SUFFIXES
from trajtui.formats.ultraplan.planning import holds_plans, plans_among
from trajtui.formats.ultraplan.results import looks_like_result

if TYPE_CHECKING:
    from trajtui.core.io.discover import Walked


MAX_FILE = 4 << 20
"""Result, session, summary and PLAN files bigger than this are not read."""
PROBE_LIMIT = 12
"""How many subdirectories and files are looked at when recognising a directory."""
_CONFIG_KEYS = frozenset(
    ("mode", "depth", "parallelization", "max_workers", "commit_docs", "model_profile")
)


class Unreadable(Exception):
    """A file that was not read: ``problem`` says why."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem


def read_bytes(path: str, root_real: str, limit: int = MAX_FILE) -> bytes:
    """The bytes of a regular file inside ``root_real`` of at most ``limit`` bytes.

    Raises:
        Unreadable: It is outside, not a regular file, too big or unreadable.
    """
    if not inside(root_real, path):
        raise Unreadable(Problem(path, None, "outside the opened directory (not read)"))
    try:
        return safeio.read_bytes(path, limit=limit)
    except OSError as err:
        raise Unreadable(Problem(path, None, err.strerror or str(err))) from None


def read_head(path: str, root_real: str, size: int) -> bytes:
    """The first ``size`` bytes of a regular file inside ``root_real``, of any size.

    Raises:
        Unreadable: It is outside, not a regular file or unreadable.
    """
    if not inside(root_real, path):
        raise Unreadable(Problem(path, None, "outside the opened directory (not read)"))
    try:
        return safeio.read_head(path, size)
    except OSError as err:
        raise Unreadable(Problem(path, None, err.strerror or str(err))) from None


def read_text(path: str, root_real: str) -> str:
    """:func:`read_bytes` as text (UTF-8, undecodable bytes replaced).

    Raises:
        Unreadable: As :func:`read_bytes`.
    """
    return read_bytes(path, root_real).decode("utf-8", errors="replace")


def read_markdown(path: str, root_real: str) -> tuple[str, Problem | None]:
    """:func:`read_text`, and a warning naming the line of the first undecodable byte (the
    text shows each as U+FFFD), as a JSON file's is said.

    Raises:
        Unreadable: As :func:`read_bytes`.
    """
    data = read_bytes(path, root_real)
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        said = f"invalid UTF-8 at byte {err.start} (shown as \ufffd)"
        return data.decode("utf-8", errors="replace"), Problem(path, line, said, Severity.WARNING)


def yaml_doc(path: str, root_real: str) -> Any:
    """The YAML document of a file inside ``root_real``, through the safe loader.

    Raises:
        Unreadable: It cannot be read (:func:`read_bytes`) or is not YAML.
    """
    data = read_bytes(path, root_real)
    try:
        return load_yaml(data, path)
    except YamlError as err:
        raise Unreadable(Problem(path, err.line, err.message)) from None


def json_doc(path: str, root_real: str) -> Any:
    """The JSON document of a file inside ``root_real``.

    Raises:
        Unreadable: It cannot be read (:func:`read_bytes`) or is not JSON.
    """
    data = read_bytes(path, root_real)
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError as err:
        line = err.lineno
    try:
        return loads(data)[0]
    except JsonError as err:
        raise Unreadable(Problem(path, line, str(err))) from None


def quietly(reader: Callable[[str, str], Any], path: str, root_real: str) -> Any:
    """``reader(path, root_real)``, or None when the file cannot be read."""
    try:
        return reader(path, root_real)
    except Unreadable:
        return None


@dataclass(frozen=True, slots=True)
class Layout:
    """Where the parts of one ultraplan project are.

    Attributes:
        root: What was claimed (a directory, or one result file), as reached.
        root_real: The resolved directory the user opened: nothing outside it is read.
        project: The project directory (holds ``.ultraplan`` and ``.planning``), when opened.
        ultraplan: The ``.ultraplan`` directory, when opened and there is one.
        logs: The ``logs`` directory, when there is one.
        single: The one result file opened directly, if that is what was opened.
        results: The directory holding result YAML, when that (``executions``, ``archive``
            or one date directory) is what was opened; otherwise results are read from
            ``logs/executions`` and ``logs/archive``.
        plans: A folder of plans (not a project), when that is what was opened.
    """

    root: str
    root_real: str
    project: str | None = None
    ultraplan: str | None = None
    logs: str | None = None
    single: str | None = None
    results: str | None = None
    plans: str | None = None

    def plan_roots(self) -> tuple[tuple[str, bool], ...]:
        """Where the plans are: ``(directory, at any depth below it)`` pairs."""
        if self.plans is not None:
            return ((self.plans, True),)
        if self.project is not None:
            return ((os.path.join(self.project, ".planning"), True), (self.project, False))
        return ()

    def result_dirs(self) -> tuple[str, ...]:
        """The directories whose YAML files are results (or architect verdicts)."""
        if self.results is not None:
            return (self.results,)
        if self.logs is None:
            return ()
        return (os.path.join(self.logs, "executions"), os.path.join(self.logs, "archive"))


def _opened_root(place: Walked) -> str:
    path = os.path.normpath(place.path)
    if place.rel in (".", ""):
        return path
    for _ in Path(place.rel).parts:
        path = os.path.dirname(path) or "."
    return path


def is_dir_inside(path: str, root_real: str) -> bool:
    """True for a directory that stays inside ``root_real``."""
    return os.path.isdir(path) and inside(root_real, path)


def entries(path: str, root_real: str) -> tuple[list[str], list[str]]:
    """Sorted names of the subdirectories and files of ``path`` that stay inside."""
    dirs: list[str] = []
    files: list[str] = []
    try:
        with os.scandir(path) as it:
            for entry in sorted(it, key=lambda e: e.name):
                if entry.is_symlink() and not inside(root_real, entry.path):
                    continue
                if entry.is_dir():
                    dirs.append(entry.name)
                elif entry.is_file():
                    files.append(entry.name)
    except OSError:
        pass
    return dirs, files


def is_session(doc: Any) -> bool:
    """True for a ``current-session.json`` document."""
    return isinstance(doc, dict) and "session_id" in doc and ("tasks" in doc or "plan_id" in doc)


def is_daily(doc: Any) -> bool:
    """True for a ``summary/daily-*.json`` document."""
    keys = ("tasks_executed", "tasks_succeeded", "by_plan", "success_rate")
    return isinstance(doc, dict) and sum(1 for k in keys if k in doc) >= 2


def is_config(doc: Any) -> bool:
    """True for an ultraplan ``config.json`` document."""
    return isinstance(doc, dict) and len(_CONFIG_KEYS & doc.keys()) >= 2


def _has_results(executions: str, root_real: str) -> bool:
    dirs, files = entries(executions, root_real)
    places = [(executions, files)] + [
        (os.path.join(executions, d), entries(os.path.join(executions, d), root_real)[1])
        for d in dirs[-PROBE_LIMIT:]
    ]
    for where, names in places:
        dated = DATE.match(os.path.basename(where)) is not None
        for name in [n for n in names if n.endswith(YAML_SUFFIXES)][:PROBE_LIMIT]:
            if dated and RESULT_NAME.match(name):
                return True  # the protocol's layout: executions/DATE/PLAN-task-N-STATUS.yaml
            if looks_like_result(quietly(yaml_doc, os.path.join(where, name), root_real)):
                return True
    return False


def is_logs_dir(path: str, root_real: str) -> bool:
    """True when ``path`` holds ultraplan logs (by content: results, session, summaries)."""
    dirs, files = entries(path, root_real)
    if "executions" in dirs and _has_results(os.path.join(path, "executions"), root_real):
        return True
    if "current-session.json" in files and is_session(
        quietly(json_doc, os.path.join(path, "current-session.json"), root_real)
    ):
        return True
    if "summary" in dirs:
        summary = os.path.join(path, "summary")
        daily = [n for n in entries(summary, root_real)[1] if re.match(r"daily-.*\.json$", n)]
        return any(
            is_daily(quietly(json_doc, os.path.join(summary, n), root_real))
            for n in daily[:PROBE_LIMIT]
        )
    return False


def is_ultraplan_dir(path: str, root_real: str) -> bool:
    """True for a ``.ultraplan`` directory: ultraplan logs in ``logs/``, or, in a directory
    called ``.ultraplan``, an ultraplan ``config.json``."""
    logs = os.path.join(path, "logs")
    if is_dir_inside(logs, root_real) and is_logs_dir(logs, root_real):
        return True
    if os.path.basename(os.path.normpath(path)) != ".ultraplan":
        return False
    return is_config(quietly(json_doc, os.path.join(path, "config.json"), root_real))


def is_planning_dir(path: str, root_real: str) -> bool:
    """True for a project's ``.planning`` directory: it holds plans (up to three levels
    down: ``phases/NN-name/``, ``milestones/vN-phases/NN-name/``), or the planner's
    ``config.json``."""
    if holds_plans(path, root_real, depth=3):
        return True
    return is_config(quietly(json_doc, os.path.join(path, "config.json"), root_real))


def layout_of(place: Walked) -> Layout | None:
    """What an ultraplan directory ``place`` is (a project, ``.ultraplan``, ``logs``, a
    directory of result logs: ``executions``, ``archive`` or one date directory, or a
    folder of plans), or None."""
    root_real = os.path.realpath(_opened_root(place))
    path = place.path
    up = os.path.join(path, ".ultraplan")
    if ".ultraplan" in place.dirs and is_ultraplan_dir(up, root_real):
        return _layout(path, root_real, project=path, ultraplan=up)
    if ".planning" in place.dirs and is_planning_dir(os.path.join(path, ".planning"), root_real):
        has_up = ".ultraplan" in place.dirs
        return _layout(path, root_real, project=path, ultraplan=up if has_up else None)
    hints = "logs" in place.dirs or "config.json" in place.files
    if hints and is_ultraplan_dir(path, root_real):
        return _layout(path, root_real, ultraplan=path)
    hints = bool({"executions", "summary"} & set(place.dirs)) or (
        "current-session.json" in place.files
    )
    if hints and is_logs_dir(path, root_real):
        return Layout(path, root_real, logs=path)
    name = os.path.basename(os.path.normpath(path))
    named = name in ("executions", "archive") or DATE.match(name) is not None
    if named and _has_results(path, root_real):
        return Layout(path, root_real, results=path)
    # a folder of plans: its own, or, for the directory opened, in several of the
    # directories one or two levels down (``.planning``, ``phases``)
    if plans_among(path, place.files, root_real) or (
        place.rel in (".", "") and holds_plans(path, root_real, depth=2, places=2)
    ):
        return Layout(path, root_real, plans=path)
    return None


def _layout(
    root: str, root_real: str, *, ultraplan: str | None, project: str | None = None
) -> Layout:
    logs = os.path.join(ultraplan, "logs") if ultraplan is not None else None
    return Layout(
        root,
        root_real,
        project=project,
        ultraplan=ultraplan,
        logs=logs if logs is not None and is_dir_inside(logs, root_real) else None,
    )
