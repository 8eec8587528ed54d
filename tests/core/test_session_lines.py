"""The lines a one-run file's fold is handed, read as they are read once
(:mod:`trajtui.core.jsonl.linestream`): line numbers with blank lines, a byte-order mark,
CRLF and CR-only line ends, lines longer than a read, a last line still being written."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.core.test_session import ToyFormat, _scan
from trajtui.core.jsonl import indexcache, linestream
from trajtui.core.jsonl.session import SessionSource


@pytest.fixture(autouse=True)
def _no_cache() -> Any:
    indexcache.configure(enabled=False)
    yield
    indexcache.reset()


def _read(path: Path) -> SessionSource:
    src = SessionSource(str(path), ToyFormat(), "s")
    _scan(src)
    return src


def _seen(src: SessionSource) -> tuple[list[str], list[str]]:
    """The steps' titles and the problems, as shown."""
    return [s.title for s in src.run(0).steps], [str(p) for p in src.problems()]


@pytest.mark.parametrize(
    ("nl", "bom"), [(b"\n", b""), (b"\r\n", b""), (b"\r", b""), (b"\r\n", b"\xef\xbb\xbf")]
)
def test_blank_lines_count_in_line_numbers_whatever_ends_the_lines(
    tmp_path: Path, nl: bytes, bom: bytes
) -> None:
    p = tmp_path / "s.jsonl"
    lines = [b'{"t": "say", "text": "a"}', b"", b"   ", b"{oops", b'{"t": "say", "text": "b"}']
    p.write_bytes(bom + nl.join(lines) + nl)
    src = _read(p)
    assert _seen(src) == (["a", "b"], [f"{p}:4: not JSON"])
    assert src.kept_line(1) == 5


def test_a_line_longer_than_a_read_is_read_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(linestream, "CHUNK", 64)
    p = tmp_path / "s.jsonl"
    long = "x" * 1000
    p.write_bytes(
        b'{"t": "say", "text": "a"}\n'
        + b'{"t": "say", "text": "%s"}\r\n' % long.encode()
        + b" " * 200
        + b"\n{bad\n"
    )
    src = _read(p)
    assert _seen(src) == (["a", long], [f"{p}:4: not JSON"])


def test_a_last_line_being_written_is_read_once_it_ends(tmp_path: Path) -> None:
    p = tmp_path / "s.jsonl"
    p.write_bytes(b'{"t": "say", "text": "a"}\n\n{"t": "say", "text": "b"}')
    src = _read(p)
    assert _seen(src) == (
        ["a"],
        [f"{p}:3: last line has no newline yet (still being written?): not read"],
    )
    with p.open("ab") as f:
        f.write(b'\n{"t": "say", "text": "c"}\n   ')  # then spaces, no newline: nothing more
    assert src.changed() == "appended"
    _scan(src)
    src.forget_cache()
    assert _seen(src) == (["a", "b", "c"], [])
    assert src.kept_line(2) == 4


def test_a_file_cut_below_what_was_read_is_said_so(tmp_path: Path) -> None:
    p = tmp_path / "s.jsonl"
    p.write_bytes(b'{"t": "say", "text": "a"}\n{"t": "say", "text": "b"}\n')
    src = _read(p)
    p.write_bytes(b'{"t": "say"}\n')
    assert src.changed() == "truncated"
