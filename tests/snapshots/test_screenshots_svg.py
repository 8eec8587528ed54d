"""The README's screenshots read as the terminal does, in SVG viewers that trim text.

librsvg (GNOME's image viewer, ``rsvg-convert``) and other SVG renderers drop the spaces a
``<text>`` element starts or ends with and draw what is left from the element's ``x``,
stretched to its ``textLength``: a span ``"  of the runs"`` beside ``"outcomes"`` was drawn
as ``outcomesof the runs``. A line is rebuilt here as such a viewer draws it and compared
with the line the terminal shows.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from tests.snapshots.scenarios import SCENARIOS
from tests.snapshots.screenshots import readable, shoot

TEXT = re.compile(
    r'<text class="[^"]*" x="([^"]+)" y="([^"]+)" textLength="([^"]+)"[^>]*>(.*?)</text>'
)


def _lines(svg: str, *, trimmed: bool) -> list[str]:
    """Each terminal line of the screenshot, as a viewer that trims (or keeps) spaces draws it."""
    rows: dict[float, dict[int, str]] = {}
    for x, y, length, raw in TEXT.findall(svg):
        text = html.unescape(raw).replace("\u00a0", " ")
        cell = float(length) / len(text)
        start = round(float(x) / cell)
        # a trimming viewer draws what is left from x, spread over the whole textLength
        drawn = text.strip(" ") if trimmed else text
        spread = len(text) / len(drawn) if drawn else 1.0
        cells = rows.setdefault(float(y), {})
        for i, char in enumerate(drawn):
            cells.setdefault(start + int(i * spread), char)  # the first drawn wins
    return [
        "".join(cells.get(i, " ") for i in range(max(cells) + 1)).rstrip()
        for _, cells in sorted(rows.items())
        if cells
    ]


@pytest.mark.parametrize("name", ["stats-trials", "compare-runs"])
async def test_a_screenshot_reads_as_the_terminal_in_a_viewer_that_trims_spaces(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for var in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"):
        monkeypatch.setenv(var, str(tmp_path / var))
    scenario = next(s for s in SCENARIOS if s.name == name)
    exported = await shoot(scenario)
    terminal = _lines(exported, trimmed=False)
    viewer = _lines(readable(exported), trimmed=True)
    if name == "stats-trials":
        assert any(line.lstrip("▊ ").startswith("outcomes  of the runs") for line in terminal)
    assert viewer == terminal
