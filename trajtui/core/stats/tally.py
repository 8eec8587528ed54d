"""The one count of outcomes and pass shares, run by run: the run list's title counts rows
with it as they are read, ``stats`` counts the runs of each group with it, so
``87.0% pass (1,010 of 1,161 graded)`` is the same figure everywhere.

A run is *graded* when the file grades it pass or fail (:func:`~trajtui.core.model.grade`),
whatever else it is (a graded timeout is graded); a trials record counts in the trials'
:class:`~trajtui.core.stats.passk.PassTally` instead (pass@k, pass^k).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Protocol

from trajtui.core.model import Outcome, grade
from trajtui.core.stats.passk import PassTally


class Tallied(Protocol):
    """What :meth:`Tally.add` reads of a run (a summary, or a row as the run list counts it)."""

    @property
    def outcome(self) -> Outcome: ...
    @property
    def passed(self) -> bool | None: ...
    @property
    def attempts(self) -> int | None: ...
    @property
    def graded(self) -> int | None: ...
    @property
    def passes(self) -> int | None: ...


def graded_pass(run: Tallied) -> bool | None:
    """True / False when the file grades ``run`` pass / fail as a run of its own; None when
    it does not grade it, or it is a trials record (counted in the trials' tally)."""
    if run.attempts is not None:
        return None
    return grade(run.passed, run.outcome)


@dataclass
class Tally:
    """Outcomes and pass shares of the runs added so far.

    Attributes:
        runs: Runs counted.
        outcomes: Runs by outcome.
        graded: Runs of their own (not trials records) the file grades pass or fail.
        passed: Those of ``graded`` that passed.
        trials: pass@1, pass@k and pass^k counts of the trials records.
    """

    runs: int = 0
    outcomes: Counter[Outcome] = field(default_factory=Counter)
    graded: int = 0
    passed: int = 0
    trials: PassTally = field(default_factory=PassTally)

    def add(self, run: Tallied) -> None:
        """Count one run."""
        self.runs += 1
        self.outcomes[run.outcome] += 1
        if self.trials.add(run):
            return
        verdict = graded_pass(run)
        if verdict is not None:
            self.graded += 1
            self.passed += verdict

    def merge(self, other: Tally) -> None:
        """Add another tally's counts to this one."""
        self.runs += other.runs
        self.outcomes.update(other.outcomes)
        self.graded += other.graded
        self.passed += other.passed
        self.trials.merge(other.trials)
