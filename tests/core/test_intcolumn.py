"""The session engine's column of integers (core/jsonl/intcolumn.py): past a few values it
spills the older ones to an unlinked file in trajtui's cache directory and reads them back,
and behaves as a list of the same values (appends, sets on spilled values, negative
indexes, widening to 8 bytes, iteration, the index cache's bytes); a fold's memory stays
the same however many lines the file has."""

from __future__ import annotations

import json
import os
import tracemalloc
from array import array
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.core.test_session import ToyFormat
from trajtui.core.jsonl import indexcache, intcolumn
from trajtui.core.jsonl.intcolumn import IntColumn
from trajtui.core.jsonl.session import SessionSource
from trajtui.core.model import Outcome


@pytest.fixture()
def small(monkeypatch: pytest.MonkeyPatch) -> None:
    """Spill past 32 values, 8 a chunk, 2 pages kept."""
    monkeypatch.setattr(intcolumn, "KEEP", 32, raising=False)
    monkeypatch.setattr(intcolumn, "CHUNK", 8, raising=False)
    monkeypatch.setattr(intcolumn, "PAGES", 2, raising=False)


_BIG = st.integers(-(1 << 63), (1 << 64) - 1)
_VALUE = st.one_of(st.integers(-5, 1000), st.integers(-(1 << 31), (1 << 32) - 1), _BIG)
_OPS = st.lists(
    st.one_of(
        st.tuples(st.just("append"), _VALUE, st.integers(1, 60)),
        st.tuples(st.just("set"), _VALUE, st.integers(-500, 500)),
    ),
    max_size=40,
)


def _fits(code: str, value: int) -> bool:
    try:
        array(code, [value])
    except OverflowError:
        return False
    return True


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(signed=st.booleans(), ops=_OPS)
def test_a_spilling_column_behaves_as_a_list(
    small: None, signed: bool, ops: list[tuple[str, int, int]]
) -> None:
    narrow = "i" if signed else "I"
    col, plain, needed_wide = IntColumn(narrow), [], False
    for op, value, arg in ops:
        if not (
            _fits(intcolumn.WIDE_OF[narrow], value) and _fits(intcolumn.WIDE_OF[narrow], value + 60)
        ):
            value = abs(value) % (1 << 62)
        if op == "append":
            for k in range(arg):
                needed_wide |= not _fits(narrow, value + k)
                col.append(value + k)
                plain.append(value + k)
        elif plain:
            i = arg % len(plain) if arg >= 0 else -(-arg % len(plain) or 1)
            needed_wide |= not _fits(narrow, value)
            col[i] = value
            plain[i] = value
        assert len(col) == len(plain)
        if plain:
            assert col[-1] == plain[-1] and col[0] == plain[0]
    assert list(col) == plain
    assert [col[i] for i in range(len(plain))] == plain
    assert [col[-i] for i in range(1, len(plain) + 1)] == plain[::-1]
    assert col.code == (intcolumn.WIDE_OF[narrow] if needed_wide else narrow)
    assert b"".join(col.chunks()) == array(col.code, plain).tobytes()
    assert col.nbytes() == array(col.code).itemsize * len(plain)
    with pytest.raises(IndexError):
        col[len(plain)]


def test_older_values_go_to_an_unlinked_file_in_the_cache_dir_never_beside_the_data(
    small: None, tmp_path: Path
) -> None:
    col = IntColumn("I")
    for k in range(1000):
        col.append(k * 3)
    assert len(col.values) <= 32  # the rest is spilled
    spill_dir = Path(os.environ["XDG_CACHE_HOME"]) / "trajtui" / "spill"
    assert spill_dir.is_dir() and list(spill_dir.iterdir()) == []  # unlinked
    assert (spill_dir.stat().st_mode & 0o077) == 0
    col[5] = 1 << 40  # a spilled value set, and it needs 8 bytes now
    col[999] = 7
    assert col[5] == 1 << 40 and col[6] == 18 and col[999] == 7 and col.code == "Q"
    assert list(col)[:7] == [0, 3, 6, 9, 12, 1 << 40, 18]
    assert list(tmp_path.iterdir()) == []


def test_without_a_cache_dir_it_keeps_every_value_in_memory(
    small: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))  # a file: no directory can be made
    col = IntColumn("i")
    for k in range(200):
        col.append(-k)
    assert list(col) == [-k for k in range(200)] and len(col.values) == 200


def _say_lines(path: Path, n: int) -> None:
    with path.open("wb") as f:
        for k in range(n):
            f.write(json.dumps({"t": "say", "text": f"m{k}"}).encode() + b"\n")


def _fold_holds(path: Path) -> int:
    """Bytes the scan of ``path`` leaves allocated (its read buffers are gone by then: what
    the fold keeps)."""
    src = SessionSource(str(path), ToyFormat(), "s", cache=False)
    tracemalloc.start()
    try:
        for _ in src.scan():
            pass
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert src.run(0).steps[-1].title == f"m{src.state.steps - 1}"
    src.close()
    return held


def test_a_folds_memory_does_not_grow_with_its_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    indexcache.configure(enabled=False)
    monkeypatch.setattr(intcolumn, "KEEP", 4096, raising=False)
    monkeypatch.setattr(intcolumn, "CHUNK", 512, raising=False)
    few, many = tmp_path / "few.jsonl", tmp_path / "many.jsonl"
    _say_lines(few, 20_000)
    _say_lines(many, 100_000)  # 24 bytes a line in memory: 1.9 MB more
    try:
        grown = _fold_holds(many) - _fold_holds(few)
    finally:
        indexcache.reset()
    assert grown < 200_000, f"the fold of 80,000 more lines took {grown:,} bytes more"


def test_a_result_linked_to_a_spilled_step_and_the_index_cache_round_trip(
    small: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    indexcache.configure(enabled=True)
    try:
        p = tmp_path / "data" / "s.jsonl"
        p.parent.mkdir()
        objs: list[Any] = [{"t": "call", "id": "a"}]
        objs += [{"t": "say", "text": f"m{k}"} for k in range(300)]
        objs += [{"t": "result", "id": "a", "ok": False}, {"t": "say", "text": "end"}]
        p.write_bytes(b"".join(json.dumps(o).encode() + b"\n" for o in objs))
        first = SessionSource(str(p), ToyFormat(), "s")
        for _ in first.scan():
            pass
        assert first.state.step_link.spilled > 0  # step 1's link was set after it spilled
        steps = first.run(0).steps
        assert steps[0].outcome is Outcome.ERROR
        shown = [(s.title, s.outcome) for s in steps]
        assert first.save_index()
        again = SessionSource(str(p), ToyFormat(), "s")
        for _ in again.scan():
            pass
        assert again.cache_mark is not None  # restored, nothing folded
        assert [(s.title, s.outcome) for s in again.run(0).steps] == shown
        assert shown[-1][0] == "end" and len(shown) == 302
        assert os.listdir(p.parent) == ["s.jsonl"]
    finally:
        indexcache.reset()
