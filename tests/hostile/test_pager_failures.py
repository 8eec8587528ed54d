"""``e`` with a pager that cannot run or fails: one line saying what happened, for each way
it goes wrong (the terminal side of it is in ``tests/e2e/test_terminal.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.ui import PagerHost
from trajtui.ui.pager import page


def _script(directory: Path, name: str, body: str) -> Path:
    path = directory / name
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)
    return path


@pytest.fixture
def bare_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A PATH with nothing on it but what a test puts there."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    monkeypatch.setenv("PATH", str(bin_dir))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return bin_dir


@pytest.mark.parametrize(
    ("pager", "said"),
    [
        ("", "cannot open a pager: $PAGER is not set and neither less nor more is here"),
        ("lesss -R", "cannot open a pager: $PAGER 'lesss' is not a command here"),
        ("{bin}", "is not a command here"),  # a directory
        ("{bin}/not-executable", "is not a command here"),
        ('less "unclosed', "cannot open a pager: $PAGER is not a command line"),
        ("{bin}/exits-3", "the pager (exits-3) exited with status 3"),
        ("{bin}/killed", "the pager (killed) was ended by SIGKILL"),
        ("{bin}/fine", None),
    ],
)
def test_a_pager_that_fails_is_said_in_one_line(
    bare_path: Path, monkeypatch: pytest.MonkeyPatch, pager: str, said: str | None
) -> None:
    _script(bare_path, "exits-3", "exit 3")
    _script(bare_path, "killed", "kill -9 $$")
    _script(bare_path, "fine", '/bin/cat "$1" > /dev/null')
    (bare_path / "not-executable").write_text("#!/bin/sh\n")
    monkeypatch.setenv("PAGER", pager.format(bin=bare_path))
    message = page(PagerHost(), "hello")
    if said is None:
        assert message is None
    else:
        assert message is not None and said in message, message
        assert "\n" not in message


def test_without_pager_set_more_is_used_when_less_is_not_there(
    bare_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PAGER", raising=False)
    seen = bare_path / "seen"
    _script(bare_path, "more", f'/bin/cat "$1" > {seen}')
    assert page(PagerHost(), "hello") is None
    assert seen.read_text().endswith("hello")
