"""The run list's counts: what the title says of the rows read so far (runs, the pass share
of the graded ones, pass@k of trials records, errors, timeouts, tool errors, problems),
counted source by source as rows arrive, with the core's one tally
(:class:`~trajtui.core.stats.tally.Tally`, as ``stats`` counts); and which columns have
data and how wide the text columns get."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field

from trajtui.core.jsonl.table import CountRow
from trajtui.core.model import Outcome, RunSummary
from trajtui.core.stats.passk import PassTally
from trajtui.core.stats.tally import Tally
from trajtui.core.units import share
from trajtui.render.columns import COLUMNS, WORDS, meta_value

_PRESENCE = tuple(c for c in COLUMNS if c.has is not None and c.meta is None)
"""The columns of figures only some runs have a value for (a metadata column's: from the
source's metadata, :meth:`SourceCounts.note_metadata`)."""


@dataclass
class SourceCounts:
    """Counts over the summaries of one source read so far."""

    tally: Tally = field(default_factory=Tally)
    """Runs, outcomes, the graded runs and those that passed, the trials records' pass@k."""
    problems: int = 0
    tool_error_runs: int = 0
    """Runs with at least one tool error (a failed tool call)."""
    flagged_runs: int = 0
    """Runs whose file flags ``toolErrors: true``."""
    seen: int = 0
    """Entries counted (a prefix of the source's entries)."""
    columns: set[str] = field(default_factory=set)
    """Run-list columns some run of the source has a value for."""
    status_width: int = 0
    ref_width: int = 0
    ref_common: str | None = None
    """The start every reference counted has (None: none counted yet)."""
    ref_differ: bool = False
    word_widths: dict[str, int] = field(default_factory=dict)
    """The longest value of each metadata column (:data:`~trajtui.render.columns.WORDS`)."""
    metadata_seen: int = 0
    """Entries of the source's metadata palette looked at."""

    @property
    def runs(self) -> int:
        """Runs counted."""
        return self.tally.runs

    def add_problem(self) -> None:
        """Count the next entry, a problem row."""
        self.seen += 1
        self.problems += 1

    def add(self, e: RunSummary | CountRow) -> None:
        """Count the next entry, a run (a summary, or a row as the table gives it)."""
        self.seen += 1
        self.tally.add(e)
        if e.failed_tool_calls:
            self.tool_error_runs += 1
        if e.tool_errors is True:
            self.flagged_runs += 1
        _note_columns(self, e)

    def note_metadata(self, palette: Sequence[tuple[object, ...]]) -> None:
        """Note the metadata columns the source's runs have, and their widest values, from
        the palette of their metadata (:meth:`~trajtui.core.jsonl.table.SummaryTable.
        extra_codes`: each distinct metadata once, however many runs share it; those
        after the last looked at)."""
        for metadata, *_ in palette[self.metadata_seen :]:
            for column in WORDS:
                assert column.meta is not None
                value = meta_value(metadata, column.meta)
                if value:
                    self.columns.add(column.key)
                    widest = self.word_widths.get(column.key, 0)
                    self.word_widths[column.key] = max(widest, len(value))
        self.metadata_seen = len(palette)


def summary_line(counts: Sequence[SourceCounts], other_problems: int = 0) -> str:
    """``1,204 runs · 87% pass (1,010 of 1,161 graded) · 3 timeout · 31 with tool errors · 2
    problems`` over ``counts`` (and ``other_problems`` besides); for trials records
    ``pass@1 66.0% · pass@5 90.0% · pass^5 43.3%`` (see :mod:`trajtui.core.stats.passk`). A
    share is called ``pass`` only when it is the share of runs that passed, and says of
    which runs."""
    tally = Tally()
    problems = other_problems
    tool = flagged = 0
    for c in counts:
        tally.merge(c.tally)
        problems += c.problems
        tool += c.tool_error_runs
        flagged += c.flagged_runs
    runs, outcomes = tally.runs, tally.outcomes
    parts = [f"{runs:,} run{'s' if runs != 1 else ''}"]
    if tally.graded:
        # Of the runs the file grades pass or fail, timeouts among them (forecast runs,
        # ungraded captures have no grade).
        passed, graded = tally.passed, tally.graded
        parts.append(f"{share(passed / graded)} pass ({passed:,} of {graded:,} graded)")
    parts.extend(pass_shares(tally.trials))
    for outcome, word in ((Outcome.ERROR, "error"), (Outcome.TIMEOUT, "timeout")):
        if outcomes[outcome]:
            parts.append(f"{outcomes[outcome]:,} {word}")
    if tool:
        parts.append(f"{tool:,} with tool errors")
    if flagged:
        parts.append(f"{flagged:,} flagged toolErrors")
    if problems:
        parts.append(f"{problems:,} problem{'s' if problems != 1 else ''}")
    return " · ".join(parts)


def pass_shares(trials: PassTally) -> list[str]:
    """``["pass@1 66.0%", "pass@5 90.0%", "pass^5 43.3%"]`` for trials records (none
    without graded trials)."""
    at_1, at_k, hat_k = trials.pass_at_1, trials.pass_at_k, trials.pass_hat_k
    if at_1 is None or at_k is None or hat_k is None:
        return []
    at_label, hat_label = trials.labels()
    return [
        f"pass@1 {share(at_1)}",
        f"{at_label} {share(at_k)}",
        f"{hat_label} {share(hat_k)}",
    ]


def _note_columns(c: SourceCounts, e: RunSummary | CountRow) -> None:
    """Remember which columns have data, and how wide the text columns get."""
    cols = c.columns
    for column in _PRESENCE:
        if column.key not in cols and column.has(e):  # type: ignore[misc]
            cols.add(column.key)
    c.status_width = max(c.status_width, len(e.status or "") + 2)
    c.ref_width = max(c.ref_width, len(e.ref))
    common = c.ref_common
    if common is None:
        c.ref_common = e.ref
    elif e.ref != common:
        c.ref_differ = True
        if not e.ref.startswith(common):
            c.ref_common = os.path.commonprefix([common, e.ref])  # noqa: RUF071 (characters)
