"""Snapshot tests: each pane of each format at 120x40, the whole app at 80x24.

Deterministic: the demo data (relative paths), no animations, workers finished before the
screenshot, state directories under tmp_path. After a deliberate UI change, re-record with
``make snapshots-update`` and look at the SVGs.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest

from tests.helpers.compare_pairs import sources_fixture
from tests.snapshots.scenarios import SCENARIOS, Scenario, build, drive, in_demo_dir
from trajtui.ui.app import make_app


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.name)
def test_screen(scenario: Scenario, snap_compare: Callable[..., bool]) -> None:
    with in_demo_dir():
        app = build(scenario)
        assert snap_compare(
            app, terminal_size=scenario.size, run_before=partial(drive, scenario=scenario)
        )


def test_compare_sources(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, snap_compare: Callable[..., bool]
) -> None:
    """Two sources compared prompt by prompt (hand-made files, opened by relative paths)."""
    sources_fixture(tmp_path)
    monkeypatch.chdir(tmp_path)
    app = make_app(["before.jsonl", "after.jsonl"])
    scenario = Scenario("compare-sources", (), ("C",))
    assert snap_compare(app, terminal_size=(120, 40), run_before=partial(drive, scenario=scenario))
