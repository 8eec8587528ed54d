"""The real inspect-ai and mini-swe-agent write fresh logs; trajtui counts what they count.

Collected only when TRAJTUI_UPSTREAM_PYTHON names a Python that has both packages (``make
upstream-check`` installs their newest versions into a throwaway venv and sets it; see
tests/conftest.py): ``make test`` never collects this module, so no skip can hide a
failure. Each program runs offline (Inspect's ``mockllm/model``, mini-swe-agent's own
scripted ``DeterministicToolcallModel``) in that venv; ``trajtui ls --json``, ``stats --json``
and ``show --json`` then read the files, and every count must equal what the program's own
Python API reads from the same files.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).parent
UPSTREAM = os.environ.get("TRAJTUI_UPSTREAM_PYTHON", "")


def upstream(script: str, *args: str, home: Path) -> list[dict[str, Any]]:
    """Run ``script`` with the upstream venv's python; its JSON lines."""
    assert UPSTREAM, "TRAJTUI_UPSTREAM_PYTHON is not set (run make upstream-check)"
    env = {
        **os.environ,
        "HOME": str(home),  # nothing the programs keep lands in the user's home
        **{f"XDG_{d}_HOME": str(home / d.lower()) for d in ("CONFIG", "CACHE", "DATA", "STATE")},
        "MSWEA_GLOBAL_CONFIG_DIR": str(home / "mswea"),
        "MSWEA_SILENT_STARTUP": "1",
        "MSWEA_CONFIGURED": "true",
        "INSPECT_LOG_DIR": str(home / "inspect-logs"),
    }
    out = subprocess.run(
        [UPSTREAM, str(HERE / script), *args],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=home,
    )
    assert out.returncode == 0, out.stderr[-4000:]
    return [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]


def trajtui(*args: str) -> str:
    out = subprocess.run(
        [sys.executable, "-m", "trajtui", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "200"},
    )
    assert out.returncode == 0, out.stderr
    return out.stdout


def lines(*args: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in trajtui(*args).splitlines()]


@pytest.fixture(scope="module")
def inspect_logs(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    home = tmp_path_factory.mktemp("inspect-home")
    logs = upstream("write_inspect.py", str(home / "logs"), home=home)
    assert [Path(log["path"]).suffix for log in logs] == [".eval", ".json"]
    return logs


@pytest.mark.parametrize("kind", [".eval", ".json"])
def test_inspect_samples_epochs_and_scores_are_the_ones_inspect_reads(
    inspect_logs: list[dict[str, Any]], kind: str
) -> None:
    (log,) = [log for log in inspect_logs if log["path"].endswith(kind)]
    rows = {row["ref"]: row for row in lines("ls", "--json", log["path"])}
    want = {f"{s['id']}/epoch-{s['epoch']}": s for s in log["samples"]}
    assert sorted(rows) == sorted(want)  # one run per sample and epoch, no more
    assert {s["epoch"] for s in log["samples"]} == set(range(1, log["epochs"] + 1))
    for ref, s in want.items():
        row = rows[ref]
        assert row["format"] == "inspect"
        assert row["metadata"]["epoch"] == str(s["epoch"])
        assert row["metadata"]["log_status"] == log["status"]
        assert (row["status"] == "error") == s["error"], ref
        shown = {
            k[len("score.") :]: v for k, v in row["metadata"].items() if k.startswith("score.")
        }
        assert shown == {k: str(v) for k, v in s["scores"].items()}, ref
        if kind == ".json":  # an .eval lists from its summaries; stats reads the samples
            assert (row["tool_calls"], row["tool_errors"]) == (s["tool_calls"], s["tool_errors"])
        sample = json.loads(trajtui("show", "--json", log["path"], ref))
        assert (str(sample["id"]), sample["epoch"]) == (s["id"], s["epoch"])
        assert len(sample["messages"]) == s["messages"], ref


@pytest.mark.parametrize("kind", [".eval", ".json"])
def test_inspect_tool_calls_in_stats_are_the_ones_inspect_reads(
    inspect_logs: list[dict[str, Any]], kind: str
) -> None:
    (log,) = [log for log in inspect_logs if log["path"].endswith(kind)]
    (stats,) = lines("stats", "--json", log["path"])
    assert stats["runs"] == len(log["samples"])
    tools = stats["tools"]["all"]
    assert tools["calls"] == sum(s["tool_calls"] for s in log["samples"])
    assert tools["failures"]["num"] == sum(s["tool_errors"] for s in log["samples"])
    assert tools["untold_calls"] == 0


def test_mini_swe_agent_counts_are_the_ones_the_agent_kept(tmp_path: Path) -> None:
    home, work = tmp_path / "home", tmp_path / "work"
    home.mkdir()
    work.mkdir()
    path = tmp_path / "out" / "upstream.traj.json"
    (agent,) = upstream("write_mini.py", str(path), str(work), home=home)
    assert agent["format"] == "mini-swe-agent-1.1", agent
    (row,) = lines("ls", "--json", str(path))
    assert row["format"] == "mini-swe-agent"
    assert row["status"] == agent["exit_status"] == "Submitted"
    assert row["outcome"] == "done"
    assert row["tool_calls"] == agent["tool_calls"]
    assert row["tool_errors"] == agent["failed"]
    assert row["metadata"]["api_calls"] == str(agent["api_calls"])
    assert row["cost"] == agent["cost"]
    run = json.loads(trajtui("show", "--json", str(path), row["ref"]))
    assert (run["exit_status"], run["submission"]) == (agent["exit_status"], agent["submission"])
    # every message of the agent is a step, as in the file; the submit command, which the
    # agent never observed, is a step of its own with nothing in the file behind it
    steps = [
        json.loads(trajtui("show", "--json", str(path), f"{row['ref']}/step-{n}"))
        for n in range(1, row["steps"] + 1)
    ]
    messages = [step for step in steps if "value" not in step]
    assert len(messages) == agent["messages"]
    assert len(steps) == agent["messages"] + agent["tool_calls"] - agent["observations"]
    assert messages[-1]["extra"]["submission"] == agent["submission"]
