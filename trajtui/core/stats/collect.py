"""Reading the runs to count (:func:`collect`) and grouping them (:func:`grouped`).

Runs are read whole, one at a time (their facts kept, the runs let go), so per-step figures
(tool calls by tool, tokens, what each format's figures count: its ``parts``) are counted
for any size of input; a run that can no longer be read is counted from its row and said.
A run whose source made its :class:`~trajtui.core.stats.facts.StepFacts` with its row
(:meth:`~trajtui.core.source.Source.step_facts`) is counted from those, not read again.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field

from trajtui.core.model import Problem, Run, RunSummary
from trajtui.core.source import LoadError, Source
from trajtui.core.stats.facts import (
    RunFacts,
    StepFacts,
    facts_of_run,
    facts_of_steps,
    facts_of_summary,
)
from trajtui.core.stats.figures import Figures, Pick, figures
from trajtui.core.stats.parts import Parts

RunPredicate = Callable[[Run], bool]
"""Keeps a run when true (``--where QUERY`` becomes one)."""
SummaryPredicate = Callable[[RunSummary], bool]
"""Keeps a run by its row when true."""
Progress = Callable[[int, int], None]
"""Told ``(runs read, runs in all)`` as reading goes on."""

NO_VALUE = "(none)"
"""The group of runs that have no value for the ``--by`` field."""


@dataclass
class Collected:
    """The runs counted and what went wrong reading them.

    Attributes:
        runs: The facts of each run counted, in source and file order.
        problems: Runs that could not be read whole (counted from their rows).
        skipped: Runs a predicate left out.
    """

    runs: list[RunFacts] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    skipped: int = 0


def collect(
    sources: Sequence[Source],
    ref_of: Callable[[Source, str], str],
    *,
    picks: Collection[Pick] | None = None,
    where: RunPredicate | None = None,
    where_summary: SummaryPredicate | None = None,
    whole: bool = True,
    progress: Progress | None = None,
    stopped: Callable[[], bool] = lambda: False,
    parts: Parts = (),
) -> Collected:
    """The facts of the runs of ``sources`` (already scanned: every entry known).

    Args:
        sources: The sources, in workspace order (a run's pick is its source's position).
        ref_of: The reference to show for a run of a source (``Workspace.ref``).
        picks: Only these runs (``(source, entry)``), e.g. those the run list shows.
        where: Keep a run only when true of the whole run.
        where_summary: Keep a run only when true of its row (cheaper: judged first).
        whole: Read runs whole (per-step figures); False counts rows only.
        progress: Told ``(done, total)`` now and then (every 0.1 s at most).
        stopped: Polled between runs; reading stops early when it turns true.
        parts: The figures the formats add (each counts what it reads of a whole run).

    Returns:
        What was counted (a prefix of it when stopped).
    """
    out = Collected()
    wanted = None if picks is None else set(picks)
    total = len(wanted) if wanted is not None else sum(len(s) for s in sources)
    done = 0
    last = 0.0
    for s, source in enumerate(sources):
        for i in range(len(source)):
            if wanted is not None and (s, i) not in wanted:
                continue
            if stopped():
                return out
            done += 1
            now = time.monotonic()
            if progress is not None and now - last > 0.1:
                progress(done, total)
                last = now
            entry = source.entry(i, keep=False)
            if isinstance(entry, Problem):
                continue
            if where_summary is not None and not where_summary(entry):
                out.skipped += 1
                continue
            ref = ref_of(source, entry.ref)
            facts: RunFacts | None = None
            steps = source.step_facts(i) if whole and where is None else None
            if isinstance(steps, StepFacts):  # counted from the fields it needs alone
                facts = facts_of_steps(entry, steps, ref=ref, source=s, index=i, path=source.path)
            elif whole or where is not None:
                try:
                    run = source.run(i)
                except LoadError as err:
                    out.problems.append(err.problem)
                else:
                    if where is not None and not where(run):
                        out.skipped += 1
                        continue
                    if whole:
                        facts = facts_of_run(
                            run, ref=ref, source=s, index=i, path=source.path, parts=parts
                        )
            if facts is None:
                facts = facts_of_summary(entry, ref=ref, source=s, index=i, path=source.path)
            out.runs.append(facts)
    if progress is not None:
        progress(done, total)
    return out


def grouped(runs: Sequence[RunFacts], by: str | None, parts: Parts = ()) -> list[Figures]:
    """The figures of all ``runs``, then (with ``by``) of each group of them by that field
    (in order of size, largest first; runs without a value last, as ``(none)``); ``parts``:
    the figures the formats add."""
    out = [figures("all", runs, parts)]
    if by is None:
        return out
    groups: dict[str, list[RunFacts]] = defaultdict(list)
    for r in runs:
        value = r.field(by)
        groups[NO_VALUE if value is None else value].append(r)
    for name in sorted(groups, key=lambda g: (g == NO_VALUE, -len(groups[g]), g)):
        out.append(figures(name, groups[name], parts))
    return out
