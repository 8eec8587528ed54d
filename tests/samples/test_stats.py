"""``trajtui stats`` on the real samples, against the rates the files record themselves."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.workspace import open_paths
from tests.samples.locate import require
from trajtui.core.stats.collect import collect, grouped
from trajtui.core.stats.figures import Figures
from trajtui.formats.registry import figures

ACP = require("acp-harness")
EVAL = require("eval-results")


def stats_of(path: Path) -> Figures:
    ws = open_paths([str(path)])
    for _ in ws.scan():
        pass
    parts = figures()
    return grouped(collect(ws.sources, ws.ref, parts=parts).runs, None, parts)[0]


def records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


# pass@5 and pass^5 at k = n = 5 are the shares of tasks with any / every trial passing
# (the counts the run list's title has shown for these files: 27/30 and 13/30, 79/89 and
# 46/89, 1/1 and 1/1).
TRIALS = {
    "trials_codex_you_k5_30prompts_mixed.jsonl": (27 / 30, 13 / 30),
    "trials_droid_k5_89prompts_hint_metadata_toolinput.jsonl": (79 / 89, 46 / 89),
    "trials_early_droid_k5_single.jsonl": (1.0, 1.0),
}


@pytest.mark.parametrize("name", sorted(TRIALS))
def test_trials_pass_at_1_is_the_files_own_pass_rate(name: str) -> None:
    path = ACP / name
    fig = stats_of(path)
    estimates = {e["name"]: e for e in fig.data["trials"]["estimates"]}
    rates = [r["passRate"] for r in records(path)]
    # pass@1 (mean over tasks of c/n) is the mean of the passRate each record writes
    assert estimates["pass@1"]["value"] == pytest.approx(sum(rates) / len(rates), abs=1e-12)
    assert fig.data["trials"]["file"]["passRate"]["mean"] == pytest.approx(
        sum(rates) / len(rates), abs=1e-12
    )
    at_5, hat_5 = TRIALS[name]
    assert estimates["pass@5"]["value"] == pytest.approx(at_5, abs=1e-12)
    assert estimates["pass^5"]["value"] == pytest.approx(hat_5, abs=1e-12)
    # the file's own passAtK is computed another way (1 - (1 - passRate)^k): shown beside,
    # never taken for the estimate
    file_at_k = [r["passAtK"] for r in records(path)]
    assert fig.data["trials"]["file"]["passAtK"]["mean"] == pytest.approx(
        sum(file_at_k) / len(file_at_k), abs=1e-12
    )


def test_eval_accuracy_and_auprc_are_the_files_own() -> None:
    path = EVAL / "results" / "baseline" / "G1a" / "run_20260115_183358.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    fig = stats_of(path)
    data = fig.data["eval"]
    assert data["accuracy"] == {
        "value": doc["accuracy"],
        "num": doc["correct"],
        "den": doc["total"],
    }
    # the file's auprc_ge_high / auprc_ge_critical (ADDM's own average precision)
    assert data["auprc"]["≥ High"]["value"] == pytest.approx(doc["auprc"]["auprc_ge_high"])
    assert data["auprc"]["≥ Critical"]["value"] == pytest.approx(doc["auprc"]["auprc_ge_critical"])
