"""An Inspect log in the TUI: a sample's row and its detail with the log's own figures."""

from __future__ import annotations

from pathlib import Path

from tests.formats.inspect import builders as b
from tests.helpers.ui import reads, running, screen_lines, settle
from tests.ui.test_counts_agree import cell
from trajtui.ui.screens.compare import CompareScreen
from trajtui.ui.screens.compare_sources import SourcesScreen


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


async def test_C_compares_two_logs_sample_by_sample_flips_first_and_enter_aligns_the_steps(
    tmp_path: Path,
) -> None:
    before = b.samples()
    after = list(before)
    after[3] = b.sample("s1", 2)  # s1's second epoch: wrong before, right after
    a = b.write_eval(tmp_path / "a.eval", before)
    c = b.write_eval(tmp_path / "b.eval", after, head=b.header(model="openai/gpt-x"))
    async with running([str(a), str(c)], size=(160, 40)) as (pilot, app, screen):
        await pilot.press("C")
        await settle(pilot)
        assert isinstance(app.screen, SourcesScreen)
        text = "\n".join(screen_lines(app))
        assert "flips: pass→fail 0 · fail→pass 1" in text
        assert app.screen.rows.rows[0].ref == "s1/epoch-2"
        await pilot.press("g", "enter")
        await settle(pilot)
        compare: object = app.screen
        assert isinstance(compare, CompareScreen)
        assert len(compare.pair_list.pairs) == 6  # the two samples' steps, aligned


async def test_rows_learn_their_samples_counts_as_the_samples_are_read(tmp_path: Path) -> None:
    """Listed from the summaries first, each row then learns its sample's tool calls as
    the samples are read, one at a time, none of them opened: as ls and stats count."""
    path = b.write_eval(tmp_path / "tiny.eval")
    async with running([str(path)], size=(200, 50)) as (pilot, app, screen):
        await settle(pilot)
        assert cell(screen, "2/epoch-2", "calls") == "1"
        assert cell(screen, "2/epoch-2", "tool err") == "1"
        assert cell(screen, "s1/epoch-2", "tool err") == "0"
        assert cell(screen, "s3/epoch-2", "calls") == "0"
