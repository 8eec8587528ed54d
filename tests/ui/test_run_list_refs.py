"""References too long for the run list's column keep what tells them apart, in every
format: the start every reference of the source shares gives way first (said once under
the list), then their middle, never their end (ids, counters, random suffixes)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.formats.acp.builders import capture, write_jsonl
from tests.helpers.ui import running
from trajtui.render.fmt import elide_ref, shared_start
from trajtui.ui.screens.main import MainScreen


def ref_cells(screen: MainScreen) -> list[str]:
    runs = screen.run_list
    cols = runs.current_columns()
    start = 1 + cols["status"] + 1
    width = runs.size.width
    return [
        runs.render_row(i, width).plain[start : start + cols["ref"]].rstrip()
        for i in range(runs.row_count)
    ]


@pytest.mark.parametrize("columns", [80, 120, 200])
async def test_capture_ids_that_differ_at_the_end_stay_apart(tmp_path: Path, columns: int) -> None:
    ids = [f"claude-code-websearch-regression-suite-2026-03-{n:03d}" for n in (7, 8, 17, 18)]
    path = write_jsonl(tmp_path / "c.jsonl", [capture(i, input=f"question {i}") for i in ids])
    async with running([str(path)], size=(columns, 30)) as (pilot, app, screen):
        cells = ref_cells(screen)
        assert len(cells) == 4 and len(set(cells)) == 4, cells
        for n in ("007", "008", "017", "018"):
            assert sum(c.endswith(n) for c in cells) == 1, cells


def test_a_reference_gives_way_by_its_shared_start_then_its_middle() -> None:
    ref = "terminal-bench-html-js-filter-xs__Ab3dE9k"
    shared = shared_start("terminal-bench-html-js-f")
    assert shared == "terminal-bench-html-js-"  # never half a word
    assert elide_ref(ref, 41, shared) == ref  # it fits: whole
    assert elide_ref(ref, 20, shared) == "…filter-xs__Ab3dE9k"
    cut = elide_ref(ref, 15, shared)
    assert len(cut) == 15 and cut.startswith("…filt") and cut.endswith("dE9k")
    assert elide_ref(ref, 24) == "terminal-bench-h…Ab3dE9k"  # no shared start: the middle
    assert shared_start("abc-") == ""  # too short to be worth an ellipsis
