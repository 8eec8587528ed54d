"""The garbage collector's pace (:mod:`trajtui.core.gcpace`): a command line keeps what it
counts out of the collector's way; its row workers and the TUI run at the default pace."""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path

from tests.helpers.ui import capture_fixture


def _program(directory: Path, text: str) -> list[str]:
    """``text`` run as a program of its own (its own collector, its own pool): the words it
    prints."""
    script = directory / "prog.py"
    script.write_text(text)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout.decode().split()


def test_a_command_line_collects_young_objects_seldom_and_its_modules_never(
    tmp_path: Path,
) -> None:
    """``trajtui ls`` keeps its rows alive to its end: at the default pace (young objects
    looked at every 700 allocations, everything alive each time the survivors grew by a
    quarter) the collector walked them again and again (40% of ``stats``' counting)."""
    path = capture_fixture(tmp_path)
    words = _program(
        tmp_path,
        "import gc\n"
        "from trajtui.cli import ls\n"
        "from trajtui.cli.entry import main\n"
        "seen = []\n"
        "real = ls.open_workspace\n"
        "def spy(paths):\n"
        "    seen.append((gc.get_threshold()[0], gc.get_freeze_count() > 0))\n"
        "    return real(paths)\n"
        "ls.open_workspace = spy\n"
        "default = gc.get_threshold()[0]\n"
        "try:\n"
        f"    main(['ls', '--no-cache', {str(path)!r}])\n"
        "except SystemExit:\n"
        "    print('pace', default, *seen[0])\n",
    )
    assert words[0] == "REF"  # (ls listed the runs)
    default, young, frozen = words[words.index("pace") + 1 :]
    assert int(young) >= 50 * int(default)
    assert frozen == "True"


def test_a_command_lines_row_workers_and_the_tui_run_at_the_default_pace(
    tmp_path: Path,
) -> None:
    """A worker's objects die young (a record's, as soon as its row is made): looking at
    50,000 of them at once was slower there. The TUI keeps what it holds out of sight
    itself (``ui/heap.py``); a collection of 50,000 young objects would come mid-frame."""
    path = capture_fixture(tmp_path)
    words = _program(
        tmp_path,
        "import gc\n"
        "from trajtui.core import gcpace\n"
        "from trajtui.core.jsonl import rowpool\n"
        "from trajtui.core.rows import read_rows\n"
        "from trajtui.core.workspace import open_paths\n"
        "from trajtui.formats.registry import formats\n"
        "if __name__ == '__main__':\n"
        "    default = gc.get_threshold()\n"
        "    gcpace.for_command_line()\n"
        "    at_start = gc.get_freeze_count()\n"
        "    made = [[] for _ in range(5000)]  # since the start, before the workers\n"
        "    rowpool.PARALLEL_FROM = rowpool.SMALL_RECORD = rowpool.PARALLEL_BYTES = 0\n"
        f"    ws = open_paths([{str(path)!r}], formats())\n"
        "    rows = sum(1 for _ in read_rows(ws.sources))\n"
        "    worker = rowpool._pool.submit(gc.get_threshold).result()\n"
        "    kept = rowpool._pool.submit(gc.get_freeze_count).result()\n"
        "    mine = gc.get_threshold()\n"
        "    gcpace.for_interactive()\n"
        "    print(rows, worker == default, mine != default, gc.get_threshold() == default,\n"
        "          gc.get_freeze_count(), kept >= at_start + len(made))\n"
        "    rowpool.shutdown()\n",
    )
    # (the workers' collector leaves what the command made before forking them be: it
    # would copy every page of it)
    assert words == ["5", "True", "True", "True", "0", "True"]


def test_the_tui_command_opens_the_app_at_the_default_pace(tmp_path: Path) -> None:
    path = capture_fixture(tmp_path)
    words = _program(
        tmp_path,
        "import gc, sys\n"
        "from trajtui.cli.entry import main\n"
        "from trajtui.ui import app\n"
        "default = gc.get_threshold()\n"
        "def run_app(paths, goto=None, follow=False):\n"
        "    print(gc.get_threshold() == default, gc.get_freeze_count())\n"
        "    return 0\n"
        "app.run_app = run_app\n"
        "try:\n"
        f"    main(['--no-cache', {str(path)!r}])\n"
        "except SystemExit:\n"
        "    pass\n",
    )
    assert words == ["True", "0"]
    assert gc.get_threshold()[0] < 50_000  # (this process: untouched)
