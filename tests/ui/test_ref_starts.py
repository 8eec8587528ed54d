"""References cut by the start every reference of their source shares say that start, for
each source: with several Harbor jobs open, rows read ``…Ha1bC2d`` and nothing on screen said
what ``…`` stood for (with one job open, the line under the list says it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.formats.atif.builders import write_json
from tests.formats.atif.tbench import ctrf_test, tb_job, tb_trial
from tests.helpers.ui import running, screen_lines, settle

OTHER_TASK = "swe-bench-astropy-units-quantity"


def _jobs(root: Path) -> Path:
    """Two Harbor jobs: a terminal-bench one (tasks sharing their first 24 characters) and
    one running another task three times."""
    (root / "tb").mkdir(parents=True)
    tb_job(root / "tb")
    other = root / "swe"
    for suffix, reward in (("Ha1bC2d", 1.0), ("Kx9yZ8w", 0.0), ("Pq4rS5t", 1.0)):
        tb_trial(other, OTHER_TASK, suffix, reward, [ctrf_test("test_units.py::test_q")])
    write_json(other / "config.json", {"job_name": "swe", "n_attempts": 3, "agents": []})
    return root


@pytest.mark.parametrize("width", [100, 160])
async def test_each_source_says_the_start_its_cut_references_share(
    tmp_path: Path, width: int
) -> None:
    root = _jobs(tmp_path)
    async with running([str(root)], size=(width, 40)) as (_pilot, app, _screen):
        lines = [line.strip("│ ") for line in screen_lines(app)]
        swe = next(k for k, line in enumerate(lines) if line.startswith("── swe "))
        tb = next(k for k, line in enumerate(lines) if line.startswith("── tb "))
        assert any("…Ha1bC2d" in line for line in lines), lines  # cut by their shared start
        assert f"refs: … = {OTHER_TASK}__" in lines[swe], lines[swe]
        assert "refs: … = terminal-bench-html-js-" in lines[tb], lines[tb]


async def test_the_line_under_the_list_says_a_start_only_while_references_are_cut() -> None:
    """A trials file whose references fit their column once the panes are laid out: the line
    under the list said ``refs: … = search-`` from a moment the pane was narrower (the
    demo's trials screenshot), while every row showed its whole reference."""
    from trajtui.demo import DATA

    path = DATA / "acp" / "websearch-trials.jsonl"
    async with running([str(path)], size=(120, 40)) as (pilot, app, screen):
        for key in ("j", "enter"):
            await pilot.press(key)
            await settle(pilot)
        lines = screen_lines(app)
        assert any(" search-101 " in line for line in lines), lines  # whole
        assert not any("refs: …" in line for line in lines), lines
