"""A big mini-swe-agent trajectory's first screen: its row is listed at once, partial
(``reading``), its run shown with the steps read so far, while the document is still being
read; both are revised to the whole run when it is read to its end."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.formats.mini_swe_agent import builders as b
from tests.helpers.ui import Held, screen_lines, settle
from trajtui.core import docruns
from trajtui.formats.mini_swe_agent.lean import Reading
from trajtui.ui.app import make_app

CALLS = 400


def row_of(app: Any) -> str:
    return next((line for line in screen_lines(app) if " big " in line[:40]), "")


async def test_a_big_trajectory_is_listed_reading_and_shown_before_it_is_read_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run_ = b.toolcall_run()
    body = []
    for n in range(CALLS):
        body.append(
            b.call(100 + n, f"THOUGHT: step {n}. " + "x" * 2000, [f"cat f{n}"], n, (1, 1), 0)
        )
        body.append(b.result(f"call_{100 + n}_0", "y" * 2000, 0, n + 0.5))
    run_["messages"] = run_["messages"][:2] + body + run_["messages"][-1:]
    path = b.write(tmp_path / "big.traj.json", run_)
    held = Held(monkeypatch, Reading, "finish")  # the end of the document waits
    monkeypatch.setattr(docruns, "PARTIAL_AFTER", 0.0)  # however fast it is read
    app = make_app([str(path)])
    async with app.run_test(size=(200, 40)) as pilot:
        try:
            await held.until(pilot, lambda: row_of(app) and app.screen.run is not None)  # type: ignore[attr-defined]
            row = row_of(app)
            assert "reading" in row, "\n".join(screen_lines(app))
            source = app.screen.ws.sources[0]  # type: ignore[attr-defined]
            assert not source.complete
            run = app.screen.run  # type: ignore[attr-defined]
            assert run is not None and 0 < len(run.steps) <= 2 + 2 * CALLS + 1
            assert run.steps[0].title.startswith("system:")
        finally:
            held.release()
        await settle(pilot)
        row = row_of(app)
        assert "reading" not in row, row
        whole = source.entry(0)
        assert whole.steps == 2 + 2 * CALLS + 1 and whole.tool_calls == CALLS
        assert f" {whole.steps:,} " in row, row
        assert len(app.screen.run.steps) == whole.steps  # type: ignore[attr-defined]
