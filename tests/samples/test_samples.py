"""Conformance: every real acp-harness sample is recognised and read in full.

The samples live outside the repository (see :mod:`tests.samples.locate`). What each file holds was
read by hand (``jq`` and the notes in ``SOURCES.txt``), not computed by code like trajtui's:
the record count, the first and last ids, the steps in all its trajectories, and how many
runs passed, failed, timed out, or have no verdict.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.workspace import open_paths
from tests.samples.locate import require
from trajtui.core.model import RunSummary
from trajtui.core.source import Source
from trajtui.core.workspace import Workspace
from trajtui.ui.store import RunStore

ACP = require("acp-harness")


@dataclass(frozen=True)
class Facts:
    """What one sample file holds, read by hand."""

    format: str
    runs: int
    first: str
    last: str
    steps: int
    """Steps of every trajectory of every record (of every trial, for trials files)."""
    statuses: dict[str, int]
    """score.pass true/false -> pass/fail, metadata.timedOut or a "timed out" error ->
    timeout, no verdict -> done; trials: every trial passed, none, or some (mixed)."""


FILES = {
    # acp-harness compare: each prompt's runs ranked (winners read from the file by hand)
    "compare_pairwise_rankings.jsonl": Facts(
        "acp-compare", 5, "search-1", "search-5", 10, {"you #1": 2, "builtin #1": 3}
    ),
    "capture_headless_claude-code_151rows_minimal.jsonl": Facts(
        "acp-capture", 151, "websearch-2", "websearch-2000", 67, {"fail": 148, "pass": 3}
    ),
    "capture_headless_claude-code_mcp_scored.jsonl": Facts(
        "acp-capture", 5, "websearch-26", "websearch-435", 43, {"pass": 5}
    ),
    "capture_headless_codex_117rows_toolErrors.jsonl": Facts(
        "acp-capture", 117, "websearch-2", "websearch-195", 89, {"done": 89, "timeout": 28}
    ),
    "capture_headless_codex_scored_toolErrors.jsonl": Facts(
        "acp-capture", 5, "websearch-2", "websearch-9", 74, {"fail": 1, "timeout": 2, "pass": 2}
    ),
    "capture_headless_gemini_many-message-chunks_scored.jsonl": Facts(
        "acp-capture", 5, "websearch-26", "websearch-435", 134, {"fail": 1, "pass": 4}
    ),
    "capture_v0.3.3_acp_all-timeouts_errors.jsonl": Facts(
        "acp-capture", 57, "websearch-425", "websearch-526", 0, {"timeout": 57}
    ),
    "capture_v0.3.3_acp_message-chunks.jsonl": Facts(
        "acp-capture", 5, "websearch-2", "websearch-9", 215, {"done": 5}
    ),
    "trials_codex_you_k5_30prompts_mixed.jsonl": Facts(
        "acp-trials",
        30,
        "websearch-1506",
        "websearch-245",
        571,
        {"pass": 13, "mixed": 14, "fail": 3},
    ),
    "trials_droid_k5_89prompts_hint_metadata_toolinput.jsonl": Facts(
        "acp-trials",
        89,
        "websearch-2000",
        "websearch-2088",
        3046,
        {"pass": 46, "mixed": 33, "fail": 10},
    ),
    "trials_early_droid_k5_single.jsonl": Facts(
        "acp-trials", 1, "websearch-1049", "websearch-1049", 23, {"pass": 1}
    ),
}

# pass@1: passing trials of all trials; pass@k: prompts with a passing trial; pass^k: prompts
# whose every trial passed (counted with jq: 99 of 150, 27 of 30, 13 of 30...)
TRIALS_TITLES = {
    "trials_codex_you_k5_30prompts_mixed.jsonl": (
        "30 runs · pass@1 66.0% · pass@5 90.0% · pass^5 43.3%"
    ),
    "trials_droid_k5_89prompts_hint_metadata_toolinput.jsonl": (
        "89 runs · pass@1 69.7% · pass@5 88.8% · pass^5 51.7%"
    ),
    "trials_early_droid_k5_single.jsonl": "1 run · pass@1 100.0% · pass@5 100.0% · pass^5 100.0%",
}


def scanned(path: Path) -> Workspace:
    ws = open_paths([str(path)])
    for _ in ws.scan():
        pass
    return ws


def summaries(source: Source) -> list[RunSummary]:
    out = []
    for i in range(len(source)):
        entry = source.entry(i)
        assert isinstance(entry, RunSummary), entry
        out.append(entry)
    return out


def test_the_facts_cover_every_sample_of_a_format_trajtui_reads() -> None:
    assert sorted(p.name for p in ACP.glob("*.jsonl")) == sorted(FILES)


@pytest.mark.parametrize("name", sorted(FILES))
def test_sample_is_read_whole(name: str) -> None:
    facts = FILES[name]
    ws = scanned(ACP / name)
    (source,) = ws.sources
    assert source.format.id == facts.format
    assert source.problems() == []
    runs = summaries(source)
    assert len(runs) == facts.runs
    assert (runs[0].ref, runs[-1].ref) == (facts.first, facts.last)
    assert len({r.ref for r in runs}) == facts.runs  # no id repeats in these files
    assert sum(r.steps or 0 for r in runs) == facts.steps
    assert Counter(r.status for r in runs) == facts.statuses
    # every run resolves by its reference, and every step of the last one by its own
    for r in runs:
        assert ws.resolve(r.ref).index == r.index
    last = source.run(len(source) - 1)
    steps = last.steps or tuple(s for a in last.attempts for s in a.steps)
    assert len(steps) == runs[-1].steps
    for step in steps:
        assert ws.resolve(step.ref).ref == step.ref


def test_every_sample_file_was_considered() -> None:
    files = sorted(p for p in ACP.iterdir() if p.is_file())
    assert len(files) == 12
    ws = open_paths([str(ACP)])
    assert sorted(Path(s.path).name for s in ws.sources) == sorted(FILES)
    assert {Path(p).name: why for p, why in ws.ignored} == {
        "SOURCES.txt": "not recognised: not JSON (text)"
    }


def _records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


@pytest.mark.parametrize("name", sorted(TRIALS_TITLES))
def test_trials_title_names_pass_at_1_pass_at_k_and_pass_hat_k(name: str) -> None:
    path = ACP / name
    ws = scanned(path)
    runs = summaries(ws.sources[0])
    store = RunStore(ws)
    store.count_new()
    assert store.summary_line() == TRIALS_TITLES[name]
    # the file's own pass rates are shown as it writes them
    for run, row in zip(runs, _records(path), strict=True):
        obj = run.to_json()
        for key in ("passRate", "passAtK", "passExpK"):
            assert obj.get(key) == row.get(key)


def test_a_timed_out_capture_is_a_timeout_whatever_its_score() -> None:
    # websearch-3 and -6 have metadata.timedOut true and score.pass false
    runs = summaries(scanned(ACP / "capture_headless_codex_scored_toolErrors.jsonl").sources[0])
    assert [(r.ref, r.status) for r in runs] == [
        ("websearch-2", "fail"),
        ("websearch-3", "timeout"),
        ("websearch-6", "timeout"),
        ("websearch-7", "pass"),
        ("websearch-9", "pass"),
    ]
