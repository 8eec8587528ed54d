"""ultraplan result logs: plans, their task results, and the protocol's validation rules.

ultraplan's executors are LLM agents that write one YAML file per task result, following
shared/formats/ultraplan-result-capture-protocol.md; no program checks what they write, so
every key may be missing, renamed or extra (shared/formats/REAL-WORLD-NOTES.md, "ultraplan").

What is read
    A project directory holding ``.ultraplan/`` or a ``.planning/`` with plans, the
    ``.ultraplan`` directory itself, its ``logs/`` directory, or a folder of PLAN.md files
    (``.planning``, ``phases``, a phase directory, saved plans), recognised by what is
    inside, never by a name alone; a single result YAML file opened directly is read too.
    Of a project, only ``.ultraplan``, ``.planning`` and the plans at its top level are this
    format's: the rest of it is read by the other formats. A file that cannot be parsed is a
    :class:`~trajtui.core.model.Problem` and the rest still shows. Nothing is written, and
    nothing outside the directory the user opened is read.

Runs and steps
    A run is a plan (ref: its ``plan_id``, e.g. ``03-01``; a PLAN.md kept beside the
    project's phases under its folder, ``phases-v1-backup/03-01``); its steps are its
    results in time order, so a retry is one more step of the same task. Each result is
    judged VALID, VALID_WITH_WARNINGS or INVALID by the protocol's rules.

Modules
    :mod:`~.ids` (plan and task ids, log file names), :mod:`~.plan` (PLAN.md parsing:
    :mod:`~.markup`, what is code in it, and :mod:`~.tasks`, which tasks are the plan's),
    :mod:`~.results` (one result YAML, both shapes, normalised), :mod:`~.verdict` (verdicts and
    their reasons), :mod:`~.schema` and :mod:`~.validate` (the protocol's rules),
    :mod:`~.layout` (recognising directories, reading files safely), :mod:`~.planning`
    (PLAN.md files: telling, finding and naming them; what a project claim reads),
    :mod:`~.runs` (plans as runs, results as steps), :mod:`~.attach`
    (sessions, daily summaries, retries and verdicts shown with plans), :mod:`~.reports`
    (what ``trajtui validate`` prints), :mod:`~.source`
    (:class:`UltraplanSource` and :data:`ULTRAPLAN`, the registered format).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from trajtui.core.lazynames import lazy_names
from trajtui.formats.ultraplan.claim import FORMAT, ULTRAPLAN

if TYPE_CHECKING:
    from trajtui.formats.ultraplan.ids import epoch_ms
    from trajtui.formats.ultraplan.layout import Layout
    from trajtui.formats.ultraplan.plan import Criterion, PlanDoc, PlanTask, parse_plan
    from trajtui.formats.ultraplan.reports import FileReport
    from trajtui.formats.ultraplan.results import CAMEL_KEYS, SNAKE_KEYS, ResultDoc, read_result
    from trajtui.formats.ultraplan.runs import PlanRecord, ResultFile, plan_status
    from trajtui.formats.ultraplan.source import NO_PLAN, UltraplanSource, claim_dir, open_file
    from trajtui.formats.ultraplan.validate import judge
    from trajtui.formats.ultraplan.verdict import Finding, Judgement, Rule, Verdict

_LAZY = {
    "epoch_ms": "ids",
    "Layout": "layout",
    "Criterion": "plan",
    "PlanDoc": "plan",
    "PlanTask": "plan",
    "parse_plan": "plan",
    "FileReport": "reports",
    "CAMEL_KEYS": "results",
    "SNAKE_KEYS": "results",
    "ResultDoc": "results",
    "read_result": "results",
    "PlanRecord": "runs",
    "ResultFile": "runs",
    "plan_status": "runs",
    "NO_PLAN": "source",
    "UltraplanSource": "source",
    "claim_dir": "source",
    "open_file": "source",
    "judge": "validate",
    "Finding": "verdict",
    "Judgement": "verdict",
    "Rule": "verdict",
    "Verdict": "verdict",
}
"""The readers, imported when first named (the registry needs only :data:`ULTRAPLAN`)."""

if not TYPE_CHECKING:  # (for mypy, the names are the imports above)
    __getattr__ = lazy_names(__name__, _LAZY)


__all__ = [
    "CAMEL_KEYS",
    "FORMAT",
    "NO_PLAN",
    "SNAKE_KEYS",
    "ULTRAPLAN",
    "Criterion",
    "FileReport",
    "Finding",
    "Judgement",
    "Layout",
    "PlanDoc",
    "PlanRecord",
    "PlanTask",
    "ResultDoc",
    "ResultFile",
    "Rule",
    "UltraplanSource",
    "Verdict",
    "claim_dir",
    "epoch_ms",
    "judge",
    "open_file",
    "parse_plan",
    "plan_status",
    "read_result",
]
