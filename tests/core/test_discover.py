"""Discovery: every supported output under a directory, told by content; tool directories
skipped; unrecognised files listed only under --verbose."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from tests.formats.acp.builders import capture, write_jsonl
from tests.formats.eval_results import builders as be
from tests.formats.forecast import builders as bf
from tests.helpers import forked
from tests.helpers.workspace import open_paths


def test_every_format_is_found_and_tool_directories_are_skipped(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    write_jsonl(tmp_path / "a" / "capture.jsonl", [capture("x")])
    ev = tmp_path / "evals" / "my-eval"
    bf.write_json(ev / "summary.json", bf.summary([bf.entry("fed")]))
    bf.run_dir(ev / "runs" / "fed", bf.fed_run())
    be.make_tree(tmp_path / "exp")
    for skipped in (".git", "node_modules", ".venv"):
        (tmp_path / skipped).mkdir()
        write_jsonl(tmp_path / skipped / "hidden.jsonl", [capture(f"in-{skipped}")])
    (tmp_path / "notes.json").write_text(json.dumps({"hello": "world"}))
    ws = open_paths([str(tmp_path)])
    formats = sorted(s.format.id for s in ws.sources)
    assert formats == ["acp-capture", "eval-results", "forecast-eval"]
    assert not any("hidden" in s.path for s in ws.sources)
    # nothing is passed over without a word: ls --verbose lists the tool directories too
    ignored = {Path(p).name: why for p, why in ws.ignored}
    assert sorted(ignored) == [".git", ".venv", "node_modules", "notes.json"]
    assert ignored[".git"].startswith("not looked into: a tool's own directory")
    assert ws.problems == []


def test_two_summary_json_files_never_mix(tmp_path: Path) -> None:
    ev = tmp_path / "forecast"
    bf.write_json(ev / "summary.json", bf.summary([bf.entry("fed")]))
    bf.run_dir(ev / "runs" / "fed", bf.fed_run())
    later = tmp_path / "results" / "ds" / "direct" / "G1_K50" / "run_1"
    be.make_later_run(later)
    ws = open_paths([str(tmp_path)])
    by_format = {s.format.id: s for s in ws.sources}
    assert set(by_format) == {"forecast-eval", "eval-results"}


def test_verbose_lists_what_was_not_recognised(tmp_path: Path) -> None:
    write_jsonl(tmp_path / "capture.jsonl", [capture("x")])
    (tmp_path / "package.json").write_text('{"name": "x"}')
    quiet = forked.run(
        [sys.executable, "-m", "trajtui", "ls", str(tmp_path)], capture_output=True, text=True
    )
    assert quiet.returncode == 0 and "package.json" not in quiet.stderr
    loud = forked.run(
        [sys.executable, "-m", "trajtui", "ls", "-v", str(tmp_path)], capture_output=True, text=True
    )
    assert (
        f"{tmp_path / 'package.json'}: not recognised: JSON, but not a format trajtui reads (first object has keys: name)"
        in loud.stderr
    )


def test_verbose_says_what_the_walk_passed_over_and_why(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    write_jsonl(outside / "secret.jsonl", [capture("secret")])
    opened = tmp_path / "opened"
    opened.mkdir()
    write_jsonl(opened / "mine.jsonl", [capture("mine")])
    (opened / "link-out.jsonl").symlink_to(outside / "secret.jsonl")
    (opened / "dangling.jsonl").symlink_to(opened / "nowhere.jsonl")
    os.mkfifo(opened / "pipe.jsonl")
    (opened / ".git").mkdir()
    loud = forked.run(
        [sys.executable, "-m", "trajtui", "ls", "-v", str(opened)],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert loud.returncode == 0, loud.stderr
    err = loud.stderr
    assert f"{opened / 'link-out.jsonl'}: a link out of the opened directory: not followed" in err
    assert f"{opened / 'dangling.jsonl'}: not a regular file" in err
    assert f"{opened / 'pipe.jsonl'}: not a regular file" in err
    assert f"{opened / '.git'}: not looked into: a tool's own directory" in err
