"""pass@k and pass^k over tasks that have several graded trials each (acp-harness
``trials`` files), with the unbiased estimator of Chen et al. 2021.

A trials record is one task (prompt) run n times; each trial has a ``pass`` verdict (or
none, when no grader ran). For a task with ``n`` graded trials of which ``c`` passed:

* **pass@k** = ``1 - C(n-c, k) / C(n, k)``: the chance that at least one of k trials
  passes;
* **pass^k** = ``C(c, k) / C(n, k)``: the chance that all k pass;
* **pass@1** = ``c / n`` (pass@k and pass^k agree at k = 1).

Each is the mean over the tasks with at least k graded trials; tasks with fewer are left
out and counted (:attr:`Estimate.excluded`). Every figure says its k: ``pass@3``, never a
bare "pass".

The records' own ``passRate``/``passAtK``/``passExpK`` are the file's numbers (per task,
computed by the harness): they are kept as the file has them (``RunSummary.file_metrics``)
and shown beside these, never mixed with them.

Nothing here imports a UI library: the run list's title, ``trajtui stats`` and the stats
screen share it.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Protocol

from trajtui.core.model import RunSummary
from trajtui.core.stats.estimators import pass_at_k, pass_hat_k


@dataclass(frozen=True, slots=True)
class Estimate:
    """One estimate over tasks.

    Attributes:
        name: ``pass@3``, ``pass^3``.
        k: Its k.
        value: The mean over the tasks counted.
        tasks: Tasks counted (with at least k graded trials).
        excluded: Tasks left out (fewer than k graded trials).
    """

    name: str
    k: int
    value: float
    tasks: int
    excluded: int


class Trials(Protocol):
    """What :meth:`PassTally.add` reads of a run."""

    @property
    def attempts(self) -> int | None: ...
    @property
    def graded(self) -> int | None: ...
    @property
    def passes(self) -> int | None: ...


@dataclass
class PassTally:
    """Tasks by their (graded trials, passes), added one trials summary at a time.

    Attributes:
        tasks: How many tasks have each ``(n, c)``: n graded trials, c of them passed.
    """

    tasks: Counter[tuple[int, int]] = field(default_factory=Counter)

    def add(self, summary: Trials) -> bool:
        """Count one run (a summary, or a row as the counts read it); returns False (and
        counts nothing) when it has no graded trials."""
        graded, passes = summary.graded, summary.passes
        if summary.attempts is None or not graded or passes is None:
            return False
        self.tasks[(graded, passes)] += 1
        return True

    def add_counts(self, n: int, c: int) -> None:
        """Count one task with ``n`` graded trials, ``c`` passed (n >= 1)."""
        self.tasks[(n, c)] += 1

    def merge(self, other: PassTally) -> None:
        """Add another tally's tasks to this one."""
        self.tasks.update(other.tasks)

    @property
    def prompts(self) -> int:
        """Tasks with at least one graded trial."""
        return sum(self.tasks.values())

    @property
    def trials(self) -> int:
        """Graded trials."""
        return sum(n * m for (n, _), m in self.tasks.items())

    @property
    def passed(self) -> int:
        """Graded trials that passed."""
        return sum(c * m for (_, c), m in self.tasks.items())

    @property
    def k(self) -> int | None:
        """The number of graded trials per task, when every task has the same."""
        ns = {n for n, _ in self.tasks}
        return next(iter(ns)) if len(ns) == 1 else None

    @property
    def k_min(self) -> int | None:
        """The fewest graded trials of a task (the largest k every task counts in)."""
        return min((n for n, _ in self.tasks), default=None)

    @property
    def k_max(self) -> int | None:
        """The most graded trials of a task."""
        return max((n for n, _ in self.tasks), default=None)

    def estimate(self, hat: bool, k: int) -> Estimate | None:
        """pass^k (``hat``) or pass@k over the tasks with at least k graded trials; None
        when no task has that many."""
        fn = pass_hat_k if hat else pass_at_k
        total = 0.0
        counted = excluded = 0
        for (n, c), m in self.tasks.items():
            if n < k:
                excluded += m
                continue
            total += fn(n, c, k) * m
            counted += m
        if not counted:
            return None
        name = f"pass^{k}" if hat else f"pass@{k}"
        return Estimate(name, k, total / counted, counted, excluded)

    @property
    def pass_at_1(self) -> float | None:
        """Mean over tasks of the share of their graded trials that passed."""
        e = self.estimate(False, 1)
        return e.value if e else None

    @property
    def pass_at_k(self) -> float | None:
        """pass@k at k = :attr:`k_min` (every task counts)."""
        k = self.k_min
        e = self.estimate(False, k) if k else None
        return e.value if e else None

    @property
    def pass_hat_k(self) -> float | None:
        """pass^k at k = :attr:`k_min` (every task counts)."""
        k = self.k_min
        e = self.estimate(True, k) if k else None
        return e.value if e else None

    def labels(self) -> tuple[str, str]:
        """``("pass@5", "pass^5")``: the k of :attr:`pass_at_k` and :attr:`pass_hat_k`."""
        k = self.k_min
        n = "k" if k is None else str(k)
        return f"pass@{n}", f"pass^{n}"

    def disagreeing(self) -> int:
        """Tasks whose trials disagree (some passed, some did not)."""
        return sum(m for (n, c), m in self.tasks.items() if 0 < c < n)


def tally(summaries: list[RunSummary]) -> PassTally:
    """The tally of some runs (runs without graded trials are left out)."""
    out = PassTally()
    for s in summaries:
        out.add(s)
    return out


def close(a: float, b: float) -> bool:
    """Two estimates are the same to 1e-9."""
    return math.isclose(a, b, rel_tol=0, abs_tol=1e-9)
