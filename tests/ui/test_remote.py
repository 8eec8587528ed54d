"""The TUI opens URLs as it opens paths (issue 27, section 4): a capture served over HTTP
by a server the test starts on 127.0.0.1 lists its runs, named by the URL; a URL that cannot
be read is a problem row naming it, beside what could."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.servers import HTTP
from tests.helpers.shapes import tool_calls_capture
from tests.helpers.ui import running, screen_lines


async def test_the_tui_lists_the_runs_of_a_url_and_names_one_it_cannot_read(
    tmp_path: Path,
) -> None:
    tool_calls_capture(tmp_path / "cap.jsonl")
    with HTTP(str(tmp_path)) as server:
        url, missing = f"{server.url}/cap.jsonl", f"{server.url}/gone.jsonl"
        async with running([url, missing], size=(200, 40)) as (_pilot, app, _screen):
            text = "\n".join(screen_lines(app))
            assert "calls-1" in text and "flagged" in text
            assert f"{missing}: no such object (HTTP 404)" in text
            assert "/.cache/" not in text and "remote/" not in text  # the URL, not the mirror
