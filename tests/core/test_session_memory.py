"""What the session engine holds for a file once it is read (issue 25: a 20 GB rollout
lists in constant memory): nothing for a line the fold does not keep, a few bytes for a
line it keeps and for a step. Memory held is measured with tracemalloc (allocated while the
file was opened and read, and still held after), never a timing."""

from __future__ import annotations

import gc
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from tests.core.test_session import ToyFold, ToyFormat, _scan, _write
from trajtui.core.jsonl import indexcache
from trajtui.core.jsonl.session import Line, SessionSource, SessionState, StepRow
from trajtui.core.model import Step


@pytest.fixture(autouse=True)
def _no_cache() -> Any:
    indexcache.configure(enabled=False)
    yield
    indexcache.reset()


def _held(open_: Callable[[], SessionSource]) -> tuple[SessionSource, int]:
    """The source ``open_`` gives, read whole, and the bytes it still holds."""
    gc.collect()
    tracemalloc.start()
    try:
        src = open_()
        _scan(src)
        gc.collect()
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return src, held


STEPS = 1_000
NOISE = 50
"""Lines between two steps that no step needs again (a Codex token count, a Claude Code
progress line)."""


def test_a_line_the_fold_does_not_keep_holds_no_memory(tmp_path: Path) -> None:
    steps = [{"t": "say", "text": f"m{k}"} for k in range(STEPS)]
    lean, noisy = tmp_path / "lean.jsonl", tmp_path / "noisy.jsonl"
    _write(lean, steps)
    mixed: list[Any] = []
    for k, step in enumerate(steps):
        mixed.append(step)
        mixed += [{"t": "tokens", "n": k * NOISE + j} for j in range(NOISE)]
    _write(noisy, mixed)
    _, lean_bytes = _held(lambda: SessionSource(str(lean), ToyFormat(), "s"))
    src, noisy_bytes = _held(lambda: SessionSource(str(noisy), ToyFormat(), "s"))
    run = src.run(0)
    assert len(run.steps) == STEPS and run.steps[-1].title == f"m{STEPS - 1}"
    row = src.partial()
    assert row is not None and dict(row.metadata)["lines"] == f"{STEPS * (NOISE + 1)}"
    # 50,000 more lines read, none kept: the same memory, give or take an allocator's slack
    assert noisy_bytes - lean_bytes < 64 * 1024, f"{noisy_bytes - lean_bytes:,} bytes more"


def test_a_step_and_its_line_hold_a_few_bytes(tmp_path: Path) -> None:
    n = 40_000
    p = tmp_path / "s.jsonl"
    _write(p, [{"t": "say", "text": f"m{k}"} for k in range(n)])
    src, held = _held(lambda: SessionSource(str(p), ToyFormat(), "s"))
    assert src.run(0).steps[n - 1].title == f"m{n - 1}"
    # a kept line: its offset, size and line number; a step: its line, part and link (4
    # bytes each in a file under 4 GB), arrays grown by a sixteenth at a time
    assert held / n < 28, f"{held / n:.1f} bytes a step"


class BigPartFold(ToyFold):
    """Notes a part past 32 bits on each step (as a format's flag bits may)."""

    def add(self, line: Line, state: SessionState) -> None:
        before = state.steps
        super().add(line, state)
        if state.steps > before:
            state.set_part(before, (1 << 40) + before)


class BigPartFormat(ToyFormat):
    def fold(self, path: str) -> ToyFold:
        return BigPartFold()

    def steps(self, ref: str, rows: Sequence[StepRow], read: Callable[[int], Any]) -> list[Step]:
        steps = super().steps(ref, rows, read)
        return [
            replace(s, title=f"{s.title} part {r.part - (1 << 40)}")
            for s, r in zip(steps, rows, strict=True)
        ]


def test_a_part_past_32_bits_is_kept_whole_and_so_is_it_in_the_index_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    indexcache.configure(enabled=True)
    p = tmp_path / "data" / "s.jsonl"
    p.parent.mkdir()
    _write(p, [{"t": "say", "text": "a"}, {"t": "noise"}, {"t": "say", "text": "b"}])
    first = SessionSource(str(p), BigPartFormat(), "s")
    _scan(first)
    assert [s.title for s in first.run(0).steps] == ["a part 0", "b part 1"]
    assert first.save_index()
    second = SessionSource(str(p), BigPartFormat(), "s")
    _scan(second)
    assert second._from_cache  # (read from the entry, not folded again)
    assert [s.title for s in second.run(0).steps] == ["a part 0", "b part 1"]
    assert second.kept_line(1) == 3
