"""The Parquet tables of every format's contract example agree with ``ls`` and ``stats``
(issue 27): the same runs, pass share and tool calls, read back by DuckDB; and the
references they hold open with ``show``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.tables_check import check_agree, check_refs_lead_back, stats_all
from tests.contract.test_contract import EXAMPLES


@pytest.mark.parametrize("fmt", sorted(EXAMPLES))
def test_tables_agree_with_ls_and_stats(fmt: str, tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    path = EXAMPLES[fmt](tmp_path / "in")
    counts = check_agree(tmp_path / "out", str(path))
    assert counts["runs"] > 0
    check_refs_lead_back(tmp_path / "out", str(path), limit=1)


@pytest.mark.parametrize("fmt", sorted(EXAMPLES))
def test_stats_tools_add_up_to_all(fmt: str, tmp_path: Path) -> None:
    """``stats`` says its tools add up to all: the calls by tool are the calls the run list
    counts (a Claude Code agent call, ``Task``, too), as the tool_calls table holds them."""
    (tmp_path / "in").mkdir()
    path = EXAMPLES[fmt](tmp_path / "in")
    tools = stats_all(str(path)).get("tools", {})
    if "all" in tools:
        by_tool = sum(v["calls"] for v in tools["by_tool"].values())
        assert by_tool == tools["all"]["calls"]
