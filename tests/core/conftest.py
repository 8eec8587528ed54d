"""Fixtures the core's tests share."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from trajtui.core.jsonl import rowpool


@pytest.fixture
def workers(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Rows (and their step facts) go to the worker processes however few there are, working
    at the test's priority. A test worker runs threads, so its row workers are spawned, and
    each imports trajtui as it starts: at the TUI's nice 10, behind the suite's other test
    workers, that took minutes (test_a_worker_killed_mid_job_loses_no_row: 153 s, two pools
    of spawned workers; beside five busy processes 2.6-10.5 s, 1.3-3.7 s at nice 0)."""
    monkeypatch.setattr(rowpool, "_nice", 0)
    monkeypatch.setattr(rowpool, "PARALLEL_FROM", 0)
    monkeypatch.setattr(rowpool, "SMALL_RECORD", 0)  # the fixtures' records are small
    monkeypatch.setattr(rowpool, "BATCH_RECORDS", 3)  # several jobs even for a small file
    yield
