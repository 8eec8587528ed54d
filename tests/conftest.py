"""Shared fixtures: state dirs under tmp_path, deterministic apps, fixture files."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual import constants

from trajtui.core.jsonl import indexcache, rowpool

# Compiled bytecode is kept, in the venv, where the environment says not to write it
# (PYTHONDONTWRITEBYTECODE), as make test keeps it (see the Makefile): pytest run directly
# would otherwise compile every test module in every test worker (rewriting its asserts:
# 9 s of CPU a worker instead of 3) and every module a command imports in every fork.
# Set before the test workers and the zygote start, so they and every command inherit it.
if sys.dont_write_bytecode and "PYTHONPYCACHEPREFIX" not in os.environ:
    os.environ["PYTHONPYCACHEPREFIX"] = sys.pycache_prefix = str(Path(sys.prefix, "pycache"))
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.dont_write_bytecode = False

# tests/upstream runs the real inspect-ai and mini-swe-agent (make upstream-check sets
# TRAJTUI_UPSTREAM_PYTHON to a throwaway venv that has them): never collected by make test,
# so no skip there can hide a failing check.
collect_ignore = [] if os.environ.get("TRAJTUI_UPSTREAM_PYTHON") else ["upstream"]
# tests/spark reads the exported tables with PySpark (make spark-check sets
# TRAJTUI_SPARK_PYTHON to a throwaway venv that has it): collected there only, likewise.
if not os.environ.get("TRAJTUI_SPARK_PYTHON"):
    collect_ignore.append("spark")

# Textual reads TEXTUAL_ANIMATIONS once, when a pytest plugin first imports it (before this
# file), and every App copies it when made: scrolls jump instead of animating, so a test
# waits for nothing a person would not see.
constants.TEXTUAL_ANIMATIONS = "none"  # type: ignore[misc]


@pytest.fixture(autouse=True)
def _state_dirs(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    """platformdirs point at a temporary home: tests never touch the user's state."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / "cache"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / "state"))
    monkeypatch.delenv("TMUX", raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TEXTUAL_ANIMATIONS", "none")
    monkeypatch.delenv(indexcache.ENV_MAX_MB, raising=False)
    indexcache.reset()  # a command's --no-cache does not outlive its test
    # Row workers started here work at the test's priority, not the TUI's nice 10 (which
    # lets a person's keys come first): a test worker runs threads, so its row workers are
    # spawned, each importing trajtui as it starts, and at nice 10 they waited behind the
    # suite's other test workers (test_a_worker_killed_mid_job_loses_no_row took 153 s in a
    # full run, 4 s alone). The workers' priority itself is tested in a process of its own
    # (tests/core/test_rowpool.py).
    monkeypatch.setattr(rowpool, "_nice", 0)
    yield
