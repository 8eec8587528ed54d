"""Fixtures of the CLI tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.servers import HTTP


@pytest.fixture
def served(tmp_path: Path) -> Iterator[HTTP]:
    """An HTTP server on 127.0.0.1 serving the empty folder ``served.root`` (the remote
    tests write what it serves there)."""
    root = tmp_path / "www"
    root.mkdir()
    with HTTP(str(root)) as server:
        yield server
