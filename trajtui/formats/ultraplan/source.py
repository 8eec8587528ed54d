"""The ultraplan source and the format registry's hooks.

:class:`UltraplanSource` reads a project, its ``.ultraplan`` or ``logs`` directory, a
directory of result logs, or one result YAML file opened on its own, into one run per plan.
A file that cannot be read is a :class:`~trajtui.core.model.Problem` and the rest still
shows: a result file that cannot be read is a problem row of the run list (and its plan
and task say so). When only ``.ultraplan``, ``logs`` or a result file was opened, the project
lies outside what was opened: PLAN.md is not looked for (and file paths are not checked on
disk), and every result says so in a warning. In a project, every plan with a PLAN.md is a
run, with or without results (a plan not executed yet has no steps), shown with its tasks,
their checkboxes and its SUMMARY.md where there is one; a project with neither execution
logs nor plans reports a warning saying so.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from typing import Any

from trajtui.core.format_api import Opened, Scope
from trajtui.core.io.detect import Sniffed
from trajtui.core.io.discover import Walked, inside, walk
from trajtui.core.io.jsonutil import JsonError, loads
from trajtui.core.io.text import one_line
from trajtui.core.jsonl.index import ScanProgress
from trajtui.core.model import Field, Problem, Run, RunSummary, Severity
from trajtui.core.static_source import StaticSource
from trajtui.formats.ultraplan.attach import SideFile, side_fields
from trajtui.formats.ultraplan.claim import FORMAT as FORMAT
from trajtui.formats.ultraplan.ids import DATE, RESULT_NAME, YAML_SUFFIXES, natural_key
from trajtui.formats.ultraplan.layout import (
    Layout,
    Unreadable,
    is_config,
    is_daily,
    is_session,
    json_doc,
    layout_of,
    quietly,
    read_bytes,
    read_markdown,
    read_text,
    yaml_doc,
)
from trajtui.formats.ultraplan.plan import (
    PlanDoc,
    SummaryDoc,
    parse_plan,
    parse_summary,
    summary_path,
)
from trajtui.formats.ultraplan.planning import (
    PlanFile,
    PlansScope,
    ProjectScope,
    find_plan_files,
)
from trajtui.formats.ultraplan.reports import FileReport, file_reports
from trajtui.formats.ultraplan.results import (
    canonical_status,
    is_verdict,
    looks_like_result,
    read_result,
)
from trajtui.formats.ultraplan.runs import (
    PlanRecord,
    ResultFile,
    build_steps,
    latest_by_task,
    ordered,
    plan_metadata,
    plan_status,
    status_of,
    task_lines,
)
from trajtui.formats.ultraplan.validate import Exists, judge
from trajtui.formats.ultraplan.verdict import tally

NO_PLAN = "no-plan"
"""The run holding results whose plan cannot be told."""


class UltraplanSource(StaticSource):
    """An ultraplan project, ``.ultraplan`` directory, ``logs`` directory or result file."""

    def __init__(
        self, layout: Layout, label: str | None = None, *, scope: Scope | None = None
    ) -> None:
        super().__init__(layout.root, FORMAT, label)
        self.layout = layout
        self.scope = scope
        """What of the opened directory is this source's (None: all of it)."""
        self._files: list[ResultFile] = []
        self._sides: list[SideFile] = []
        self._plans: dict[str, PlanRecord] = {}
        self._plan_index: list[PlanFile] | None = None
        self._pending: list[tuple[Problem, bool]] = []

    # -- reading -------------------------------------------------------------------------

    def _load(self) -> Iterator[ScanProgress]:
        self._files, self._sides, self._plans = [], [], {}
        self._plan_index = None
        self._pending = []
        layout = self.layout
        if layout.single is not None:
            parent = os.path.basename(os.path.dirname(os.path.abspath(layout.single)))
            day = parent if DATE.match(parent) else None
            self._read_results([(layout.single, os.path.basename(layout.single), day)])
        elif layout.ultraplan or layout.logs or layout.results:
            self._read_tree()
        yield ScanProgress(0, 1, 0)
        self._group()
        for plan in sorted(self._plans.values(), key=lambda p: natural_key(p.run_ref)):
            self.add_run(self._summary(plan), self._loader(plan.run_ref))
        for problem, row in self._pending:  # problem rows after the plans
            self.add_problem(problem, row=row)
        self._pending = []
        if not self._files and not self._plans and layout.single is None:
            if layout.logs:
                where = os.path.join(layout.logs, "executions")
            elif layout.ultraplan:
                where = os.path.join(layout.ultraplan, "logs")
            else:  # a project planned, not run yet, or a folder of plans
                where = os.path.join(layout.project or layout.root, ".planning")
            self.add_problem(
                Problem(
                    where,
                    None,
                    "no execution logs and no PLAN.md: an ultraplan project with neither "
                    "task results nor plans has no plans to show",
                    Severity.WARNING,
                )
            )

    def _rel(self, path: str) -> str:
        return os.path.relpath(path, self.layout.root) if self.layout.single is None else path

    def _read_tree(self) -> None:
        layout = self.layout
        base = layout.ultraplan or layout.logs or layout.root
        result_dirs = [os.path.normpath(d) for d in layout.result_dirs()]
        results: list[tuple[str, str, str | None]] = []
        walker = walk(base)
        for place in walker:
            self.watch(place.path)  # a new file changes its directory
            here = os.path.normpath(place.path)
            in_results = any(here == d or here.startswith(d + os.sep) for d in result_dirs)
            name = os.path.basename(here)
            day = name if DATE.match(name) else None
            for name in place.files:
                path = os.path.join(place.path, name)
                self._classify(path, name, day, in_results, results)
        for problem in walker.problems:  # unreadable or too deep directories
            self.add_problem(problem, row=True)
        results.sort(key=lambda r: (r[2] or "", natural_key(r[1])))
        self._read_results(results)

    def _classify(
        self,
        path: str,
        name: str,
        day: str | None,
        in_results: bool,
        results: list[tuple[str, str, str | None]],
    ) -> None:
        lower = name.lower()
        if lower.endswith(YAML_SUFFIXES):
            if in_results:
                results.append((path, name, day))
            elif "verdict" in lower or "architect" in lower:
                self._side(path, "verdict", yaml_doc, is_verdict)
        elif lower == "config.json" and os.path.dirname(path) == self.layout.ultraplan:
            self._side(path, "config", json_doc, is_config)
        elif lower.endswith(".json") and "session" in lower:
            self._side(path, "session", json_doc, is_session)
        elif re.match(r"daily-.*\.json$", lower):
            self._side(path, "daily", json_doc, is_daily)
        elif lower == "retry-state.json":
            self._side(path, "retry-state", json_doc, lambda doc: doc is not None)
        elif lower == "retry.jsonl":
            self._side(path, "retry-jsonl", self._jsonl_records)
        elif lower == "retry.log":
            self._side(path, "retry-log", read_text)

    def _problem(self, problem: Problem, plan_id: str | None = None, *, row: bool = False) -> None:
        """Report a problem once the plans are listed (``row``: also as a row of its own)."""
        self._pending.append(
            (Problem(problem.path, problem.line, problem.message, problem.severity, plan_id), row)
        )

    def _read_results(self, found: list[tuple[str, str, str | None]]) -> None:
        for seq, (path, name, day) in enumerate(found):
            self.watch(path)
            rel = self._rel(path)
            try:
                doc = yaml_doc(path, self.layout.root_real)
            except Unreadable as err:
                by_name = RESULT_NAME.match(name)
                plan = by_name["plan"] if by_name else None
                # A result that cannot be read is a row of its own: it belongs to no step.
                self._problem(err.problem, plan, row=True)
                self._files.append(ResultFile(path, rel, day, seq, problem=err.problem))
                continue
            if is_verdict(doc):
                self._sides.append(SideFile("verdict", path, rel, doc))
                continue
            self._files.append(ResultFile(path, rel, day, seq, read_result(doc, name)))

    def _side(
        self,
        path: str,
        kind: str,
        reader: Callable[[str, str], Any],
        accept: Callable[[Any], bool] | None = None,
    ) -> None:
        """Read a file shown with plans; keep it when ``accept`` (if given) takes its value.

        Args:
            path: The file.
            kind: What it is (see :class:`SideFile`).
            reader: Reads it (``reader(path, root_real)``), raising :class:`Unreadable`.
            accept: Whether what was read is such a file.
        """
        self.watch(path)
        try:
            value = reader(path, self.layout.root_real)
        except Unreadable as err:
            self._problem(err.problem)
            return
        if accept is None or accept(value):
            self._sides.append(SideFile(kind, path, self._rel(path), value))

    def _jsonl_records(self, path: str, root_real: str) -> list[Any]:
        """The records of a JSON Lines file; each line that is not JSON is a problem."""
        records: list[Any] = []
        for n, line in enumerate(read_bytes(path, root_real).splitlines(), 1):
            if not line.strip():
                continue
            try:
                records.append(loads(line)[0])
            except JsonError as err:
                self._problem(Problem(path, n, str(err)))
        return records

    # -- plans ---------------------------------------------------------------------------

    def _group(self) -> None:
        # Every plan of the project, run or not yet (a PLAN.md and no result logs); result
        # logs go with the first file of their plan, under the run it is listed as.
        files_of = {p.ref: p for p in self.plan_list()}
        run_of = {p.plan_id: p.ref for p in files_of.values() if p.primary}
        grouped: dict[str, list[ResultFile]] = {}
        unread: dict[str, list[ResultFile]] = {}
        for f in self._files:
            if f.result is not None:
                pid = f.result.plan_id or NO_PLAN
                grouped.setdefault(run_of.get(pid, pid), []).append(f)
            else:
                by_name = RESULT_NAME.match(os.path.basename(f.path))
                pid = by_name["plan"] if by_name else NO_PLAN
                unread.setdefault(run_of.get(pid, pid), []).append(f)
        refs = list(grouped) + [ref for ref in files_of if ref not in grouped]
        exists = self._exists()
        for ref in refs:
            plan_file = files_of.get(ref)
            pid = plan_file.plan_id if plan_file is not None else ref
            doc, note = self._plan_doc(pid, plan_file)
            in_order = tuple(ordered(grouped.get(ref, ())))
            self._plans[ref] = PlanRecord(
                pid,
                in_order,
                doc,
                note,
                tuple(
                    judge(f.result, doc, plan_note=note, exists=exists)
                    for f in in_order
                    if f.result is not None
                ),
                summary=self._summary_doc(doc, ref),
                unread=tuple(unread.get(ref, ())),
                ref=ref,
            )

    def _summary_doc(self, doc: PlanDoc | None, plan_id: str) -> SummaryDoc | None:
        """The plan's SUMMARY.md beside its PLAN.md, when there is one."""
        if doc is None or doc.path is None:
            return None
        path = summary_path(doc.path)
        if not os.path.lexists(path):
            return None
        self.watch(path)
        try:
            text, undecodable = read_markdown(path, self.layout.root_real)
        except Unreadable as err:
            self._problem(err.problem, plan_id)
            return None
        if undecodable is not None:
            self._problem(undecodable, plan_id)
        found = parse_summary(text, path)
        if found.note:
            self._problem(Problem(path, found.note_line, found.note, Severity.WARNING), plan_id)
        return found

    def _exists(self) -> Exists | None:
        project = self.layout.project
        if project is None:
            return None
        root_real = self.layout.root_real

        def exists(rel: str) -> bool | None:
            full = os.path.join(project, rel)
            if not inside(root_real, full):
                return None
            return os.path.lexists(full)

        return exists

    def plan_list(self) -> list[PlanFile]:
        """Every PLAN.md found (in the project, or the folder of plans opened), each as the
        run it is listed as."""
        if self._plan_index is None:
            problems: list[Problem] = []
            self._plan_index = find_plan_files(
                self.layout.plan_roots(), self.layout.root_real, problems, skip=self._left
            )
            for problem in problems:
                self._problem(problem, row=True)
        return self._plan_index

    def _left(self, path: str) -> bool:
        return self.scope is not None and self.scope.left(path)

    def plan_files(self) -> dict[str, str]:
        """Plan id to the PLAN.md its result logs are matched with."""
        return {p.plan_id: p.path for p in self.plan_list() if p.primary}

    def _plan_doc(
        self, plan_id: str, plan_file: PlanFile | None
    ) -> tuple[PlanDoc | None, str | None]:
        if not self.layout.plan_roots():
            what = "a single result file" if self.layout.single else "only the .ultraplan logs"
            return None, (
                f"PLAN.md not looked for ({what} opened, not the project): task name not checked"
            )
        if plan_file is None:
            return None, (
                f"no PLAN.md for {plan_id} in the project (looked in .planning/ for "
                f"{plan_id}-PLAN.md and PLAN.md frontmatter): task name not checked"
            )
        path = plan_file.path
        self.watch(path)
        try:
            text, undecodable = read_markdown(path, self.layout.root_real)
        except Unreadable as err:
            self._problem(err.problem, plan_file.ref)
            return None, f"{self._rel(path)} not read: task name not checked"
        if undecodable is not None:
            self._problem(undecodable, plan_file.ref)
        doc = parse_plan(text, path)
        if doc.note:
            self._problem(Problem(path, doc.note_line, doc.note, Severity.WARNING), plan_file.ref)
        return doc, None

    def _summary(self, plan: PlanRecord) -> RunSummary:
        status, outcome = plan_status(
            plan.files, plan.doc, plan.judgements, summarized=plan.summary is not None
        )
        latest = latest_by_task(plan.files)
        known = max(len(latest), len(plan.doc.tasks) if plan.doc else 0) if latest else 0
        ok = sum(1 for f in latest.values() if canonical_status(status_of(f)) == "success")
        durations = [
            d
            for f in plan.files
            if f.result is not None and (d := f.result.duration_ms) is not None
        ]
        title = one_line(plan.doc.title, 160) if plan.doc and plan.doc.title else ""
        return RunSummary(
            ref=plan.run_ref,
            index=0,
            format=FORMAT.id,
            status=status,
            outcome=outcome,
            steps=len(plan.files),
            duration_ms=sum(durations) if durations else None,
            duration_label=(
                f"sum of duration_ms over {len(durations)} result"
                f"{'s' if len(durations) != 1 else ''}"
                if durations
                else None
            ),
            score=ok / known if known else None,
            score_label="tasks ok" if known else None,
            title=title,
            metadata=plan_metadata(plan),
        )

    def _loader(self, plan_id: str) -> Callable[[str], Run]:
        def load(ref: str) -> Run:
            return self._build(self._plans[plan_id], ref)

        return load

    def _build(self, plan: PlanRecord, ref: str) -> Run:
        index = self.find(ref)
        entry = self.entry(index) if index is not None else None
        summary = entry if isinstance(entry, RunSummary) else self._summary(plan)
        return Run(
            summary=summary,
            steps=build_steps(plan, ref),
            fields=self._run_fields(plan),
            raw={
                "plan_id": plan.plan_id,
                "plan_file": plan.doc.path if plan.doc else None,
                "results": [
                    {"file": f.rel, "document": f.result.doc if f.result is not None else None}
                    for f in plan.files
                ],
            },
            problems=tuple(p for p in self.problems() if p.ref == plan.run_ref),
            path=self.layout.logs or self.layout.root,
            detail=plan,
            metadata=plan_metadata(plan),
        )

    def _run_fields(self, plan: PlanRecord) -> tuple[Field, ...]:
        out: list[Field] = []
        doc = plan.doc
        out.append(Field("plan file", self._rel(doc.path) if doc and doc.path else plan.note))
        if doc is not None and doc.objective:
            out.append(Field("objective", doc.objective, markdown=True))
        out.append(Field("tasks", task_lines(plan.files, doc, plan.unread)))
        if doc is not None and doc.criteria:
            out.append(Field("success criteria", [c.shown() for c in doc.criteria]))
        if plan.summary is not None:
            out.append(Field("summary file", self._rel(plan.summary.path)))
            if plan.summary.frontmatter:
                out.append(Field("summary frontmatter", plan.summary.frontmatter))
            if plan.summary.body:
                out.append(Field("summary", plan.summary.body, markdown=True))
        out.append(Field("validation", tally(plan.judgements)))
        if plan.run_ref == plan.plan_id:  # side files name plans by id: the plan's first file
            out.extend(side_fields(self._sides, plan, {p.plan_id for p in self._plans.values()}))
        return tuple(out)

    # -- validation ----------------------------------------------------------------------

    def reports(self) -> list[FileReport]:
        """The validation of every result file, in date-directory and file order (after
        :meth:`scan`)."""
        return file_reports(self._files, self._plans.values(), self._listed_ref)

    def _listed_ref(self, plan_id: str) -> str | None:
        index = self.find(plan_id)
        return plan_id if index is None else self.entry(index).ref


def claim_dir(place: Walked) -> Opened | None:
    """Claim a project, ``.ultraplan`` or ``logs`` directory, or a folder of plans; of a
    project or a folder of plans, only what is ultraplan's (:mod:`~.planning`'s scopes)."""
    layout = layout_of(place)
    if layout is None:
        return None
    scope: Scope | None = None  # .ultraplan, logs and result directories: all of it
    if layout.plans is not None:
        scope = PlansScope(place.path)
    elif layout.project is not None:
        scope = ProjectScope(place.path)
    return Opened((UltraplanSource(layout, scope=scope),), scope=scope)


def open_file(path: str, sniffed: Sniffed, label: str | None) -> UltraplanSource | None:
    """Open one result YAML file (by content) on its own."""
    if not path.endswith(YAML_SUFFIXES) or sniffed.layout in ("empty", "binary"):
        return None
    root_real = os.path.realpath(path)
    if not looks_like_result(quietly(yaml_doc, path, root_real)):
        return None
    return UltraplanSource(Layout(path, root_real, single=path), label=label)
