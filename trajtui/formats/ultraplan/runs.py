"""Plans as runs and their results as steps (pure functions).

Runs and steps
    A run is a plan (ref: its ``plan_id``, e.g. ``03-01``). Its steps are its results in time
    order (``logged_at``, or the camelCase ``timestamp``; a result without one keeps its place
    in date-directory and file order), so a retry is one more step of the same task. Step N is
    ``PLAN/step-N``.

    A plan with a PLAN.md and no result logs yet is a run with no steps.

Plan status
    A plan's status is derived from the latest result of each of its tasks, first rule that
    applies: some task ``failure`` (FAIL); some task's latest result judged INVALID by the
    protocol, ``invalid`` (FAIL: the protocol rejects it); some task ``blocked`` (SKIPPED); some task
    ``partial`` or with an unknown word (PARTIAL); every task ``success`` but PLAN.md lists
    tasks with no result yet, ``incomplete`` (PARTIAL); otherwise ``success`` (PASS). A plan
    with no results is ``summarized`` (DONE) when its SUMMARY.md exists, else ``planned``
    (NONE). Its score is the share of its tasks (PLAN.md's, or those with results) whose
    latest result succeeded; none without results.

Tasks
    Each PLAN.md task is listed with its checkbox in ``<success_criteria>`` (``[x]``, ``[ ]``,
    or ``-`` when no checkbox item is for it; matched as the protocol matches results) and
    its latest result; a result file that could not be read says so on its task's line.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

from trajtui.core.io.text import one_line
from trajtui.core.model import Field, Kind, Outcome, Problem, Step
from trajtui.core.values import fields
from trajtui.formats.ultraplan.ids import RESULT_NAME, epoch_ms
from trajtui.formats.ultraplan.plan import PlanDoc, SummaryDoc, task_checkbox
from trajtui.formats.ultraplan.results import (
    HEADER_ALL,
    HEADER_KEYS,
    ResultDoc,
    canonical_status,
    outcome_of,
)
from trajtui.formats.ultraplan.verdict import Judgement, Verdict


@dataclass(frozen=True, slots=True)
class ResultFile:
    """One result log file of a source.

    Attributes:
        path: The file, as reachable from where trajtui was started.
        rel: Its path below the opened directory (or its name).
        day: Its date directory (``2026-01-26``), when it is in one.
        seq: Its position in date-directory and file order.
        result: What it says; None when it could not be read.
        problem: Why it could not be read.
    """

    path: str
    rel: str
    day: str | None
    seq: int
    result: ResultDoc | None = None
    problem: Problem | None = None


@dataclass(frozen=True, slots=True)
class PlanRecord:
    """Everything read for one plan: its results in time order, its PLAN.md and verdicts.

    Attributes:
        plan_id: The plan.
        files: Its result files, in time order (the order of its steps).
        doc: Its PLAN.md, when found.
        note: Why there is no PLAN.md, when there is none.
        judgements: The validation of each of ``files``.
        summary: Its SUMMARY.md, when there is one.
        unread: Its result files that could not be read (by their names).
        ref: The run it is listed as, when not its plan id (a second PLAN.md for the plan:
            ``phases-v1-backup/01-01``).
    """

    plan_id: str
    files: tuple[ResultFile, ...]
    doc: PlanDoc | None
    note: str | None
    judgements: tuple[Judgement, ...]
    summary: SummaryDoc | None = None
    unread: tuple[ResultFile, ...] = ()
    ref: str | None = None

    @property
    def run_ref(self) -> str:
        """The run it is listed as."""
        return self.ref or self.plan_id


def plan_metadata(plan: PlanRecord) -> tuple[tuple[str, str], ...]:
    """A plan's facts for grouping runs: ``plan`` (its id), ``phase`` (its PLAN.md's
    frontmatter, when it says), ``task`` (when every result is of one task: its number,
    else its name)."""
    out = [("plan", plan.plan_id)]
    phase = plan.doc.frontmatter.get("phase") if plan.doc is not None else None
    if isinstance(phase, (str, int, float)) and not isinstance(phase, bool) and str(phase):
        out.append(("phase", str(phase)))
    results = [f.result for f in plan.files if f.result is not None]
    numbers = {r.task for r in results}
    names = {r.task_name for r in results}
    if results and len(numbers) == 1 and None not in numbers:
        out.append(("task", str(numbers.pop())))
    elif results and len(names) == 1 and None not in names:
        out.append(("task", str(names.pop())))
    return tuple(out)


def status_of(f: ResultFile) -> str | None:
    """The status word of a result file (None when it could not be read or has none)."""
    return f.result.status if f.result is not None else None


def ordered(files: Sequence[ResultFile]) -> list[ResultFile]:
    """Results in time order: by ``logged_at``; one without a time keeps its place after the
    result before it in date-directory and file order (or the start of its date directory)."""
    keyed: list[tuple[float, int, ResultFile]] = []
    last: float | None = None
    for f in sorted(files, key=lambda f: f.seq):
        own = f.result.time_ms if f.result is not None else None
        if own is not None:
            last = own
            keyed.append((own, f.seq, f))
            continue
        day = epoch_ms(f.day) if f.day else None
        known = [t for t in (last, day) if t is not None]
        keyed.append((max(known) if known else float("-inf"), f.seq, f))
    keyed.sort(key=lambda k: (k[0], k[1]))
    return [f for _, _, f in keyed]


def task_key(f: ResultFile) -> str:
    """What makes two results attempts of one task: its number, else its name."""
    r = f.result
    if r is None:
        return f"file:{f.rel}"
    if r.task is not None:
        return f"#{r.task}"
    return f"name:{r.task_name or r.name or f.rel}"


def latest_by_task(files: Sequence[ResultFile]) -> dict[str, ResultFile]:
    """The last result (in the given order) of each task."""
    latest: dict[str, ResultFile] = {}
    for f in files:
        latest[task_key(f)] = f
    return latest


def plan_status(
    files: Sequence[ResultFile],
    doc: PlanDoc | None,
    judgements: Sequence[Judgement] = (),
    *,
    summarized: bool = False,
) -> tuple[str | None, Outcome]:
    """A plan's status word and outcome from its results (rules in the module docstring):
    a task whose latest result the protocol judges INVALID is not done (``invalid``)."""
    latest = latest_by_task(files)
    if not latest:
        if summarized:
            return "summarized", Outcome.DONE
        return ("planned", Outcome.NONE) if doc is not None else (None, Outcome.NONE)
    words = [canonical_status(status_of(f)) for f in latest.values()]
    if "failure" in words:
        return "failure", Outcome.FAIL
    verdict_of = {id(f): j.verdict for f, j in zip(files, judgements, strict=False)}
    if any(verdict_of.get(id(f)) is Verdict.INVALID for f in latest.values()):
        return "invalid", Outcome.FAIL
    if "blocked" in words:
        return "blocked", Outcome.SKIPPED
    if any(w != "success" for w in words):
        return "partial", Outcome.PARTIAL
    if doc is not None and len(doc.tasks) > len(latest):
        return "incomplete", Outcome.PARTIAL
    return "success", Outcome.PASS


def task_lines(
    files: Sequence[ResultFile], doc: PlanDoc | None, unread: Sequence[ResultFile] = ()
) -> list[str]:
    """One line per task: PLAN.md's tasks first (with their checkbox and results), then
    tasks that only have results, then result files that could not be read for a task
    PLAN.md does not list."""
    by_key: dict[str, list[ResultFile]] = {}
    for f in files:
        by_key.setdefault(task_key(f), []).append(f)
    broken: dict[int | None, list[ResultFile]] = {}
    for f in unread:
        broken.setdefault(_unread_task(f), []).append(f)
    lines: list[str] = []
    for task in doc.tasks if doc else ():
        runs = by_key.pop(f"#{task.number}", [])
        attr = task.attr("status")
        note = f" [PLAN.md: {attr}]" if attr else ""
        box = task_checkbox(task, doc.criteria) if doc else None
        mark = "- " if box is None else ("[x] " if box.checked else "[ ] ")
        done = f" (completed {box.completed})" if box is not None and box.completed else ""
        results = _results_text(runs, broken.pop(task.number, []))
        lines.append(f"{mark}{task.name or f'task {task.number}'}{done}{note} — {results}")
    for runs in by_key.values():
        first = runs[0].result
        name = (first.task_name if first else None) or _task_title(first)
        number = first.task if first is not None else None
        lines.append(f"{name} — {_results_text(runs, broken.pop(number, []))}")
    for number, files_ in broken.items():
        name = "task (number unknown)" if number is None else f"task {number}"
        lines.append(f"{name} — {_results_text([], files_)}")
    return lines


def _unread_task(f: ResultFile) -> int | None:
    m = RESULT_NAME.match(os.path.basename(f.path))
    return int(m["task"]) if m else None


def _results_text(runs: list[ResultFile], unread: Sequence[ResultFile] = ()) -> str:
    parts = []
    if runs:
        last = status_of(runs[-1]) or "no status"
        more = f" after {len(runs)} results" if len(runs) > 1 else ""
        parts.append(f"{last}{more}")
    for f in unread:
        problem = f.problem
        why = f": {problem.message}" if problem is not None else ""
        where = f" line {problem.line}" if problem is not None and problem.line else ""
        parts.append(f"result file {f.rel} not read{where}{why}")
    return "; ".join(parts) or "no result"


def _task_title(result: ResultDoc | None) -> str:
    if result is None or result.task is None:
        return "task"
    return f"task {result.task}"


_STEP_SKIP = ("status", "evidence", "error")


def build_steps(plan: PlanRecord, ref: str) -> tuple[Step, ...]:
    """The plan's results as steps, in time order."""
    times = [f.result.time_ms for f in plan.files if f.result and f.result.time_ms is not None]
    start = min(times) if times else None
    steps: list[Step] = []
    for n, (f, judgement) in enumerate(zip(plan.files, plan.judgements, strict=True), 1):
        r = f.result
        assert r is not None
        name = r.task_name
        error = r.result.get("error")
        evidence = r.result.get("evidence")
        steps.append(
            Step(
                ref=f"{ref}/step-{n}",
                number=n,
                kind=Kind.TASK,
                title=one_line(name) if name and name.strip() else _task_title(r),
                status=r.status,
                outcome=outcome_of(r.status),
                offset_ms=None if r.time_ms is None or start is None else r.time_ms - start,
                duration_ms=r.duration_ms,
                text=evidence if isinstance(evidence, str) else None,
                markdown=True,
                error=None if error in (None, "") else str(error),
                fields=_step_fields(f, r, judgement),
                detail=judgement,
                raw=r.doc,
            )
        )
    return tuple(steps)


def _step_fields(f: ResultFile, r: ResultDoc, judgement: Judgement) -> tuple[Field, ...]:
    head = [Field("validation", judgement.text()), Field("file", f.rel)]
    skip = _STEP_SKIP if r.wrapped else (*_STEP_SKIP, *HEADER_ALL)
    body = fields(r.result, (), skip=skip)
    if r.status is None and "status" in r.result:
        body = (Field("status", r.result["status"]), *body)
    evidence = r.result.get("evidence")
    if "evidence" in r.result and not isinstance(evidence, str):
        body = (*body, Field("evidence", evidence))
    if r.wrapped:
        log = fields(r.doc, tuple(HEADER_KEYS), skip=("result",))
    else:
        log = tuple(Field(k, r.result[k]) for k in r.result if k in HEADER_ALL)
    return (*head, *body, *log)
