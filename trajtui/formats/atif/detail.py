"""What an ATIF run holds beyond the neutral model (``Run.detail``): the files it was read
from as typed objects, the trial's verifier reports, its task's other attempts in the job,
and the job's own figures; and the texts of these that search looks in.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from trajtui.core.model import Outcome, Run
from trajtui.core.stats.tasks import TaskAttempt
from trajtui.formats.atif.job import JobResult
from trajtui.formats.atif.trajectory import Trajectory
from trajtui.formats.atif.trial import TrialResult
from trajtui.formats.atif.verifier import Report


@dataclass(frozen=True, slots=True)
class Sibling:
    """One attempt of a task in the job, as the run list lists it.

    Attributes:
        ref: The trial's reference.
        status: Its status word.
        outcome: Its outcome.
        score: Its reward (None: not graded).
        attempt: What pass@k counts of it.
    """

    ref: str
    status: str | None
    outcome: Outcome
    score: float | None
    attempt: TaskAttempt


@dataclass(frozen=True, slots=True)
class AtifRun:
    """What an ATIF run holds beyond the neutral model.

    Attributes:
        trajectory: The trajectory read (None: a trial without one).
        trial: The trial's ``result.json`` read (None: a trajectory on its own, or a trial
            still running).
        reports: The verifier's test reports (None: the trial has no ``verifier/``
            directory; empty: it has one without a report).
        attempt: The trial as an attempt of its task (None: not a trial of a job, or no
            task named).
        siblings: Every attempt of the same task in the job, this one included, in
            listing order.
        group: Every attempt of the tasks counted with it (the job's same agent, model and
            dataset), in listing order.
        job: The job's own ``result.json``, when the job directory was opened.
    """

    trajectory: Trajectory | None
    trial: TrialResult | None
    reports: tuple[Report, ...] | None = None
    attempt: TaskAttempt | None = None
    siblings: tuple[Sibling, ...] = ()
    group: tuple[Sibling, ...] = ()
    job: JobResult | None = None

    def search_texts(self, run: Run) -> Iterator[tuple[str, str, str, str]]:
        """The verifier's tests, for search: each test's name (field ``verifier test``) and
        a failed one's message (``verifier message``), under the trial's reference: the
        grader's reasons (their traces are fields of the run, searched with them)."""
        for report in self.reports or ():
            for test in report.tests:
                yield run.ref, "verifier test", "reasoning", test.name
                if test.message:
                    yield run.ref, "verifier message", "reasoning", test.message
