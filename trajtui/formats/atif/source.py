"""The ATIF source (the glue between the pure readers and trajtui; the registry's hooks that
open it are in :mod:`~.claim`).

:class:`AtifSource` reads a Harbor job directory (one run per trial directory), one trial
directory, an agent directory (``trajectory.json`` and what lies beside it) or one ATIF file
opened on its own. A run is a trial (its reward the score, its outcome from the verifier
or the exception) or a lone trajectory; its continuation segments and its subagents'
trajectories are runs of their own listed under it (``RUN/cont-1``,
``RUN/summarization-1-summary``, ``RUN/<trajectory_id>``), read only when opened.

Every file is read through :mod:`trajtui.core.io.safeio` and only inside what was opened:
a ``trajectory_path`` leading elsewhere is named in a warning and not read.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import replace
from functools import partial

from trajtui.core.io import safeio
from trajtui.core.io.discover import inside
from trajtui.core.jsonl.index import ScanProgress
from trajtui.core.model import Field, Outcome, Problem, Run, RunSummary, Severity, Step
from trajtui.core.static_source import PARTIAL_AFTER, PARTIAL_EVERY, StaticSource
from trajtui.core.stats.tasks import OwnFigures, TaskAttempt
from trajtui.formats.atif import layout
from trajtui.formats.atif.children import Child, child_keys, find_children
from trajtui.formats.atif.detail import AtifRun, Sibling
from trajtui.formats.atif.document import read_document
from trajtui.formats.atif.facts import pair_results
from trajtui.formats.atif.ident import FORMAT as FORMAT
from trajtui.formats.atif.job import JobResult, is_job_result, read_job_result
from trajtui.formats.atif.layout import Place
from trajtui.formats.atif.lazy import NotATrajectory, Timeline, TrajectoryRead
from trajtui.formats.atif.timeline import (
    FORMAT_ID,
    run_metadata,
    summarize,
    trajectory_fields,
    trial_fields,
    verifier_fields,
)
from trajtui.formats.atif.trajectory import (
    SubagentRef,
    Trajectory,
    from_embedded,
)
from trajtui.formats.atif.trial import (
    TrialResult,
    is_trial_result,
    read_trial_result,
    verdict,
)
from trajtui.formats.atif.usage import run_tokens
from trajtui.formats.atif.verifier import STDOUT, VERIFIER, Report, read_reports, stdout_tail

READING = "reading"  # a partial row's status (still being read), as session formats say it
HARBOR_COUNTS = "Harbor counts an attempt without a reward as failed (as 0 in its mean)"
"""How a job's own figures count what trajtui leaves out."""


class AtifSource(StaticSource):
    """A Harbor job, a trial, an agent directory or an ATIF file."""

    def __init__(self, path: str, kind: str, label: str | None = None) -> None:
        super().__init__(path, FORMAT, label)
        self.kind = kind
        single = kind == "file"
        self.root_real = os.path.realpath(
            os.path.dirname(os.path.abspath(path)) if single else path
        )
        self._children: dict[tuple[str, str], str] = {}  # (parent ref, key) -> child ref
        self._job: JobResult | None = None
        self._attempts: dict[str, Sibling] = {}  # trial directory -> the trial as an attempt
        self._groups: dict[str, tuple[Sibling, ...]] = {}  # group -> its attempts
        self._task_attempts: dict[tuple[str, str], tuple[Sibling, ...]] = {}
        self._reported: set[tuple[str, int | None, str]] = set()
        self._lock = threading.Lock()
        self._last: tuple[tuple[str, int, int, int, int], Trajectory] | None = None
        """The trajectory read last (the one listed is read again when shown), by its
        file's path, device, inode, size and modification time."""
        self._reading: tuple[str | None, Trajectory] | None = None
        """The trajectory being listed, by its path, as read so far (a partial row's)."""

    # -- reading -------------------------------------------------------------------------

    def _read(self, path: str, ref: str | None = None) -> tuple[bytes | None, list[Problem]]:
        self.watch(path)
        if not inside(self.root_real, path):
            return None, [Problem(path, None, "outside the opened directory (not read)", ref=ref)]
        try:
            return safeio.read_bytes(path), []
        except OSError as err:
            return None, [_unreadable(path, err, ref)]

    def _tail(self, path: str, size: int) -> tuple[bytes | None, list[Problem]]:
        """The last ``size`` bytes of a file (a log of any size)."""
        self.watch(path)
        if not inside(self.root_real, path):
            return None, [Problem(path, None, "outside the opened directory (not read)")]
        try:
            return safeio.read_head_tail(path, 0, size)[1], []
        except safeio.Refused as err:
            return None, [Problem(path, None, err.strerror or str(err))]
        except OSError as err:
            return None, [Problem(path, None, f"cannot read: {err.strerror or err}")]

    def _trajectory(self, path: str | None) -> tuple[Trajectory | None, list[Problem]]:
        """The trajectory at ``path``, read in bounded memory (:mod:`~.lazy`); while the
        scan lists it partial, the steps read so far."""
        reading = self._reading
        if path is not None and reading is not None and reading[0] == path:
            return reading[1], []
        read = self._read_trajectory(path)
        while True:
            try:
                next(read)
            except StopIteration as done:
                return done.value

    def _read_trajectory(
        self, path: str | None, partial: Callable[[Trajectory], None] | None = None
    ) -> Generator[int, None, tuple[Trajectory | None, list[Problem]]]:
        """Read the trajectory at ``path``, yielding the bytes read now and then, and
        giving ``partial`` the trajectory so far (once it has been read for
        :data:`PARTIAL_AFTER` seconds, then at most every :data:`PARTIAL_EVERY`)."""
        if path is None:
            return None, []
        self.watch(path)
        if not inside(self.root_real, path):
            return None, [Problem(path, None, "outside the opened directory (not read)")]
        try:
            st = os.stat(path)
            key = (path, st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
            last = self._last
            if last is not None and last[0] == key:
                return last[1], []  # listed, now shown: one pass over a big file, not two
            reading = TrajectoryRead(path)
            trajectory = yield from reading.watched(partial, PARTIAL_EVERY, PARTIAL_AFTER)
            self._last = (key, trajectory)
            return trajectory, []
        except NotATrajectory as err:
            return None, [Problem(path, 1, f"{err}, not an ATIF trajectory (no steps read)")]
        except OSError as err:
            return None, [_unreadable(path, err)]

    def _trial(self, trial_dir: str) -> tuple[TrialResult | None, bool, list[Problem]]:
        """The trial's result, whether it finished (it has a ``result.json``, or it has
        not even a ``config.json``: a copy of its files, not a trial under way), and
        problems."""
        path = os.path.join(trial_dir, layout.RESULT)
        if not os.path.lexists(path):
            self.watch(path)
            # Harbor writes config.json when a trial starts, result.json when it ends
            running = os.path.lexists(os.path.join(trial_dir, layout.CONFIG))
            return None, not running, []
        data, problems = self._read(path)
        if data is None:
            return None, True, problems
        doc = read_document(data)
        if doc.error is not None:
            return None, True, [Problem(path, doc.error[0], doc.error[1])]
        if not is_trial_result(doc.value):
            return (
                None,
                True,
                [Problem(path, None, "not a trial result (no trial_name and task_name)")],
            )
        return read_trial_result(doc.value), True, []

    def _places(self) -> list[Place]:
        if self.kind == "file":
            return [Place(self.path)]
        if self.kind == layout.AGENT_DIR:
            return [Place(os.path.join(self.path, layout.TRAJECTORY))]
        if self.kind == layout.TRIAL:
            return [self._trial_place(self.path)]
        self.watch(self.path)
        _, dirs = layout.listing(self.path, self.root_real)
        trials = layout.trial_dirs(self.path, self.root_real, dirs)
        if not trials:
            self.add_problem(
                Problem(
                    self.path,
                    None,
                    "a Harbor job directory with no trial directories yet",
                    Severity.WARNING,
                )
            )
        return [self._trial_place(t) for t in trials]

    def _trial_place(self, trial_dir: str) -> Place:
        self.watch(trial_dir)
        path = os.path.join(trial_dir, layout.AGENT, layout.TRAJECTORY)
        self.watch(path)
        return Place(path if os.path.lexists(path) else None, trial_dir)

    def _read_job(self) -> JobResult | None:
        """The job's own ``result.json`` (a job directory opened), or None."""
        path = os.path.join(self.path, layout.RESULT)
        if self.kind != layout.JOB or not os.path.lexists(path):
            return None
        data, problems = self._read(path)
        for p in problems:
            self.add_problem(replace(p, severity=Severity.WARNING))
        if data is None:
            return None
        doc = read_document(data)
        if doc.error is not None:
            self.add_problem(Problem(path, doc.error[0], doc.error[1], Severity.WARNING))
            return None
        return read_job_result(doc.value, path) if is_job_result(doc.value) else None

    def _load(self) -> Iterator[ScanProgress]:
        """Every trial's ``result.json`` first (small files: each trial then knows the other
        attempts of its task, even when a run is shown before the job is listed whole),
        then each trajectory, one run at a time."""
        self._children = {}
        self._reported = set()
        self._attempts, self._groups, self._task_attempts = {}, {}, {}
        self._job = self._read_job()
        places = self._places()
        total = 2 * len(places)
        read: list[tuple[TrialResult | None, bool, list[Problem]]] = []
        for done, place in enumerate(places, 1):
            found = self._trial(place.trial_dir) if place.trial_dir else (None, True, [])
            read.append(found)
            self._note_attempt(place, found[0], found[1])
            yield ScanProgress(done, total, len(self))
        self._index_attempts()
        for done, (place, (trial, finished, problems)) in enumerate(
            zip(places, read, strict=True), 1
        ):
            for _ in self._add(place, trial, finished, problems):
                yield ScanProgress(len(places) + done - 1, total, len(self))
            yield ScanProgress(len(places) + done, total, len(self))

    def _add(
        self, place: Place, trial: TrialResult | None, finished: bool, problems: list[Problem]
    ) -> Iterator[int]:
        """List a run (yielding the bytes of its trajectory read now and then); when the
        reader revises rows, listed partial once its trajectory has been read for
        :data:`PARTIAL_AFTER` seconds (a big one), revised as read."""
        ref = self._run_ref(place, trial)
        in_trial = place.trial_dir is not None
        listed: RunSummary | None = None

        def revise(so_far: Trajectory) -> None:
            nonlocal listed
            row = summarize(ref, so_far, pair_results(so_far.steps), trial, in_trial=in_trial)
            row = replace(row, status=READING, outcome=Outcome.RUNNING)
            self._reading = (place.trajectory, so_far)
            if listed is None:
                listed = self.add_run(row, partial(self._build, place))
            else:
                listed = self.revise_run(listed.index, row)

        read = self._read_trajectory(place.trajectory, revise if self.partial_rows else None)
        trajectory, found = yield from read
        self._reading = None
        problems = [*problems, *found]
        if trajectory is not None:
            problems.extend(trajectory.problems)
        pairing = pair_results(trajectory.steps) if trajectory is not None else None
        summary = summarize(ref, trajectory, pairing, trial, in_trial=in_trial, finished=finished)
        if listed is None:
            listed = self.add_run(summary, partial(self._build, place))
        else:
            listed = self.revise_run(listed.index, summary)
        for p in problems:
            self.add_problem(replace(p, ref=listed.ref))
        if trajectory is not None:
            self._add_children(listed.ref, trajectory)

    # -- tasks and their attempts --------------------------------------------------------

    def _note_attempt(self, place: Place, trial: TrialResult | None, finished: bool) -> None:
        """Remember a finished trial of a job as an attempt of its task."""
        if place.trial_dir is None or trial is None or not trial.task_name:
            return
        group = trial.evals_key or ""
        own: OwnFigures | None = None
        stats = self._job.eval_stats(group) if self._job is not None else None
        if self._job is not None and stats is not None:
            figures = stats.figures + tuple((f"pass_at_k {k}", v) for k, v in stats.pass_at_k)
            own = OwnFigures(self._job.path, group, figures, HARBOR_COUNTS)
        attempt = TaskAttempt(group, trial.task_name, trial.graded, trial.passed is True, own)
        status, outcome = verdict(trial, finished=finished)
        ref = self._run_ref(place, trial)
        self._attempts[place.trial_dir] = Sibling(ref, status, outcome, trial.score, attempt)

    def _index_attempts(self) -> None:
        """Every group's attempts and every task's, once (a run shown looks its up)."""
        groups: dict[str, list[Sibling]] = {}
        tasks: dict[tuple[str, str], list[Sibling]] = {}
        for s in self._attempts.values():
            groups.setdefault(s.attempt.group, []).append(s)
            tasks.setdefault((s.attempt.group, s.attempt.task), []).append(s)
        self._groups = {k: tuple(v) for k, v in groups.items()}
        self._task_attempts = {k: tuple(v) for k, v in tasks.items()}

    def _task_and_group(
        self, trial_dir: str | None
    ) -> tuple[TaskAttempt | None, tuple[Sibling, ...], tuple[Sibling, ...]]:
        """A trial as an attempt, every attempt of its task, and of the tasks of its group
        (in listing order)."""
        this = self._attempts.get(trial_dir) if trial_dir is not None else None
        if this is None:
            return None, (), ()
        a = this.attempt
        group = self._groups.get(a.group, ())
        return a, self._task_attempts.get((a.group, a.task), ()), group

    def _run_ref(self, place: Place, trial: TrialResult | None) -> str:
        if trial is not None and trial.trial_name:
            return trial.trial_name
        if place.trial_dir is not None:
            return os.path.basename(os.path.normpath(place.trial_dir))
        assert place.trajectory is not None
        name = os.path.basename(place.trajectory)
        return name[: -len(".json")] if name.endswith(".json") and len(name) > 5 else name

    # -- continuations and subagents -----------------------------------------------------

    def _add_children(self, parent: str, trajectory: Trajectory) -> None:
        children, problems = find_children(parent, trajectory, self.root_real, self.watch)
        for child in children:
            self._add_child(parent, child)
        for problem in problems:
            self.add_problem(problem)

    def _add_child(self, parent: str, child: Child) -> None:
        if (parent, child.key) in self._children:
            return
        summary = RunSummary(
            f"{parent}/{child.name}", 0, FORMAT_ID, None, Outcome.NONE, title=child.title
        )
        listed = self.add_run(summary, partial(self._build_child, child))
        self._children[(parent, child.key)] = listed.ref

    def child_ref(self, parent: str, trajectory: Trajectory, ref: SubagentRef) -> str | None:
        """The run a subagent reference of ``parent``'s trajectory is listed as."""
        for key in child_keys(trajectory, ref):
            if (parent, key) in self._children:
                return self._children[(parent, key)]
        return None

    # -- building runs -------------------------------------------------------------------

    def _build(self, place: Place, ref: str) -> Run:
        index = self.find(ref)
        listed = self.entry(index) if index is not None else None
        trial: TrialResult | None = None
        finished = True
        problems: list[Problem] = []
        if place.trial_dir is not None:
            trial, finished, problems = self._trial(place.trial_dir)
        trajectory, found = self._trajectory(place.trajectory)
        problems.extend(found)
        fields: list[Field] = []
        if trial is not None:
            fields.extend(trial_fields(trial, os.path.join(place.trial_dir or "", layout.RESULT)))
        elif place.trial_dir is not None:
            fields.append(Field("trial directory", place.trial_dir))
            if not finished:
                fields.append(
                    Field(
                        "result file",
                        "none yet: the trial is running, or stopped before writing it",
                    )
                )
        if place.trial_dir is not None and place.trajectory is None:
            fields.append(
                Field(
                    "trajectory file",
                    "none (agent/trajectory.json: this agent wrote no ATIF trajectory)",
                )
            )
        reports: tuple[Report, ...] | None = None
        if place.trial_dir is not None:
            reports, found = read_reports(place.trial_dir, self._read)
            problems.extend(found)
            fields.extend(verifier_fields(reports))
            if reports is not None and not reports:  # no report says why: the output may
                output, found = stdout_tail(place.trial_dir, self._tail)
                problems.extend(found)
                if output is not None:
                    label = f"{VERIFIER}/{STDOUT} (its last lines)"
                    fields.append(Field(label, output))
        summary = listed if isinstance(listed, RunSummary) else None
        attempt, siblings, group = self._task_and_group(place.trial_dir)
        detail = AtifRun(trajectory, trial, reports, attempt, siblings, group, self._job)
        return self._run(ref, trajectory, trial, fields, problems, summary, place.trial_dir, detail)

    def _build_child(self, child: Child, ref: str) -> Run:
        if child.kind == "embedded":
            parent, problems = self._trajectory(child.path)
            if parent is None or child.index is None or child.index >= len(parent.embedded):
                trajectory = None
                problems.append(
                    Problem(child.path, None, f"{ref}: the embedded subagent is gone from the file")
                )
            else:
                trajectory = from_embedded(parent.embedded[child.index], child.path)
        else:
            trajectory, problems = self._trajectory(child.path)
        fields = [Field("listed under", child.parent)]
        # an embedded subagent's references name the root's other embedded subagents
        owner = child.parent if child.kind == "embedded" else ref
        return self._run(
            ref,
            trajectory,
            None,
            fields,
            problems,
            None,
            None,
            AtifRun(trajectory, None),
            title=child.title,
            owner=owner,
        )

    def _run(
        self,
        ref: str,
        trajectory: Trajectory | None,
        trial: TrialResult | None,
        fields: list[Field],
        problems: list[Problem],
        summary: RunSummary | None,
        trial_dir: str | None,
        detail: AtifRun,
        *,
        title: str | None = None,
        owner: str | None = None,
    ) -> Run:
        pairing = pair_results(trajectory.steps) if trajectory is not None else None
        if trajectory is not None:
            problems.extend(trajectory.problems)
        problems = [replace(p, ref=ref) for p in problems]
        if summary is None:
            summary = summarize(
                ref, trajectory, pairing, trial, in_trial=trial_dir is not None, title=title
            )
            self._report(problems)
        index = self.find(ref)
        summary = replace(summary, ref=ref, index=index or 0)
        steps: Sequence[Step] = ()
        raw: dict[str, object] = {}
        if trial is not None:
            raw["result.json"] = trial.raw
        for report in detail.reports or ():
            raw[report.name] = report.raw
        if trajectory is not None and pairing is not None:
            steps = Timeline(
                trajectory, pairing, ref, partial(self.child_ref, owner or ref, trajectory)
            )
            continued = None
            if trajectory.continued_ref is not None:
                path = os.path.join(os.path.dirname(trajectory.path), trajectory.continued_ref)
                continued = self._children.get((ref, os.path.realpath(path)))
            children = [v for (p, _), v in self._children.items() if p == ref and v != continued]
            fields.extend(trajectory_fields(trajectory, continued, children))
            raw["trajectory"] = trajectory.root
        tokens_in, tokens_out = run_tokens(trajectory, trial)
        return Run(
            summary=summary,
            steps=steps,
            fields=tuple(fields),
            raw=raw.get("trajectory") if trial is None and not detail.reports else raw,
            problems=tuple(problems),
            path=trajectory.path if trajectory is not None else trial_dir,
            detail=detail,
            metadata=run_metadata(trajectory, trial),
            run_tokens_in=tokens_in,
            run_tokens_out=tokens_out,
        )

    def _report(self, problems: list[Problem]) -> None:
        """Problems of a run read only when opened (a subagent's file): said once."""
        with self._lock:
            for p in problems:
                key = (p.path, p.line, p.message)
                if key not in self._reported:
                    self._reported.add(key)
                    self.add_problem(p)


def _unreadable(path: str, err: OSError, ref: str | None = None) -> Problem:
    """A file that cannot be read, said in one line."""
    if isinstance(err, safeio.Refused):
        return Problem(path, None, err.strerror or str(err), ref=ref)
    if isinstance(err, FileNotFoundError):
        return Problem(path, None, "does not exist", ref=ref)
    return Problem(path, None, f"cannot read: {err.strerror or err}", ref=ref)
