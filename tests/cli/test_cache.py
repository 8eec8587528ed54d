"""``trajtui cache info|clear`` (and ``--json``), and ``--no-cache``: what ``ls`` and ``show``
leave in the index cache, and that a second ``ls`` from it says exactly what the first did."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_commands import run
from tests.formats.acp.builders import capture, step_tool, write_jsonl


@pytest.fixture
def capture_file(tmp_path: Path) -> Path:
    recs = [
        capture("websearch-1", score={"pass": True, "score": 0.92}),
        capture("websearch-2", tool_errors=True, trajectory=[step_tool("Read", "failed", 5)]),
        capture("websearch-1"),
    ]
    return write_jsonl(tmp_path / "results.jsonl", recs, raw_lines={2: b"{oops"})


def info() -> dict[str, Any]:
    out = run("cache", "info", "--json")
    assert out.returncode == 0, out.stderr
    obj = json.loads(out.stdout)
    assert isinstance(obj, dict)
    return obj


def test_ls_fills_the_cache_and_info_lists_it(capture_file: Path) -> None:
    assert info()["entries"] == 0
    first = run("ls", str(capture_file), "--json")
    assert first.returncode == 0, first.stderr
    got = info()
    assert got["entries"] == 1
    assert got["directory"] == os.path.join(os.environ["XDG_CACHE_HOME"], "trajtui", "index")
    (item,) = got["items"]
    assert item["source"] == str(capture_file.resolve())
    assert item["source_size"] == capture_file.stat().st_size
    assert (item["records"], item["summaries"], item["format"]) == (4, 4, "acp-capture")
    assert got["total_bytes"] == item["size"] > 0
    assert got["cap_bytes"] == 512 << 20 and got["cap_from"] == "default"

    text = run("cache", "info")
    assert text.returncode == 0
    assert "1 entry" in text.stdout and "of 512 MB (default)" in text.stdout
    assert str(capture_file.resolve()) in text.stdout and "LAST USED" in text.stdout

    # The second ls comes from the cache and says exactly what the first said.
    second = run("ls", str(capture_file), "--json")
    assert (second.stdout, second.stderr) == (first.stdout, first.stderr)
    assert [json.loads(line)["ref"] for line in second.stdout.splitlines()] == [
        "websearch-1",
        "websearch-2",
        "websearch-1#2",
    ]
    assert second.stderr.startswith(f"{capture_file}:3: invalid JSON")
    shown = run("show", str(capture_file), "websearch-1#2", "--json")
    assert shown.returncode == 0 and json.loads(shown.stdout)["ref"] == "websearch-1#2"


def test_clear_empties_it(capture_file: Path) -> None:
    run("ls", str(capture_file))
    assert info()["entries"] == 1
    out = run("cache", "clear", "--json")
    assert out.returncode == 0
    cleared = json.loads(out.stdout)
    assert cleared["removed"] == 1 and cleared["freed_bytes"] > 0
    assert info()["entries"] == 0
    text = run("cache", "clear")
    assert text.returncode == 0 and text.stdout.startswith("removed 0 entries (0 B) from ")
    empty = run("cache", "info")
    assert "0 entries" in empty.stdout and "empty:" in empty.stdout


@pytest.mark.parametrize("command", ["ls", "show"])
def test_no_cache_writes_nothing(capture_file: Path, command: str) -> None:
    args = [str(capture_file)] + (["websearch-2"] if command == "show" else [])
    out = run(command, *args, "--no-cache")
    assert out.returncode == 0, out.stderr
    assert info()["entries"] == 0
    assert run(command, *args).returncode == 0
    assert info()["entries"] == 1


def test_the_cap_comes_from_the_environment_or_the_settings(
    capture_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = Path(os.environ["XDG_CONFIG_HOME"]) / "trajtui" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text('{"cache_max_mb": 64}')
    got = info()
    assert (got["cap_bytes"], got["cap_from"]) == (64 << 20, "setting cache_max_mb")
    monkeypatch.setenv("TRAJTUI_CACHE_MAX_MB", "0")
    got = info()
    assert (got["cap_bytes"], got["enabled"]) == (0, False)
    assert "off: the cap is 0" in run("cache", "info").stdout
    run("ls", str(capture_file))
    assert info()["entries"] == 0


def test_help_teaches_the_cache() -> None:
    out = run("cache", "--help")
    assert out.returncode == 0
    for words in ("TRAJTUI_CACHE_MAX_MB", "cache_max_mb", "--no-cache", "unchanged", "beside"):
        assert words in out.stdout
    assert "--no-cache" in run("ls", "--help").stdout
    assert "--no-cache" in run("show", "--help").stdout
    assert "--no-cache" in run("--help").stdout
