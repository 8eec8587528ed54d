"""Small ultraplan fixtures of our own: result logs, sessions, summaries and PLAN.md files in
the shapes the protocol doc and the real-world notes describe (never copies of the samples)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from trajtui.formats.ultraplan import PlanDoc, PlanTask

DAY = "2026-01-26"


def result(
    status: Any = "success",
    task_name: Any = "Task 1: Create executor agent",
    **overrides: Any,
) -> dict[str, Any]:
    """A complete snake_case executor result (the protocol's schema); ``overrides`` replace or
    add keys, a value of ``...`` (for any key, ``status`` and ``task_name`` included) removes
    the key."""
    ok = status == "success"
    body: dict[str, Any] = {
        "status": status,
        "task_name": task_name,
        "files_modified": ["src/agent.md"],
        "verification": {
            "command": "grep 'model: sonnet' src/agent.md",
            "exit_code": 0 if ok else 1,
            "output_summary": "Pattern found" if ok else "No match",
        },
        "done_criteria_met": ok,
        "evidence": "Created the agent.\nIt has the execution protocol.",
        "error": None if ok else "verification failed: pattern not found",
        "metadata": {"duration_ms": 32000, "attempt": 1, "executor_id": "exec-1"},
    }
    for key, value in {"status": status, "task_name": task_name, **overrides}.items():
        if value is ...:
            body.pop(key, None)
        else:
            body[key] = value
    return body


def camel_result(
    task_id: str = "03-02-01", status: str = "success", **overrides: Any
) -> dict[str, Any]:
    """A camelCase executor result (the later implementation's schema)."""
    body: dict[str, Any] = {
        "taskId": task_id,
        "status": status,
        "timestamp": "2026-01-26T11:00:00Z",
        "filesModified": ["src/auth/jwt.ts"],
        "linesChanged": 45,
        "commitHash": "abc1234",
        "testResults": {"passed": 12, "failed": 0, "skipped": 1},
        "learnings": ["JWT needs an explicit algorithm"],
    }
    if status != "success":
        body["error"] = "tests failed"
    for key, value in overrides.items():
        if value is ...:
            body.pop(key, None)
        else:
            body[key] = value
    return body


def log(
    body: dict[str, Any],
    plan_id: str | None = "03-01",
    task_index: int | None = 1,
    logged_at: str | None = "2026-01-26T10:30:45Z",
    session_id: str | None = "sess-1",
) -> dict[str, Any]:
    """A result log: the header, then the result under ``result``."""
    doc: dict[str, Any] = {}
    for key, value in (
        ("logged_at", logged_at),
        ("plan_id", plan_id),
        ("task_index", task_index),
        ("session_id", session_id),
    ):
        if value is not None:
            doc[key] = value
    doc["result"] = body
    return doc


def dump(doc: Any) -> str:
    """YAML text of ``doc`` (keys in insertion order)."""
    return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True)


def project(root: Path, *, config: bool = True) -> Path:
    """An empty ultraplan project: ``root/.ultraplan/`` (with a config.json)."""
    up = root / ".ultraplan"
    up.mkdir(parents=True, exist_ok=True)
    if config:
        (up / "config.json").write_text(
            json.dumps({"version": "0.1.0", "mode": "interactive", "depth": "standard"}),
            encoding="utf-8",
        )
    return root


def logs_dir(root: Path) -> Path:
    """The project's ``.ultraplan/logs``."""
    path = root / ".ultraplan" / "logs"
    path.mkdir(parents=True, exist_ok=True)
    return path


def write_result(root: Path, name: str, doc: Any, *, day: str = DAY) -> Path:
    """Write ``doc`` (an object, or YAML text as is) to ``executions/DAY/NAME``."""
    path = logs_dir(root) / "executions" / day / name
    path.parent.mkdir(parents=True, exist_ok=True)
    text = doc if isinstance(doc, str) else dump(doc)
    path.write_text(text, encoding="utf-8")
    return path


def write_json(path: Path, obj: Any) -> Path:
    """Write ``obj`` as indented JSON, making the directories."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(obj, indent=2), encoding="utf-8")
    return path


def plan_md(
    phase: str,
    plan: int | str,
    tasks: list[tuple[str, list[str]]],
    criteria: list[tuple[str, bool | None]],
    *,
    example: bool = True,
) -> str:
    """A PLAN.md: frontmatter, objective, ``<task>`` elements and ``<success_criteria>``.

    With ``example``, the first task's action quotes the protocol's checkbox example inside
    a code fence (checked boxes and a ``<success_criteria>`` block that must be skipped).
    """
    out = [
        "---",
        f"phase: {phase}",
        f"plan: {plan}",
        "type: execute",
        "files_modified:",
        "  - src/agent.md",
        "---",
        "",
        "<objective>",
        "Build the executor agent.",
        "",
        "Purpose: run tasks.",
        "</objective>",
        "",
        "<tasks>",
        "",
    ]
    for n, (name, files) in enumerate(tasks, 1):
        out += [
            '<task type="auto">',
            f"  <name>{name}</name>",
            f"  <files>{', '.join(files)}</files>",
        ]
        out += ["  <action>", f"Do task {n}."]
        if example and n == 1:
            out += [
                "```markdown",
                "<success_criteria>",
                "- [x] Task 1: Create config file (completed 2026-01-26)",
                "- [ ] Task 2: Add validation",
                "</success_criteria>",
                "\\`\\`\\`yaml",
                "status: success",
                "\\`\\`\\`",
                '<task type="auto"><name>Task 9: Example only</name></task>',
                "```",
            ]
        out += ["  </action>", "  <verify>true</verify>", "  <done>done</done>", "</task>", ""]
    out += ["</tasks>", "", "<success_criteria>"]
    for text, checked in criteria:
        box = {True: "[x] ", False: "[ ] ", None: ""}[checked]
        out.append(f"- {box}{text}")
    out += ["</success_criteria>", ""]
    return "\n".join(out)


def write_plan(root: Path, plan_id: str, text: str, *, folder: str = "03-exec") -> Path:
    """Write a PLAN.md to ``.planning/phases/FOLDER/{plan_id}-PLAN.md``."""
    path = root / ".planning" / "phases" / folder / f"{plan_id}-PLAN.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


ALIAS_BOMB = "\n".join(
    ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    + [
        f"{chr(ord('a') + i)}: &{chr(ord('a') + i)} [{', '.join(['*' + chr(ord('a') + i - 1)] * 9)}]"
        for i in range(1, 9)
    ]
)
"""The "billion laughs" document: 9 levels of 9 aliases (9**9 values once expanded)."""

PYTHON_TAG = """logged_at: "2026-01-26T10:40:00Z"
plan_id: "03-01"
result: !!python/object/apply:os.system ["echo pwned > /tmp/trajtui-pwned"]
"""
"""A log whose result would run a command if loaded with an unsafe loader."""


GSD_CONFIG = {
    "mode": "interactive",
    "depth": "comprehensive",
    "parallelization": True,
    "commit_docs": True,
    "model_profile": "quality",
    "workflow": {"research": True, "plan_check": True, "verifier": True},
}
"""A ``.planning/config.json`` as the planner writes it (the keys of the real ones)."""


def summary_md(phase: str, plan: str, title: str) -> str:
    """A ``NN-MM-SUMMARY.md``: frontmatter, then what the executor did."""
    return (
        f"---\nphase: {phase}\nplan: {plan}\nsubsystem: core\nduration: 6min\n---\n\n"
        f"# Phase {phase} Plan {plan}: {title} Summary\n\n**Status:** Complete\n"
    )


def planning_project(root: Path) -> Path:
    """A project planned the way ultraplan's own repository is, with no ``.ultraplan/`` yet:
    ``.planning/`` with ``ROADMAP.md``, ``STATE.md``, ``config.json``, ``PROJECT.md``, a
    research ``SUMMARY.md``, and ``phases/NN-name/NN-MM-PLAN.md`` (7 plans in 3 phases, one
    a decimal phase; 4 with a ``NN-MM-SUMMARY.md``), a quick task
    (``quick/3-fix-nav/3-PLAN.md``, phase ``quick-3``), a backup copy of phase 01
    (``phases-v1-backup/01-foundation/``: 01-01 again, summarized, 01-02, and 01-04, which
    the current phase does not have) and a finished milestone's archived plan
    (``milestones/v1.0-phases/02-state/02-03-PLAN.md``).
    """
    planning = root / ".planning"
    planning.mkdir(parents=True, exist_ok=True)
    (planning / "config.json").write_text(json.dumps(GSD_CONFIG, indent=2), encoding="utf-8")
    (planning / "ROADMAP.md").write_text("# Roadmap\n\n- [ ] Phase 1: Foundation\n")
    (planning / "STATE.md").write_text("# Project State\n\nPhase: 2 of 3\n")
    (planning / "PROJECT.md").write_text("# Project\n\nA tool.\n")
    (planning / "research").mkdir()
    (planning / "research" / "SUMMARY.md").write_text("# Research Summary\n")
    phases = {
        "01-foundation": ["01", "02", "03"],
        "02-state": ["01", "02"],
        "02.5-spike": ["01"],
        "03-cli": ["01"],
    }
    summarized = {"01-01", "01-02", "02-01", "02.5-01"}
    for folder, plans in phases.items():
        phase = folder.split("-")[0]
        for plan in plans:
            pid = f"{phase}-{plan}"
            tasks = [(f"Task 1: Build {pid}", [f"src/{pid}.ts"]), ("Task 2: Test it", ["t.ts"])]
            criteria: list[tuple[str, bool | None]] = [
                (f"Task 1: Build {pid}", pid in summarized),
                ("Task 2: Test it", False),
            ]
            path = write_plan(root, pid, plan_md(folder, plan, tasks, criteria), folder=folder)
            if pid in summarized:
                (path.parent / f"{pid}-SUMMARY.md").write_text(summary_md(folder, plan, pid))
    quick = planning / "quick" / "3-fix-nav"
    quick.mkdir(parents=True)
    (quick / "3-PLAN.md").write_text(
        plan_md("quick-3", "01", [("Task 1: Fix the nav bar", ["nav.ts"])], [], example=False)
    )
    backup = planning / "phases-v1-backup" / "01-foundation"
    backup.mkdir(parents=True)
    for plan in ("01", "02", "04"):
        text = plan_md("01-foundation", plan, [("Task 1: Old way", ["old.ts"])], [])
        (backup / f"01-{plan}-PLAN.md").write_text(text.replace("Build the executor", "Old"))
    (backup / "01-01-SUMMARY.md").write_text(summary_md("01-foundation", "01", "old"))
    archived = planning / "milestones" / "v1.0-phases" / "02-state"
    archived.mkdir(parents=True)
    tasks = [("Task 1: Ship it", ["ship.ts"])]
    (archived / "02-03-PLAN.md").write_text(plan_md("02-state", "03", tasks, [], example=False))
    return root


def plans_folder(root: Path) -> Path:
    """A folder of PLAN files named as people save them (``PLAN_03-05_capture.md``), each
    naming its phase and plan in its frontmatter (``plan: 5`` is ``03-05``), beside a
    ``STATE.md``."""
    root.mkdir(parents=True, exist_ok=True)
    for name, phase, plan in (
        ("PLAN_02.5-03_decision.md", "02.5-tasks-api-spike", "03"),
        ("PLAN_03-05_capture.md", "03-sequential-execution", "5"),
        ("PLAN_06-03_status.md", "06-claude-tasks-sync", "3"),
    ):
        tasks = [("Task 1: Write it down", ["doc.md"])]
        (root / name).write_text(plan_md(phase, plan, tasks, [("Task 1: Write it down", None)]))
    (root / "STATE.md").write_text("# Project State\n")
    return root


def markdown_plan(plan_id: str, tasks: list[str], *, kind: str = "Task") -> str:
    """A PLAN.md the planner wrote as plain Markdown, no frontmatter and no ``<task>``
    elements: a ``# Plan NN-MM: title`` heading and ``## Task N: name`` sections (``kind``
    ``Step``: ``## Step N: name``, each with ``#### Test N`` headings under it, as
    rba-hawko-meter's 20-01 is written), one with a fenced example of another plan's
    heading."""
    out = [f"# Plan {plan_id}: Tests for the ingest modules", "", "**Phase:** 19", ""]
    for n, name in enumerate(tasks, 1):
        out += [f"## {kind} {n}: {name}", "", f"Do {name.lower()}.", ""]
        if kind == "Step":
            out += ["#### Test 1: It loads", "", "#### Test 2: It fails loudly", ""]
        if n == 1:
            out += ["```markdown", f"## {kind} 9: Only an example", "```", ""]
    out += ["## Verification", "", "- pytest passes", ""]
    return "\n".join(out)


def workflow_doc(name: str) -> str:
    """A planner's workflow document (as GSD installs them: ``execute-plan.md``): XML-ish
    sections that mention PLAN.md, ``<task_commit>``, an ``<objective>``, but no plan."""
    return (
        "<purpose>\nExecute a phase prompt (PLAN.md) and create SUMMARY.md.\n</purpose>\n\n"
        f'<step name="{name}">\n<objective>Run every task.</objective>\n'
        "<task_commit>\nCommit each task.\n</task_commit>\n</step>\n"
    )


PLAN_TRAPS: dict[str, list[str]] = {
    # A fence nested in a fence, as planners write them (ultraplan's 02-03, 03-04): read by
    # CommonMark, the inner fence's end closes the outer one and the outer one's end opens
    # a fence that hides the rest of the plan.
    "nested fences": [
        "```markdown",
        "## Result format",
        "",
        "```yaml",
        "status: success",
        "```",
        "",
        "Report it.",
        "```",
    ],
    # A bare fence inside a fence (a box drawn in a document the task writes).
    "a bare fence inside a fence": [
        "```markdown",
        "## Flow",
        "",
        "```",
        "+--------+     +----------+",
        "| <task> | --> | executor |",
        "+--------+     +----------+",
        "```",
        "",
        "| state | next |",
        "```",
    ],
    # Placeholders of a commit message format whose names start with "task" (03-08).
    "placeholders": [
        "<type>(<phase>-<plan>): <task-description>",
        "",
        "<task-number>",
        "Task: <task-number>",
    ],
    # The tags named in running text (01-02).
    "tags named in text": [
        "- XML tags for task structure (<tasks>, <task>, <action>, <verify>, <done>)",
        "<task> elements hold one unit of work each.",
    ],
    # The tags in inline code (01-04).
    "tags in inline code": [
        'Tasks are defined within `<tasks>` using `<task type="auto">` elements:',
        "`<task>` opens one, `</task>` closes it.",
    ],
    # The success criteria section named in inline code, with the items to add to it
    # (get-shit-done-reflect's 34-03 and 43-01).
    "criteria named in the text": [
        "Then update the `<success_criteria>` section of the workflow to add:",
        "- [ ] The workflow updates the signal",
        "- [x] Done before",
    ],
    # An example task in the action, not fenced.
    "an example task": [
        "For example:",
        "",
        '    <task type="auto">',
        "      <name>Task 9: An example</name>",
        "      <action>Do it.</action>",
        "    </task>",
    ],
}
"""What the actions of real plans hold that is no task of theirs (each shape met in
ultraplan's own ``.planning``), by name: lines to put in a task's ``<action>``."""


def trapped_plan(phase: str, plan: str, names: list[str], traps: list[str]) -> str:
    """A PLAN.md whose tasks are ``names``; task 1's action holds the ``traps``
    (:data:`PLAN_TRAPS`), in order, then a ``<success_criteria>`` box per task."""
    out = ["---", f"phase: {phase}", f"plan: {plan}", "type: execute", "---", ""]
    out += ["<objective>", "Write the protocol reference.", "</objective>", "", "<tasks>", ""]
    for n, name in enumerate(names, 1):
        out += ['<task type="auto">', f"  <name>{name}</name>", "  <files>ref.md</files>"]
        out += ["  <action>", f"Write part {n}:", ""]
        if n == 1:
            for trap in traps:
                out += [*PLAN_TRAPS[trap], ""]
        out += ["  </action>", "  <verify>test -f ref.md</verify>", "  <done>written</done>"]
        out += ["</task>", ""]
    out += ["</tasks>", "", "<success_criteria>"]
    out += [f"- [ ] {name}" for name in names]
    out += ["</success_criteria>", ""]
    return "\n".join(out)


def listed_tasks_plan(items: list[str]) -> str:
    """A quick task's PLAN.md in plain Markdown whose tasks are the numbered list under its
    ``## Tasks`` heading (Presto-Agent-Skills' quick tasks)."""
    out = ["---", "quick_id: 260613-134", "---", "", "# Quick Task 260613-134: full page image"]
    out += ["", "## Goal", "", "- Render one full-page image.", "", "## Tasks", ""]
    out += [f"{n}. {item}" for n, item in enumerate(items, 1)]
    out += ["", "## Verification", "", "- Run the verify script.", ""]
    return "\n".join(out)


def tdd_plan(phase: str, plan: str, feature: str) -> str:
    """A TDD plan as get-shit-done's template writes one: ``type: tdd`` and one
    ``<feature>`` (name, files, behavior, implementation) in place of ``<tasks>``."""
    return "\n".join(
        [
            "---",
            f"phase: {phase}",
            f"plan: {plan}",
            "type: tdd",
            "---",
            "",
            "<objective>",
            "Calibrate the surface test first.",
            "</objective>",
            "",
            "<feature>",
            f"  <name>{feature}</name>",
            "  <files>src/surface.py, tests/test_surface.py</files>",
            "  <behavior>",
            "    - a clean smile fits with RMSE under 2%",
            "  </behavior>",
            "  <implementation>Minimise with L-BFGS-B.</implementation>",
            "</feature>",
            "",
            "<success_criteria>",
            "- Failing test written and committed",
            "</success_criteria>",
            "",
        ]
    )


# -- a plan's tasks and criteria, and the plan the validation rules are judged against ------

TASKS = [
    ("Task 1: Create executor agent", ["src/agent.md"]),
    ("Task 2: Add execution protocol", ["src/agent.md", "src/protocol.md"]),
    ("Task 3: Add result reporting", ["src/agent.md"]),
]
CRITERIA = [
    ("Task 1: Create executor agent (completed 2026-01-26)", True),
    ("Task 2: Add execution protocol", False),
    ("Reports are written", None),
]


def plan_doc(*names: str, files: tuple[str, ...] = ("src/agent.md",)) -> PlanDoc:
    """A parsed plan 03-01 with tasks ``names``, each changing ``files``."""
    return PlanDoc(
        path="03-01-PLAN.md",
        plan_id="03-01",
        tasks=tuple(PlanTask(n, name, files) for n, name in enumerate(names, 1)),
    )


PLAN = plan_doc(*(t for t, _ in TASKS))
"""The plan of :data:`TASKS`."""
