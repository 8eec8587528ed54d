"""The timeline of a run of hundreds of thousands of steps (a 20 GB rollout's session run,
read on demand) holds no object per step: its rows are made as they are drawn."""

from __future__ import annotations

import gc
import tracemalloc
from collections.abc import Sequence
from typing import overload

from trajtui.core.model import Kind, Outcome, Run, RunSummary, Step
from trajtui.ui.widgets.timeline import build_rows

STEPS = 300_000


class OnDemand(Sequence[Step]):
    """Steps made when asked for (as a session's are), none held."""

    def __len__(self) -> int:
        return STEPS

    @overload
    def __getitem__(self, i: int) -> Step: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[Step]: ...
    def __getitem__(self, i: int | slice) -> Step | Sequence[Step]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(STEPS))]
        if not -STEPS <= i < STEPS:
            raise IndexError(i)
        n = i % STEPS + 1
        return Step(ref=f"r/step-{n}", number=n, kind=Kind.MESSAGE, title=f"step {n}")


def _run() -> Run:
    return Run(RunSummary("r", 0, "big", None, Outcome.NONE), steps=OnDemand())


def test_the_rows_of_a_long_run_hold_no_object_a_step() -> None:
    run = _run()
    gc.collect()
    tracemalloc.start()
    try:
        rows = build_rows(run, merge=False)
        gc.collect()
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(rows) == STEPS
    assert held / STEPS < 1, f"{held / STEPS:.1f} bytes a step"
    # each row is still the step it shows, from either end
    assert (rows[0].first, rows[0].last, rows[0].attempt) == (0, 0, None)
    assert (rows[-1].first, rows[-1].last) == (STEPS - 1, STEPS - 1)
    assert [r.first for r in rows[10:13]] == [10, 11, 12]


def test_a_filtered_or_merged_timeline_still_lists_the_rows_it_keeps() -> None:
    run = _run()
    kept = build_rows(run, merge=False, keep=lambda s: s.number % 100_000 == 0)
    assert [r.first for r in kept] == [99_999, 199_999, 299_999]
