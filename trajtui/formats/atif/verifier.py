"""A trial's verifier results: the test reports in its ``verifier/`` directory.

Harbor mounts a trial's ``verifier/`` directory as ``/logs/verifier`` while the task's tests
run; a terminal-bench task's ``tests/test.sh`` runs pytest with ``--ctrf
/logs/verifier/ctrf.json`` and writes ``reward.txt`` from pytest's exit code, so the report
says why a reward is 0. Reports are CTRF (Common Test Report Format): an object with
``results.tests``, each test's ``name`` and ``status`` (``passed``, ``failed``, ``skipped``,
``pending``, ``other``), a failed test's ``message`` and ``trace``; pytest-json-ctrf writes a
generic ``message`` ("The test failed in the call phase due to an assertion error") and the
assertion in ``trace`` (its ``E`` lines), other writers a ``reportFormat: "CTRF"`` and the
reason in ``message``. Every ``*.json`` file of the directory that holds such an object is a
report (tasks write ``ctrf.json``, some a ``gate-ctrf.json`` beside it), told by content.

Nothing here reads outside the trial directory it is given: the caller passes what its
source may read (:func:`read_reports` takes a reader).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from trajtui.core.model import Problem
from trajtui.core.values import mapping, num, sequence, string
from trajtui.formats.atif.document import read_document

VERIFIER = "verifier"
"""The trial's verifier directory."""
MAX_REPORTS = 16
"""Reports read from one directory at most (in name order)."""

STDOUT = "test-stdout.txt"
"""What Harbor keeps of the tests' output (``verifier/test-stdout.txt``)."""
TAIL_BYTES = 8 << 10
TAIL_LINES = 40
"""The end of the tests' output shown when no report says why (pytest's summary is there)."""

STATUSES = ("passed", "failed", "skipped", "pending", "other")
"""CTRF's test statuses, in the order counts are given."""


@dataclass(frozen=True, slots=True)
class TestResult:
    """One test of a report.

    Attributes:
        name: ``name`` as in the file.
        status: ``status`` as in the file (None when it has none).
        message: ``message``, or None.
        trace: ``trace``, or None.
        duration: ``duration`` as in the file (pytest-json-ctrf: seconds; CTRF: ms).
        raw: The test as in the file.
    """

    __test__ = False  # not a pytest class, whatever its name

    name: str
    status: str | None
    message: str | None
    trace: str | None
    duration: float | None
    raw: dict[str, Any]

    @property
    def failed(self) -> bool:
        """The test did not pass and was not skipped (``failed``, ``other``, a status the
        format does not have)."""
        return self.status not in ("passed", "skipped", "pending")

    def reason(self, lines: int = 4) -> list[str]:
        """What says why a failed test failed: its message, then the ``E`` lines of its
        trace (pytest's assertion), else the trace's last line; at most ``lines`` lines."""
        out: list[str] = []
        if self.message and self.message.strip():
            out.append(self.message.strip())
        if self.trace:
            trace = self.trace.splitlines()
            errors = [t.rstrip() for t in trace if t.startswith("E ")]
            tail = [t.rstrip() for t in trace if t.strip()][-1:]
            for line in errors or tail:
                if line not in out:
                    out.append(line)
        return out[:lines]


@dataclass(frozen=True, slots=True)
class Report:
    """One test report of a trial's verifier.

    Attributes:
        path: The report file.
        name: Its path inside the trial directory (``verifier/ctrf.json``).
        tool: ``results.tool.name`` (and version), or None.
        tests: Its tests, in file order.
        raw: The document.
    """

    path: str
    name: str
    tool: str | None
    tests: tuple[TestResult, ...]
    raw: dict[str, Any]

    def counts(self) -> list[tuple[str, int]]:
        """``[("passed", 1), ("failed", 1)]``: how many tests have each status (CTRF's first,
        in its order, then any other word the file uses), counted from the tests listed."""
        found: dict[str, int] = {}
        for t in self.tests:
            word = t.status or "no status"
            found[word] = found.get(word, 0) + 1
        order = [s for s in STATUSES if s in found] + [s for s in found if s not in STATUSES]
        return [(s, found[s]) for s in order]

    @property
    def failed(self) -> list[TestResult]:
        """The tests that failed."""
        return [t for t in self.tests if t.failed]


def is_report(value: Any) -> bool:
    """A CTRF report: an object whose ``results`` holds a ``tests`` array."""
    return isinstance(value, dict) and isinstance(mapping(value.get("results")).get("tests"), list)


def read_report(value: dict[str, Any], path: str, name: str) -> tuple[Report, list[Problem]]:
    """The report ``value`` (a decoded file) holds; tests that are not objects with a name
    are problems (the rest still read)."""
    results = mapping(value.get("results"))
    tool = mapping(results.get("tool"))
    tool_name = string(tool.get("name"))
    version = string(tool.get("version"))
    tests: list[TestResult] = []
    problems: list[Problem] = []
    for i, item in enumerate(sequence(results.get("tests"))):
        test_name = string(item.get("name")) if isinstance(item, dict) else None
        if test_name is None or not isinstance(item, dict):
            problems.append(Problem(path, None, f"results.tests[{i}]: not a test with a name"))
            continue
        tests.append(
            TestResult(
                name=test_name,
                status=string(item.get("status")),
                message=string(item.get("message")),
                trace=string(item.get("trace")),
                duration=num(item.get("duration")),
                raw=item,
            )
        )
    shown_tool = f"{tool_name} {version}" if tool_name and version else tool_name
    return Report(path, name, shown_tool, tuple(tests), value), problems


Reader = Callable[[str], tuple[bytes | None, list[Problem]]]
"""Reads a file the source may read: its bytes (None: it could not), and problems."""


def report_files(trial_dir: str) -> list[str] | None:
    """The ``*.json`` files of the trial's verifier directory, in name order (None: there
    is no such directory)."""
    directory = os.path.join(trial_dir, VERIFIER)
    try:
        with os.scandir(directory) as it:
            names = sorted(e.name for e in it if e.name.endswith(".json") and e.is_file())
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError:
        return []
    return [os.path.join(directory, n) for n in names[:MAX_REPORTS]]


def read_reports(trial_dir: str, read: Reader) -> tuple[tuple[Report, ...] | None, list[Problem]]:
    """The test reports of a trial (None: it has no verifier directory) and problems
    (a report that is not JSON; a JSON file of the directory that is not a report, such as
    ``reward.json``, is not one)."""
    files = report_files(trial_dir)
    if files is None:
        return None, []
    reports: list[Report] = []
    problems: list[Problem] = []
    for path in files:
        data, found = read(path)
        problems.extend(found)
        if data is None:
            continue
        doc = read_document(data)
        if doc.error is not None:
            if b'"tests"' in data:  # a report cut short or broken: say so
                problems.append(Problem(path, doc.error[0], doc.error[1]))
            continue
        if not is_report(doc.value):
            continue
        name = os.path.relpath(path, trial_dir)
        report, bad = read_report(doc.value, path, name)
        reports.append(report)
        problems.extend(bad)
    return tuple(reports), problems


Tail = Callable[[str, int], tuple[bytes | None, list[Problem]]]
"""Reads the last N bytes of a file the source may read (None: it could not), and problems."""


def stdout_tail(trial_dir: str, tail: Tail) -> tuple[str | None, list[Problem]]:
    """The last :data:`TAIL_LINES` lines of the tests' output (``verifier/test-stdout.txt``),
    or None when there is none; a line cut by the start of what was read is left out."""
    path = os.path.join(trial_dir, VERIFIER, STDOUT)
    if not os.path.lexists(path):
        return None, []
    data, problems = tail(path, TAIL_BYTES)
    if data is None:
        return None, problems
    lines = data.decode("utf-8", errors="replace").splitlines()
    if len(data) == TAIL_BYTES and lines:
        lines = lines[1:]  # cut at its start: not a whole line
    return "\n".join(lines[-TAIL_LINES:]), problems
