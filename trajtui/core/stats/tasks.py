"""Tasks run several times, each attempt a run of its own (a Harbor job runs each task k
times: trials ``task__xxxx``), and what pass@k counts of them.

A format whose runs are such attempts gives each whole run's ``detail`` an ``attempt``
attribute (a :class:`TaskAttempt`): the task, the group of tasks it is counted with (a
Harbor job's agent, model and dataset), whether the verifier graded it and whether it
passed; and, when the source's own summary file computed figures over that group, those
figures under the file's names (:class:`OwnFigures`). :func:`tally` counts them as a
trials record's trials are counted (:mod:`trajtui.core.stats.passk`): each task by its graded
attempts and passes, the unbiased estimator of Chen et al. 2021 over them; attempts without
a grade are left out and counted.

Nothing here imports a format: the stats and the views read these.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field

from trajtui.core.stats.passk import PassTally


@dataclass(frozen=True, slots=True)
class OwnFigures:
    """Figures a source's own summary file computed over a group of its runs, as the file
    names them (a Harbor job's ``result.json``: ``pass_at_k 2``, ``n_errors``, ``mean``).

    Attributes:
        path: The file.
        group: The group they are of, as the file names it (its ``stats.evals`` key).
        figures: ``(name, value)`` in the file's order.
        note: How the file counts what trajtui counts otherwise (said beside them).
    """

    path: str
    group: str
    figures: tuple[tuple[str, float], ...]
    note: str = ""


@dataclass(frozen=True, slots=True)
class TaskAttempt:
    """One attempt of a task.

    Attributes:
        group: The tasks it is counted with, within its source (a Harbor job's
            ``agent__model__dataset``).
        task: The task.
        graded: The verifier graded it (it has a reward).
        passed: It passed (graded, reward 1 or more).
        own: The source's own figures over its group, when the source has them.
    """

    group: str
    task: str
    graded: bool
    passed: bool
    own: OwnFigures | None = None


@dataclass
class AttemptTally:
    """Attempts counted by task.

    Attributes:
        tally: Each task's graded attempts and passes (tasks with none graded left out).
        tasks: Tasks seen (graded or not).
        attempts: Attempts seen.
        ungraded: Attempts without a grade (left out of :attr:`tally`).
    """

    tally: PassTally = field(default_factory=PassTally)
    tasks: int = 0
    attempts: int = 0
    ungraded: int = 0

    @property
    def graded(self) -> int:
        """Graded attempts."""
        return self.tally.trials

    @property
    def passed(self) -> int:
        """Graded attempts that passed."""
        return self.tally.passed


def tally(attempts: Iterable[tuple[Hashable, TaskAttempt]]) -> AttemptTally:
    """Count attempts by task; each is given with the scope its task is told apart in
    (a source: the same task in two jobs is two tasks), with its group."""
    by: dict[tuple[Hashable, str, str], list[int]] = {}
    out = AttemptTally()
    for scope, a in attempts:
        counts = by.setdefault((scope, a.group, a.task), [0, 0])
        out.attempts += 1
        if not a.graded:
            out.ungraded += 1
            continue
        counts[0] += 1
        counts[1] += a.passed
    out.tasks = len(by)
    for n, c in by.values():
        if n:
            out.tally.add_counts(n, c)
    return out
