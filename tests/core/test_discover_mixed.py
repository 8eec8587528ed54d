"""Discovery of mixed directories: a format that recognises a directory reads what is its
own there, and every other supported file under it is still read by its format; what is
read by none is listed by ``ls --verbose`` with why (issue 22, item 2.2)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from tests.formats.acp.builders import capture, write_jsonl
from tests.formats.atif import builders as ba
from tests.formats.eval_results import builders as be
from tests.formats.forecast import builders as bf
from tests.formats.ultraplan.builders import plan_md, project, write_plan
from tests.helpers import forked


def ls(*args: str) -> subprocess.CompletedProcess[str]:
    return forked.run(
        [sys.executable, "-m", "trajtui", "ls", *args], capture_output=True, text=True, timeout=120
    )


def listed(root: Path) -> list[dict[str, Any]]:
    out = ls("--json", str(root))
    assert "Traceback" not in out.stderr, out.stderr
    return [json.loads(line) for line in out.stdout.splitlines()]


def by_format(rows: list[dict[str, Any]]) -> Counter[str]:
    return Counter(row["format"] for row in rows)


def captures(path: Path, prefix: str, n: int) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    return write_jsonl(path, [capture(f"{prefix}-{i}") for i in range(n)])


def eval_run(run_dir: Path, run_id: str = "G1_allergy_V2") -> Path:
    return be.write_json(
        run_dir / "results.json",
        be.results_doc([be.sample("bizA", "Bliss", "Low Risk", gt="Low Risk")], run_id=run_id),
    )


def test_an_eval_run_one_level_down_does_not_hide_the_captures_beside_it(tmp_path: Path) -> None:
    # the shape: 2 eval runs one level down, 18 capture records beside them
    eval_run(tmp_path / "20260118_001429_G1_allergy_V2")
    eval_run(tmp_path / "20260118_002046_G1_allergy_V2")
    captures(tmp_path / "claude.jsonl", "claude", 9)
    captures(tmp_path / "codex" / "codex.jsonl", "codex", 9)
    rows = listed(tmp_path)
    assert len(rows) == 20
    assert by_format(rows) == {"eval-results": 2, "acp-capture": 18}


def test_results_json_of_another_format_inside_an_eval_tree_is_read_by_its_format(
    tmp_path: Path,
) -> None:
    # acp-harness writes results.jsonl too: a file is told by its content, not its name
    eval_run(tmp_path / "results" / "dev" / "20260118_001429_G1_allergy_V2")
    captures(tmp_path / "results" / "dev" / "acp-run" / "results.jsonl", "acp", 3)
    rows = listed(tmp_path)
    assert by_format(rows) == {"eval-results": 1, "acp-capture": 3}


def test_a_harbor_job_inside_an_eval_tree_is_listed_as_trials(tmp_path: Path) -> None:
    eval_run(tmp_path / "dev" / "20260118_001429_G1_allergy_V2")
    ba.job(tmp_path / "dev" / "harbor-job")
    rows = listed(tmp_path)
    counts = by_format(rows)
    assert counts["eval-results"] == 1
    trials = {row["ref"].split("::")[-1] for row in rows if row["format"] == "atif"}
    assert {"fix-bug__AAAA111", "fix-bug__BBBB222", "setup__EEEE555"} <= trials


def test_a_forecast_eval_directory_does_not_hide_other_files_in_it(tmp_path: Path) -> None:
    ev = tmp_path / "my-eval"
    bf.write_json(ev / "summary.json", bf.summary([bf.entry("fed")]))
    bf.run_dir(ev / "runs" / "fed", bf.fed_run())
    captures(ev / "capture.jsonl", "beside", 2)
    captures(ev / "logs" / "later.jsonl", "below", 3)
    rows = listed(ev)
    assert by_format(rows) == {"forecast-eval": 1, "acp-capture": 5}


def test_a_harbor_job_does_not_hide_other_files_in_it(tmp_path: Path) -> None:
    job = ba.job(tmp_path / "job")
    captures(job / "capture.jsonl", "beside", 2)
    captures(job / "extra" / "more.jsonl", "below", 3)
    rows = listed(job)
    counts = by_format(rows)
    assert counts["acp-capture"] == 5 and counts["atif"] >= 5


def test_an_atif_trajectory_does_not_claim_the_directory_it_lies_in(tmp_path: Path) -> None:
    ba.write_json(tmp_path / "trajectory.json", ba.fix_bug())
    captures(tmp_path / "capture.jsonl", "beside", 2)
    eval_run(tmp_path / "results" / "dev" / "20260118_001429_G1_allergy_V2")
    rows = listed(tmp_path)
    assert by_format(rows) == {"atif": 1, "acp-capture": 2, "eval-results": 1}


def test_an_ultraplan_project_does_not_hide_the_outputs_inside_it(tmp_path: Path) -> None:
    root = project(tmp_path / "proj")
    write_plan(root, "03-01", plan_md("03-exec", "01", [("Task 1: Do it", ["a.py"])], []))
    captures(root / "outputs" / "capture.jsonl", "run", 4)
    eval_run(root / "results" / "dev" / "20260118_001429_G1_allergy_V2")
    rows = listed(root)
    assert by_format(rows) == {"ultraplan": 1, "acp-capture": 4, "eval-results": 1}


def test_files_no_format_reads_inside_a_recognised_directory_are_listed_with_why(
    tmp_path: Path,
) -> None:
    eval_run(tmp_path / "20260118_001429_G1_allergy_V2")
    (tmp_path / "notes.json").write_text('{"hello": "world"}')
    ev = tmp_path / "my-eval"
    bf.write_json(ev / "summary.json", bf.summary([bf.entry("fed")]))
    bf.run_dir(ev / "runs" / "fed", bf.fed_run())
    (ev / "eval-config.json").write_text('{"seed": 1}')
    job = ba.job(tmp_path / "job")
    (job / "job.log").write_text("starting\n")
    out = ls("-v", str(tmp_path))
    assert out.returncode == 0, out.stderr
    for path in (tmp_path / "notes.json", ev / "eval-config.json", job / "job.log"):
        assert f"{path}: not recognised: " in out.stderr
