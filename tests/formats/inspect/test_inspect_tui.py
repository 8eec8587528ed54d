"""An Inspect log in the TUI: a sample's row and its detail with the log's own figures."""

from __future__ import annotations

from pathlib import Path

from tests.formats.inspect import builders as b
from tests.helpers.ui import reads, running, screen_lines, settle
from tests.ui.test_counts_agree import cell


async def test_an_opened_sample_shows_its_counts_and_the_log_figures(
    tmp_path: Path,
) -> None:
    path = b.write_eval(tmp_path / "tiny.eval")
    async with running([str(path)], size=(200, 50), goto="2/epoch-1") as (pilot, app, screen):
        await settle(pilot)
        text = "\n".join(screen_lines(app))
        assert reads(text, "task tiny · model mockllm/model · log success")
        assert reads(text, "accuracy 0.75 (match, as the log says)")
        assert reads(text, "tool calls 1  ·  tool errors 1")
        lines = screen_lines(app)
        assert any("✗ incorrect s1/epoch-2" in line for line in lines)
        assert any("! error     s3/epoch-1" in line for line in lines)
        assert cell(screen, "s1/epoch-2", "score") == "0"
