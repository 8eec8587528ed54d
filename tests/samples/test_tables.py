"""The Parquet tables of the real samples agree with ``ls --json`` and ``stats --json``
(issue 27): run count, pass share of the graded runs, tool calls in all and by tool."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.tables_check import check_agree, check_refs_lead_back
from tests.samples.locate import SAMPLES, require

require("acp-harness")

KINDS = ["acp-harness", "eval-results", "forecast-agent", "ultraplan"]


@pytest.mark.parametrize("kind", KINDS)
def test_sample_tables_agree(kind: str, tmp_path: Path) -> None:
    counts = check_agree(tmp_path / "out", str(SAMPLES / kind))
    assert counts["runs"] > 0


def test_all_samples_at_once_and_refs_lead_back(tmp_path: Path) -> None:
    paths = [str(SAMPLES / k) for k in KINDS]
    counts = check_agree(tmp_path / "out", *paths)
    assert counts["calls"] > 0 and counts["graded"] > 0
    check_refs_lead_back(tmp_path / "out", *paths)
