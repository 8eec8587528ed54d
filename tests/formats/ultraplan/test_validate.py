"""ultraplan logs: the ``validate`` command (one line per result file, JSON, exit codes),
and ``ls``/``show`` on a project."""

from __future__ import annotations

import json
import os
from pathlib import Path

from tests.formats.ultraplan.builders import (
    DAY,
    log,
    project,
    result,
    write_result,
)
from tests.formats.ultraplan.projects import full_project, run_cli, tree_state

# -- the validate command --------------------------------------------------------------------


def test_validate_prints_one_line_per_result_file(tmp_path: Path) -> None:
    root = full_project(tmp_path)
    out = run_cli("validate", str(root))
    assert out.returncode == 1, out.stderr
    executions = root / ".ultraplan" / "logs" / "executions"
    lines = out.stdout.splitlines()
    assert [line.split(": ")[0] for line in lines] == [
        str(executions / DAY / f"03-01-task-0{n}") + s
        for n, s in [
            (1, "-success.yaml"),
            (2, "-failure.yaml"),
            (2, "-success.yaml"),
            (3, "-blocked.yaml"),
            (4, "-success.yaml"),
            (5, "-success.yaml"),
        ]
    ] + [
        str(executions / "2026-01-27" / "03-02-task-01-success.yaml"),
        str(executions / "2026-01-27" / "03-02-task-02-partial.yaml"),
    ]
    assert lines[0].endswith(": VALID")
    assert lines[1].endswith(": VALID_WITH_WARNINGS: status 'failed' read as failure")
    assert ": INVALID: not read: line 4: invalid YAML: " in lines[3]
    assert ": INVALID: not read: line 3: refused tag !!python/object/apply:os.system" in lines[4]
    assert "alias bomb" in lines[5]
    assert f"{executions / DAY / '03-01-task-03-blocked.yaml'}:4: invalid YAML" in out.stderr
    assert "Traceback" not in out.stderr


def test_validate_json_and_exit_0_without_invalid_results(tmp_path: Path) -> None:
    project(tmp_path)
    write_result(tmp_path, "03-01-task-01-success.yaml", log(result()))
    write_result(tmp_path, "03-01-task-02-failure.yaml", log(result("failed"), task_index=2))
    out = run_cli("validate", str(tmp_path), "--json")
    assert out.returncode == 0, out.stderr
    objs = [json.loads(line) for line in out.stdout.splitlines()]
    assert [o["verdict"] for o in objs] == ["VALID_WITH_WARNINGS", "VALID_WITH_WARNINGS"]
    assert objs[1]["ref"] == "03-01/step-2" and objs[1]["status"] == "failed"
    assert objs[1]["plan"] == "03-01" and objs[1]["variant"] == "snake"
    assert "status 'failed' read as failure" in objs[1]["reasons"]
    assert {"rule", "severity", "message"} == set(objs[1]["findings"][0])


def test_validate_usage_and_unreadable_inputs(tmp_path: Path) -> None:
    assert run_cli("validate").returncode == 2
    assert run_cli("validate", "--bogus", "x").returncode == 2
    missing = run_cli("validate", str(tmp_path / "nope"))
    assert missing.returncode == 1
    assert missing.stderr.strip() == f"{tmp_path / 'nope'}: no such file or directory"
    jsonl = tmp_path / "c.jsonl"
    jsonl.write_text(json.dumps({"id": "a", "trajectory": [], "timing": {}}) + "\n")
    other = run_cli("validate", str(jsonl))
    # a format that cannot be validated: one line that says so, exit 2 (not "all valid")
    assert other.returncode == 2 and other.stdout == ""
    assert other.stderr.splitlines() == [
        f"{jsonl}: acp-harness capture cannot be validated (validate reads: ultraplan logs)"
    ]
    empty = tmp_path / "empty"
    project(empty)
    nothing = run_cli("validate", str(empty))
    assert nothing.returncode == 0 and nothing.stdout == ""
    assert "warning: no execution logs" in nothing.stderr
    for out in (missing, other, nothing):
        assert "Traceback" not in out.stderr


def test_validate_shows_escape_sequences_as_symbols(tmp_path: Path) -> None:
    project(tmp_path)
    body = result(files_modified=["src/\x1b[31mred.md"])
    write_result(tmp_path, "03-01-task-01-success.yaml", log(body))
    out = run_cli("validate", str(tmp_path))
    assert "not found in the project: src/␛[31mred.md" in out.stdout
    assert "\x1b" not in out.stdout


def test_ls_and_show_on_a_project_without_writing_anything(tmp_path: Path) -> None:
    root = full_project(tmp_path)
    before = tree_state(root)
    listed = run_cli("ls", str(root))
    assert listed.returncode == 0
    rows = {line.split()[0]: line for line in listed.stdout.splitlines()[1:]}
    assert set(rows) == {"03-01", "03-02"}
    assert "◐ incomplete" in rows["03-01"] and "Build the executor agent." in rows["03-01"]
    shown = run_cli("show", str(root), "03-01/step-2")
    assert shown.returncode == 0, shown.stderr
    assert "VALID_WITH_WARNINGS: status 'failed' read as failure" in shown.stdout
    raw = json.loads(run_cli("show", str(root), "03-01/step-2", "--json").stdout)
    assert raw["ref"] == "03-01/step-2" and raw["result"]["status"] == "failed"
    run_cli("validate", str(root))
    assert tree_state(root) == before
    assert not os.path.exists("/tmp/trajtui-pwned")
