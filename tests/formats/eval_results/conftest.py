"""The fixture tree of the eval-results tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.formats.eval_results import builders as b


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A results tree of every shape (:func:`builders.make_tree`)."""
    return b.make_tree(tmp_path)
