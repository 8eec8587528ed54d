"""What a Harbor trial adds to its header and detail (the ATIF view): the verifier's tests
(why the reward is what it is), the other attempts of its task in the job and trajtui's
pass@k over them, and the job's own ``result.json`` figures under the file's names beside
trajtui's over the same tasks.

Every text from the files reaches the screen through :func:`~trajtui.core.io.text.visible`
in plain :class:`~rich.text.Text` (never markup).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.text import Text

from trajtui.core.io.text import visible
from trajtui.core.model import Outcome, Run
from trajtui.core.stats.tasks import AttemptTally, tally
from trajtui.formats.atif.detail import AtifRun, Sibling
from trajtui.formats.atif.job import JobResult
from trajtui.formats.atif.usage import tokens_source
from trajtui.formats.atif.verifier import Report
from trajtui.render import fmt
from trajtui.render.view import View

LABEL = "bold"
DIM = "dim"
ALL_TESTS = 50
"""A report of more tests shows its failed ones and counts the others."""
REASON_LINES = 4
"""Lines of a failed test's message and assertion shown under it."""

_TEST_GLYPH = {"passed": "✓", "failed": "✗", "skipped": "↷", "pending": "○"}
_TEST_STYLE = {"passed": "green", "failed": "red", "skipped": DIM, "pending": DIM}


def _safe(text: str) -> str:
    return visible(text, keep_newlines=False)


def detail_of(run: Run) -> AtifRun | None:
    """The run's ATIF detail, when it is an ATIF run."""
    return run.detail if isinstance(run.detail, AtifRun) else None


def _counts(report: Report) -> str:
    n = len(report.tests)
    parts = [f"{fmt.count(n)} test{'s' if n != 1 else ''}"]
    parts += [f"{fmt.count(k)} {_safe(word)}" for word, k in report.counts()]
    return " · ".join(parts)


def _report_block(report: Report) -> list[Text]:
    tool = f" ({_safe(report.tool)})" if report.tool else ""
    out = [Text.assemble(("verifier", LABEL), f"  {_safe(report.name)}{tool}: {_counts(report)}")]
    shown = report.tests if len(report.tests) <= ALL_TESTS else tuple(report.failed)
    for test in shown:
        word = test.status or "no status"
        glyph = _TEST_GLYPH.get(word, "!")
        out.append(
            Text.assemble(
                "  ",
                (f"{glyph} {_safe(word)}", _TEST_STYLE.get(word, "red")),
                f"  {_safe(test.name)}",
            )
        )
        if test.failed:
            pad = " " * (2 + len(word) + 4)
            out.extend(Text(pad + _safe(line), DIM) for line in test.reason(REASON_LINES))
    if len(shown) < len(report.tests):
        others = len(report.tests) - len(shown)
        out.append(Text(f"  … and {fmt.count(others)} more that did not fail (r: raw)", DIM))
    return out


def verifier_block(detail: AtifRun) -> list[Text]:
    """The verifier's tests of a trial, report by report; or why there are none."""
    if detail.trial is None:
        return []
    if detail.reports is None:
        note = "none: no verifier/ directory (the verifier did not run)"
        return [Text.assemble(("verifier", LABEL), f"  {note}")]
    if not detail.reports:
        note = "no test report in verifier/ (its reward comes from reward.txt or reward.json)"
        return [Text.assemble(("verifier", LABEL), f"  {note}")]
    out: list[Text] = []
    for report in detail.reports:
        out.extend(_report_block(report))
    return out


def _share(x: float) -> str:
    return f"{x:.3f}"


def _estimates(counted: AttemptTally) -> str:
    """``pass@1 0.500 · pass@2 1.000 (2 of 3 tasks) · pass^2 0.500``: every k up to the
    most graded attempts of a task; a k that leaves tasks out says how many it counts."""
    t = counted.tally
    k_max = t.k_max
    if k_max is None:
        return "no graded attempt"
    parts = []
    for hat in (False, True):
        for k in range(1 if not hat else 2, k_max + 1):
            e = t.estimate(hat, k)
            if e is None:
                continue
            of = f" ({e.tasks} of {fmt.many(e.tasks + e.excluded, 'task')})" if e.excluded else ""
            parts.append(f"{e.name} {_share(e.value)}{of}")
    return " · ".join(parts)


def _attempt_counts(counted: AttemptTally) -> str:
    return (
        f"{fmt.count(counted.attempts)} attempt{'s' if counted.attempts != 1 else ''} · "
        f"{fmt.count(counted.graded)} graded · {fmt.count(counted.passed)} passed"
    )


def _left_out(counted: AttemptTally) -> Text | None:
    n = counted.ungraded
    if not n:
        return None
    what = f"{n} attempt{'s' if n != 1 else ''} without a reward left out"
    return Text(f"  {what} (an error before the verifier ran, or still running)", DIM)


def _tally(siblings: Sequence[Sibling]) -> AttemptTally:
    return tally((None, s.attempt) for s in siblings)


def task_block(run: Run, detail: AtifRun) -> list[Text]:
    """The attempts of the run's task in the job, each with its verdict and reward, and
    pass@k over them."""
    if detail.attempt is None or not detail.siblings:
        return []
    counted = _tally(detail.siblings)
    out = [
        Text.assemble(
            ("task", LABEL),
            f" {_safe(detail.attempt.task)}: {_attempt_counts(counted)} · {_estimates(counted)}",
        )
    ]
    for s in detail.siblings:
        this = "  (this one)" if s.ref == run.ref else ""
        out.append(
            Text.assemble(
                "  ",
                (fmt.status(_safe(s.status or ""), s.outcome).ljust(20), DIM),
                f"{fmt.number(s.score):>6}  {_safe(s.ref)}{this}",
            )
        )
    left = _left_out(counted)
    if left is not None:
        out.append(left)
    return out


def _figures(pairs: Sequence[tuple[str, float]]) -> str:
    return " · ".join(f"{_safe(name)} {fmt.number(value)}" for name, value in pairs)


def job_block(detail: AtifRun) -> list[Text]:
    """The job's own figures (its ``result.json``, under its names), then trajtui's over
    the same tasks."""
    job: JobResult | None = detail.job
    if job is None or detail.attempt is None:
        return []
    out = [Text.assemble(("job", LABEL), f"  {_safe(job.path)}, as the file says")]
    top = ([("n_total_trials", job.n_total_trials)] if job.n_total_trials is not None else []) + [
        *job.figures
    ]
    if top:
        out.append(Text("  " + _figures(top)))
    stats = job.eval_stats(detail.attempt.group)
    if stats is not None:
        line = [*stats.figures]
        text = f"  {_safe(stats.key)}: {_figures(line)}"
        if stats.pass_at_k:
            at_k = ", ".join(f"{k}: {fmt.number(v)}" for k, v in stats.pass_at_k)
            text += f" · pass_at_k {at_k}"
        for kind, n in stats.exceptions:
            text += f" · {_safe(kind)} {fmt.count(n)}"
        out.append(Text(text))
    else:
        out.append(Text(f"  (no stats.evals entry for {_safe(detail.attempt.group)})", DIM))
    counted = _tally(detail.group)
    errors = sum(1 for s in detail.group if s.outcome in (Outcome.ERROR, Outcome.TIMEOUT))
    rewards = [s.score for s in detail.group if s.attempt.graded and s.score is not None]
    mean = (
        f" · mean reward {_share(sum(rewards) / len(rewards))} ({len(rewards)} graded)"
        if rewards
        else ""
    )
    out.append(
        Text.assemble(
            ("trajtui, over the same tasks", LABEL),
            f": {fmt.many(counted.tasks, 'task')} · {_attempt_counts(counted)} · "
            f"{fmt.count(errors)} with an exception{mean}",
        )
    )
    out.append(Text(f"  {_estimates(counted)}"))
    if counted.ungraded:
        n = counted.ungraded
        out.append(
            Text(
                f"  {n} attempt{'s' if n != 1 else ''} without a reward left out "
                f"(Harbor counts {'it' if n == 1 else 'them'} as failed)",
                DIM,
            )
        )
    return out


def headline(run: Run) -> str | None:
    """``verifier: 1 of 2 tests failed · task X: 1 of 2 attempts passed · tokens 4,100 in ·
    140 out (agent_result)``."""
    detail = detail_of(run)
    if detail is None:
        return None
    parts = []
    if detail.reports:
        tests = [t for r in detail.reports for t in r.tests]
        failed = sum(1 for t in tests if t.failed)
        n = f"{len(tests)} test{'s' if len(tests) != 1 else ''}"
        parts.append(
            f"verifier: {failed} of {n} failed" if failed else f"verifier: {n}, none failed"
        )
    if detail.attempt is not None and detail.siblings:
        counted = _tally(detail.siblings)
        n = f"{counted.attempts} attempt{'s' if counted.attempts != 1 else ''}"
        parts.append(f"task {_safe(detail.attempt.task)}: {counted.passed} of {n} passed")
    source = tokens_source(detail.trajectory, detail.trial)
    if source is not None and run.tokens_in is not None:
        out = f" · {fmt.count(run.tokens_out)} out" if run.tokens_out is not None else ""
        parts.append(f"tokens {fmt.count(run.tokens_in)} in{out} ({source})")
    return " · ".join(parts) or None


def run_block(run: Run) -> RenderableType | None:
    """The verifier's tests, the task's attempts and the job's figures."""
    detail = detail_of(run)
    if detail is None:
        return None
    lines = [*verifier_block(detail)]
    for part in (task_block(run, detail), job_block(detail)):
        if part and lines:
            lines.append(Text())
        lines.extend(part)
    return Group(*lines) if lines else None


class AtifView(View):
    """Harbor trials: the verifier's tests (why the reward is what it is), the other
    attempts of the task with pass@k over them, and the job's own figures beside trajtui's."""

    def headline(self, run: Run) -> str | None:
        return headline(run)

    def run_block(self, run: Run) -> RenderableType | None:
        return run_block(run)


VIEW = AtifView()
"""The ATIF view (``Format.view`` names it)."""
