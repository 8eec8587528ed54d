"""A run's start, where its file says it, is the ``started`` of ``ls --json`` and the
tables: ``trajtui sql``'s cost per day and ``stats --by date`` place each run on its day
(UTC), for every format whose file has the time, not only Claude Code's."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.formats.codex import builders as codex
from tests.formats.inspect.builders import samples, write_eval
from tests.helpers import forked


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return forked.run(
        [sys.executable, "-m", "trajtui", *args], capture_output=True, text=True, timeout=120
    )


def _days(path: Path) -> list[tuple[str, int]]:
    query = (
        "SELECT strftime(started, '%Y-%m-%d') AS day, count(*) AS n FROM runs GROUP BY 1 ORDER BY 1"
    )
    out = _cli("sql", query, str(path), "--json")
    assert out.returncode == 0, out.stderr
    return [(r["day"], r["n"]) for r in map(json.loads, out.stdout.splitlines())]


def test_inspect_samples_are_placed_on_the_day_they_started(tmp_path: Path) -> None:
    log = write_eval(tmp_path / "log.eval", samples())
    rows = [json.loads(x) for x in _cli("ls", "--json", str(log)).stdout.splitlines()]
    assert rows and all(r["metadata"]["started"].startswith("2026-11-26T13:20") for r in rows)
    assert _days(log) == [("2026-11-26", len(rows))]
    by_date = _cli("stats", "--json", "--by", "date", str(log)).stdout.splitlines()
    groups = {g["group"]: g["runs"] for g in map(json.loads, by_date)}
    assert groups == {"all": len(rows), "2026-11-26": len(rows)}


def test_codex_rollouts_are_placed_on_the_day_they_started(tmp_path: Path) -> None:
    root = codex.sessions_tree(tmp_path / "sessions")
    assert _days(root) == [("2026-11-18", 1), ("2026-11-19", 1), ("2026-11-20", 1)]


def test_harbor_trials_are_placed_on_the_day_they_started_when_the_time_says_its_zone(
    tmp_path: Path,
) -> None:
    from tests.formats.atif import builders as atif

    for name, started in (("t-1", "2026-03-01T23:30:00-02:00"), ("t-2", "2026-03-01T10:00:00")):
        result = atif.trial_result(name, "fix-bug", rewards={"reward": 1.0}, started=started)
        atif.write_trial(tmp_path / "job" / name, atif.fix_bug(), result)
    # 23:30 at -02:00 is 01:30 UTC of the next day; a time without its zone names no day
    assert _days(tmp_path / "job") == [("2026-03-02", 1), (None, 1)]
