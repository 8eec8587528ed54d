"""Fixtures the core's tests share."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from trajtui.core.jsonl import rowpool


@pytest.fixture
def workers(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Rows (and their step facts) go to the worker processes however few there are."""
    monkeypatch.setattr(rowpool, "PARALLEL_FROM", 0)
    monkeypatch.setattr(rowpool, "SMALL_RECORD", 0)  # the fixtures' records are small
    monkeypatch.setattr(rowpool, "BATCH_RECORDS", 3)  # several jobs even for a small file
    yield
