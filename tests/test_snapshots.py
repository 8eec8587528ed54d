"""Snapshot tests: each pane of each format at 120x40, the whole app at 80x24.

Deterministic: the demo data (relative paths), no animations, workers finished before the
screenshot, state directories under tmp_path. After a deliberate UI change, re-record with
``make snapshots-update`` and look at the SVGs.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import pytest

from tests.scenarios import SCENARIOS, Scenario, build, drive, in_demo_dir


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.name)
def test_screen(scenario: Scenario, snap_compare: Callable[..., bool]) -> None:
    with in_demo_dir():
        app = build(scenario)
        assert snap_compare(
            app, terminal_size=scenario.size, run_before=partial(drive, scenario=scenario)
        )
